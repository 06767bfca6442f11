#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "sim/metrics.h"

using namespace rota::sim;

namespace {

// N = 64, Γ = 10 s. Hand-computed values are in the test below.
//   id submit start finish procs req run  state       wait resp  bsld
//   1  0      0     100    4     200 100  finished    0    100   100/100 = 1
//   2  10     100   105    64    50  5    finished    90   95    95/10   = 9.5
//   3  20     100   400    32    300 300  killed      80   380   380/300
//   4  30     105   108    40    10  3    finished    75   78    78/10   = 7.8
//   5  40     -1    -1     128   60  -1   rejected
//   6  50     -1    -1     2     60  -1   unfinished
std::vector<JobOutcome> example() {
    return {
        make_outcome(1, 0, 0, 100, 4, 200, 100, FinalState::finished),
        make_outcome(2, 10, 100, 105, 64, 50, 5, FinalState::finished),
        make_outcome(3, 20, 100, 400, 32, 300, 300, FinalState::killed),
        make_outcome(4, 30, 105, 108, 40, 10, 3, FinalState::finished),
        make_outcome(5, 40, -1, -1, 128, 60, -1, FinalState::rejected),
        make_outcome(6, 50, -1, -1, 2, 60, -1, FinalState::unfinished),
    };
}

}  // namespace

TEST_CASE("summarize: hand-computed example", "[metrics]") {
    Summary s = summarize(example(), 64, 0.125);
    CHECK(s.jobs == 6);
    CHECK(s.finished == 3);
    CHECK(s.killed == 1);
    CHECK(s.rejected == 1);
    CHECK(s.unfinished == 1);
    CHECK(s.machine_procs == 64);
    CHECK(s.capacity_loss == 0.125);
    CHECK(s.first_submit == 0);
    CHECK(s.last_finish == 400);

    // Waits sorted 0 75 80 90; responses sorted 78 95 100 380; nearest rank:
    // median = rank ceil(0.5*4) = 2, p95 = rank ceil(0.95*4) = 4.
    CHECK(s.all.count == 4);
    CHECK(s.all.wait.mean == Approx(61.25));
    CHECK(s.all.wait.median == 75);
    CHECK(s.all.wait.p95 == 90);
    CHECK(s.all.wait.max == 90);
    CHECK(s.all.response.mean == Approx(163.25));
    CHECK(s.all.response.median == 95);
    CHECK(s.all.response.p95 == 380);
    CHECK(s.all.response.max == 380);
    CHECK(s.all.mean_bounded_slowdown == Approx((1 + 9.5 + 380.0 / 300 + 7.8) / 4));
    // w = 400, 320, 9600, 120; sum(w*r) = 40000 + 30400 + 3648000 + 9360.
    CHECK(s.all.weighted_response == Approx(3727760.0 / 10440.0));

    // Small (<= 32): jobs 1 and 3.
    CHECK(s.small.count == 2);
    CHECK(s.small.wait.mean == Approx(40));
    CHECK(s.small.wait.median == 0);
    CHECK(s.small.wait.p95 == 80);
    CHECK(s.small.response.mean == Approx(240));
    CHECK(s.small.response.median == 100);
    CHECK(s.small.response.max == 380);
    CHECK(s.small.mean_bounded_slowdown == Approx((1 + 380.0 / 300) / 2));
    CHECK(s.small.weighted_response == Approx(368.8));

    // Large (> 32): jobs 2 and 4.
    CHECK(s.large.count == 2);
    CHECK(s.large.wait.mean == Approx(82.5));
    CHECK(s.large.wait.median == 75);
    CHECK(s.large.wait.p95 == 90);
    CHECK(s.large.response.mean == Approx(86.5));
    CHECK(s.large.response.median == 78);
    CHECK(s.large.mean_bounded_slowdown == Approx(8.65));
    CHECK(s.large.weighted_response == Approx(39760.0 / 440.0));

    // Eq. 1: (400 + 320 + 9600 + 120) / ((400 - 0) * 64).
    CHECK(s.utilization == Approx(10440.0 / 25600.0));
}

TEST_CASE("summarize: bounded slowdown threshold and percentile ranks", "[metrics]") {
    // Γ = 1: job 2's slowdown is 95/5 = 19, job 4's is 78/3 = 26.
    Summary s = summarize(example(), 64, 0, 1.0);
    CHECK(s.all.mean_bounded_slowdown == Approx((1 + 19 + 380.0 / 300 + 26) / 4));

    // Waits 1..20: median rank 10, p95 rank 19. Waits 1..21: ranks 11 and 20.
    for (int n : {20, 21}) {
        std::vector<JobOutcome> jobs;
        for (int i = n; i >= 1; --i)
            jobs.push_back(make_outcome(i, 0, i, i + 10, 1, 10, 10, FinalState::finished));
        Summary t = summarize(jobs, 1, 0);
        CHECK(t.all.wait.median == (n == 20 ? 10 : 11));
        CHECK(t.all.wait.p95 == (n == 20 ? 19 : 20));
        CHECK(t.all.wait.max == n);
        CHECK(t.all.wait.mean == Approx((n + 1) / 2.0));
        CHECK(t.large.count == 0);
        CHECK(std::isnan(t.large.wait.mean));
    }
}

