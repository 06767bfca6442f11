// The availability profile: small cases by hand, then agreement with a
// brute-force step function on random operations.
#include <algorithm>
#include <catch2/catch.hpp>
#include <initializer_list>
#include <random>
#include <vector>

#include "engine/error.h"
#include "engine/profile.h"

using namespace rota;

namespace {

using D = std::vector<std::int64_t>;

void take(Profile& p, Time a, Time b, D d) {
    p.take(a, b, d.data());
}
void give(Profile& p, Time a, Time b, D d) {
    p.give(a, b, d.data());
}
Time earliest(const Profile& p, Time from, D d, Time dur) {
    return p.earliest(from, d.data(), dur);
}
bool fits(const Profile& p, Time from, D d, Time dur) {
    return p.fits(from, d.data(), dur);
}

}  // namespace

TEST_CASE("profile: earliest slot after running jobs' estimated ends") {
    Profile p({10});
    take(p, 0, 100, {6});  // a running job: 6 procs until t=100
    take(p, 0, 50, {3});   // 3 procs until t=50
    CHECK(p.free_at(0) == 1);
    CHECK(p.free_at(50) == 4);
    CHECK(p.free_at(100) == 10);
    CHECK(earliest(p, 0, {1}, 1000) == 0);
    CHECK(earliest(p, 0, {4}, 10) == 50);
    CHECK(earliest(p, 0, {5}, 10) == 100);
    CHECK(earliest(p, 60, {4}, 10) == 60);
    CHECK_FALSE(fits(p, 0, {2}, 10));
    CHECK(fits(p, 50, {4}, 10));
    CHECK(p.fit_limit(0, 2) == 0);
    CHECK(p.fit_limit(0, 1) == kForever);
    CHECK(p.fit_limit(60, 5) == 60);
    CHECK(p.max_free(0, 50) == 1);
    CHECK(p.max_free(0, 51) == 4);
    CHECK(p.max_free(0, 101) == 10);
}

TEST_CASE("profile: a reservation blocks only its own window") {
    Profile p({10});
    take(p, 0, 100, {8});     // running
    take(p, 100, 200, {10});  // the head's reservation: the whole machine
    // 2 procs are free until 100: a job fits there only if it ends by 100.
    CHECK(fits(p, 0, {2}, 100));
    CHECK_FALSE(fits(p, 0, {2}, 101));
    CHECK(earliest(p, 0, {2}, 150) == 200);
    give(p, 100, 200, {10});
    CHECK(earliest(p, 0, {2}, 150) == 0);
    CHECK(p.steps() == 3);  // merged back: before 0, [0,100), [100,inf)
}

TEST_CASE("profile: early end gives back the tail, advance forgets the past") {
    Profile p({4});
    take(p, 0, 100, {4});
    give(p, 40, 100, {4});  // ended at 40
    CHECK(p.free_at(39) == 0);
    CHECK(p.free_at(40) == 4);
    p.advance(40);
    CHECK(p.steps() == 1);
    CHECK(p.free_at(40) == 4);
    take(p, 10, 60, {1});  // clipped to the present
    CHECK(p.free_at(40) == 3);
    CHECK(p.free_at(60) == 4);
}

TEST_CASE("profile: pooled resources must all fit ([Leinberger99] K resources)") {
    Profile p({16, 32});
    take(p, 0, 10, {4, 8});
    CHECK(fits(p, 0, {12, 8}, 10));
    CHECK_FALSE(fits(p, 0, {1, 30}, 10));
    CHECK(earliest(p, 0, {1, 30}, 5) == 10);
    CHECK(p.free_at(5, 1) == 24);
}

TEST_CASE("profile: a demand larger than the machine is an internal error") {
    Profile p({4});
    CHECK_THROWS_AS(earliest(p, 0, {5}, 1), Error);
}

TEST_CASE("profile: first_reach gives the first time each width could start") {
    Profile p({8});
    take(p, 0, 100, {8});
    give(p, 20, 100, {2});  // 2 free from 20
    give(p, 50, 100, {3});  // 5 free from 50
    std::vector<Time> first(7);
    p.first_reach(10, first);
    CHECK(first[1] == 20);
    CHECK(first[2] == 20);
    CHECK(first[3] == 50);
    CHECK(first[5] == 50);
    CHECK(first[6] == 100);
}

TEST_CASE("profile: run_start finds where a run of room that ends at a time begins") {
    Profile p({8});
    take(p, 0, 100, {8});
    give(p, 20, 100, {2});  // 2 free from 20
    give(p, 50, 100, {3});  // 5 free from 50
    CHECK(p.run_start(0, 80, 5) == 50);
    CHECK(p.run_start(0, 80, 2) == 20);
    CHECK(p.run_start(30, 80, 2) == 30);  // clipped to the floor
    CHECK(p.run_start(0, 40, 5) == 40);   // the instant before has less: no run
    CHECK(p.run_start(0, 150, 8) == 100);
}

