#include "outputs.h"

#include <fmt/format.h>

#include <ostream>
#include <stdexcept>

namespace rota::sim {

void write_batsim_csv(std::ostream& os, const std::vector<JobOutcome>& jobs, const NodeTexts& nodes,
                      const std::string& workload_name) {
    if (!nodes.empty() && nodes.size() != jobs.size())
        throw std::invalid_argument("write_batsim_csv: the nodes do not cover every job");
    fmt::memory_buffer buf;
    auto out = std::back_inserter(buf);
    fmt::format_to(out,
                   "job_id,workload_name,profile,submission_time,requested_number_of_resources,"
                   "requested_time,success,final_state,starting_time,execution_time,finish_time,"
                   "waiting_time,turnaround_time,stretch,allocated_resources,consumed_energy,"
                   "metadata\n");
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const JobOutcome& j = jobs[i];
        const bool ended = (j.state == FinalState::finished || j.state == FinalState::killed) &&
                           j.start >= 0 && j.finish >= j.start;
        if (!ended && j.state != FinalState::rejected) continue;
        const char* state = j.state == FinalState::finished ? "COMPLETED_SUCCESSFULLY"
                            : j.state == FinalState::killed ? "COMPLETED_WALLTIME_REACHED"
                                                            : "REJECTED";
        if (ended) {
            const std::int64_t exec = j.finish - j.start, turnaround = j.finish - j.submit;
            const std::string stretch =
                exec > 0 ? fmt::format("{:.6f}",
                                       static_cast<double>(turnaround) / static_cast<double>(exec))
                         : std::string("-1");
            fmt::format_to(out, "{},{},delay,{},{},{},{},{},{},{},{},{},{},{},{},-1,\n", j.id,
                           workload_name, j.submit, j.procs, j.requested_time,
                           j.state == FinalState::finished ? 1 : 0, state, j.start, exec, j.finish,
                           j.start - j.submit, turnaround, stretch,
                           nodes.empty() ? std::string_view() : nodes[i]);
        } else {
            fmt::format_to(out, "{},{},delay,{},{},{},0,{},-1,-1,-1,-1,-1,-1,,-1,\n", j.id,
                           workload_name, j.submit, j.procs, j.requested_time, state);
        }
        if (buf.size() >= (1u << 20)) {
            os.write(buf.data(), static_cast<std::streamsize>(buf.size()));
            buf.clear();
        }
    }
    os.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

void write_schedule_swf(std::ostream& os, const std::vector<TraceJob>& workload,
                        const std::vector<JobOutcome>& jobs, const SwfOutInfo& info) {
    if (workload.size() != jobs.size())
        throw std::invalid_argument("write_schedule_swf: one outcome per job is needed");
    fmt::memory_buffer buf;
    auto out = std::back_inserter(buf);
    fmt::format_to(out, "; Version: 2.2\n");
    fmt::format_to(out, "; Computer: rota simulator ({} processors)\n", info.procs);
    fmt::format_to(out, "; Installation: rota {} simulate, policy {}\n", info.version, info.policy);
    fmt::format_to(out, "; Note: the schedule simulated by rota {} under policy {}\n", info.version,
                   info.policy);
    fmt::format_to(out, "; Note: workload: {}\n", info.workload);
    fmt::format_to(out, "; MaxJobs: {}\n; MaxRecords: {}\n", jobs.size(), jobs.size());
    fmt::format_to(out, "; MaxNodes: {}\n; MaxProcs: {}\n", info.procs, info.procs);
    fmt::format_to(out,
                   "; Note: field 3 = wait time (start - submit), 4 = run time, 11 = status (1 "
                   "finished, 0 killed at its walltime, 5 never started); -1 = unknown\n");
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const JobOutcome& j = jobs[i];
        const bool ran = j.start >= 0 && j.finish >= j.start &&
                         (j.state == FinalState::finished || j.state == FinalState::killed);
        const int status = !ran ? 5 : j.state == FinalState::finished ? 1 : 0;
        fmt::format_to(out, "{} {} {} {} {} -1 -1 {} {} -1 {} {} -1 -1 -1 -1 -1 -1\n", j.id,
                       j.submit, ran ? j.start - j.submit : -1, ran ? j.finish - j.start : -1,
                       j.procs, j.procs, workload[i].estimate, status, workload[i].user);
        if (buf.size() >= (1u << 20)) {
            os.write(buf.data(), static_cast<std::streamsize>(buf.size()));
            buf.clear();
        }
    }
    os.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

}  // namespace rota::sim