TEST_CASE("summarize: no completed jobs", "[metrics]") {
    std::vector<JobOutcome> jobs = {make_outcome(1, 5, -1, -1, 4, 10, -1, FinalState::rejected)};
    Summary s = summarize(jobs, 8, 0);
    CHECK(s.jobs == 1);
    CHECK(s.rejected == 1);
    CHECK(s.all.count == 0);
    CHECK(s.utilization == 0);
    auto j = to_json(s);
    CHECK(j["all"]["wait"]["mean"].is_null());
    CHECK(j["all"]["mean_bounded_slowdown"].is_null());
    CHECK(summarize({}, 8, 0).jobs == 0);
}

TEST_CASE("CapacityLoss integrates idle processors while jobs wait", "[metrics]") {
    // N = 10:
    //   [0, 5)   10 idle, queue empty     -> 0
    //   [5, 8)    2 idle, queue non-empty -> 6
    //   [8, 12)   0 idle (two events at t = 8, the last one counts) -> 0
    //   [12, 20)  4 idle, queue non-empty -> 32
    //   [20, 30) 10 idle, queue empty     -> 0
    CapacityLoss cl;
    cl.step(0, 10, false);
    cl.step(5, 2, true);
    cl.step(8, 2, true);
    cl.step(8, 0, true);
    cl.step(12, 4, true);
    cl.step(20, 10, false);
    cl.step(30, 10, false);
    CHECK(cl.idle_proc_seconds() == 38);
    CHECK(cl.value(30, 10) == Approx(38.0 / 300.0));
    CHECK(cl.value(0, 10) == 0);
    CHECK_THROWS_AS(cl.step(29, 10, false), std::invalid_argument);
    CHECK(CapacityLoss().value(100, 10) == 0);
}

TEST_CASE("jobs CSV", "[metrics]") {
    std::ostringstream ss;
    write_jobs_csv(ss, example());
    std::istringstream in(ss.str());
    std::string line;
    std::vector<std::string> lines;
    while (std::getline(in, line)) lines.push_back(line);
    REQUIRE(lines.size() == 7);
    CHECK(lines[0] ==
          "job_id,submit_time,start_time,finish_time,procs,requested_time,run_time,wait_time,"
          "final_state");
    CHECK(lines[1] == "1,0,0,100,4,200,100,0,finished");
    CHECK(lines[3] == "3,20,100,400,32,300,300,80,killed");
    CHECK(lines[5] == "5,40,-1,-1,128,60,-1,-1,rejected");
    CHECK(lines[6] == "6,50,-1,-1,2,60,-1,-1,unfinished");
}

TEST_CASE("JSON and table output", "[metrics]") {
    Summary a = summarize(example(), 64, 0.125);
    auto j = to_json(a);
    CHECK(j["jobs"]["total"] == 6);
    CHECK(j["jobs"]["killed"] == 1);
    CHECK(j["all"]["count"] == 4);
    CHECK(j["all"]["wait"]["median"] == 75.0);
    CHECK(j["small"]["response"]["max"] == 380.0);
    CHECK(j["utilization"].get<double>() == Approx(0.4078125));
    CHECK(j["capacity_loss"] == 0.125);
    CHECK(j["bounded_slowdown_threshold"] == 10.0);

    std::vector<JobOutcome> other = example();
    other.resize(1);
    Summary b = summarize(other, 64, 0);
    std::ostringstream ss;
    print_table(ss, {{"easy", a}, {"a-long-policy-name", b}});
    std::string out = ss.str();
    std::istringstream in(out);
    std::string line;
    std::vector<std::string> lines;
    while (std::getline(in, line)) lines.push_back(line);
    REQUIRE(lines.size() > 10);
    CHECK_THAT(lines[0], Catch::Contains("easy") && Catch::Contains("a-long-policy-name"));
    for (const auto& l : lines) CHECK(l.size() == lines[0].size());  // aligned columns
    CHECK_THAT(out, Catch::Contains("0.4078"));
    CHECK_THAT(out, Catch::Contains("1 m 01 s"));  // wait mean 61.25 s, in human units
    CHECK_THAT(out, Catch::Contains("reached walltime"));
}
