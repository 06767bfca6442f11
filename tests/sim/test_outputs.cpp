// Outputs for other tools (Batsim's CSV, the schedule as SWF, the native
// CSV's user and nodes), the table's units and the lublin model.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <regex>
#include <sstream>

#include "jobs_npy.h"
#include "lublin.h"
#include "metrics.h"
#include "outputs.h"
#include "sha256.h"
#include "simulation.h"

using namespace rota::sim;

namespace {

std::vector<std::string> lines_of(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

// A pandas-free CSV reader: the header's names and every row by name.
std::vector<std::map<std::string, std::string>> read_csv(const std::string& s) {
    auto split = [](const std::string& l) {
        std::vector<std::string> f;
        std::string cur;
        for (char c : l) {
            if (c == ',') {
                f.push_back(cur);
                cur.clear();
            } else {
                cur += c;
            }
        }
        f.push_back(cur);
        return f;
    };
    auto lines = lines_of(s);
    std::vector<std::map<std::string, std::string>> rows;
    const auto names = split(lines.at(0));
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const auto f = split(lines[i]);
        REQUIRE(f.size() == names.size());
        std::map<std::string, std::string> r;
        for (std::size_t k = 0; k < f.size(); ++k) r[names[k]] = f[k];
        rows.push_back(r);
    }
    return rows;
}

// A schedule worked by hand on 8 nodes:
//   job submit start finish procs est  state       nodes
//   1   0      0     100    4     200  finished    0-3
//   2   10     100   160    8     60   killed      0-7   (ran its estimate)
//   3   20     -1    -1     16    60   rejected
//   4   30     160   -1     2     50   unfinished  (still running)
std::vector<JobOutcome> hand_schedule() {
    return {make_outcome(1, 0, 0, 100, 4, 200, 100, FinalState::finished),
            make_outcome(2, 10, 100, 160, 8, 60, 60, FinalState::killed),
            make_outcome(3, 20, -1, -1, 16, 60, -1, FinalState::rejected),
            make_outcome(4, 30, 160, -1, 2, 50, -1, FinalState::unfinished)};
}
// Set out of order, as jobs start, and job 2's twice (a requeued job's
// last start counts).
const NodeTexts kNodes = [] {
    NodeTexts n;
    n.resize(4);
    n.set(1, "0-1");
    n.set(3, "4 6");
    n.set(0, "0-3");
    n.set(1, "0-7");
    return n;
}();

}  // namespace

TEST_CASE("Batsim jobs CSV: the exact header and a hand-worked schedule", "[outputs]") {
    std::ostringstream ss;
    write_batsim_csv(ss, hand_schedule(), kNodes, "w0");
    const auto lines = lines_of(ss.str());
    REQUIRE(lines.size() == 4);  // header, jobs 1-3; job 4 never ended
    CHECK(lines[0] ==
          "job_id,workload_name,profile,submission_time,requested_number_of_resources,"
          "requested_time,success,final_state,starting_time,execution_time,finish_time,"
          "waiting_time,turnaround_time,stretch,allocated_resources,consumed_energy,metadata");
    CHECK(lines[1] ==
          "1,w0,delay,0,4,200,1,COMPLETED_SUCCESSFULLY,0,100,100,0,100,1.000000,0-3,-1,");
    CHECK(lines[2] ==
          "2,w0,delay,10,8,60,0,COMPLETED_WALLTIME_REACHED,100,60,160,90,150,2.500000,0-7,-1,");
    CHECK(lines[3] == "3,w0,delay,20,16,60,0,REJECTED,-1,-1,-1,-1,-1,-1,,-1,");
    const auto rows = read_csv(ss.str());
    REQUIRE(rows.size() == 3);
    for (const auto& r : rows) {
        if (r.at("final_state") == "REJECTED") continue;
        // turnaround = waiting + execution, finish = start + execution
        CHECK(std::stol(r.at("turnaround_time")) ==
              std::stol(r.at("waiting_time")) + std::stol(r.at("execution_time")));
        CHECK(std::stol(r.at("finish_time")) ==
              std::stol(r.at("starting_time")) + std::stol(r.at("execution_time")));
        CHECK(std::stod(r.at("stretch")) ==
              Approx(std::stod(r.at("turnaround_time")) / std::stod(r.at("execution_time"))));
        CHECK(r.at("metadata").empty());
    }
}

