// Engine events and their errors, straight on the Scheduler class.
#include <catch2/catch.hpp>

#include "engine/error.h"
#include "engine/scheduler.h"
#include "engine_test_util.h"

using namespace rota;
using rota::test::drain;
using rota::test::spec;

namespace {

SchedulerConfig machine(std::int32_t procs, std::int32_t depth = 1) {
    SchedulerConfig c;
    c.procs = procs;
    c.reservation_depth = depth;
    return c;
}

}  // namespace

TEST_CASE("engine: bad events are refused with a clear error and change nothing") {
    Scheduler s(machine(4));
    s.submit(spec(1, 2, 100));
    CHECK_THROWS_MATCHES(s.submit(spec(1, 1, 10)), Error,
                         Catch::Matchers::Message("job 1 was already submitted"));
    CHECK_THROWS_AS(s.submit(spec(2, 0, 10)), Error);
    CHECK_THROWS_AS(s.submit(spec(3, 1, 0)), Error);
    s.advance(50);
    try {
        s.advance(49);
        FAIL("time went backwards without an error");
    } catch (const Error& e) {
        CHECK(e.code() == Errc::time);
        CHECK(std::string(e.what()).find("backwards") != std::string::npos);
    }
    CHECK(s.now() == 50);
    CHECK_THROWS_AS(s.job_end(99), Error);
    CHECK_THROWS_AS(s.job_end(1), Error);  // pending, not running
    s.schedule();
    CHECK(s.running_count() == 1);
}

TEST_CASE("engine: a job larger than the machine is rejected with a reason") {
    Scheduler s(machine(4));
    s.submit(spec(7, 5, 100));
    s.schedule();
    auto acts = drain(s);
    REQUIRE(acts.size() == 1);
    CHECK(acts[0].type == ActionType::reject);
    CHECK(std::string(s.action_reason(acts[0])) == "requests 5 processors; the machine has 4");
    CHECK(s.find(7) == nullptr);
    CHECK(s.counters().rejected == 1);
}

TEST_CASE("engine: jobs are killed at their estimate") {
    Scheduler s(machine(4));
    s.submit(spec(1, 4, 100));
    s.schedule();
    drain(s);
    REQUIRE(s.next_wakeup().value() == 100);
    s.advance(150);
    auto acts = drain(s);
    REQUIRE(acts.size() == 1);
    CHECK(acts[0].type == ActionType::kill);
    CHECK(acts[0].time == 100);
    CHECK(s.machine().matrix().free(0) == 4);
    CHECK_FALSE(s.next_wakeup().has_value());
}

TEST_CASE("engine: start actions carry the lowest idle nodes") {
    Scheduler s(machine(8));
    s.submit(spec(1, 3, 100));
    s.submit(spec(2, 2, 100));
    s.schedule();
    auto acts = drain(s);
    REQUIRE(acts.size() == 2);
    REQUIRE(acts[0].run_count == 1);
    REQUIRE(acts[1].run_count == 1);
    const NodeRun* r1 = s.action_runs(acts[0]);
    const NodeRun* r2 = s.action_runs(acts[1]);
    CHECK(r1->first == 0);
    CHECK(r1->count == 3);
    CHECK(acts[0].nodes == 3);
    CHECK(r2->first == 3);
    CHECK(r2->count == 2);
}

TEST_CASE("engine: cancel works in every waiting state and frees a reservation") {
    Scheduler s(machine(4, -1));
    s.submit(spec(1, 4, 100));
    s.schedule();
    s.submit(spec(2, 4, 100));
    s.submit(spec(3, 2, 50));
    s.schedule();
    std::vector<ReservationInfo> rs;
    s.reservations(rs);
    REQUIRE(rs.size() == 2);
    CHECK(rs[0].start == 100);
    CHECK(rs[1].start == 200);
    s.cancel(2);
    s.schedule();  // compression moves job 3 up to the freed slot
    rs.clear();
    s.reservations(rs);
    REQUIRE(rs.size() == 1);
    CHECK(rs[0].job == 3);
    CHECK(rs[0].start == 100);
    s.cancel(1);
    s.schedule();
    CHECK(s.find(3)->state == JobState::running);
}
