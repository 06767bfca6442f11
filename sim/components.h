// Jobs made of components ([Ngubiri07] §2.2): a large job is broken into
// components that run at the same time, each on a different cluster of a
// multi-cluster machine. A workload's component widths are kept beside its
// jobs, not in TraceJob, so workloads without components cost nothing more
// (docs/workloads.md, "Components in SWF").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rota::sim {

// The components of every job of a workload, in the workload's order:
// job j's widths are widths[offset[j] .. offset[j + 1]). Empty (no
// offsets): no job declares components; every job is one component of all
// its processors.
struct Components {
    std::vector<std::int32_t> widths;
    std::vector<std::uint32_t> offset;  // jobs + 1 entries, or none

    bool empty() const { return offset.empty(); }
    std::size_t jobs() const { return offset.empty() ? 0 : offset.size() - 1; }
    std::int32_t count(std::size_t j) const {
        return static_cast<std::int32_t>(offset[j + 1] - offset[j]);
    }
    const std::int32_t* of(std::size_t j) const { return widths.data() + offset[j]; }
    // The widest component of job j.
    std::int32_t widest(std::size_t j) const;
    // Appends the next job's widths.
    void push(const std::int32_t* w, std::size_t n);
    void push(const std::vector<std::int32_t>& w) { push(w.data(), w.size()); }
};

// [Ngubiri07] §2.2: a job of size s broken into n components has n - 1
// components floor(s / n) wide and a last one of s - (n - 1) floor(s / n),
// the widest. Requires 1 <= n <= s.
std::vector<std::int32_t> split_widths(std::int32_t s, std::int32_t n);

// "6+6+5" <-> {6, 6, 5}. parse_widths throws std::invalid_argument saying
// what is wrong: an empty part, a part that is not a positive integer.
std::string format_widths(const std::int32_t* w, std::size_t n);
std::vector<std::int32_t> parse_widths(std::string_view text);

}  // namespace rota::sim
