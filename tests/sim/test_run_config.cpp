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
                      "key 'simulator.workload.seed' must be between 0 and 18446744073709551615, "
                      "got -1");
    CHECK_THROWS_WITH(load("[simulator]\narrival_seed = -5\n"),
                      Catch::StartsWith("key 'simulator.arrival_seed' must be between 0 and"));
    CHECK_THROWS_WITH(load("[simulator]\nmin_batches = 4294967298\n"),
                      Catch::StartsWith("key 'simulator.min_batches' must be between"));
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