TEST_CASE("jobs .npy: a NumPy 1.0 header and the Batsim CSV's values, record by record",
          "[outputs][npy]") {
    // The hand-worked schedule plus a job whose stretch is not exact (7/3)
    // and one that ran 0 s (stretch -1).
    auto jobs = hand_schedule();
    jobs.push_back(make_outcome(5, 60, 100, 130, 2, 90, 30, FinalState::finished));
    jobs.push_back(make_outcome(6, 50, 170, 170, 1, 10, 0, FinalState::finished));
    NodeTexts nodes;
    nodes.resize(jobs.size());
    nodes.set(0, "0-3");
    nodes.set(1, "0-7");
    nodes.set(4, "4 6");
    nodes.set(5, "5");
    std::ostringstream csv, npy, text;
    write_batsim_csv(csv, jobs, nodes, "w0");
    write_jobs_npy(npy, &text, jobs, nodes);
    const auto rows = read_csv(csv.str());
    REQUIRE(rows.size() == 5);  // job 4 never ended

    const std::string f = npy.str();
    REQUIRE(f.size() > 10);
    CHECK(f.compare(0, 8, std::string("\x93NUMPY\x01\x00", 8)) == 0);
    const std::size_t hlen = static_cast<unsigned char>(f[8]) |
                             (static_cast<std::size_t>(static_cast<unsigned char>(f[9])) << 8);
    CHECK((10 + hlen) % 64 == 0);
    const std::string header = f.substr(10, hlen);
    CHECK(header.back() == '\n');
    CHECK(header.find("'fortran_order': False") != std::string::npos);
    CHECK(header.find("'shape': (5,)") != std::string::npos);
    // The fields from 'descr', their offsets in a packed record.
    struct Field {
        std::string name, type;
        std::size_t offset, size;
    };
    std::vector<Field> fields;
    std::size_t width = 0;
    const std::regex field(R"(\('(\w+)', '([<|][iuf])(\d)'\))");
    for (std::sregex_iterator m(header.begin(), header.end(), field), e; m != e; ++m) {
        const std::size_t size = std::stoul((*m)[3]);
        fields.push_back({(*m)[1], (*m)[2], width, size});
        width += size;
    }
    REQUIRE(fields.size() == 14);
    REQUIRE(f.size() == 10 + hlen + rows.size() * width);
    const char* data = f.data() + 10 + hlen;
    const auto text_lines = lines_of(text.str());
    // Each distinct text once, the empty one first: "", 0-3, 0-7, 4 6, 5.
    REQUIRE(text_lines.size() == 5);
    CHECK(text_lines[0].empty());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& row = rows[i];
        for (const auto& fd : fields) {
            INFO("record " << i << ", " << fd.name);
            const char* at = data + i * width + fd.offset;
            if (fd.type == "<f") {
                double v;
                std::memcpy(&v, at, 8);
                CHECK(v == std::stod(row.at(fd.name)));  // what a CSV reader gets, exactly
                continue;
            }
            std::int64_t v = 0;
            if (fd.size == 8) {
                std::memcpy(&v, at, 8);
            } else if (fd.size == 4) {
                std::int32_t x;
                std::memcpy(&x, at, 4);
                v = x;
            } else {
                v = fd.type == "|u" ? static_cast<unsigned char>(*at)
                                    : static_cast<signed char>(*at);
            }
            if (fd.name == "allocated_resources")
                CHECK(text_lines.at(static_cast<std::size_t>(v)) == row.at(fd.name));
            else if (fd.name == "final_state")
                CHECK(batsim_state_name(static_cast<std::uint8_t>(v)) == row.at(fd.name));
            else
                CHECK(v == std::stoll(row.at(fd.name)));
        }
    }
    CHECK(rows[3].at("stretch") == "2.333333");
    CHECK(rows[4].at("stretch") == "-1");
}

TEST_CASE("jobs CSV gains user and allocated_resources", "[outputs]") {
    const std::vector<std::int32_t> users = {7, 3, -1, 7};
    JobExtras x{&users, nullptr, &kNodes};
    std::ostringstream ss;
    write_jobs_csv(ss, hand_schedule(), nullptr, nullptr, &x);
    const auto lines = lines_of(ss.str());
    REQUIRE(lines.size() == 5);
    CHECK(lines[0] ==
          "job_id,submit_time,start_time,finish_time,procs,requested_time,run_time,wait_time,"
          "final_state,user,allocated_resources");
    CHECK(lines[1] == "1,0,0,100,4,200,100,0,finished,7,0-3");
    CHECK(lines[3] == "3,20,-1,-1,16,60,-1,-1,rejected,-1,");
    CHECK(lines[4] == "4,30,160,-1,2,50,-1,130,unfinished,7,4 6");
}

TEST_CASE("node runs in interval notation", "[outputs]") {
    const rota_node_run runs[] = {{0, 4}, {8, 1}, {10, 2}};
    CHECK(node_intervals(runs, 3) == "0-3 8 10-11");
    CHECK(node_intervals(runs, 0).empty());
}

TEST_CASE("the schedule as SWF: wait in field 3, status in 11, the policy in the header",
          "[outputs]") {
    const std::vector<TraceJob> w = {{1, 0, 100, 200, 4, 7},
                                     {2, 10, 90, 60, 8, 3},
                                     {3, 20, 10, 60, 16, -1},
                                     {4, 30, 40, 50, 2, 7}};
    std::ostringstream ss;
    write_schedule_swf(ss, w, hand_schedule(), {"easy", "9.9.9", "hand", 8});
    const std::string out = ss.str();
    CHECK_THAT(out, Catch::Contains("rota 9.9.9") && Catch::Contains("policy easy") &&
                        Catch::Contains("; MaxProcs: 8"));
    std::vector<std::string> records;
    for (const auto& l : lines_of(out))
        if (!l.empty() && l[0] != ';') records.push_back(l);
    REQUIRE(records.size() == 4);
    CHECK(records[0] == "1 0 0 100 4 -1 -1 4 200 -1 1 7 -1 -1 -1 -1 -1 -1");
    CHECK(records[1] == "2 10 90 60 8 -1 -1 8 60 -1 0 3 -1 -1 -1 -1 -1 -1");
    CHECK(records[2] == "3 20 -1 -1 16 -1 -1 16 60 -1 5 -1 -1 -1 -1 -1 -1 -1");
    CHECK(records[3] == "4 30 -1 -1 2 -1 -1 2 50 -1 5 7 -1 -1 -1 -1 -1 -1");
}

