#include <catch2/catch.hpp>

#include "engine/error.h"
#include "engine/nodes.h"
#include "engine/profile.h"

using namespace rota;

TEST_CASE("profile: earliest slot after running jobs' estimated ends") {
    Profile p(10, {});
    p.take(0, 100, {6});  // a running job: 6 procs until t=100
    p.take(0, 50, {3});   // 3 procs until t=50
    CHECK(p.free_procs_at(0) == 1);
    CHECK(p.free_procs_at(50) == 4);
    CHECK(p.free_procs_at(100) == 10);
    CHECK(p.earliest(0, {1}, 1000) == 0);
    CHECK(p.earliest(0, {4}, 10) == 50);
    CHECK(p.earliest(0, {5}, 10) == 100);
    CHECK(p.earliest(60, {4}, 10) == 60);
    CHECK_FALSE(p.fits(0, {2}, 10));
    CHECK(p.fits(50, {4}, 10));
}

TEST_CASE("profile: a reservation blocks only its own window") {
    Profile p(10, {});
    p.take(0, 100, {8});     // running
    p.take(100, 200, {10});  // the head's reservation: the whole machine
    // 2 procs are free until 100: a job fits there only if it ends by 100.
    CHECK(p.fits(0, {2}, 100));
    CHECK_FALSE(p.fits(0, {2}, 101));
    CHECK(p.earliest(0, {2}, 150) == 200);
    p.give(100, 200, {10});
    CHECK(p.earliest(0, {2}, 150) == 0);
    CHECK(p.steps() == 3);  // merged back: before 0, [0,100), [100,inf)
}

TEST_CASE("profile: early end gives back the tail, advance forgets the past") {
    Profile p(4, {});
    p.take(0, 100, {4});
    p.give(40, 100, {4});  // ended at 40
    CHECK(p.free_procs_at(39) == 0);
    CHECK(p.free_procs_at(40) == 4);
    p.advance(40);
    CHECK(p.steps() == 1);
    CHECK(p.free_procs_at(40) == 4);
}

TEST_CASE("profile: pooled resources must all fit (seed 002 K resources)") {
    Profile p(16, {32});
    std::int64_t mem8[] = {8};
    std::int64_t mem30[] = {30};
    p.take(0, 10, {4, mem8});
    CHECK(p.fits(0, {12, mem8}, 10));
    CHECK_FALSE(p.fits(0, {1, mem30}, 10));
    CHECK(p.earliest(0, {1, mem30}, 5) == 10);
}

TEST_CASE("profile: a demand larger than the machine is an internal error") {
    Profile p(4, {});
    CHECK_THROWS_AS(p.earliest(0, {5}, 1), Error);
}

namespace {
std::vector<std::int32_t> flat(const std::vector<NodeRun>& runs) {
    std::vector<std::int32_t> v;
    NodePool::expand(runs, v);
    return v;
}
}  // namespace

TEST_CASE("node pool: lowest-numbered idle nodes, release makes them idle again") {
    NodePool n(130);
    std::vector<NodeRun> a, b;
    n.allocate(65, a);
    REQUIRE(a.size() == 1);  // one run across the word boundary
    CHECK(a[0].first == 0);
    CHECK(a[0].count == 65);
    n.allocate(3, b);
    CHECK(flat(b) == std::vector<std::int32_t>{65, 66, 67});
    CHECK(n.idle() == 62);
    n.release(a);
    CHECK(n.idle() == 127);
    std::vector<NodeRun> c;
    n.allocate(2, c);
    CHECK(flat(c) == std::vector<std::int32_t>{0, 1});
    CHECK_FALSE(n.is_idle(66));
    CHECK(n.is_idle(129));
}

TEST_CASE("node pool: allocations fill holes lowest first, as several runs") {
    NodePool n(200);
    std::vector<NodeRun> all, x, y;
    n.allocate(200, all);
    CHECK(n.idle() == 0);
    n.release({{10, 5}, {62, 4}, {150, 50}});
    CHECK(n.idle() == 59);
    n.allocate(12, x);
    CHECK(flat(x) == std::vector<std::int32_t>{10, 11, 12, 13, 14, 62, 63, 64, 65, 150, 151, 152});
    REQUIRE(x.size() == 3);  // 62..65 crosses a word boundary but stays one run
    n.allocate(47, y);
    CHECK(y.size() == 1);
    CHECK(y[0].first == 153);
    CHECK(y[0].count == 47);
    CHECK(n.idle() == 0);
    std::vector<std::int32_t> idle;
    n.idle_nodes(idle);
    CHECK(idle.empty());
}