namespace {

// A step function over integer times [0, kT) with a constant tail from kT
// on and a constant past before 0: the obvious model of a profile.
struct Model {
    static constexpr Time kT = 3000;
    std::size_t k;
    std::vector<std::int64_t> past, tail;
    std::vector<std::vector<std::int64_t>> at;  // [t][j]
    Time origin = kNoTime;

    explicit Model(const D& cap) : k(cap.size()), past(cap), tail(cap), at(kT, cap) {}

    std::int64_t v(Time t, std::size_t j) const {
        if (t < 0) return past[j];
        if (t >= kT) return tail[j];
        return at[static_cast<std::size_t>(t)][j];
    }
    void apply(Time a, Time b, const D& d, int sign) {
        if (origin != kNoTime) a = std::max(a, origin);
        for (Time t = a; t < b; ++t)
            for (std::size_t j = 0; j < k; ++j) {
                if (t >= kT) continue;
                at[static_cast<std::size_t>(t)][j] += sign * d[j];
            }
    }
    bool step_fits(Time t, const D& d) const {
        for (std::size_t j = 0; j < k; ++j)
            if (v(t, j) < d[j]) return false;
        return true;
    }
    // -1 when it never fits.
    Time earliest(Time from, const D& d, Time dur) const {
        Time t = from;
        if (t > kT) return step_fits(t, d) ? t : -1;  // the constant tail
        while (t <= kT) {
            Time bad = -1;
            for (Time x = t; x < t + dur && x <= kT; ++x)
                if (!step_fits(x, d)) {
                    bad = x;
                    break;
                }
            if (bad < 0) return t;
            t = bad + 1;
        }
        return -1;
    }
    Time fit_limit(Time from, std::int64_t need) const {
        for (Time x = from; x <= std::max(from, kT); ++x)
            if (v(x, 0) < need) return x;
        return kForever;
    }
    std::int64_t max_free(Time a, Time b, std::size_t j) const {
        std::int64_t m = v(a, j);
        for (Time x = a; x < b && x <= kT; ++x) m = std::max(m, v(x, j));
        return m;
    }
    // Distinct runs from the origin (or the past) on.
    std::size_t steps() const {
        Time from = origin == kNoTime ? -1 : origin;
        std::size_t n = 1;
        for (Time x = from + 1; x <= kT; ++x) {
            bool same = true;
            for (std::size_t j = 0; j < k; ++j) same = same && v(x, j) == v(x - 1, j);
            n += same ? 0 : 1;
        }
        return n;
    }
};

// max_len: the longest window taken; take_pct / give_pct: shares of the
// operations that take and give back windows (the rest: time, queries).
void random_walk(const D& cap, std::uint64_t seed, int ops, Time max_len = 400, int take_pct = 35,
                 int give_pct = 30) {
    Profile p(cap);
    Model m(cap);
    std::mt19937_64 rng(seed);
    auto uni = [&](Time lo, Time hi) { return std::uniform_int_distribution<Time>(lo, hi)(rng); };
    struct Held {
        Time a, b;
        D d;
    };
    std::vector<Held> held;  // windows taken and not given back yet
    Time now = 0;
    auto demand = [&](bool within) {
        D d(cap.size());
        for (std::size_t j = 0; j < cap.size(); ++j) d[j] = uni(0, within ? cap[j] : cap[j] + 2);
        return d;
    };
    for (int op = 0; op < ops; ++op) {
        const int kind = static_cast<int>(uni(0, 99));
        if (kind < take_pct || held.empty()) {  // take a window
            // Mostly as a scheduler would (at the earliest slot, so free
            // stays within capacity), sometimes anywhere (over-commits).
            Time a = uni(now, Model::kT - 1);
            const Time len = uni(1, max_len);
            D d = demand(true);
            if (kind % 4 != 0) {
                const Time t = m.earliest(a, d, len);
                if (t >= 0 && t < Model::kT) a = t;
            }
            Time b = std::min<Time>(a + len, Model::kT);
            take(p, a, b, d);
            m.apply(a, b, d, -1);
            held.push_back({std::max(a, now), b, d});
        } else if (kind < take_pct + give_pct) {  // give one back, possibly only its tail
            auto i = static_cast<std::size_t>(uni(0, static_cast<Time>(held.size()) - 1));
            Held h = held[i];
            held.erase(held.begin() + static_cast<std::ptrdiff_t>(i));
            Time a = std::max(h.a, now);
            if (a < h.b) {
                Time cut = uni(a, h.b - 1);
                give(p, cut, h.b, h.d);
                m.apply(cut, h.b, h.d, +1);
                if (cut > a) held.push_back({a, cut, h.d});
            }
        } else if (kind < take_pct + give_pct + 3) {  // time passes
            now = std::min<Time>(now + uni(0, 60), Model::kT - 500);
            p.advance(now);
            m.origin = now;
            for (Held& h : held) h.a = std::max(h.a, now);
        } else {  // queries
            Time from = uni(now, Model::kT + 10);
            D d = demand(false);
            Time dur = uni(1, std::min<Time>(500, 2 * max_len));
            const Time want = m.earliest(from, d, dur);
            if (want < 0) {
                CHECK_THROWS_AS(p.earliest(from, d.data(), dur), Error);
            } else {
                REQUIRE(p.earliest(from, d.data(), dur) == want);
            }
            // A bounded search (compression's "could it start earlier?")
            // gives the same start, or none if that is past the bound.
            const Time latest = uni(from, Model::kT + 600);
            const Time bounded = want >= 0 && want <= latest ? want : kForever;
            REQUIRE(p.earliest(from, d.data(), dur, latest) == bounded);
            REQUIRE(p.fits(from, d.data(), dur) == (want == from));
            REQUIRE(p.fit_limit(from, d[0]) == m.fit_limit(from, d[0]));
            const auto j = static_cast<std::size_t>(uni(0, static_cast<Time>(cap.size()) - 1));
            REQUIRE(p.free_at(from, j) == m.v(from, j));
            Time to = from + uni(1, 700);
            REQUIRE(p.max_free(from, to, j) == m.max_free(from, to, j));
            Time run = to;
            while (run > from && m.v(run - 1, 0) >= d[0]) --run;
            REQUIRE(p.run_start(from, to, d[0]) == run);
            std::vector<Time> first(static_cast<std::size_t>(cap[0]) + 2);
            p.first_reach(from, first);
            for (std::size_t w = 1; w < first.size(); ++w) {
                Time x = from;
                while (x <= Model::kT && m.v(x, 0) < static_cast<std::int64_t>(w)) ++x;
                const bool never = m.v(std::max(x, from), 0) < static_cast<std::int64_t>(w);
                REQUIRE(first[w] == (never ? kForever : std::max(x, from)));
            }
        }
        REQUIRE_NOTHROW(p.check());
        REQUIRE(p.steps() == m.steps());
    }
    CHECK(p.steps() == m.steps());
}

}  // namespace