TEST_CASE("durations in human units and the best-policy line", "[outputs][metrics]") {
    CHECK(human_duration(42) == "42 s");
    CHECK(human_duration(425) == "7 m 05 s");
    CHECK(human_duration(3 * 3600 + 12 * 60 + 10) == "3 h 12 m");
    CHECK(human_duration(4 * 86400 + 7 * 3600) == "4 d 07 h");
    CHECK(human_duration(std::nan("")) == "-");
    Summary a = summarize(hand_schedule(), 8, 0), b = a;
    a.utilization = 0.5;
    b.utilization = 0.75;
    b.all.wait.mean = a.all.wait.mean + 100;
    const std::string l = best_line({{"easy", a}, {"fcfs", b}});
    CHECK_THAT(l, Catch::StartsWith("best:") && Catch::Contains("utilization fcfs (0.750)") &&
                      Catch::Contains("wait mean easy (45 s)") &&
                      Catch::Contains("bounded slowdown easy=fcfs"));
    CHECK(best_line({{"easy", a}}).empty());
}

TEST_CASE("SHA-256 of the FIPS 180-4 examples", "[outputs]") {
    CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_CASE("lublin: the paper's distributions, the load and the seed", "[generate][lublin]") {
    CHECK(gamma_cdf(1, 1, 1) == Approx(1 - std::exp(-1.0)));
    CHECK(gamma_cdf(2, 2, 1) == Approx(1 - 3 * std::exp(-2.0)));
    CHECK(gamma_cdf(100, 6.1271, 5.274) == Approx(1.0).margin(0.001));
    for (const auto& c : {lublin_batch(), lublin_interactive()}) {
        const auto w = lublin_daily_weights(c);
        REQUIRE(w.size() == 48);
        double sum = 0;
        for (double x : w) sum += x;
        CHECK(sum / 48 == Approx(1));
    }
    GenerateOptions o = lublin_options(3);
    o.jobs = 4000;
    const auto jobs = generate(o);
    REQUIRE(jobs.size() == 4000);
    CHECK(offered_load(jobs, o.procs) == Approx(o.load).epsilon(0.005));
    std::int64_t serial = 0, pow2 = 0, prev = -1;
    for (const auto& j : jobs) {
        CHECK(j.procs >= 1);
        CHECK(j.procs <= o.procs);
        CHECK(j.runtime >= 1);
        CHECK(j.runtime <= static_cast<std::int64_t>(std::exp(kLublinMaxLogRuntime)));
        CHECK(j.estimate >= j.runtime);
        CHECK(j.submit >= prev);
        prev = j.submit;
        serial += j.procs == 1;
        pow2 += (j.procs & (j.procs - 1)) == 0;
    }
    // Serial jobs: 29 % of batch and 15 % of interactive jobs [Lublin 2003].
    CHECK(static_cast<double>(serial) / 4000 > 0.12);
    CHECK(static_cast<double>(serial) / 4000 < 0.32);
    CHECK(static_cast<double>(pow2) / 4000 > 0.6);
    CHECK(generate(o) == jobs);  // the seed fixes the workload
    o.seed = 4;
    CHECK(generate(o) != jobs);
    // A bigger machine: sizes up to it, the same load.
    o.procs = 1024;
    const auto big = generate(o);
    std::int32_t widest = 0;
    for (const auto& j : big) widest = std::max(widest, j.procs);
    CHECK(widest > 128);
    CHECK(widest <= 1024);
    CHECK(offered_load(big, 1024) == Approx(o.load).epsilon(0.005));
}

TEST_CASE("node texts cross their 64 KiB blocks and keep a longer text whole", "[outputs]") {
    // 30,000 texts of 7 to 9 bytes fill several blocks; one of 100,000
    // bytes gets a block of its own; every text reads back as set.
    constexpr std::size_t kJobs = 30000;
    NodeTexts n;
    n.resize(kJobs + 2);
    for (std::size_t i = 0; i < kJobs; ++i)
        n.set(i, std::to_string(i) + "-" + std::to_string(i + 3));
    const std::string long_text(100000, '7');
    n.set(kJobs, long_text);
    n.set(0, "again");  // set twice: the last counts
    for (std::size_t i = 1; i < kJobs; ++i)
        REQUIRE(n[i] == std::to_string(i) + "-" + std::to_string(i + 3));
    CHECK(n[0] == "again");
    CHECK(n[kJobs] == long_text);
    CHECK(n[kJobs + 1].empty());  // never set
}
