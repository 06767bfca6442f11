// `rota sweep`: merging the runs' summaries into one table, with the mean
// and a confidence interval over seeds for every metric (docs/sweeps.md,
// "The merged table").
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sweep_plan.h"

namespace rota::sim {

// One metric of one point of the sweep over its seeds.
struct SweepStat {
    std::size_t n = 0;  // seeds with a value
    double mean = 0;
    double sd = 0;   // sample standard deviation (n - 1); 0 for n < 2
    double ci = -1;  // half-width of the Student-t interval; -1 for n < 2
    std::vector<double> values;
};

// A point of the sweep: every axis but the seed.
struct SweepRow {
    std::string trace, policy;
    std::vector<std::pair<std::string, nlohmann::json>> params;
    std::size_t runs = 0, missing = 0;  // runs of the point; of them without a summary
    std::vector<SweepStat> stats;       // one per metric of SweepTable::metrics
};

struct SweepTable {
    std::vector<std::string> metrics;               // resolved (a "*" expanded)
    std::vector<SweepRow> rows;                     // in the order of the plan's runs
    nlohmann::json runs = nlohmann::json::array();  // every run: axes and metric values
    std::size_t missing = 0;                        // runs without a summary
};

// A number at a dotted path of a JSON object (all.wait.mean); null if absent.
const nlohmann::json* metric_at(const nlohmann::json& summary, const std::string& path);
// Every numeric leaf of a summary, as dotted paths, in document order.
std::vector<std::string> numeric_paths(const nlohmann::json& summary);

// Mean, sample deviation and the interval at `confidence` of `values`.
SweepStat describe_values(std::vector<double> values, double confidence);

// Reads dir/runs/<i>/summary.json of every run (a missing one is counted,
// not fatal) and merges them.
SweepTable collect_table(const SweepPlan&, const std::string& dir);

// table.csv (one row per point: axes, runs, then per metric mean, ci, sd),
// runs.csv (one row per run) and table.json (all of it, with the plots).
void write_table(const SweepPlan&, const SweepTable&, const std::string& dir);

}  // namespace rota::sim
