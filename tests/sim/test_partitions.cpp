// SWF field 16 (partition number) as the job's partition: the only name
// the format carries, and on a machine with partitions the name of one
// (docs/workloads.md, "Partitions: field 16").
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/partitions.h"
#include "sim/run_config.h"
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

// Runs `rota` with `args` (shell words), the standard error with the
// output; returns the exit status and fills `out`.
int run_rota(const std::string& args, std::string& out) {
    FILE* p = ::popen((std::string(ROTA_CLI) + " " + args + " 2>&1").c_str(), "r");
    REQUIRE(p != nullptr);
    out.clear();
    char buf[4096];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    const int st = ::pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// Batsim CSV: job id -> allocated_resources (the 15th column).
std::map<std::int64_t, std::string> allocated(const std::string& path) {
    std::map<std::int64_t, std::string> m;
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
        std::vector<std::string> f;
        std::stringstream ls(line);
        std::string c;
        while (std::getline(ls, c, ',')) f.push_back(c);
        if (f.size() >= 15) m[std::stoll(f[0])] = f[14];
    }
    return m;
}

// The nodes of interval notation ("0-3 8") are all in first..last.
bool nodes_within(std::string_view text, std::int32_t first, std::int32_t last) {
    if (text.empty()) return false;
    std::string s(text);
    for (char& c : s)
        if (c == '-' || c == ',') c = ' ';
    std::istringstream in(s);
    std::int64_t n;
    while (in >> n)
        if (n < first || n > last) return false;
    return true;
}

// A small partitioned trace: jobs 1-4 in partition 1, 5 and 6 in 2, 7 in
// none; 8 processors.
const char* kTrace =
    "; MaxProcs: 8\n"
    "1 0 0 100 2 -1 -1 2 200 -1 1 1 1 -1 -1 1 -1 -1\n"
    "2 0 0 100 2 -1 -1 2 200 -1 1 1 1 -1 -1 1 -1 -1\n"
    "3 0 0 100 2 -1 -1 2 200 -1 1 1 1 -1 -1 1 -1 -1\n"
    "4 0 0 100 1 -1 -1 1 200 -1 1 1 1 -1 -1 1 -1 -1\n"
    "5 0 0 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 2 -1 -1\n"
    "6 5 0 100 2 -1 -1 2 200 -1 1 1 1 -1 -1 2 -1 -1\n"
    "7 5 0 100 1 -1 -1 1 200 -1 1 1 1 -1 -1 -1 -1 -1\n";

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

TEST_CASE("partitions: the --partitions flag reads name=nodes items, '*' marking the defaults",
          "[sim][partitions]") {
    const auto p = parse_partitions("small=0-31,big=0-127*");
    REQUIRE(p.size() == 2);
    CHECK(p[0] == PartitionSpec{"small", "0-31", false});
    CHECK(p[1] == PartitionSpec{"big", "0-127", true});
    // A token without '=' continues the nodes of the item before it;
    // blanks around items, names and runs are dropped.
    const auto q = parse_partitions(" a = 0-3,8 , b=4-7* ");
    REQUIRE(q.size() == 2);
    CHECK(q[0] == PartitionSpec{"a", "0-3,8", false});
    CHECK(q[1] == PartitionSpec{"b", "4-7", true});
    CHECK(format_partitions(q) == "a=0-3,8,b=4-7*");
    CHECK(parse_partitions(format_partitions(p)) == p);
}

