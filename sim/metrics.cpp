#include "metrics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <limits>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string_view>

#include "simulation.h"

namespace rota::sim {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Nearest-rank percentile: the smallest value with at least p% of the values
// at or below it, i.e. sorted[ceil(p/100 * n) - 1]. Integer arithmetic keeps
// ranks exact (p = 95, n = 20 gives rank 19, not 19.000000001 -> 20).
std::size_t nearest_rank(std::size_t n, unsigned percent) {
    std::size_t rank = (percent * n + 99) / 100;
    return std::clamp<std::size_t>(rank, 1, n) - 1;
}

Distribution distribution(std::span<std::int64_t> v) {
    if (v.empty()) return {kNaN, kNaN, kNaN, kNaN};
    std::int64_t sum = 0;
    for (auto x : v) sum += x;
    Distribution d{};
    d.mean = static_cast<double>(sum) / static_cast<double>(v.size());
    // nth_element in increasing rank order: each call only reorders the tail.
    auto at = [&](std::size_t k, std::size_t from) {
        std::nth_element(v.begin() + static_cast<std::ptrdiff_t>(from),
                         v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
        return static_cast<double>(v[k]);
    };
    std::size_t k50 = nearest_rank(v.size(), 50);
    std::size_t k95 = nearest_rank(v.size(), 95);
    d.median = at(k50, 0);
    d.p95 = at(k95, k50);
    d.max = static_cast<double>(
        *std::max_element(v.begin() + static_cast<std::ptrdiff_t>(k95), v.end()));
    return d;
}

// One group's sums; its wait and response distributions are computed
// afterwards, one at a time, in one scratch vector (summarize), so that a
// million-job summary holds one array of values at a time, not six.
struct GroupAcc {
    std::int64_t count = 0;
    double bsld_sum = 0, wr_sum = 0, w_sum = 0;

    void add(std::int64_t r, std::int64_t run, double requirement, double gamma) {
        ++count;
        bsld_sum +=
            std::max(static_cast<double>(r), gamma) / std::max(static_cast<double>(run), gamma);
        double weight = requirement * static_cast<double>(run);
        wr_sum += weight * static_cast<double>(r);
        w_sum += weight;
    }

    GroupSummary finish(const Distribution& wait, const Distribution& response) const {
        GroupSummary g;
        g.count = count;
        g.wait = wait;
        g.response = response;
        g.mean_bounded_slowdown = count ? bsld_sum / static_cast<double>(count) : kNaN;
        g.weighted_response = w_sum > 0 ? wr_sum / w_sum : kNaN;
        return g;
    }
};

bool completed(const JobOutcome& j) {
    return (j.state == FinalState::finished || j.state == FinalState::killed) && j.start >= 0 &&
           j.finish >= j.start;
}

nlohmann::json num(double x) {
    if (std::isnan(x)) return nullptr;
    return x;
}

nlohmann::json to_json(const Distribution& d) {
    return {
        {"mean", num(d.mean)}, {"median", num(d.median)}, {"p95", num(d.p95)}, {"max", num(d.max)}};
}

nlohmann::json to_json(const GroupSummary& g) {
    return {{"count", g.count},
            {"wait", to_json(g.wait)},
            {"response", to_json(g.response)},
            {"mean_bounded_slowdown", num(g.mean_bounded_slowdown)},
            {"weighted_response", num(g.weighted_response)}};
}

}  // namespace

const char* final_state_name(FinalState s) {
    switch (s) {
        case FinalState::finished:
            return "finished";
        case FinalState::killed:
            return "killed";
        case FinalState::rejected:
            return "rejected";
        case FinalState::unfinished:
            return "unfinished";
    }
    return "?";
}

void CapacityLoss::step(double t, double idle_procs, bool queue_nonempty) {
    if (started_) {
        if (t < last_t_) {
            throw std::invalid_argument(
                fmt::format("CapacityLoss::step: time went back from {} to {}", last_t_, t));
        }
        integral_ += last_idle_ * (t - last_t_);
    }
    started_ = true;
    last_t_ = t;
    last_idle_ = queue_nonempty ? std::max(idle_procs, 0.0) : 0;
}

double CapacityLoss::value(double span, std::int32_t N) const {
    if (span <= 0 || N <= 0) return 0;
    return integral_ / (span * static_cast<double>(N));
}

Summary summarize(const std::vector<JobOutcome>& jobs, std::int32_t machine_procs,
                  double capacity_loss, double bsld_threshold, std::int32_t small_limit) {
    Summary s;
    s.machine_procs = machine_procs;
    s.capacity_loss = capacity_loss;
    s.bsld_threshold = bsld_threshold;
    s.small_limit = small_limit;
    GroupAcc all, small, large;
    double used = 0;  // sum of procs * run_time, eq. 1's numerator
    for (const auto& j : jobs) {
        ++s.jobs;
        switch (j.state) {
            case FinalState::finished:
                ++s.finished;
                break;
            case FinalState::killed:
                ++s.killed;
                break;
            case FinalState::rejected:
                ++s.rejected;
                break;
            case FinalState::unfinished:
                ++s.unfinished;
                break;
        }
        if (s.first_submit < 0 || j.submit < s.first_submit) s.first_submit = j.submit;
        if (!completed(j)) continue;
        s.last_finish = std::max(s.last_finish, j.finish);
        std::int64_t run = j.run_time >= 0 ? j.run_time : j.finish - j.start;
        std::int64_t resp = j.finish - j.submit;
        // [Leinberger99] §4.2: the weight is the resource requirement times the
        // execution time; with one resource the processors stand in for the
        // share procs / N, which scales every weight alike.
        const double req = j.share >= 0 ? j.share : static_cast<double>(j.procs);
        all.add(resp, run, req, bsld_threshold);
        (j.procs <= small_limit ? small : large).add(resp, run, req, bsld_threshold);
        used += j.node_seconds >= 0 ? j.node_seconds
                                    : static_cast<double>(j.procs) * static_cast<double>(run);
    }
    // The waits (what 0) or responses (1) of the completed jobs, the small
    // ones from the front and the large ones from the back: one pass gives
    // the three groups' distributions, each group's first (a distribution
    // only reorders its own range), then every job's.
    std::vector<std::int64_t> scratch(static_cast<std::size_t>(all.count));
    const auto small_n = static_cast<std::size_t>(small.count);
    Distribution dists[2][3];  // [what][group: every job, small, large]
    for (int what = 0; what < 2; ++what) {
        std::size_t lo = 0, hi = scratch.size();
        for (const auto& j : jobs) {
            if (!completed(j)) continue;
            const std::int64_t v = what == 0 ? j.start - j.submit : j.finish - j.submit;
            if (j.procs <= small_limit)
                scratch[lo++] = v;
            else
                scratch[--hi] = v;
        }
        const std::span<std::int64_t> v(scratch);
        dists[what][1] = distribution(v.first(small_n));
        dists[what][2] = distribution(v.subspan(small_n));
        dists[what][0] = distribution(v);
    }
    s.all = all.finish(dists[0][0], dists[1][0]);
    s.small = small.finish(dists[0][1], dists[1][1]);
    s.large = large.finish(dists[0][2], dists[1][2]);
    std::int64_t span = s.last_finish - s.first_submit;
    if (s.all.count > 0 && span > 0 && machine_procs > 0) {
        s.utilization = used / (static_cast<double>(span) * static_cast<double>(machine_procs));
    }
    return s;
}

nlohmann::json to_json(const Summary& s) {
    return {
        {"machine_procs", s.machine_procs},
        {"jobs",
         {{"total", s.jobs},
          {"finished", s.finished},
          {"killed", s.killed},
          {"rejected", s.rejected},
          {"unfinished", s.unfinished}}},
        {"first_submit", s.first_submit},
        {"last_finish", s.last_finish},
        {"utilization", s.utilization},
        {"capacity_loss", s.capacity_loss},
        {"mean_queue_length", num(s.mean_queue)},
        {"resources", s.resources},
        {"bounded_slowdown_threshold", s.bsld_threshold},
        {"small_limit", s.small_limit},
        {"all", to_json(s.all)},
        {"small", to_json(s.small)},
        {"large", to_json(s.large)},
    };
}

void write_jobs_csv(std::ostream& os, const std::vector<JobOutcome>& jobs,
                    const Components* components, const Components* clusters,
                    const JobExtras* extras) {
    if (extras && ((extras->users && extras->users->size() != jobs.size()) ||
                   (extras->trace && extras->trace->size() != jobs.size()) ||
                   (extras->nodes && extras->nodes->size() != jobs.size())))
        throw std::invalid_argument("write_jobs_csv: the users or nodes do not cover every job");
    // One line per job, written field by field: a format string would be
    // parsed again for every job (a sixth of a whole run on HPC2N).
    fmt::memory_buffer buf;
    if (components && components->empty()) components = nullptr;
    if (components && components->jobs() != jobs.size())
        throw std::invalid_argument("write_jobs_csv: the components do not cover every job");
    if (!components) clusters = nullptr;
    if (clusters && clusters->widths.size() != components->widths.size())
        throw std::invalid_argument("write_jobs_csv: one cluster per component is needed");
    constexpr std::string_view header =
        "job_id,submit_time,start_time,finish_time,procs,requested_time,run_time,"
        "wait_time,final_state";
    buf.append(header.data(), header.data() + header.size());
    constexpr std::string_view more = ",components,clusters";
    if (components) buf.append(more.data(), more.data() + more.size());
    constexpr std::string_view extra = ",user,allocated_resources";
    if (extras) buf.append(extra.data(), extra.data() + extra.size());
    const bool classes = extras && extras->classes && !extras->classes->empty();
    constexpr std::string_view cls = ",job_class,preemptions";
    if (classes) buf.append(cls.data(), cls.data() + cls.size());
    const bool malleable = extras && extras->malleable;
    constexpr std::string_view mall = ",harvests";
    if (malleable) buf.append(mall.data(), mall.data() + mall.size());
    buf.push_back('\n');
    const auto list = [&buf](const std::int32_t* v, std::int32_t n) {
        for (std::int32_t k = 0; k < n; ++k) {
            if (k > 0) buf.push_back('+');
            const fmt::format_int f(v[k]);
            buf.append(f.data(), f.data() + f.size());
        }
    };
    std::size_t j_index = 0;
    const auto field = [&buf](std::int64_t v) {
        const fmt::format_int f(v);
        buf.append(f.data(), f.data() + f.size());
        buf.push_back(',');
    };
    constexpr std::size_t kFlush = 1 << 20;
    for (const auto& j : jobs) {
        const bool started = j.start >= 0;
        field(j.id);
        field(j.submit);
        field(j.start);
        field(started ? j.finish : -1);
        field(j.procs);
        field(j.requested_time);
        field(started ? j.run_time : -1);
        field(started ? j.start - j.submit : -1);
        const std::string_view state = final_state_name(j.state);
        buf.append(state.data(), state.data() + state.size());
        if (components) {
            const std::size_t i = j_index;
            buf.push_back(',');
            list(components->of(i), components->count(i));
            buf.push_back(',');
            if (clusters && started && clusters->of(i)[0] >= 0) {
                list(clusters->of(i), components->count(i));
            } else {
                buf.push_back('-');
                buf.push_back('1');
            }
        }
        if (extras) {
            buf.push_back(',');
            const fmt::format_int u(extras->users   ? (*extras->users)[j_index]
                                    : extras->trace ? (*extras->trace)[j_index].user
                                                    : -1);
            buf.append(u.data(), u.data() + u.size());
            buf.push_back(',');
            if (extras->nodes && started) {
                const std::string_view n = (*extras->nodes)[j_index];
                buf.append(n.data(), n.data() + n.size());
            }
        }
        if (classes) {
            buf.push_back(',');
            const fmt::format_int c((*extras->classes)[j_index]);
            buf.append(c.data(), c.data() + c.size());
            buf.push_back(',');
            const fmt::format_int p(j.preemptions);
            buf.append(p.data(), p.data() + p.size());
        }
        if (malleable) {
            buf.push_back(',');
            const fmt::format_int h(j.harvested);
            buf.append(h.data(), h.data() + h.size());
        }
        ++j_index;
        buf.push_back('\n');
        if (buf.size() >= kFlush) {
            os.write(buf.data(), static_cast<std::streamsize>(buf.size()));
            buf.clear();
        }
    }
    os.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

std::string human_duration(double x) {
    if (std::isnan(x)) return "-";
    if (x < 0) return fmt::format("-{}", human_duration(-x));
    const auto t = static_cast<std::int64_t>(std::llround(x));
    if (t < 60) return fmt::format("{} s", t);
    if (t < 3600) return fmt::format("{} m {:02} s", t / 60, t % 60);
    const std::int64_t m = (t + 30) / 60;  // minutes, rounded
    if (m < 24 * 60) return fmt::format("{} h {:02} m", m / 60, m % 60);
    const std::int64_t h = (t + 1800) / 3600;
    return fmt::format("{} d {:02} h", h / 24, h % 24);
}

namespace {

struct Headline {
    const char* name;
    bool higher_is_better;
    double (*value)(const Summary&);
    std::string (*show)(double);
};

const Headline kHeadlines[] = {
    {"utilization", true, [](const Summary& s) { return s.utilization; },
     [](double x) { return fmt::format("{:.3f}", x); }},
    {"wait mean", false, [](const Summary& s) { return s.all.wait.mean; }, human_duration},
    {"bounded slowdown", false, [](const Summary& s) { return s.all.mean_bounded_slowdown; },
     [](double x) { return fmt::format("{:.2f}", x); }},
    {"response mean", false, [](const Summary& s) { return s.all.response.mean; }, human_duration},
};

}  // namespace

std::string best_line(const std::vector<std::pair<std::string, Summary>>& columns) {
    if (columns.size() < 2) return {};
    std::string out = "best:";
    bool first = true;
    for (const auto& h : kHeadlines) {
        double best = kNaN;
        for (const auto& [name, s] : columns) {
            const double v = h.value(s);
            if (std::isnan(v) || s.all.count == 0) continue;
            if (std::isnan(best) || (h.higher_is_better ? v > best : v < best)) best = v;
        }
        if (std::isnan(best)) continue;
        std::string who;
        for (const auto& [name, s] : columns)
            if (s.all.count > 0 && h.show(h.value(s)) == h.show(best)) {
                if (!who.empty()) who += '=';
                who += name;
            }
        out += fmt::format("{} {} {} ({})", first ? "" : " |", h.name, who, h.show(best));
        first = false;
    }
    return first ? std::string{} : out;
}

void print_table(std::ostream& os, const std::vector<std::pair<std::string, Summary>>& columns) {
    using Cell = std::function<std::string(const Summary&)>;
    auto count = [](auto field) -> Cell {
        return [field](const Summary& s) { return fmt::format("{}", field(s)); };
    };
    auto fixed = [](int digits, auto field) -> Cell {
        return [digits, field](const Summary& s) {
            double x = field(s);
            return std::isnan(x) ? std::string("-") : fmt::format("{:.{}f}", x, digits);
        };
    };
    auto human = [](auto field) -> Cell {
        return [field](const Summary& s) { return human_duration(field(s)); };
    };
    std::vector<std::pair<std::string, Cell>> rows = {
        {"jobs", count([](const Summary& s) { return s.jobs; })},
        {"  finished", count([](const Summary& s) { return s.finished; })},
        {"  reached walltime", count([](const Summary& s) { return s.killed; })},
        {"  rejected", count([](const Summary& s) { return s.rejected; })},
        {"  unfinished", count([](const Summary& s) { return s.unfinished; })},
        {"utilization", fixed(4, [](const Summary& s) { return s.utilization; })},
        {"capacity loss", fixed(4, [](const Summary& s) { return s.capacity_loss; })},
        {"mean queue length", fixed(1, [](const Summary& s) { return s.mean_queue; })},
    };
    auto group = [&](const std::string& name, GroupSummary Summary::*g) {
        std::string p = name.empty() ? "" : name + " ";
        rows.push_back(
            {p + "measured jobs", count([g](const Summary& s) { return (s.*g).count; })});
        rows.push_back(
            {p + "wait mean", human([g](const Summary& s) { return (s.*g).wait.mean; })});
        rows.push_back(
            {p + "wait median", human([g](const Summary& s) { return (s.*g).wait.median; })});
        rows.push_back({p + "wait p95", human([g](const Summary& s) { return (s.*g).wait.p95; })});
        rows.push_back({p + "wait max", human([g](const Summary& s) { return (s.*g).wait.max; })});
        rows.push_back(
            {p + "response mean", human([g](const Summary& s) { return (s.*g).response.mean; })});
        rows.push_back({p + "response median",
                        human([g](const Summary& s) { return (s.*g).response.median; })});
        rows.push_back(
            {p + "response p95", human([g](const Summary& s) { return (s.*g).response.p95; })});
        rows.push_back(
            {p + "response max", human([g](const Summary& s) { return (s.*g).response.max; })});
        rows.push_back({p + "bounded slowdown mean",
                        fixed(2, [g](const Summary& s) { return (s.*g).mean_bounded_slowdown; })});
        rows.push_back({p + "weighted response",
                        human([g](const Summary& s) { return (s.*g).weighted_response; })});
    };
    group("", &Summary::all);
    std::int32_t limit = columns.empty() ? 32 : columns.front().second.small_limit;
    group(fmt::format("small (<={})", limit), &Summary::small);
    group(fmt::format("large (>{})", limit), &Summary::large);

    std::size_t label_w = 0;
    for (const auto& r : rows) label_w = std::max(label_w, r.first.size());
    std::vector<std::vector<std::string>> cells(columns.size());
    std::vector<std::size_t> widths(columns.size());
    for (std::size_t c = 0; c < columns.size(); ++c) {
        widths[c] = columns[c].first.size();
        for (const auto& r : rows) {
            cells[c].push_back(r.second(columns[c].second));
            widths[c] = std::max(widths[c], cells[c].back().size());
        }
    }
    fmt::memory_buffer buf;
    auto out = std::back_inserter(buf);
    fmt::format_to(out, "{:<{}}", "metric", label_w);
    for (std::size_t c = 0; c < columns.size(); ++c)
        fmt::format_to(out, "  {:>{}}", columns[c].first, widths[c]);
    fmt::format_to(out, "\n");
    for (std::size_t r = 0; r < rows.size(); ++r) {
        fmt::format_to(out, "{:<{}}", rows[r].first, label_w);
        for (std::size_t c = 0; c < columns.size(); ++c)
            fmt::format_to(out, "  {:>{}}", cells[c][r], widths[c]);
        fmt::format_to(out, "\n");
    }
    os.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

double normalised_gain(double baseline, double value) {
    if (std::isnan(baseline) || std::isnan(value) || baseline == 0) return kNaN;
    return (baseline - value) / baseline;
}

void print_gains(std::ostream& os, const std::vector<std::pair<std::string, Summary>>& columns,
                 const std::string& baseline) {
    const Summary* base = nullptr;
    for (const auto& [name, s] : columns)
        if (name == baseline) base = &s;
    if (!base) return;
    const std::string label = "gain over " + baseline;
    const std::string rows[2] = {"response mean", "weighted response"};
    std::size_t label_w = label.size();
    for (const auto& r : rows) label_w = std::max(label_w, r.size());
    fmt::memory_buffer buf;
    auto out = std::back_inserter(buf);
    fmt::format_to(out, "\n{:<{}}", label, label_w);
    std::vector<std::size_t> widths;
    for (const auto& [name, s] : columns) {
        widths.push_back(std::max<std::size_t>(name.size(), 7));
        fmt::format_to(out, "  {:>{}}", name, widths.back());
    }
    fmt::format_to(out, "\n");
    for (int r = 0; r < 2; ++r) {
        fmt::format_to(out, "{:<{}}", rows[r], label_w);
        for (std::size_t c = 0; c < columns.size(); ++c) {
            const GroupSummary& a = base->all;
            const GroupSummary& b = columns[c].second.all;
            double g = r == 0 ? normalised_gain(a.response.mean, b.response.mean)
                              : normalised_gain(a.weighted_response, b.weighted_response);
            fmt::format_to(out, "  {:>{}}",
                           std::isnan(g) ? std::string("-") : fmt::format("{:+.4f}", g), widths[c]);
        }
        fmt::format_to(out, "\n");
    }
    os.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

}  // namespace rota::sim
