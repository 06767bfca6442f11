// `rota sweep`: expansion, the local pool, the merged table, plots, and
// the Slurm job array (docs/sweeps.md).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/sweep_plan.h"
#include "sim/sweep_plot.h"
#include "sim/sweep_pool.h"
#include "sim/sweep_slurm.h"
#include "sim/sweep_table.h"

using namespace rota::sim;
namespace fs = std::filesystem;

namespace {

fs::path temp_dir(const std::string& name) {
    fs::path d =
        fs::temp_directory_path() / ("rota_test_sweep_" + std::to_string(::getpid()) + "_" + name);
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

// 2 policies x 2 loads x 2 seeds of a small generated workload.
const char* kSweep2x2x2 = R"([simulator.workload]
jobs = 150
procs = 64

[sweep]
name = "small"
policies = ["fcfs", "easy"]
seeds = [1, 2]
metrics = ["utilization", "all.mean_bounded_slowdown", "all.wait.mean"]

[sweep.parameters]
"simulator.workload.load" = [0.5, 0.9]

[[sweep.plot]]
x = "simulator.workload.load"
y = "all.mean_bounded_slowdown"
file = "bsld.png"

[[sweep.plot]]
x = "utilization"
y = ["all.wait.mean", "all.mean_bounded_slowdown"]
panels = "policy"
file = "panels"
)";

fs::path write_file(const fs::path& p, const std::string& text) {
    std::ofstream(p) << text;
    return p;
}

std::string read(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

int lines(const fs::path& p) {
    std::ifstream in(p);
    int n = 0;
    for (std::string l; std::getline(in, l);) ++n;
    return n;
}

// A word for sh, in single quotes.
std::string shq(const std::string& s) {
    std::string o = "'";
    for (char c : s) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return o + "'";
}

bool on_path(const std::string& prog) {
    return std::system(("command -v " + prog + " >/dev/null 2>&1").c_str()) == 0;
}

bool has_matplotlib() {
    return std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") == 0 ||
           std::system("python3 -c 'import matplotlib' >/dev/null 2>&1") == 0;
}

}  // namespace

TEST_CASE("sweep: a 2 x 2 x 2 sweep gives 8 runs, the merged table and the plot files", "[sweep]") {
    const fs::path d = temp_dir("222");
    const auto file = write_file(d / "small.toml", kSweep2x2x2);
    SweepPlan plan = load_sweep(file.string());
    REQUIRE(plan.runs.size() == 8);
    CHECK(plan.columns == std::vector<std::string>{"simulator.workload.load"});
    // The last axis varies fastest: policy, load, seed.
    CHECK(plan.runs[0].policy == "fcfs");
    CHECK(plan.runs[1].seed == 2);
    CHECK(plan.runs[2].params[0].second == 0.9);
    CHECK(plan.runs[7].policy == "easy");

    const std::string out = (d / "out").string();
    write_plan(plan, out);
    const std::string cfg = read(fs::path(run_dir(out, 3)) / "run.toml");
    CHECK(cfg.find("policy = 'fcfs'") != std::string::npos);
    CHECK(cfg.find("load = 0.9") != std::string::npos);
    CHECK(cfg.find("seed = 2") != std::string::npos);

    std::vector<PoolProgress> seen;
    PoolOptions po;
    po.jobs = 2;
    po.rota = ROTA_CLI;
    po.progress = [&](const PoolProgress& p) { seen.push_back(p); };
    PoolResult r = run_pool(plan, out, po);
    CHECK(r.ran == 8);
    CHECK(r.failed.empty());
    REQUIRE(seen.size() == 9);  // the start and every run
    CHECK(seen.back().done == 8);
    CHECK(seen.back().eta == 0);
    CHECK(seen[4].eta > 0);
    CHECK(progress_line(seen[4]).find("4/8 runs, elapsed ") == 0);

    SweepTable t = collect_table(plan, out);
    CHECK(t.missing == 0);
    REQUIRE(t.rows.size() == 4);
    REQUIRE(t.metrics.size() == 3);
    // A metric no run reports is a misspelling, refused by name.
    SweepPlan misspelt = plan;
    misspelt.metrics.push_back("utilizaton");
    CHECK_THROWS_WITH(collect_table(misspelt, out),
                      Catch::Contains("metric 'utilizaton' is in no run's summary"));
    for (const auto& row : t.rows) {
        CHECK(row.runs == 2);
        REQUIRE(row.stats[0].n == 2);
        CHECK(row.stats[0].ci >= 0);
        CHECK(row.stats[0].mean == Approx((row.stats[0].values[0] + row.stats[0].values[1]) / 2));
    }
    // Seeds differ, so the interval is not empty, and a heavier load waits longer.
    CHECK(t.rows[1].stats[2].sd > 0);
    CHECK(t.rows[1].stats[2].mean > t.rows[0].stats[2].mean);
    // The mean comes from the runs' own summaries.
    std::ifstream s0(fs::path(run_dir(out, 0)) / "summary.json");
    const auto j0 = nlohmann::json::parse(s0);
    CHECK(t.rows[0].stats[0].values[0] == j0["fcfs"]["utilization"].get<double>());

    write_table(plan, t, out);
    CHECK(lines(fs::path(out) / "table.csv") == 5);
    CHECK(lines(fs::path(out) / "runs.csv") == 9);
    const std::string header = read(fs::path(out) / "table.csv").substr(0, 200);
    CHECK(header.find("policy,simulator.workload.load,runs,missing,utilization,utilization_ci95,"
                      "utilization_sd") == 0);
    std::ifstream tj(fs::path(out) / "table.json");
    const auto table = nlohmann::json::parse(tj);
    CHECK(table["rows"].size() == 4);
    CHECK(table["runs"].size() == 8);
    CHECK(table["plots"].size() == 2);

    std::string msg;
    const PlotOutcome o = draw_plots(out, default_plot_script(), msg);
    INFO(msg);
    if (!has_matplotlib()) {
        WARN("matplotlib is not installed: the plots are skipped");
        CHECK(o == PlotOutcome::skipped);
    } else {
        REQUIRE(o == PlotOutcome::drawn);
        for (const char* f : {"bsld.png", "panels.png"}) {
            INFO(f);
            const std::string png = read(fs::path(out) / "plots" / f);
            REQUIRE(png.size() > 1000);
            CHECK(png.substr(1, 3) == "PNG");
        }
    }

    // Run again: everything is done, nothing runs.
    PoolResult again = run_pool(plan, out, po);
    CHECK(again.ran == 0);
    CHECK(again.skipped == 8);
    // The same folder refuses another sweep's plan.
    plan.seeds = {1, 2, 3};
    plan.runs.pop_back();
    CHECK_THROWS_WITH(write_plan(plan, out), Catch::Contains("holds the plan of another sweep"));
    // A folder of something else keeps what it holds.
    const fs::path other = d / "results";
    fs::create_directories(other);
    write_file(other / "table.csv", "mine\n");
    CHECK_THROWS_WITH(write_plan(plan, other.string()),
                      Catch::Contains("exists and is not a sweep folder"));
    CHECK(read(other / "table.csv") == "mine\n");
    CHECK_FALSE(fs::exists(other / "runs"));
    // A folder holding only hidden files is taken.
    const fs::path kept = d / "kept";
    fs::create_directories(kept);
    write_file(kept / ".gitkeep", "");
    CHECK_NOTHROW(write_plan(plan, kept.string()));
    CHECK(fs::exists(kept / "plan.json"));
    fs::remove_all(d);
}

TEST_CASE("sweep: grids are concatenated and identical runs are made once", "[sweep]") {
    const fs::path d = temp_dir("grid");
    const auto file = write_file(d / "g.toml", R"([simulator]
procs = 32
[simulator.workload]
jobs = 50
[sweep]
seeds = [1, 2, 3]
policies = ["fcfs"]
[[sweep.grid]]
parameters = { "simulator.workload.load" = [0.5, 0.7] }
[[sweep.grid]]
policies = ["fcfs", "conservative"]
parameters = { "simulator.workload.load" = [0.7, 0.8], "simulator.max_jumps" = [10] }
[[sweep.grid]]
parameters = { "simulator.workload.load" = [0.7] }
)");
    SweepPlan p = load_sweep(file.string());
    // 2 x 3, then 2 x 2 x 1 x 3, then fcfs at 0.7 again (made once).
    CHECK(p.runs.size() == 6 + 12);
    CHECK(p.columns == std::vector<std::string>{"simulator.workload.load", "simulator.max_jumps"});
    for (std::size_t i = 0; i < p.runs.size(); ++i) CHECK(p.runs[i].index == i);
    fs::remove_all(d);
}

TEST_CASE("sweep: malformed sweeps are refused before anything runs", "[sweep]") {
    const fs::path d = temp_dir("bad");
    auto expect = [&](const std::string& text, const std::string& what) {
        INFO(text);
        const auto f = write_file(d / "bad.toml", text);
        CHECK_THROWS_WITH(load_sweep(f.string()), Catch::Contains(what));
    };
    expect("[sweep]\npolicies = ['fcfs']\nseedz = [1]\n", "unknown key 'sweep.seedz'");
    expect("[sweep]\npolicies = ['fcfs', 'eazy']\n", "unknown policy 'eazy'");
    expect("[sweep]\nseeds = [1]\n", "no policies");
    expect("[simulator]\nprocs = 8\n", "no [sweep] table");
    expect("[sweep]\npolicies = ['fcfs']\n[sweep.parameters]\n\"simulator.mppl\" = [2]\n",
           "unknown key 'simulator.mppl'");
    expect("[sweep]\npolicies = ['fcfs']\n[sweep.parameters]\n\"simulator.mpl\" = []\n",
           "has no values");
    expect("[sweep]\npolicies = ['fcfs']\n[sweep.parameters]\nsimulator.mpl = [2]\n",
           "quote a dotted key");
    expect("[sweep]\npolicies = ['gs']\n[sweep.parameters]\n\"simulator.workload.jobs\" = [-5]\n",
           "run 0 (policy gs, simulator.workload.jobs = -5)");
    expect("[simulator]\nsummary_json = 'x.json'\n[sweep]\npolicies = ['fcfs']\n",
           "every run writes its own summary");
    expect(
        "[machine]\nprocs = 64\n[sweep]\npolicies = ['easy']\n[sweep.parameters]\n"
        "\"simulator.procs\" = [64, 32]\n",
        "run 1 (policy easy, simulator.procs = 32): key 'machine.procs' is 64");
    // Empty axes and values named twice are refused, not run as something else.
    expect("[sweep]\npolicies = ['fcfs']\ntraces = []\n", "'sweep.traces' is empty");
    expect("[sweep]\npolicies = ['fcfs']\nmetrics = []\n", "'sweep.metrics' is empty");
    expect("[sweep]\npolicies = ['easy', 'easy']\n", "'sweep.policies' holds easy twice");
    expect("[sweep]\npolicies = ['fcfs']\nseeds = [1, 1]\n", "'sweep.seeds' holds 1 twice");
    expect("[sweep]\npolicies = ['gs']\n[sweep.parameters]\n\"simulator.mpl\" = [2, 2]\n",
           "'sweep.parameters.\"simulator.mpl\"' holds 2 twice");
    expect("[sweep]\nname = ''\npolicies = ['fcfs']\n", "'sweep.name' must be a plain name");
    expect("[sweep]\nname = '../../etc'\npolicies = ['fcfs']\n",
           "'sweep.name' must be a plain name");
    CHECK_THROWS_AS(load_sweep((d / "bad.toml").string()), SweepUsageError);
    fs::remove_all(d);
}

TEST_CASE("sweep: means and Student-t intervals over seeds", "[sweep]") {
    SweepStat s = describe_values({1, 2, 3}, 0.95);
    CHECK(s.n == 3);
    CHECK(s.mean == Approx(2));
    CHECK(s.sd == Approx(1));
    CHECK(s.ci == Approx(4.303 / std::sqrt(3.0)).epsilon(1e-3));
    CHECK(describe_values({5}, 0.95).ci < 0);  // no interval from one seed
    CHECK(std::isnan(describe_values({}, 0.95).mean));
    CHECK(describe_values({1, 2, 3, 4, 5}, 0.9).ci ==
          Approx(2.132 * std::sqrt(2.5) / std::sqrt(5.0)).epsilon(1e-3));
    nlohmann::json j = {{"a", 1}, {"b", {{"c", 2.5}, {"d", "x"}}}};
    CHECK(numeric_paths(j) == std::vector<std::string>{"a", "b.c"});
    REQUIRE(metric_at(j, "b.c") != nullptr);
    CHECK(metric_at(j, "b.c")->get<double>() == 2.5);
    CHECK(metric_at(j, "b.d") == nullptr);
    CHECK(metric_at(j, "b.e") == nullptr);
}

// The array script, run the way Slurm runs it: one process per array task
// with SLURM_ARRAY_TASK_ID set; then --collect's merge finds every run.
TEST_CASE("sweep --slurm: the job-array script parses and its tasks run every run", "[sweep]") {
    const fs::path d = temp_dir("slurm");
    std::string text = kSweep2x2x2;
    text +=
        "\n[sweep.slurm]\npartition = \"short\"\ntime = \"00:10:00\"\nmax_array_size = 3\n"
        "max_parallel = 2\noptions = [\"--exclusive\"]\n";
    const auto file = write_file(d / "small.toml", text);
    SweepPlan plan = load_sweep(file.string());
    const std::string dir = (d / "it's here").string();  // a quote in the path
    write_plan(plan, dir);
    const std::string script = write_slurm(plan, dir, ROTA_CLI);
    CHECK(slurm_tasks(plan) == 3);
    const std::string s = read(script);
    CHECK(s.rfind("#!/bin/bash\n", 0) == 0);
    CHECK(s.find("#SBATCH --array=0-2%2\n") != std::string::npos);
    CHECK(s.find("#SBATCH --partition=short\n") != std::string::npos);
    CHECK(s.find("#SBATCH --time=00:10:00\n") != std::string::npos);
    CHECK(s.find("#SBATCH --exclusive\n") != std::string::npos);
    CHECK(s.find("#SBATCH --job-name=rota-small\n") != std::string::npos);
    CHECK(s.find("RUNS=8\nTASKS=3\n") != std::string::npos);
    // Every #SBATCH line comes before the first command, as sbatch requires.
    CHECK(s.rfind("#SBATCH") < s.find("\nset -u"));
    REQUIRE(std::system(("bash -n " + shq(script)).c_str()) == 0);
    // Without SLURM_ARRAY_TASK_ID the script refuses to run.
    CHECK(std::system(
              ("env -u SLURM_ARRAY_TASK_ID bash " + shq(script) + " 2>/dev/null").c_str()) != 0);
    for (int task = 0; task < 3; ++task)
        REQUIRE(std::system(("SLURM_ARRAY_TASK_ID=" + std::to_string(task) + " bash " + shq(script))
                                .c_str()) == 0);
    SweepPlan again = read_plan(dir);
    CHECK(again.runs.size() == 8);
    SweepTable t = collect_table(again, dir);
    CHECK(t.missing == 0);
    CHECK(t.rows.size() == 4);
    // A second pass of a task skips its finished runs.
    const auto before = fs::last_write_time(fs::path(run_dir(dir, 0)) / "summary.json");
    REQUIRE(std::system(("SLURM_ARRAY_TASK_ID=0 bash " + shq(script)).c_str()) == 0);
    CHECK(fs::last_write_time(fs::path(run_dir(dir, 0)) / "summary.json") == before);
    fs::remove_all(d);
}

TEST_CASE("sweep --slurm: the array runs under a real Slurm controller", "[sweep][slurm]") {
    // A controller to submit to is started by tests/slurm/run_sweep.sh,
    // which runs this test case against its own cluster; run on its own,
    // it says where it runs.
    if (std::getenv("ROTA_SLURM_CLUSTER") == nullptr || !on_path("sbatch")) {
        WARN(
            "no Slurm cluster of the tests' own: the job array is submitted by the test "
            "'slurm: rota sweep --slurm runs its array under a real Slurm controller' "
            "(tests/slurm/run_sweep.sh); its content and its tasks are tested above");
        return;
    }
    const fs::path d = temp_dir("slurmctld");
    const auto file = write_file(d / "small.toml", kSweep2x2x2);
    SweepPlan plan = load_sweep(file.string());
    const std::string dir = (d / "out").string();
    write_plan(plan, dir);
    const std::string script = write_slurm(plan, dir, ROTA_CLI);
    REQUIRE(std::system(("sbatch --wait " + shq(script)).c_str()) == 0);
    SweepTable t = collect_table(read_plan(dir), dir);
    CHECK(t.missing == 0);
    CHECK(t.rows.size() == 4);
    fs::remove_all(d);
}

TEST_CASE("sweep: a file is written whole or not at all") {
    const fs::path d = temp_dir("whole");
    const std::string path = (d / "table.csv").string();
    std::ofstream(path) << "old\n";
    // A failure while it is written keeps the file that was there.
    CHECK_THROWS_AS(write_sweep_file(path, "sweep table",
                                     [](std::ostream& f) {
                                         f << "new,half";
                                         throw SweepError("stopped");
                                     }),
                    SweepError);
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    CHECK(line == "old");
    // A write that fails (a full disk) is an error naming the file.
    CHECK_THROWS_WITH(write_sweep_file("/dev/full", "sweep table",
                                       [](std::ostream& f) { f << std::string(1 << 16, 'x'); }),
                      Catch::Contains("/dev/full"));
    write_sweep_file(path, "sweep table", [](std::ostream& f) { f << "new\n"; });
    std::ifstream again(path);
    std::getline(again, line);
    CHECK(line == "new");
}