TEST_CASE("partitions: the --partitions flag's errors name the item and what is wrong",
          "[sim][partitions]") {
    using Catch::Contains;
    CHECK_THROWS_WITH(parse_partitions(""), Contains("none given"));
    CHECK_THROWS_WITH(parse_partitions("small"), "'small' is not name=nodes (e.g. small=0-31)");
    CHECK_THROWS_WITH(parse_partitions("=0-3"), "'=0-3' has no name before '='");
    CHECK_THROWS_WITH(parse_partitions("small="), "'small=' names no node after '='");
    CHECK_THROWS_WITH(parse_partitions("small=3-0"), "in 'small=3-0': the run 3-0 goes backwards");
    CHECK_THROWS_WITH(parse_partitions("small=0-x"),
                      Contains("in 'small=0-x': 'x' is not a node number"));
    CHECK_THROWS_WITH(parse_partitions("small=-1"), Contains("is not a node number"));
    CHECK_THROWS_WITH(parse_partitions("a=0-3,a=4-7"), "partition 'a' is given twice");
    CHECK_THROWS_WITH(parse_partitions("a=0-3,,b=4"), Contains("an empty item in 'a=0-3,,b=4'"));
    CHECK_THROWS_WITH(parse_partitions("sm all=0-3"),
                      "the name 'sm all' holds a blank, a control character or '*'");
    CHECK_THROWS_WITH(parse_partitions("a*b=0-3"), Contains("holds a blank, a control character"));
    CHECK_THROWS_WITH(parse_partitions("a=0-9999999999"), Contains("past the largest machine"));
    // Nodes past the machine are found once its size is known.
    CHECK_NOTHROW(check_partition_nodes(parse_partitions("a=0-7"), 8));
    CHECK_THROWS_WITH(check_partition_nodes(parse_partitions("a=0-3,b=4-8"), 8),
                      "partition 'b': node 8 is outside the machine's nodes 0..7");
    // The command line prefixes the flag, and exits with 2.
    std::string out;
    CHECK(run_rota("simulate --jobs 10 --no-progress --partitions 'small=3-0'", out) == 2);
    CHECK_THAT(out,
               Contains("rota: error: --partitions: in 'small=3-0': the run 3-0 goes backwards"));
}

TEST_CASE("partition names for SWF field 16 are checked", "[sim][partitions]") {
    using Catch::Contains;
    CHECK_NOTHROW(check_partition_names({"small", "big", "small,big"}));
    CHECK_THROWS_WITH(check_partition_names({}), "no name given");
    CHECK_THROWS_WITH(check_partition_names({"a", ""}), Contains("name 2 (field 16 = 2) is empty"));
    CHECK_THROWS_WITH(check_partition_names({"a,,b"}), Contains("name 1 (field 16 = 1) is empty"));
    CHECK_THROWS_WITH(check_partition_names({"a b"}), Contains("holds a blank"));
    CHECK_THROWS_WITH(check_partition_names({std::string(256, 'a')}), Contains("255 bytes"));
}

TEST_CASE("SWF field 16 numbers name the machine's partitions, from 1", "[sim][partitions]") {
    using Catch::Contains;
    TempSwf f("mapped.swf", kTrace);
    const Trace t = load_trace(f.path, Mapping::standard);
    REQUIRE(t.partitions == std::vector<std::int32_t>{1, 1, 1, 1, 2, 2, -1});

    // By default the p-th partition of the machine, in configuration order.
    RunConfig rc;
    rc.partitions = parse_partitions("small=0-3,big=0-7*");
    std::string from;
    std::vector<std::string> names = field16_names(rc, &from);
    CHECK(names == std::vector<std::string>{"small", "big"});
    CHECK(from == "the machine's partitions, in configuration order");
    CHECK_NOTHROW(check_field16(t.partitions, t.jobs, names, from));
    // partition_names instead, each a partition of the machine.
    rc.partition_names = {"big", "small,big"};
    CHECK(field16_names(rc, &from) == rc.partition_names);
    rc.partition_names = {"big", "tiny"};
    CHECK_THROWS_WITH(field16_names(rc, &from),
                      "simulator.partition_names (--partition-names): 'tiny' is not a partition "
                      "of the machine (small, big)");
    // Without partitions on the machine, none: field 16 stays a number.
    CHECK(field16_names(RunConfig{}, &from).empty());

    // A number that names no partition is an error naming the job.
    CHECK_THROWS_WITH(check_field16(t.partitions, t.jobs, {"small"}, "--partition-names"),
                      "job 5: SWF field 16 (partition number) is 2, which names no partition: "
                      "the numbers count from 1 in --partition-names (1 = 'small')");
    const std::vector<std::int32_t> zero{1, 0, 1, 1, 2, 2, -1};
    CHECK_THROWS_WITH(check_field16(zero, t.jobs, names, from),
                      Contains("job 2: SWF field 16 (partition number) is 0"));
}

