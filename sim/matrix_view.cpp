#include "matrix_view.h"

#include <fmt/core.h>

#include <map>
#include <ostream>
#include <vector>

namespace rota::sim {

void print_matrix(std::ostream& os, rota_engine* e, const std::string& label, std::int64_t now_us,
                  const std::function<std::int64_t(std::int64_t)>& name_of) {
    rota_machine_info mi{};
    mi.size = sizeof(mi);
    rota_machine_info_get(e, &mi);
    int32_t active = 0;
    rota_active_row(e, &active);
    std::vector<std::vector<int64_t>> rows(static_cast<std::size_t>(mi.rows));
    std::size_t width = 4;
    for (int32_t r = 0; r < mi.rows; ++r) {
        size_t n = 0;
        rows[static_cast<std::size_t>(r)].resize(static_cast<std::size_t>(mi.procs));
        rota_matrix_row(e, r, rows[static_cast<std::size_t>(r)].data(),
                        static_cast<size_t>(mi.procs), &n);
    }
    // Task numbers: a job's k-th column (in node order) is its task k.
    std::vector<std::vector<std::string>> text(rows.size());
    for (std::size_t r = 0; r < rows.size(); ++r) {
        std::map<int64_t, int> next_task;
        for (int64_t id : rows[r]) {
            std::string cell = ".";
            if (id >= 0) {
                int64_t shown = name_of ? name_of(id) : id;
                cell = fmt::format("J{}^{}", shown, next_task[id]++);
            }
            width = std::max(width, cell.size());
            text[r].push_back(cell);
        }
    }
    os << fmt::format("matrix of {} at t = {:.0f} s ({} rows x {} nodes; * = active row)\n", label,
                      static_cast<double>(now_us) / 1e6, mi.rows, mi.procs);
    os << fmt::format("{:<14}", "");
    for (int32_t c = 0; c < mi.procs; ++c)
        os << fmt::format(" {:<{}}", fmt::format("P_{}", c), width);
    os << "\n";
    for (std::size_t r = 0; r < rows.size(); ++r) {
        os << fmt::format("{}time-slice {:<2}", static_cast<int32_t>(r) == active ? '*' : ' ', r);
        for (const auto& cell : text[r]) os << fmt::format(" {:<{}}", cell, width);
        os << "\n";
    }
}

}  // namespace rota::sim