TEST_CASE("profile: agrees with a brute-force step function on 220,000 random operations",
          "[profile][property]") {
    SECTION("processors only") {
        random_walk({12}, 1, 60'000);
    }
    SECTION("processors and two pools") {
        random_walk({6, 9, 3}, 2, 40'000);
    }
    SECTION("a long profile of short windows: many chunks, searched run by run") {
        random_walk({40}, 3, 40'000, 30, 50, 15);
    }
    SECTION("a long, loaded profile: whole chunks too full for a wide demand") {
        random_walk({16}, 4, 40'000, 40, 55, 10);
        random_walk({6}, 5, 40'000, 60, 55, 10);
    }
}

// Blocks of steps alternately roomy and full, long enough that whole chunks
// fall inside a full block: a run that fits may end exactly where a chunk
// begins, which a search crossing chunks by their summaries must notice.
TEST_CASE("profile: a search crossing chunks finds runs that end at a chunk boundary",
          "[profile]") {
    const std::int64_t cap = 100;
    std::mt19937_64 rng(7);
    auto uni = [&](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    for (int trial = 0; trial < 300; ++trial) {
        // Chunks of a profile this short split in halves of 16 steps:
        // blocks of a multiple of 8 steps, shifted, often begin or end
        // where a chunk does.
        const std::int64_t roomy_len = 8 * uni(1, 4), full_len = 8 * uni(1, 8);
        const std::int64_t block = roomy_len + full_len, shift = uni(0, block);
        Profile p({cap});
        std::vector<std::int64_t> level;  // free during [10 s, 10 s + 10)
        for (std::int64_t s = 0; s < 400; ++s) {
            const bool roomy = (s + shift) % block < roomy_len;
            std::int64_t v = roomy ? uni(50, 60) : uni(0, 10);
            if (!level.empty() && v == level.back()) v += v == 60 || v == 10 ? -1 : 1;
            level.push_back(v);
            const std::int64_t d = cap - v;
            p.take(10 * s, 10 * s + 10, &d);
        }
        REQUIRE_NOTHROW(p.check());
        const Time end = 10 * static_cast<Time>(level.size());
        auto free_at = [&](Time u) {
            return u >= end ? cap : level[static_cast<std::size_t>(u / 10)];
        };
        // Candidate starts: `from`, then every step start after it.
        auto brute = [&](Time from, std::int64_t x, Time dur) -> Time {
            for (Time t = from;; t = (t / 10 + 1) * 10) {
                bool ok = true;
                for (Time u = t; u < t + dur && ok; u = (u / 10 + 1) * 10) ok = free_at(u) >= x;
                if (ok) return t;
            }
        };
        for (int q = 0; q < 100; ++q) {
            const Time from = uni(0, end - 1);
            const std::int64_t x = uni(40, 60);
            const Time dur = uni(1, 10 * block + 20);
            INFO("block " << block << " from " << from << " x " << x << " dur " << dur);
            const Time want = brute(from, x, dur);
            REQUIRE(p.earliest(from, &x, dur) == want);
            const Time latest = uni(from, end + 20);
            REQUIRE(p.earliest(from, &x, dur, latest) == (want <= latest ? want : kForever));
        }
    }
}

// The bound on a chunk's steps follows the profile's length (32 up to 6,144
// steps, 64 up to 24,576, then 128): a profile that grows through every
// bound and shrinks back keeps its invariants and its answers, and a short
// one is cut finer than a long one.
TEST_CASE("profile: chunks follow the profile's length as it grows and shrinks", "[profile]") {
    const std::int64_t cap = 100;
    std::mt19937_64 rng(11);
    auto uni = [&](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    Profile p({cap});
    std::vector<std::int64_t> level;  // free during [10 s, 10 s + 10); cap after
    Time origin = 0;
    auto free_at = [&](Time u) {
        const auto s = static_cast<std::size_t>(u / 10);
        return s < level.size() ? level[s] : cap;
    };
    auto brute = [&](Time from, std::int64_t x, Time dur) -> Time {
        for (Time t = from;; t = (t / 10 + 1) * 10) {
            bool ok = true;
            for (Time u = t; u < t + dur && ok; u = (u / 10 + 1) * 10) ok = free_at(u) >= x;
            if (ok) return t;
        }
    };
    // Steps: the free past until time is advanced, runs of equal levels
    // from the origin's on, then the free tail.
    bool advanced = false;
    auto model_steps = [&] {
        std::size_t n = advanced ? 1 : 2;
        for (std::size_t s = static_cast<std::size_t>(origin / 10) + 1; s < level.size(); ++s)
            n += level[s] != level[s - 1] ? 1 : 0;
        return n + 1;
    };
    auto agree = [&](int queries) {
        REQUIRE_NOTHROW(p.check());
        REQUIRE(p.steps() == model_steps());
        const Time end = 10 * static_cast<Time>(level.size());
        for (int q = 0; q < queries; ++q) {
            const Time from = uni(origin, end);
            const std::int64_t x = uni(1, cap);
            const Time dur = uni(1, 400);
            INFO("steps " << p.steps() << " from " << from << " x " << x << " dur " << dur);
            REQUIRE(p.earliest(from, &x, dur) == brute(from, x, dur));
            REQUIRE(p.free_at(from) == free_at(from));
        }
    };
    auto grow_to = [&](std::size_t steps) {
        while (level.size() < steps) {  // adjacent levels differ: one step each
            const auto s = static_cast<Time>(level.size());
            std::int64_t v = uni(0, cap - 2);  // below cap: never the tail's level
            if (!level.empty() && v == level.back()) ++v;
            level.push_back(v);
            const std::int64_t d = cap - v;
            p.take(10 * s, 10 * s + 10, &d);
        }
    };
    grow_to(3000);
    CHECK(p.steps() == 3002);  // and the free past and tail
    // Appended steps split the last chunk in halves: of 16 and 17 steps
    // here (about 180 chunks), of 32 and 33 under a bound of 64 (about 90).
    CHECK(p.chunks() > 3000 / 24);
    agree(200);
    grow_to(30000);
    CHECK(p.steps() == 30002);
    // Chunks made while it was short stay as they were; those made past
    // 6,144 and 24,576 steps are larger: about 1,040 chunks, where a bound
    // of 32 all along would give about 1,800.
    CHECK(p.chunks() < 30000 / 24);
    agree(100);
    // Levelling runs of steps merges them: back through every bound.
    for (std::size_t s = 0; s + 1 < level.size(); s += 2) {
        const std::int64_t d = level[s + 1] - level[s];
        const Time a = 10 * static_cast<Time>(s);
        if (d > 0) p.take(a + 10, a + 20, &d);
        if (d < 0) {
            const std::int64_t up = -d;
            p.give(a + 10, a + 20, &up);
        }
        level[s + 1] = level[s];
        if (s % 4000 == 0) REQUIRE_NOTHROW(p.check());
    }
    CHECK(p.steps() < 15002);
    agree(100);
    origin = 10 * 27000;
    p.advance(origin);
    advanced = true;
    CHECK(p.steps() < 1502);
    agree(100);
}