TEST_CASE("a job of partition 'small' runs only on its nodes", "[sim][partitions]") {
    TempSwf f("nodes.swf", kTrace);
    const Trace t = load_trace(f.path, Mapping::standard);
    auto e = rota::test::engine_from(
        "[machine]\nprocs = 8\n"
        "[[machine.partitions]]\nname = \"small\"\nnodes = \"0-3\"\n"
        "[[machine.partitions]]\nname = \"big\"\nnodes = \"0-7\"\ndefault = true\n"
        "[scheduler]\nreservation_depth = 1\n");
    const std::vector<std::string> names{"small", "big"};
    SimOptions opt;
    opt.partition = &t.partitions;
    opt.partition_names = &names;
    opt.record_nodes = true;
    const SimResult r = simulate(e.get(), t.jobs, opt);
    REQUIRE(r.jobs.size() == 7);
    for (std::size_t i = 0; i < r.jobs.size(); ++i) {
        INFO("job " << r.jobs[i].id << " on " << r.nodes[i]);
        CHECK(r.jobs[i].state == FinalState::finished);
        if (t.partitions[i] == 1) CHECK(nodes_within(r.nodes[i], 0, 3));
    }
    // Jobs 1-4 need 7 nodes and small has 4: some of them wait.
    std::int64_t waited = 0;
    for (std::size_t i = 0; i < 4; ++i) waited += r.jobs[i].start > 0;
    CHECK(waited >= 1);

    // The same run with a number past the names stops, naming the job.
    const std::vector<std::string> one{"small"};
    auto e2 = rota::test::engine_from(
        "[machine]\nprocs = 8\n"
        "[[machine.partitions]]\nname = \"small\"\nnodes = \"0-3\"\n");
    opt.partition_names = &one;
    CHECK_THROWS_WITH(simulate(e2.get(), t.jobs, opt),
                      "job 5: partition number 2 (SWF field 16) names no partition: 1 are named, "
                      "from 1");
}

TEST_CASE("rota simulate --partitions runs field 16's jobs in their partitions",
          "[sim][partitions]") {
    using Catch::Contains;
    TempSwf f("cli.swf", kTrace);
    TempSwf csv("cli.csv", "");
    std::string out;
    REQUIRE(run_rota("simulate --no-progress --policy easy --trace " + f.path +
                         " --partitions 'small=0-3,big=0-7*' --batsim-csv " + csv.path,
                     out) == 0);
    CHECK_THAT(out, Contains("partitions: SWF field 16 names 1 = small, 2 = big"));
    auto alloc = allocated(csv.path);
    REQUIRE(alloc.size() == 7);
    for (std::int64_t id : {1, 2, 3, 4}) {
        INFO("job " << id << " on " << alloc[id]);
        CHECK(nodes_within(alloc[id], 0, 3));
    }

    // --partition-names maps the numbers the other way round.
    REQUIRE(run_rota("simulate --no-progress --policy easy --trace " + f.path +
                         " --partitions 'small=0-3,big=0-7*' --partition-names big,small "
                         "--batsim-csv " +
                         csv.path,
                     out) == 0);
    alloc = allocated(csv.path);
    for (std::int64_t id : {5, 6}) {
        INFO("job " << id << " on " << alloc[id]);
        CHECK(nodes_within(alloc[id], 0, 3));
    }

    // A number no partition answers to stops the run before it starts.
    CHECK(run_rota("simulate --no-progress --policy easy --trace " + f.path +
                       " --partitions 'small=0-3'",
                   out) == 2);
    CHECK_THAT(out, Contains("rota: error: job 5: SWF field 16 (partition number) is 2, which "
                             "names no partition: the numbers count from 1 in the machine's "
                             "partitions, in configuration order (1 = 'small')"));
    CHECK_THAT(out, !Contains("simulated"));
    // A name that is no partition of the machine.
    CHECK(run_rota("simulate --no-progress --trace " + f.path +
                       " --partitions 'small=0-3,big=0-7' --partition-names small,huge",
                   out) == 2);
    CHECK_THAT(out, Contains("'huge' is not a partition of the machine (small, big)"));
    // Names without a trace have no field 16 to name.
    CHECK(run_rota("simulate --no-progress --jobs 10 --partition-names a", out) == 2);
    CHECK_THAT(out, Contains("--partition-names"));
}
