// The simulator's configuration file: a value is taken as given or refused
// naming its key, never wrapped into another value or silently replaced
// (docs/config.md, "Every key is checked").
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "sim/run_config.h"

using namespace rota::sim;

namespace {

// The configuration `text`, loaded from a file of its own.
RunConfig load(const std::string& text) {
    const auto p = std::filesystem::temp_directory_path() /
                   ("rota_test_run_config_" + std::to_string(::getpid()) + ".toml");
    std::ofstream(p) << text;
    struct Remove {
        std::filesystem::path p;
        ~Remove() { std::filesystem::remove(p); }
    } remove{p};
    return load_run_config(p.string());
}

}  // namespace

TEST_CASE("a simulator setting out of range names its key and flag with the value", "[config]") {
    // The checks run on the settings merged from the file and the flags, so
    // the message names both spellings, the range and the value given.
    CHECK_THROWS_WITH(load("[simulator]\nwarmup = -5\n"),
                      "key 'simulator.warmup' (--warmup) must be a number of jobs >= 0, not -5");
    CHECK_THROWS_WITH(load("[simulator]\nconfidence = 1.5\n"),
                      "key 'simulator.confidence' (--confidence) must be a probability in (0, "
                      "1), e.g. 0.95, not 1.5");
    CHECK_THROWS_WITH(load("[simulator]\ninteractive_time = -1\n"),
                      Catch::StartsWith("key 'simulator.interactive_time' (--interactive-time)"));
    CHECK_THROWS_WITH(load("[simulator]\nadapt_per_byte = nan\n"),
                      "key 'simulator.adapt_per_byte' (--adapt-per-byte) must be a number of "
                      "seconds per byte from 0 to 1000, not nan");
    // NaN and infinity are refused by their own key, not later as the
    // calibration's target or an internal function's argument.
    CHECK_THROWS_WITH(load("[simulator]\narrival_rate = nan\n"),
                      Catch::StartsWith("key 'simulator.arrival_rate' (--arrival-rate) must be a "
                                        "finite number of jobs per second >= 0"));
    CHECK_THROWS_WITH(load("[simulator]\narrival_rate = inf\n"), Catch::EndsWith("not inf"));
    CHECK_THROWS_WITH(load("[simulator]\nqueue_length = nan\n"),
                      "key 'simulator.queue_length' (--queue-length) must be a finite number >= "
                      "0 (0: the workload's own arrivals), not nan");
    CHECK_THROWS_WITH(check_statistics(load("[simulator]\ncycle = 99999999999999\n")),
                      "key 'simulator.cycle' (--cycle) must be a number of seconds from 0 to "
                      "2305843009213 (0: no cycle), not 99999999999999");
    CHECK_THROWS_WITH(load("[simulator]\ncycle = -1\n"),
                      Catch::StartsWith("key 'simulator.cycle' (--cycle) must be"));
    // The engine's ranges, said by the simulator's key (they were reported
    // as gang.migration_q and malleable.adapt_latency, without the value).
    CHECK_THROWS_WITH(load("[simulator]\nmigration_q = 9999999999\n"),
                      "key 'simulator.migration_q' (--migration-q) must be -1 (unlimited) or a "
                      "count from 0 to 1000000000, not 9999999999");
    CHECK_THROWS_WITH(load("[simulator]\nadapt_latency = 1e20\n"),
                      "key 'simulator.adapt_latency' (--adapt-latency) must be a number of "
                      "seconds from 0 to 1e9, not 1e+20");
    CHECK_THROWS_WITH(load("[simulator]\nmpl_limit = 2000000000\n"),
                      Catch::StartsWith("key 'simulator.mpl_limit' (--mpl-limit) must be 0"));
    // The workload's keys are checked once the flags are merged.
    CHECK_THROWS_WITH(check_statistics(load("[simulator.workload]\nload = 0\n")),
                      Catch::StartsWith("key 'simulator.workload.load' (--load) must be an "
                                        "offered load in [0.001, 1000], not 0"));
    CHECK_THROWS_WITH(check_statistics(load("[simulator.workload]\njobs = 0\n")),
                      "key 'simulator.workload.jobs' (--jobs) must be a number of jobs from 1 "
                      "to 100000000, not 0");
    CHECK_THROWS_WITH(load("[simulator]\npacking = \"best\"\n"),
                      "key 'simulator.packing' (--packing) must be \"first_fit\" or "
                      "\"buddy\", not \"best\"");
}

