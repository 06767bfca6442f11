// pyss's event rules for equal timestamps (shared/traces/reference/README.md,
// rule 1) on hand-worked EASY scenarios: submissions first, then
// terminations in the order the jobs started, a pass after each, and a job
// that ends exactly at its estimate (killed by the engine at its walltime)
// is one of those terminations. The expected starts are pyss's own
// (EasyBackfillScheduler on the same jobs).
#include "support.h"

using namespace rota;
using rota::test::job;

namespace {

std::map<std::int64_t, std::int64_t> run_pyss(const std::vector<sim::TraceJob>& jobs) {
    auto e = rota::test::preset_engine("easy", 8);
    sim::SimOptions opt;
    opt.order = sim::EventOrder::pyss;
    return rota::test::starts(sim::simulate(e.get(), jobs, opt));
}

// 8 processors. At t = 10 two 2-wide jobs end: K exactly at its estimate
// (10 s), E early (estimate 20 s). W holds 4 until 100, so the head H (8
// wide) has its shadow at 100 with no extra processors. Waiting behind H:
// X (4 wide) and then Y and Z (2 wide each), all 50 s, so any of them
// ending by 100 may backfill at t = 10.
constexpr std::int64_t K = 1, E = 2, W = 3, H = 4, X = 5, Y = 6, Z = 7;

}  // namespace

TEST_CASE("pyss order: a job killed at its estimate ends in start order, with its own pass",
          "[simulate][pyss]") {
    SECTION("killed job started first: a pass with only its 2 processors free") {
        // pyss at t = 10: K's termination, pass: 2 free (K counts free, E
        // does not until its event) -> Y; E's termination, pass: 2 free ->
        // Z. X (4 wide) never saw 4 free at once, ends past the shadow
        // later, and runs after H. Handling K's end before the first pass
        // without a pass of its own shows 4 free at once and starts X.
        auto s = run_pyss({job(K, 0, 2, 10, 10), job(E, 0, 2, 10, 20), job(W, 0, 4, 100, 100),
                           job(H, 1, 8, 10, 10), job(X, 2, 4, 50, 50), job(Y, 3, 2, 50, 50),
                           job(Z, 3, 2, 50, 50)});
        CHECK(s[K] == 0);
        CHECK(s[E] == 0);
        CHECK(s[Y] == 10);
        CHECK(s[Z] == 10);
        CHECK(s[H] == 100);
        CHECK(s[X] == 110);
    }
    SECTION("killed job started second: the early end comes first and frees both") {
        // pyss at t = 10: E's termination, pass: E's 2 and K's expired 2
        // are free -> X; K's termination, pass: nothing fits.
        auto s = run_pyss({job(E, 0, 2, 10, 20), job(K, 0, 2, 10, 10), job(W, 0, 4, 100, 100),
                           job(H, 1, 8, 10, 10), job(X, 2, 4, 50, 50), job(Y, 3, 2, 50, 50),
                           job(Z, 3, 2, 50, 50)});
        CHECK(s[X] == 10);
        CHECK(s[H] == 100);
        CHECK(s[Y] == 110);
        CHECK(s[Z] == 110);
    }
    SECTION("submissions at the same instant come before both terminations") {
        // Y and Z arrive at t = 10. pyss: Y's submission, pass: K's 2
        // are free -> Y; Z's submission, pass: 0 free; K's termination,
        // pass: 0 free; E's termination, pass: 2 free -> Z.
        auto s = run_pyss({job(K, 0, 2, 10, 10), job(E, 0, 2, 10, 20), job(W, 0, 4, 100, 100),
                           job(H, 1, 8, 10, 10), job(X, 2, 4, 50, 50), job(Y, 10, 2, 50, 50),
                           job(Z, 10, 2, 50, 50)});
        CHECK(s[Y] == 10);
        CHECK(s[Z] == 10);
        CHECK(s[H] == 100);
        CHECK(s[X] == 110);
    }
}
