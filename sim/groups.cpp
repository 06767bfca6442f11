#include "groups.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <numeric>
#include <ostream>

#include "generate.h"

namespace rota::sim {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::size_t group_of(const std::vector<std::int32_t>& bounds, std::int32_t v) {
    std::size_t g = 0;
    while (g < bounds.size() && v > bounds[g]) ++g;
    return g;
}

std::vector<std::int32_t> bounds_of(const std::map<std::int32_t, double>& hist) {
    std::vector<std::int32_t> values;
    std::vector<double> weight;
    for (const auto& [v, w] : hist) {
        values.push_back(v);
        weight.push_back(w);
    }
    return quartile_bounds(values, weight);
}

nlohmann::json num(double x) {
    if (std::isnan(x) || std::isinf(x)) return nullptr;
    return x;
}

}  // namespace

std::vector<std::int32_t> quartile_bounds(const std::vector<std::int32_t>& values,
                                          const std::vector<double>& weight) {
    std::vector<std::int32_t> out;
    for (auto c : balanced_cuts(weight, 4)) out.push_back(values[c]);
    return out;
}

std::vector<JobShape> job_shapes(const std::vector<TraceJob>& jobs, const Components& c) {
    std::vector<JobShape> out(jobs.size());
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        out[i].size = jobs[i].procs;
        if (c.empty()) {
            out[i].widest = jobs[i].procs;
        } else {
            out[i].components = c.count(i);
            out[i].widest = c.widest(i);
        }
    }
    return out;
}

GroupBounds derive_bounds(const std::vector<JobShape>& shapes) {
    std::map<std::int32_t, double> size, widest;
    for (const auto& s : shapes) {
        size[s.size] += 1;
        widest[s.widest] += 1;
    }
    GroupBounds b;
    b.size = bounds_of(size);
    b.widest = bounds_of(widest);
    return b;
}

GroupLayout make_layout(const std::vector<JobShape>& shapes, const GroupBounds& bounds) {
    GroupLayout l;
    l.bounds = bounds;
    for (const auto& s : shapes) {
        l.max_components = std::max(l.max_components, s.components);
        l.size_min = std::min(l.size_min, s.size);
        l.size_max = std::max(l.size_max, s.size);
        l.widest_min = std::min(l.widest_min, s.widest);
        l.widest_max = std::max(l.widest_max, s.widest);
    }
    return l;
}

std::string GroupLayout::name(std::size_t s) const {
    const auto k = static_cast<std::size_t>(max_components);
    if (s == 0) return "all";
    if (s <= k) return fmt::format("C{}", s);
    if (s <= k + 4) return fmt::format("S{}", s - k);
    return fmt::format("W{}", s - k - 4);
}

std::string GroupLayout::range(std::size_t s) const {
    const auto k = static_cast<std::size_t>(max_components);
    if (s == 0) return "";
    if (s <= k) return fmt::format("{}", s);
    const bool size = s <= k + 4;
    const auto& b = size ? bounds.size : bounds.widest;
    const std::size_t g = s - k - (size ? 1 : 5);
    // Fewer cuts than three (a workload of few distinct values): the
    // groups past the last cut hold nothing.
    if (g > b.size()) return "-";
    const std::int32_t lo = g == 0 ? (size ? size_min : widest_min) : b[g - 1] + 1;
    const std::int32_t hi = g < b.size() ? b[g] : (size ? size_max : widest_max);
    if (lo > hi) return "-";
    return lo == hi ? fmt::format("{{{}}}", lo) : fmt::format("[{}, {}]", lo, hi);
}

std::array<std::size_t, 4> GroupLayout::of(const JobShape& j) const {
    const auto k = static_cast<std::size_t>(max_components);
    const auto c = static_cast<std::size_t>(std::clamp(j.components, 1, max_components));
    return {0, c, 1 + k + group_of(bounds.size, j.size), 5 + k + group_of(bounds.widest, j.widest)};
}

std::vector<std::uint32_t> arrival_order(const std::vector<TraceJob>& jobs) {
    std::vector<std::uint32_t> order(jobs.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return jobs[a].submit < jobs[b].submit;
    });
    return order;
}

