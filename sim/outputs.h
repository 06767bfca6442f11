// Outputs for other tools: Batsim's jobs CSV (read by evalys) and the
// simulated schedule as SWF. Formats: docs/user-guide.md, "Outputs".
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "metrics.h"
#include "simulation.h"
#include "swf.h"

namespace rota::sim {

// Batsim's `_jobs.csv`, its columns in its order:
// job_id,workload_name,profile,submission_time,requested_number_of_resources,
// requested_time,success,final_state,starting_time,execution_time,
// finish_time,waiting_time,turnaround_time,stretch,allocated_resources,
// consumed_energy,metadata
// One line per job that ended (finished: success 1, COMPLETED_SUCCESSFULLY;
// killed at its walltime: success 0, COMPLETED_WALLTIME_REACHED) or was
// rejected (success 0, REJECTED, times -1, no resources); jobs still
// running or waiting when the simulation stopped are left out, as Batsim
// leaves them. stretch = turnaround_time / execution_time (-1 when the
// execution time is 0); consumed_energy -1 (not measured); metadata empty.
// `nodes` is SimResult::nodes.
void write_batsim_csv(std::ostream&, const std::vector<JobOutcome>& jobs, const NodeTexts& nodes,
                      const std::string& workload_name);

// One job's numeric Batsim columns, as both write_batsim_csv and
// write_jobs_npy (jobs_npy.h) write them. final_state is a code: 1
// COMPLETED_SUCCESSFULLY, 2 COMPLETED_WALLTIME_REACHED, 3 REJECTED
// (batsim_state_name). stretch is the value its text (`stretch_text`: %.6f,
// or -1) reads back as.
struct BatsimRow {
    std::int64_t job_id = 0, submission_time = 0;
    std::int32_t requested_number_of_resources = 0;
    std::int64_t requested_time = 0;
    std::int8_t success = 0;
    std::uint8_t final_state = 0;
    std::int64_t starting_time = -1, execution_time = -1, finish_time = -1, waiting_time = -1,
                 turnaround_time = -1;
    double stretch = -1;
    std::int64_t consumed_energy = -1;
    char stretch_text[32] = "-1";
};
// False for a job Batsim leaves out (still running or waiting at the end).
bool batsim_row(const JobOutcome&, BatsimRow&);
const char* batsim_state_name(std::uint8_t code);

// The simulated schedule as SWF: field 2 the submit time, 3 the wait time
// (start - submit), 4 the run time (finish - start), 5 = 8 the processors,
// 9 the estimate, 11 the status (1 finished, 0 killed at its walltime, 5
// rejected or never started: wait and run time -1), 12 the user; the
// others -1. The header names rota's version, the policy and the machine.
struct SwfOutInfo {
    std::string policy;
    std::string version;   // rota_version()
    std::string workload;  // trace path or generator options
    std::int32_t procs = 0;
};
void write_schedule_swf(std::ostream&, const std::vector<TraceJob>& workload,
                        const std::vector<JobOutcome>& jobs, const SwfOutInfo& info);

}  // namespace rota::sim
