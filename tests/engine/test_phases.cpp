// Each phase of the pass, on the engine directly ([Zhang00] §4.2 and §5.1):
// schedule's best-fit row, fill_matrix's replicas, clean_matrix dropping
// them, collapse_matrix moving a job into a fuller row, and compression
// moving reservations up, never later.
#include <catch2/catch.hpp>

#include "engine/scheduler.h"
#include "engine_test_util.h"

using namespace rota;
using rota::test::drain;
using rota::test::spec;

namespace {

SchedulerConfig gang(std::int32_t procs, std::int32_t rows, bool backfill) {
    SchedulerConfig c;
    c.procs = procs;
    c.rows = rows;
    c.slice = 100;
    c.backfill = backfill;
    c.reservation_depth = backfill ? SchedulerConfig::kUnlimited : 0;
    return c;
}

std::int32_t home(const Scheduler& s, JobId id) {
    return s.find(id)->alloc.home_row;
}
std::uint32_t rows_of(const Scheduler& s, JobId id) {
    return s.find(id)->alloc.row_mask;
}

bool did(const std::vector<Action>& acts, ActionType t, JobId id, std::int32_t row) {
    for (const Action& a : acts)
        if (a.type == t && a.job == id && a.row == row) return true;
    return false;
}

}  // namespace

// 8 columns, 3 rows. Schedule: A(6) row 0; B(2) best fit is row 0 (exactly
// 2 free); C(5) row 1. Fill, in start order, repeated while the matrix
// changes: A into row 2 (its columns are taken in row 1); B into row 1 and
// then row 2; C nowhere (row 0 is full, row 2 holds A on its columns).
TEST_CASE("phases: schedule picks the best-fit row, fill_matrix replicates in start order") {
    Scheduler s(gang(8, 3, false));
    s.submit(spec(1, 6, 1000));
    s.submit(spec(2, 2, 1000));
    s.submit(spec(3, 5, 1000));
    s.schedule();
    auto acts = drain(s);
    CHECK(home(s, 1) == 0);
    CHECK(home(s, 2) == 0);
    CHECK(home(s, 3) == 1);
    CHECK(rows_of(s, 1) == 0b101);
    CHECK(rows_of(s, 2) == 0b111);
    CHECK(rows_of(s, 3) == 0b010);
    CHECK(did(acts, ActionType::replicate, 1, 2));
    CHECK(did(acts, ActionType::replicate, 2, 1));
    CHECK(did(acts, ActionType::replicate, 2, 2));
    CHECK(s.machine().matrix().free(2) == 0);
}

// clean_matrix: at the next pass replicas go first, so D(8) finds row 2
// empty; fill then replicates B into row 1 again (its columns are free
// there), and A nowhere.
TEST_CASE("phases: clean_matrix drops replicas before the schedule phase") {
    Scheduler s(gang(8, 3, false));
    s.submit(spec(1, 6, 1000));
    s.submit(spec(2, 2, 1000));
    s.submit(spec(3, 5, 1000));
    s.schedule();
    drain(s);
    s.advance(10);
    s.submit(spec(4, 8, 1000));
    s.schedule();
    auto acts = drain(s);
    CHECK(home(s, 4) == 2);
    CHECK(did(acts, ActionType::start, 4, 2));
    CHECK(did(acts, ActionType::unreplicate, 1, 2));  // A left row 2
    CHECK(rows_of(s, 1) == 0b001);
    CHECK(rows_of(s, 2) == 0b011);
}

// collapse_matrix: when A ends, row 0 holds only B (2 columns), row 1 C
// (5), row 2 D (8). From the least populated row, B moves into row 1,
// where its columns 6-7 are free: row 0 is home to no job any more, open
// for a wide one (fill_matrix then puts replicas of B and C there).
TEST_CASE("phases: collapse_matrix moves a job into a fuller row where its columns are free") {
    Scheduler s(gang(8, 3, false));
    s.submit(spec(1, 6, 1000));
    s.submit(spec(2, 2, 1000));
    s.submit(spec(3, 5, 1000));
    s.schedule();
    s.advance(10);
    s.submit(spec(4, 8, 1000));
    s.schedule();
    drain(s);
    s.advance(50);
    s.job_end(1);
    s.schedule();
    auto acts = drain(s);
    CHECK(home(s, 2) == 1);
    CHECK(did(acts, ActionType::move, 2, 1));
    CHECK(home(s, 3) == 1);
    CHECK(home(s, 4) == 2);
    CHECK(rows_of(s, 2) == 0b011);
    CHECK(rows_of(s, 3) == 0b011);
}

// Compression (conservative, one row): B and C hold reservations behind A;
// A ends early, so B moves up to then, and C behind it; a reservation that
// cannot start earlier stays where it is.
TEST_CASE("phases: compression moves reservations up, never later") {
    SchedulerConfig c;
    c.procs = 4;
    c.reservation_depth = SchedulerConfig::kUnlimited;
    Scheduler s(c);
    s.submit(spec(1, 4, 100));  // A, running until 100
    s.submit(spec(2, 4, 100));  // B, reserved [100, 200)
    s.submit(spec(3, 2, 50));   // C, reserved [200, 250): B takes the machine first
    s.submit(spec(4, 4, 10));   // D, reserved [250, 260)
    s.schedule();
    drain(s);
    std::vector<ReservationInfo> rs;
    s.reservations(rs);
    REQUIRE(rs.size() == 3);
    CHECK(rs[0].start == 100);
    CHECK(rs[1].start == 200);
    CHECK(rs[2].start == 250);
    s.advance(30);
    s.job_end(1);
    s.schedule();  // B starts at 30; C moves to 130, D to 180
    rs.clear();
    s.reservations(rs);
    REQUIRE(rs.size() == 2);
    CHECK(rs[0].job == 3);
    CHECK(rs[0].start == 130);
    CHECK(rs[1].job == 4);
    CHECK(rs[1].start == 180);
    CHECK(s.find(2)->state == JobState::running);
    s.advance(40);
    s.submit(spec(5, 1, 5));  // arrivals only: nothing comes back, nothing moves
    s.schedule();
    rs.clear();
    s.reservations(rs);
    CHECK(rs[0].start == 130);
    CHECK(rs[1].start == 180);
}