GroupReport group_report(const std::vector<TraceJob>& jobs, const std::vector<JobShape>& shapes,
                         const std::vector<JobOutcome>& outcomes,
                         const std::vector<std::uint32_t>& order, const GroupLayout& layout,
                         const MeasuredSet& measured, const BatchMeansOptions& batch_options) {
    GroupReport r;
    r.layout = layout;
    const std::size_t n = layout.series();
    BatchMeans bm(n, batch_options);
    std::vector<std::int64_t> count(n, 0), completed(n, 0);
    std::vector<double> load(n, 0), resp(n, 0);
    const auto first = static_cast<std::size_t>(std::max<std::int64_t>(measured.first, 0));
    std::size_t last = order.size();
    if (measured.count >= 0)
        last = std::min(last, first + static_cast<std::size_t>(measured.count));
    for (std::size_t k = first; k < last; ++k) {
        const std::uint32_t i = order[k];
        const auto series = layout.of(shapes[i]);
        const double area =
            static_cast<double>(jobs[i].procs) * static_cast<double>(jobs[i].runtime);
        for (auto s : series) {
            ++count[s];
            load[s] += area;
        }
        const JobOutcome& o = outcomes[i];
        const bool done = (o.state == FinalState::finished || o.state == FinalState::killed) &&
                          o.start >= 0 && o.finish >= o.start;
        if (!done) {
            bm.skip();
            continue;
        }
        const double response = static_cast<double>(o.finish - o.submit);
        for (auto s : series) {
            ++completed[s];
            resp[s] += response;
        }
        bm.add(series.data(), series.size(), response);
    }
    r.measured_first = static_cast<std::int64_t>(first);
    r.measured_jobs = static_cast<std::int64_t>(last > first ? last - first : 0);
    r.batches = bm.result();
    for (std::size_t s = 0; s < n; ++s) {
        GroupStat g;
        g.name = layout.name(s);
        g.range = layout.range(s);
        g.jobs = count[s];
        g.job_share =
            count[0] > 0 ? static_cast<double>(count[s]) / static_cast<double>(count[0]) : kNaN;
        g.load_share = load[0] > 0 ? load[s] / load[0] : kNaN;
        g.completed = completed[s];
        g.art = completed[s] > 0 ? resp[s] / static_cast<double>(completed[s]) : kNaN;
        g.half_width = r.batches.series[s].half_width;
        g.rel_error = completed[s] > 0 && g.art > 0 ? g.half_width / g.art : kNaN;
        r.stats.push_back(g);
    }
    return r;
}

nlohmann::json to_json(const GroupReport& r) {
    nlohmann::json groups = nlohmann::json::object();
    for (const auto& g : r.stats) {
        nlohmann::json j = {{"range", g.range},
                            {"jobs", g.jobs},
                            {"job_share", num(g.job_share)},
                            {"load_share", num(g.load_share)},
                            {"completed", g.completed},
                            {"art", num(g.art)},
                            {"half_width", num(g.half_width)},
                            {"rel_error", num(g.rel_error)}};
        if (r.time_unit > 0) {
            j["art_units"] = num(g.art / r.time_unit);
            j["half_width_units"] = num(g.half_width / r.time_unit);
        }
        groups[g.name] = j;
    }
    const auto& b = r.batches;
    return {{"bounds",
             {{"size", r.layout.bounds.size},
              {"size_source", r.layout.bounds.size_source},
              {"widest", r.layout.bounds.widest},
              {"widest_source", r.layout.bounds.widest_source},
              {"max_components", r.layout.max_components}}},
            {"measured", {{"first", r.measured_first}, {"jobs", r.measured_jobs}}},
            {"batch_means",
             {{"batch_size", b.batch_size},
              {"batches", b.batches},
              {"observations", b.observations},
              {"confidence", b.confidence},
              {"lag1_autocorrelation", num(b.lag1)},
              {"max_rel_error", num(b.max_rel_error)}}},
            {"time_unit_seconds", r.time_unit > 0 ? nlohmann::json(r.time_unit) : nlohmann::json()},
            {"groups", groups}};
}

void print_groups(std::ostream& os, const std::string& policy, const GroupReport& r) {
    fmt::memory_buffer buf;
    auto out = std::back_inserter(buf);
    const auto& b = r.batches;
    fmt::format_to(out,
                   "\ngroups of {} ([Ngubiri07] §4.2): {} jobs measured from arrival {}; "
                   "{:g} % half-widths by batch means over {} batches of {} jobs",
                   policy, r.measured_jobs, r.measured_first + 1, 100 * b.confidence, b.batches,
                   b.batch_size);
    if (!std::isnan(b.lag1)) fmt::format_to(out, " (lag-1 correlation {:+.2f})", b.lag1);
    fmt::format_to(out, "\n");
    const bool units = r.time_unit > 0;
    fmt::format_to(out, "{:<5} {:>9} {:>8} {:>8} {:>10} {:>12} {:>10} {:>8}", "group", "range",
                   "jobs %", "load %", "completed", "ART (s)", "+- (s)", "rel.err");
    if (units) fmt::format_to(out, " {:>11} {:>9}", "ART (units)", "+-");
    fmt::format_to(out, "\n");
    auto f = [](double x, int d) {
        return std::isnan(x) || std::isinf(x) ? std::string("-") : fmt::format("{:.{}f}", x, d);
    };
    const std::size_t k = static_cast<std::size_t>(r.layout.max_components);
    for (std::size_t s = 0; s < r.stats.size(); ++s) {
        if (s == 1 || s == 1 + k || s == 5 + k) fmt::format_to(out, "\n");
        const GroupStat& g = r.stats[s];
        fmt::format_to(out, "{:<5} {:>9} {:>8} {:>8} {:>10} {:>12} {:>10} {:>8}", g.name,
                       g.range.empty() ? "-" : g.range, f(100 * g.job_share, 2),
                       f(100 * g.load_share, 2), g.completed, f(g.art, 1), f(g.half_width, 1),
                       f(g.rel_error, 4));
        if (units)
            fmt::format_to(out, " {:>11} {:>9}", f(g.art / r.time_unit, 3),
                           f(g.half_width / r.time_unit, 3));
        fmt::format_to(out, "\n");
    }
    os.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

}  // namespace rota::sim
