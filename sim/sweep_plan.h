// `rota sweep`: the sweep file and its expansion into runs (docs/sweeps.md).
//
// A sweep file is a `rota simulate` configuration (the base every run
// starts from) plus a [sweep] table naming the axes: traces, policies,
// parameters (dotted configuration keys, each with a list of values) and
// seeds. Every combination is one run; [[sweep.grid]] tables give several
// grids whose runs are concatenated (identical runs are made once). A plan
// is the expanded sweep written into a directory: plan.json and one
// runs/<i>/run.toml per run, which `rota simulate` reads as it is.
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace rota::sim {

class SweepError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};
// A sweep file or flag that cannot be run as given: exit status 2, as
// every usage error of rota (a SweepError otherwise is a run-time fault: 1).
class SweepUsageError : public SweepError {
  public:
    using SweepError::SweepError;
};

// Writes one of a sweep's files whole or not at all (sim/output_file.h):
// a full disk or a failed write is a SweepError naming the file, and the
// file that was there is kept. `what` names it in messages.
void write_sweep_file(const std::string& path, const char* what,
                      const std::function<void(std::ostream&)>& body);

// One run: where it sits on every axis. Values are JSON scalars.
struct SweepRun {
    std::size_t index = 0;
    std::string trace;   // empty: the base configuration's workload
    std::string policy;  // one policy per run
    std::int64_t seed = 1;
    std::vector<std::pair<std::string, nlohmann::json>> params;  // in column order
};

struct SweepPlan {
    std::string name = "sweep";
    std::string seed_key = "simulator.workload.seed";
    std::vector<std::int64_t> seeds{1};
    std::vector<std::string> columns;  // parameter keys, in order of first appearance
    bool has_traces = false;
    std::vector<std::string> metrics;  // dotted paths into a policy's summary; "*": all
    double confidence = 0.95;
    nlohmann::json plots = nlohmann::json::array();   // [[sweep.plot]] as JSON
    nlohmann::json slurm = nlohmann::json::object();  // [sweep.slurm] as JSON
    std::string base_toml;                            // the base configuration, paths made absolute
    std::string source;                               // the sweep file
    std::string output;  // [sweep].output, relative to the working directory; may be empty
    std::vector<SweepRun> runs;
};

// The most runs a sweep may describe: each is a folder, a configuration and
// a process, and the plan holds them all.
inline constexpr std::size_t kMaxSweepRuns = 100'000;

// The metrics tabulated when a sweep names none.
const std::vector<std::string>& default_sweep_metrics();

// Reads and expands a sweep file. Throws SweepError naming the key for a
// malformed sweep, and for a run configuration `rota simulate` would refuse
// (every run's configuration is checked before anything runs).
SweepPlan load_sweep(const std::string& path);

// The configuration of one run: the base with the run's axis values set.
toml::table run_config_table(const SweepPlan&, const SweepRun&);

// A run's axis value as a table cell: strings bare, numbers as JSON prints them.
std::string cell(const nlohmann::json&);

// Writes plan.json and runs/<i>/run.toml into `dir` (created). Keeps what a
// previous plan of the same sweep left in runs/ (its summaries), so an
// interrupted sweep resumes; throws if `dir` holds the plan of another sweep.
void write_plan(const SweepPlan&, const std::string& dir);
SweepPlan read_plan(const std::string& dir);

// Where run i keeps its files: dir/runs/<i>.
std::string run_dir(const std::string& dir, std::size_t i);

nlohmann::json plan_to_json(const SweepPlan&);
SweepPlan plan_from_json(const nlohmann::json&);

}  // namespace rota::sim
