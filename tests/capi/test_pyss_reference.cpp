// Differential tests: with --compat pyss, rota's FCFS, EASY and
// conservative give every job of the real traces the same start time as
// pyss's reference schedules (shared/traces/reference/README.md).
#include <charconv>
#include <sstream>

#include "sim/gzip_lines.h"
#include "sim/swf.h"
#include "support.h"

using namespace rota;

namespace {

struct RefJob {
    std::int64_t submit, start;
};

std::map<std::int64_t, RefJob> read_reference(const std::string& path) {
    std::map<std::int64_t, RefJob> m;
    sim::LineReader in(path);
    std::string_view line;
    while (in.next(line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream ss{std::string(line)};
        std::int64_t id, submit, start;
        ss >> id >> submit >> start;
        m[id] = {submit, start};
    }
    return m;
}

void check_against_reference(const std::string& policy, const std::string& trace,
                             const std::string& ref_name, std::int32_t procs) {
    std::string trace_path = rota::test::shared_path("traces/" + trace);
    std::string ref_path = rota::test::shared_path("traces/reference/" + ref_name);
    if (trace_path.empty() || ref_path.empty()) return;
    auto t = sim::load_trace(trace_path, sim::Mapping::pyss, procs);
    auto e = rota::test::preset_engine(policy, procs);
    sim::SimOptions opt;
    opt.order = sim::EventOrder::pyss;
    auto r = sim::simulate(e.get(), t.jobs, opt);
    auto ref = read_reference(ref_path);
    REQUIRE(ref.size() == r.jobs.size());
    std::size_t mismatches = 0;
    std::ostringstream first;
    for (const auto& o : r.jobs) {
        auto it = ref.find(o.id);
        if (it == ref.end() || it->second.start != o.start) {
            if (mismatches < 5)
                first << " job " << o.id << ": rota " << o.start << ", pyss "
                      << (it == ref.end() ? -1 : it->second.start) << ";";
            ++mismatches;
        }
    }
    INFO(policy << " on " << trace << " (" << procs << " procs): " << mismatches << " of "
                << r.jobs.size() << " start times differ:" << first.str());
    CHECK(mismatches == 0);
}

}  // namespace

TEST_CASE("pyss reference: FCFS on KTH-SP2", "[differential]") {
    check_against_reference("fcfs", "KTH-SP2-1996-2.1-cln.swf.gz",
                            "fcfs_KTH-SP2-1996-2.1-cln.txt.gz", 100);
}
TEST_CASE("pyss reference: EASY on KTH-SP2", "[differential]") {
    check_against_reference("easy", "KTH-SP2-1996-2.1-cln.swf.gz",
                            "easy_KTH-SP2-1996-2.1-cln.txt.gz", 100);
}
TEST_CASE("pyss reference: conservative on KTH-SP2", "[differential]") {
    check_against_reference("conservative", "KTH-SP2-1996-2.1-cln.swf.gz",
                            "cons_KTH-SP2-1996-2.1-cln.txt.gz", 100);
}
TEST_CASE("pyss reference: EASY on SDSC-SP2", "[differential]") {
    check_against_reference("easy", "SDSC-SP2-1998-4.2-cln.swf.gz",
                            "easy_SDSC-SP2-1998-4.2-cln.txt.gz", 128);
}
TEST_CASE("pyss reference: FCFS on CTC-SP2", "[differential]") {
    check_against_reference("fcfs", "CTC-SP2-1996-3.1-cln.swf.gz",
                            "fcfs_CTC-SP2-1996-3.1-cln.txt.gz", 338);
}
TEST_CASE("pyss reference: EASY on CTC-SP2", "[differential]") {
    check_against_reference("easy", "CTC-SP2-1996-3.1-cln.swf.gz",
                            "easy_CTC-SP2-1996-3.1-cln.txt.gz", 338);
}
TEST_CASE("pyss reference: conservative on CTC-SP2", "[differential]") {
    check_against_reference("conservative", "CTC-SP2-1996-3.1-cln.swf.gz",
                            "cons_CTC-SP2-1996-3.1-cln.txt.gz", 338);
}
TEST_CASE("pyss reference: EASY on CTC-SP2 with 512 processors", "[differential]") {
    check_against_reference("easy", "CTC-SP2-1996-3.1-cln.swf.gz",
                            "easy_CTC-SP2-1996-3.1-cln_P512.txt.gz", 512);
}
