// SWF field 16 (partition number) as the job's partition: the only name
// the format carries (docs/workloads.md, "Partitions").
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "sim/swf.h"
#include "support.h"

using namespace rota::sim;

namespace {

struct TempSwf {
    std::string path;
    TempSwf(const std::string& name, const std::string& body) {
        path = (std::filesystem::temp_directory_path() /
                ("rota_test_partitions_" + std::to_string(::getpid()) + "_" + name))
                   .string();
        std::ofstream(path) << body;
    }
    ~TempSwf() { std::remove(path.c_str()); }
};

}  // namespace

TEST_CASE("SWF field 16 becomes the partition a policy reads", "[sim][names]") {
    // Jobs 1-3 in partition 2, job 4 in none (-1), job 5 in partition 0.
    TempSwf f("field16.swf",
              "; MaxProcs: 4\n"
              "1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 2 -1 -1\n"
              "2 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 2 -1 -1\n"
              "3 0 0 10 3 -1 -1 3 20 -1 1 1 1 -1 -1 2 -1 -1\n"
              "4 0 0 10 3 -1 -1 3 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
              "5 0 0 10 3 -1 -1 3 20 -1 1 1 1 -1 3 0 -1 -1\n");
    Trace t = load_trace(f.path, Mapping::standard);
    REQUIRE(t.partitions == std::vector<std::int32_t>{2, 2, 2, -1, 0});

    // Partition "2" allows 2 processors per job: job 3 (3) is rejected;
    // job 4 has no partition, job 5 is in "0": no limit.
    auto e = rota::test::engine_from(
        "[machine]\nprocs = 4\n[policy.admission]\nscript = \"admission/partition_limits.lua\"\n"
        "limits = \"2=2\"\n");
    SimOptions opt;
    opt.partition = &t.partitions;
    const SimResult r = simulate(e.get(), t.jobs, opt);
    REQUIRE(r.jobs.size() == 5);
    CHECK(r.jobs[0].state == FinalState::finished);
    CHECK(r.jobs[1].state == FinalState::finished);
    CHECK(r.jobs[2].state == FinalState::rejected);
    CHECK(r.jobs[3].state == FinalState::finished);
    CHECK(r.jobs[4].state == FinalState::finished);

    // A trace without field 16 carries no partitions.
    TempSwf none("none.swf", "; MaxProcs: 4\n1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n");
    CHECK(load_trace(none.path, Mapping::standard).partitions.empty());
}
