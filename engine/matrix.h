// The Ousterhout matrix ([Zhang00] §4, Figure 7): rows are time slices (the
// multiprogramming level), columns are nodes. A cell holds the job whose
// task runs on that node in that slice. Jobs keep the same columns in every
// row they occupy (replicas), so a job's columns are one set of node runs.
// Space sharing is the matrix with one row.
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
    // With one row the cells are not kept: nothing in the pass asks which
    // job holds a column, and writing a cell per node of every start and
    // end would be most of a space-sharing pass's cost for wide jobs.
    Matrix(std::int32_t rows, std::int32_t cols)
        : rows_(rows),
          cols_(cols),
          free_(static_cast<std::size_t>(rows), NodePool(cols)),
          cell_(rows > 1 ? static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols) : 0,
                kEmpty) {}

    std::int32_t rows() const { return rows_; }
    std::int32_t cols() const { return cols_; }
    bool has_cells() const { return !cell_.empty(); }
    // The job on a cell; only when has_cells().
    Slot at(std::int32_t row, std::int32_t col) const { return cell_[index(row, col)]; }
    std::int32_t free(std::int32_t row) const { return free_[idx(row)].idle(); }
    std::int32_t used(std::int32_t row) const { return cols_ - free(row); }

    bool column_free(std::int32_t row, std::int32_t col) const {
        return free_[idx(row)].is_idle(col);
    }
    bool columns_free(std::int32_t row, const std::vector<NodeRun>& runs) const {
        return free_[idx(row)].all_idle(runs);
    }
    // The first column of [from, end) that is not free, or end.
    std::int32_t next_used(std::int32_t row, std::int32_t from, std::int32_t end) const {
        return free_[idx(row)].next_busy(from, end);
    }
    std::int32_t free_among(std::int32_t row, const std::vector<NodeRun>& runs) const {
        return free_[idx(row)].idle_count(runs);
    }
    std::int32_t free_where_busy(std::int32_t row, const NodePool& other) const {
        return free_[idx(row)].idle_where_busy(other);
    }
    void free_runs(std::int32_t row, std::vector<NodeRun>& out) const {
        free_[idx(row)].idle_runs(out);
    }
    // The free columns of `row` that are idle in `other` (outside a set),
    // or busy there (in the set).
    void free_runs_where_idle(std::int32_t row, const NodePool& other,
                              std::vector<NodeRun>& out) const {
        free_[idx(row)].idle_runs_where_idle(other, out);
    }
    void free_runs_where_busy(std::int32_t row, const NodePool& other,
                              std::vector<NodeRun>& out) const {
        free_[idx(row)].idle_runs_where_busy(other, out);
    }
    void place(std::int32_t row, const std::vector<NodeRun>& runs, Slot s) {
        free_[idx(row)].take(runs);
        set(row, runs, s);
    }
    void clear(std::int32_t row, const std::vector<NodeRun>& runs) {
        free_[idx(row)].release(runs);
        set(row, runs, kEmpty);
    }
    // Places `s` on the `n` lowest free columns of `row`, appended to `out`
    // as runs; the caller checked free().
    void allocate(std::int32_t row, std::int32_t n, std::vector<NodeRun>& out, Slot s) {
        const std::size_t from = out.size();
        free_[idx(row)].allocate(n, out);
        if (cell_.empty()) return;
        for (std::size_t k = from; k < out.size(); ++k) {
            Slot* c = &cell_[index(row, out[k].first)];
            for (std::int32_t i = 0; i < out[k].count; ++i) c[i] = s;
        }
    }
    // The same within the columns [first, end) of a cluster.
    void allocate_in(std::int32_t row, std::int32_t first, std::int32_t end, std::int32_t n,
                     std::vector<NodeRun>& out, Slot s) {
        const std::size_t from = out.size();
        free_[idx(row)].allocate_in(first, end, n, out);
        for (std::size_t k = from; k < out.size(); ++k) set(row, out[k], s);
    }
    std::int32_t free_in(std::int32_t row, std::int32_t first, std::int32_t end) const {
        return free_[idx(row)].idle_in(first, end);
    }
    // Buddy packing (gang.packing = "buddy"): the block of `row` a job of
    // `n` columns would hold (NodePool::buddy_block); false if none is free.
    bool buddy_block(std::int32_t row, std::int32_t n, NodeRun& out) const {
        return free_[idx(row)].buddy_block(n, out);
    }
    // The `n` lowest free columns of `row`, as runs; the caller checked free().
    void lowest_free(std::int32_t row, std::int32_t n, std::vector<NodeRun>& out) const {
        free_[idx(row)].lowest(n, out);
    }
    void free_columns(std::int32_t row, std::vector<std::int32_t>& out) const {
        free_[idx(row)].idle_nodes(out);
    }

  private:
    std::int32_t rows_ = 0, cols_ = 0;
    std::vector<NodePool> free_;  // per row: which columns are free
    std::vector<Slot> cell_;

    static std::size_t idx(std::int32_t row) { return static_cast<std::size_t>(row); }
    std::size_t index(std::int32_t row, std::int32_t col) const {
        return idx(row) * static_cast<std::size_t>(cols_) + static_cast<std::size_t>(col);
    }
    void set(std::int32_t row, const std::vector<NodeRun>& runs, Slot s) {
        for (const NodeRun& r : runs) set(row, r, s);
    }
    void set(std::int32_t row, const NodeRun& r, Slot s) {
        if (cell_.empty()) return;
        Slot* c = &cell_[index(row, r.first)];
        for (std::int32_t k = 0; k < r.count; ++k) c[k] = s;
    }
};

}  // namespace rota
