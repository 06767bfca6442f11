#include "outputs.h"

#include <fmt/format.h>

#include <charconv>
#include <ostream>
#include <stdexcept>

namespace rota::sim {

const char* batsim_state_name(std::uint8_t code) {
    switch (code) {
        case 1:
            return "COMPLETED_SUCCESSFULLY";
        case 2:
            return "COMPLETED_WALLTIME_REACHED";
        case 3:
            return "REJECTED";
        default:
            return "";
    }
}

bool batsim_row(const JobOutcome& j, BatsimRow& r) {
    const bool ended = (j.state == FinalState::finished || j.state == FinalState::killed) &&
                       j.start >= 0 && j.finish >= j.start;
    if (!ended && j.state != FinalState::rejected) return false;
    r = BatsimRow{};
    r.job_id = j.id;
    r.submission_time = j.submit;
    r.requested_number_of_resources = j.procs;
    r.requested_time = j.requested_time;
    r.success = j.state == FinalState::finished ? 1 : 0;
    r.final_state = j.state == FinalState::finished ? 1 : j.state == FinalState::killed ? 2 : 3;
    if (!ended) return true;  // rejected: times, stretch -1
    r.starting_time = j.start;
    r.execution_time = j.finish - j.start;
    r.finish_time = j.finish;
    r.waiting_time = j.start - j.submit;
    r.turnaround_time = j.finish - j.submit;
    if (r.execution_time > 0) {
        const auto end = fmt::format_to_n(
            r.stretch_text, sizeof r.stretch_text - 1, "{:.6f}",
            static_cast<double>(r.turnaround_time) / static_cast<double>(r.execution_time));
        *end.out = '\0';
        std::from_chars(r.stretch_text, end.out, r.stretch);
    }
    return true;
}

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
    BatsimRow r;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        if (!batsim_row(jobs[i], r)) continue;
        fmt::format_to(
            out, "{},{},delay,{},{},{},{},{},{},{},{},{},{},{},{},{},\n", r.job_id, workload_name,
            r.submission_time, r.requested_number_of_resources, r.requested_time, r.success,
            batsim_state_name(r.final_state), r.starting_time, r.execution_time, r.finish_time,
            r.waiting_time, r.turnaround_time, r.stretch_text,
            r.final_state == 3 || nodes.empty() ? std::string_view() : nodes[i], r.consumed_energy);
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
