#include "calibrate.h"

#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <limits>
#include <stdexcept>

#include "generate.h"
#include "run_config.h"
#include "simulation.h"

namespace rota::sim {

void print_calibration_step(const CalibrationStep& s) {
    std::cerr << fmt::format(
        "calibration: {:.6g} jobs/s (offered load {:.3f}): mean queue {:.2f}\n", s.rate,
        s.offered_load, s.mean_queue);
}

CalibrationStep queue_at_rate(std::vector<TraceJob>& jobs, const PoolDemands& pools,
                              std::int32_t procs, const std::vector<double>& unit, double rate,
                              const std::string& policy) {
    set_arrivals(jobs, unit, rate);
    RunConfig rc;
    rc.pools = pools.pools;
    const std::string cfg = engine_toml(rc, policy, procs);
    rota_engine* e = nullptr;
    if (rota_engine_new(cfg.c_str(), nullptr, &e) != ROTA_OK) {
        std::string msg = rota_errmsg(e);
        rota_engine_free(e);
        throw SimError("calibration engine: " + msg);
    }
    SimOptions opt;
    opt.pools = &pools;
    SimResult r;
    try {
        r = simulate(e, jobs, opt);
    } catch (...) {
        rota_engine_free(e);
        throw;
    }
    rota_engine_free(e);
    double area = 0;
    for (const auto& j : jobs)
        area += static_cast<double>(j.procs) * static_cast<double>(j.runtime);
    CalibrationStep s;
    s.rate = rate;
    s.offered_load = jobs.empty() ? 0 : rate * area / static_cast<double>(jobs.size()) / procs;
    s.mean_queue = r.mean_queue;
    return s;
}

CalibrationResult calibrate_arrivals(std::vector<TraceJob>& jobs, const PoolDemands& pools,
                                     std::int32_t procs, const std::vector<double>& unit,
                                     const CalibrationOptions& o) {
    if (!(o.target > 0) || !std::isfinite(o.target))
        throw std::invalid_argument("calibration: the target queue length must be positive");
    if (!(o.tolerance > 0) || o.max_runs < 2)
        throw std::invalid_argument("calibration: tolerance > 0 and at least 2 runs are needed");
    if (jobs.size() < 2) throw std::invalid_argument("calibration: at least 2 jobs are needed");
    if (static_cast<double>(jobs.size()) <= o.target)
        throw std::invalid_argument(
            fmt::format("calibration: {} jobs cannot keep a mean queue of {} waiting jobs",
                        jobs.size(), o.target));

    // The rate at which the busiest resource would be fully used: the
    // processors' or a pool's mean share x runtime.
    double busiest = 0;
    {
        std::vector<double> use(1 + pools.count(), 0.0);
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            const double rt = static_cast<double>(jobs[i].runtime);
            use[0] += static_cast<double>(jobs[i].procs) / procs * rt;
            for (std::size_t k = 0; k < pools.count(); ++k)
                use[k + 1] += static_cast<double>(pools.at(i, k)) /
                              static_cast<double>(pools.pools[k].capacity) * rt;
        }
        for (double u : use) busiest = std::max(busiest, u / static_cast<double>(jobs.size()));
    }
    if (!(busiest > 0)) throw std::invalid_argument("calibration: the jobs use no resource");

    CalibrationResult res;
    auto better = [&](const CalibrationStep& s) {
        if (res.steps.size() == 1) return true;
        return std::abs(s.mean_queue - o.target) < std::abs(res.mean_queue - o.target);
    };
    // Queue length at a rate; an undefined one (all jobs at one second) is
    // an overload.
    auto eval = [&](double rate) {
        CalibrationStep s = queue_at_rate(jobs, pools, procs, unit, rate, o.policy);
        if (std::isnan(s.mean_queue)) s.mean_queue = std::numeric_limits<double>::infinity();
        res.steps.push_back(s);
        ++res.runs;
        if (better(s)) {
            res.rate = s.rate;
            res.offered_load = s.offered_load;
            res.mean_queue = s.mean_queue;
        }
        if (o.progress) o.progress(s);
        return s.mean_queue;
    };
    auto done = [&](double q) { return std::abs(q - o.target) <= o.tolerance * o.target; };

    auto finish = [&](bool converged) {
        res.converged = converged;
        set_arrivals(jobs, unit, res.rate);
        return res;
    };
    // Bracket the target: q(lo) < target < q(hi).
    double r = 1.0 / busiest, lo = 0, hi = 0;
    double q = eval(r);
    if (done(q)) return finish(true);
    if (q < o.target) {
        lo = r;
        while (true) {
            if (res.runs >= o.max_runs || r > 1e9 / busiest)
                throw std::invalid_argument(fmt::format(
                    "calibration: the mean queue stays below {} (at most {:.2f}, at {:.6g} "
                    "jobs/s)",
                    o.target, q, r));
            r *= 2;
            q = eval(r);
            if (done(q)) return finish(true);
            if (q > o.target) break;
            lo = r;
        }
        hi = r;
    } else {
        hi = r;
        while (true) {
            if (res.runs >= o.max_runs) return finish(false);
            r /= 2;
            q = eval(r);
            if (done(q)) return finish(true);
            if (q < o.target) break;
            hi = r;
        }
        lo = r;
    }
    while (res.runs < o.max_runs) {
        const double mid = std::sqrt(lo * hi);
        q = eval(mid);
        if (done(q)) return finish(true);
        (q < o.target ? lo : hi) = mid;
    }
    return finish(false);
}

}  // namespace rota::sim
