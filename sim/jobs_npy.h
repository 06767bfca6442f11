// The per-job outcomes as NumPy's .npy (format 1.0): one packed record per
// job of Batsim's _jobs.csv (write_batsim_csv), its numeric columns as
// numeric fields, for numpy.load without parsing text. Format:
// docs/user-guide.md, "Outputs".
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "metrics.h"
#include "simulation.h"

namespace rota::sim {

// The records' fields, in this order (little-endian, packed):
// job_id <i8, submission_time <i8, requested_number_of_resources <i4,
// requested_time <i8, success i1, final_state u1 (1 COMPLETED_SUCCESSFULLY,
// 2 COMPLETED_WALLTIME_REACHED, 3 REJECTED), starting_time <i8,
// execution_time <i8, finish_time <i8, waiting_time <i8, turnaround_time
// <i8, stretch <f8, allocated_resources <u4, consumed_energy <i8. The jobs
// are those of write_batsim_csv, in its order. workload_name, profile
// ("delay") and metadata ("") are not written. allocated_resources is a
// line number (from 0) in `nodes_out`, which gets each distinct
// allocated_resources text once, one a line, in the order first met; line
// 0 is the empty text (a job rejected or without nodes).
void write_jobs_npy(std::ostream& records, std::ostream* nodes_out,
                    const std::vector<JobOutcome>& jobs, const NodeTexts& nodes);

// The .npy header for `n` records (magic to the '\n', a multiple of 64 bytes).
std::string jobs_npy_header(std::size_t n);

}  // namespace rota::sim
