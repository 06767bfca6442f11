// The Ousterhout matrix (seed 000 §4, Figure 7): rows are time slices (the
// multiprogramming level), columns are nodes. A cell holds the job whose
// task runs on that node in that slice. Jobs keep the same columns in every
// row they occupy (replicas), so a job's columns are one set of node runs.
#pragma once

#include <cstdint>
#include <vector>

#include "nodes.h"

namespace rota {

class Matrix {
  public:
    using Slot = std::uint32_t;
    static constexpr Slot kEmpty = static_cast<Slot>(-1);

    Matrix() = default;
    Matrix(std::int32_t rows, std::int32_t cols)
        : rows_(rows),
          cols_(cols),
          cell_(static_cast<std::size_t>(rows) * cols, kEmpty),
          used_(static_cast<std::size_t>(rows), 0) {}

    std::int32_t rows() const { return rows_; }
    std::int32_t cols() const { return cols_; }
    Slot at(std::int32_t row, std::int32_t col) const { return cell_[index(row, col)]; }
    std::int32_t used(std::int32_t row) const { return used_[static_cast<std::size_t>(row)]; }
    std::int32_t free(std::int32_t row) const { return cols_ - used(row); }

    bool columns_free(std::int32_t row, const std::vector<NodeRun>& runs) const {
        for (const NodeRun& r : runs)
            for (std::int32_t c = r.first; c < r.first + r.count; ++c)
                if (at(row, c) != kEmpty) return false;
        return true;
    }
    void place(std::int32_t row, const std::vector<NodeRun>& runs, Slot s) {
        for (const NodeRun& r : runs)
            for (std::int32_t c = r.first; c < r.first + r.count; ++c) cell_[index(row, c)] = s;
        used_[static_cast<std::size_t>(row)] += count(runs);
    }
    void clear(std::int32_t row, const std::vector<NodeRun>& runs) {
        for (const NodeRun& r : runs)
            for (std::int32_t c = r.first; c < r.first + r.count; ++c)
                cell_[index(row, c)] = kEmpty;
        used_[static_cast<std::size_t>(row)] -= count(runs);
    }
    // The `n` lowest free columns of `row`, as runs; the caller has checked free().
    void lowest_free(std::int32_t row, std::int32_t n, std::vector<NodeRun>& out) const {
        for (std::int32_t c = 0; c < cols_ && n > 0; ++c) {
            if (at(row, c) != kEmpty) continue;
            if (!out.empty() && out.back().first + out.back().count == c)
                ++out.back().count;
            else
                out.push_back({c, 1});
            --n;
        }
    }
    static std::int32_t count(const std::vector<NodeRun>& runs) {
        std::int32_t n = 0;
        for (const NodeRun& r : runs) n += r.count;
        return n;
    }

  private:
    std::int32_t rows_ = 0, cols_ = 0;
    std::vector<Slot> cell_;
    std::vector<std::int32_t> used_;

    std::size_t index(std::int32_t row, std::int32_t col) const {
        return static_cast<std::size_t>(row) * static_cast<std::size_t>(cols_) +
               static_cast<std::size_t>(col);
    }
};

}  // namespace rota
