// What both simulated machines (space sharing, sim/simulation.cpp; gang
// scheduling, sim/gang_machine.cpp) need: status checks on the C ABI, the
// order of arrivals and the initial per-job outcomes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "sim/simulation.h"

namespace rota::sim::detail {

inline constexpr std::int64_t kUs = 1'000'000;

inline void check(rota_engine* e, int rc, const char* what) {
    if (rc != ROTA_OK && rc != ROTA_DONE)
        throw SimError(std::string(what) + ": " + rota_status_name(rc) + ": " + rota_errmsg(e));
}

// Input positions by submit time; ties keep input (trace) order.
inline std::vector<std::uint32_t> arrival_order(const std::vector<TraceJob>& jobs) {
    std::vector<std::uint32_t> order(jobs.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return jobs[a].submit < jobs[b].submit;
    });
    return order;
}

inline std::vector<JobOutcome> initial_outcomes(const std::vector<TraceJob>& jobs) {
    std::vector<JobOutcome> out(jobs.size());
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const TraceJob& j = jobs[i];
        out[i] =
            JobOutcome{j.id, j.submit, -1, -1, j.procs, j.estimate, -1, FinalState::unfinished};
    }
    return out;
}

// Submits input job `i` under engine id `i` (outcomes carry the trace id)
// and reports progress every `progress_every` arrivals.
inline void submit_job(rota_engine* e, const std::vector<TraceJob>& in, std::uint32_t i,
                       const SimOptions& opt, std::size_t arrived, std::size_t total) {
    const TraceJob& j = in[i];
    rota_job rj{sizeof(rota_job)};
    rj.id = i;
    rj.estimate = j.estimate * kUs;
    rj.procs = j.procs;
    rj.user = j.user;
    check(e, rota_submit(e, &rj), "rota_submit");
    if (opt.progress && arrived % static_cast<std::size_t>(opt.progress_every) == 0)
        opt.progress(static_cast<std::int64_t>(arrived), static_cast<std::int64_t>(total));
}

}  // namespace rota::sim::detail