TEST_CASE("an integer its field cannot hold is refused naming the key", "[config]") {
    // 2^32 + 64 would be 64 processors, -1 the seed 2^64 - 1.
    CHECK_THROWS_WITH(load("[simulator]\nprocs = 4294967360\n"),
                      "key 'simulator.procs' must be between 0 and 1000000 (0: from the "
                      "trace), got 4294967360");
    CHECK_THROWS_WITH(load("[simulator.workload]\nprocs = 4294967360\n"),
                      "key 'simulator.workload.procs' must be between 1 and 1000000, got "
                      "4294967360");
    CHECK_THROWS_WITH(load("[simulator.workload]\nusers = 4294967299\n"),
                      Catch::StartsWith("key 'simulator.workload.users' must be between"));
    CHECK_THROWS_WITH(load("[simulator.workload]\nseed = -1\n"),
                      "key 'simulator.workload.seed' must be between 0 and 9223372036854775807, "
                      "got -1");
    CHECK_THROWS_WITH(load("[simulator]\narrival_seed = -5\n"),
                      Catch::StartsWith("key 'simulator.arrival_seed' must be between 0 and"));
    CHECK_THROWS_WITH(load("[simulator]\nmin_batches = 4294967298\n"),
                      Catch::StartsWith("key 'simulator.min_batches' must be between"));
    CHECK_THROWS_WITH(load("[simulator]\nmin_batches = 1000001\n"),
                      "key 'simulator.min_batches' (--min-batches) must be a count of batches "
                      "from 2 to 1000000, not 1000001");
    // A path with a NUL would be cut there by the C call that opens it.
    for (const char* key : {"trace", "jobs_csv", "summary_json"})
        CHECK_THROWS_WITH(
            load(std::string("[simulator]\n") + key + " = \"t.swf\\u0000junk\"\n"),
            std::string("key 'simulator.") + key + "' holds a NUL character (\\u0000)");
    CHECK_THROWS_WITH(load("[simulator]\nsize_groups = [1, 4294967298, 7]\n"),
                      Catch::Contains("got 4294967298"));
    // Inside the field's range but not a machine's: the same message, naming
    // the key given (not machine.procs, which the generated machine feeds).
    CHECK_THROWS_WITH(load("[simulator]\nprocs = 2000000\n"),
                      "key 'simulator.procs' must be between 0 and 1000000 (0: from the "
                      "trace), got 2000000");
    CHECK_THROWS_WITH(load("[simulator]\nprocs = -2\n"),
                      Catch::StartsWith("key 'simulator.procs' must be between 0 and"));
    CHECK_THROWS_WITH(load("[simulator.workload]\nprocs = 2000000\n"),
                      "key 'simulator.workload.procs' must be between 1 and 1000000, got 2000000");
    CHECK_THROWS_WITH(load("[simulator.workload]\nprocs = 0\n"),
                      "key 'simulator.workload.procs' must be between 1 and 1000000, got 0");
    CHECK_THROWS_WITH(load("[[machine.clusters]]\nnodes = 2000000\n"),
                      "key 'machine.clusters[0].nodes' must be between 1 and 1000000, got 2000000");
    CHECK_THROWS_WITH(load("[[machine.clusters]]\nnodes = 4294967296\n"),
                      Catch::EndsWith("must be between 1 and 1000000, got 4294967296"));
    CHECK_THROWS_WITH(load("[[machine.clusters]]\nnodes = 600000\n[[machine.clusters]]\nnodes = "
                           "600000\n"),
                      "key 'machine.clusters' has 1200000 nodes in all; a machine has at most "
                      "1000000");
    CHECK_THROWS_WITH(load("[machine]\nclusters = []\n"),
                      Catch::StartsWith("key 'machine.clusters' lists no cluster"));
    CHECK_THROWS_WITH(load("[[machine.clusters]]\nname = \"a\"\n"),
                      "key 'machine.clusters[0].nodes' is missing");
    CHECK_THROWS_WITH(load("[simulator.workload]\nmodel = \"\"\n"),
                      Catch::StartsWith("key 'simulator.workload.model' is empty"));
    // An empty output path would write nothing and say nothing.
    CHECK_THROWS_WITH(load("[simulator]\njobs_csv = \"\"\n"),
                      "key 'simulator.jobs_csv' is empty: name a file, or leave the key out for "
                      "no file");
    // In range, the value is the one given.
    const RunConfig rc = load("[simulator]\nprocs = 1000000\n[simulator.workload]\nseed = 7\n");
    CHECK(rc.procs == 1000000);
    CHECK(rc.workload.seed == 7u);
}

TEST_CASE("machine.procs in a simulator file is the simulated machine's or an error", "[config]") {
    const RunConfig other = load("[machine]\nprocs = 30\n");
    CHECK_THROWS_WITH(engine_toml(other, "easy", 128),
                      Catch::StartsWith("key 'machine.procs' is 30, but the simulated machine has "
                                        "128 processors"));
    CHECK(engine_toml(other, "easy", 30).find("procs = 30") != std::string::npos);
    CHECK_THROWS_WITH(engine_toml(load("[machine]\nprocs = \"abc\"\n"), "easy", 128),
                      "key 'machine.procs' must be an integer");
    // Clusters make the machine their sum.
    const RunConfig clusters = load(
        "[machine]\nprocs = 30\n[[machine.clusters]]\nnodes = 20\n[[machine.clusters]]\n"
        "nodes = 20\n");
    CHECK_THROWS_WITH(engine_toml(clusters, "fcfs", 40), Catch::Contains("is 30"));
}

// [Zhang00]'s model takes Φ (its §2.1) from the file, as `rota generate
// --phi` does: a sweep over simulator.workload.phi must change the runs.
TEST_CASE("the zhang model takes phi from [simulator.workload]", "[config]") {
    const std::string head = "[simulator.workload]\nmodel = \"zhang\"\nfactor = 1.3\n";
    CHECK(load(head).workload.phi == 0.2);  // the model's own default
    const RunConfig exact = load(head + "phi = 1.0\n");
    CHECK(exact.workload.phi == 1.0);
    CHECK(exact.workload.factor == 1.3);
    CHECK(load(head + "phi = 0.6\njobs = 50\n").workload.phi == 0.6);
}
