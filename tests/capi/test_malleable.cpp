// Malleable jobs under the iScheduler ([Weissman03]): Figure 3(b) step by
// step through the C ABI, each shipped harvest policy where the victims
// differ, favor running against favor queued on one termination, the
// control policy refusing harvests, the execution models and adaptation
// costs in the expected ends, and bad input. Times are seconds.
#include <algorithm>
#include <random>
#include <set>
#include <sstream>

#include "support.h"

using rota::test::Act;
using rota::test::at;
using rota::test::counters;
using rota::test::drain;
using rota::test::engine_from;
using rota::test::EnginePtr;
using rota::test::hook_stats;
using rota::test::info;
using rota::test::range;
using rota::test::wakeup_s;

namespace {

constexpr std::int64_t kUs = 1'000'000;

void submit(rota_engine* e, std::int64_t id, std::int32_t min, std::int32_t ideal,
            std::int64_t estimate_s, std::int64_t bytes = 0) {
    rota_job j{};
    j.size = sizeof(j);
    j.id = id;
    j.estimate = estimate_s * kUs;
    j.procs = ideal;
    j.user = -1;
    j.min_procs = min;
    j.adapt_bytes = bytes;
    INFO(rota_errmsg(e));
    REQUIRE(rota_submit(e, &j) == ROTA_OK);
}

std::string malleable(int procs, const std::string& harvest, const std::string& distribution,
                      const std::string& extra = "") {
    std::ostringstream os;
    os << "[machine]\nprocs = " << procs << "\n[malleable]\n" << extra << "\n";
    if (!harvest.empty()) os << "[policy.harvest]\nscript = \"" << harvest << "\"\n";
    if (!distribution.empty()) os << "[policy.distribution]\nscript = \"" << distribution << "\"\n";
    return os.str();
}

// The lines the engine logs (a script's print()) go to `lines`.
void capture_log(rota_engine* e, std::vector<std::string>& lines) {
    auto sink = [](void* ud, int, const char* l) {
        static_cast<std::vector<std::string>*>(ud)->push_back(l);
    };
    REQUIRE(rota_set_log(e, sink, &lines) == ROTA_OK);
}

bool logged(const std::vector<std::string>& lines, const std::string& text) {
    return std::any_of(lines.begin(), lines.end(),
                       [&](const std::string& l) { return l.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("[Weissman03] Figure 3(b): Even-H-FQ on 8 processors step by step", "[capi][malleable]") {
    EnginePtr e = engine_from(malleable(8, "harvest/even.lua", "distribution/favor_queued.lua"));
    // (1) J1 and J2 (min 2, ideal 4) arrive at the idle machine: their ideal each.
    submit(e.get(), 1, 2, 4, 1000);
    submit(e.get(), 2, 2, 4, 1000);
    auto a = at(e.get(), 0);
    REQUIRE(a.size() == 2);
    CHECK((a[0].type == ROTA_ACTION_START && a[0].job == 1 && a[0].nodes == range(0, 3)));
    CHECK((a[1].type == ROTA_ACTION_START && a[1].job == 2 && a[1].nodes == range(4, 7)));
    // (2) J3 (min 4) finds nothing free: even harvest takes 2 from each.
    submit(e.get(), 3, 4, 4, 100);
    a = at(e.get(), 10);
    REQUIRE(a.size() == 3);
    CHECK((a[0].type == ROTA_ACTION_SHRINK && a[0].job == 1 &&
           a[0].nodes == std::vector<std::int32_t>{2, 3}));
    CHECK((a[1].type == ROTA_ACTION_SHRINK && a[1].job == 2 &&
           a[1].nodes == std::vector<std::int32_t>{6, 7}));
    CHECK((a[2].type == ROTA_ACTION_START && a[2].job == 3 &&
           a[2].nodes == std::vector<std::int32_t>{2, 3, 6, 7}));
    CHECK(info(e.get(), 1).nodes == 2);
    CHECK(info(e.get(), 1).harvests == 1);
    // 10 s of 1000 at 4 processors done; the rest, 0.99 x 2000 s on 2.
    CHECK(info(e.get(), 1).progress == Approx(0.01));
    // J4 (min 4) cannot be harvested without taking someone below min: it waits.
    submit(e.get(), 4, 4, 4, 1000);
    a = at(e.get(), 20);
    CHECK(a.empty());
    CHECK(info(e.get(), 4).state == ROTA_JOB_QUEUED);
    rota_counters c = counters(e.get());
    CHECK(c.harvest_attempts == 2);
    CHECK(c.harvests == 1);
    CHECK(c.shrinks == 2);
    // The harvest script was asked once: J4's harvest could not be met by
    // any answer, so the engine did not ask.
    CHECK(hook_stats(e.get(), ROTA_HOOK_HARVEST).calls == 1);
    // (3) J3 finishes: favor queued gives its 4 processors to J4.
    REQUIRE(rota_advance(e.get(), 30 * kUs) == ROTA_OK);
    REQUIRE(rota_job_end(e.get(), 3) == ROTA_OK);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    a = drain(e.get());
    REQUIRE(a.size() == 1);
    CHECK((a[0].type == ROTA_ACTION_START && a[0].job == 4 &&
           a[0].nodes == std::vector<std::int32_t>{2, 3, 6, 7}));
    // J1 and J2 run 2 processors from 10 s: 0.99 x 2000 s more, to 1990 s;
    // J4's walltime ends first, at 1030 s.
    CHECK(wakeup_s(e.get()) == 1030);
    // At 1030 s J4 is killed; nothing waits, so J1 and J2 grow back to 4
    // (the inverse of even harvest): 0.48 of their work left, 480 s on 4.
    a = at(e.get(), 1030);
    REQUIRE(a.size() == 3);
    CHECK((a[0].type == ROTA_ACTION_KILL && a[0].job == 4));
    CHECK((a[1].type == ROTA_ACTION_GROW && a[1].job == 1 &&
           a[1].nodes == std::vector<std::int32_t>{2, 3}));
    CHECK((a[2].type == ROTA_ACTION_GROW && a[2].job == 2 &&
           a[2].nodes == std::vector<std::int32_t>{6, 7}));
    CHECK(wakeup_s(e.get()) == 1510);
    CHECK(info(e.get(), 1).nodes == 4);
}

// A node back in service frees processors as an end does (Figure 3(a),
// termination): a job that waited for them starts at the next pass. Before,
// only an end ran the distribution, and with nothing running the job
// waited for ever with the machine idle.
TEST_CASE("[Weissman03] a node back in service starts the job that waited for it",
          "[capi][malleable]") {
    EnginePtr e = engine_from(malleable(4, "", ""));
    REQUIRE(rota_node_down(e.get(), 3, ROTA_NODE_REQUEUE) == ROTA_OK);
    // J1 needs all 4 processors (min 4): 3 are up, nothing runs to harvest.
    submit(e.get(), 1, 4, 4, 100);
    auto a = at(e.get(), 0);
    CHECK(a.empty());
    CHECK(info(e.get(), 1).state == ROTA_JOB_QUEUED);
    rota_time w = 0;
    CHECK(rota_next_wakeup(e.get(), &w) == ROTA_DONE);
    // Node 3 comes back at 50 s: J1 starts on the four.
    REQUIRE(rota_advance(e.get(), 50 * kUs) == ROTA_OK);
    REQUIRE(rota_node_up(e.get(), 3) == ROTA_OK);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    a = drain(e.get());
    REQUIRE(a.size() == 1);
    CHECK((a[0].type == ROTA_ACTION_START && a[0].job == 1 && a[0].nodes == range(0, 3)));
    CHECK(wakeup_s(e.get()) == 150);
}

TEST_CASE("[Weissman03] §4.1: an adaptation suspends the job for its cost and delays its end",
          "[capi][malleable]") {
    // 1 s + 0.00009 s per byte shipped; STEN N = 128 (2 N^2 x 8 bytes) on
    // 4 processors: about 7 s (§4.1).
    EnginePtr e = engine_from(
        malleable(8, "harvest/even.lua", "", "adapt_latency = 1\nadapt_per_byte = 0.00009\n"));
    submit(e.get(), 1, 2, 8, 1000, 2 * 128 * 128 * 8);
    at(e.get(), 0);
    submit(e.get(), 2, 4, 4, 100);
    auto a = at(e.get(), 100);
    REQUIRE(a.size() == 2);
    CHECK(a[0].type == ROTA_ACTION_SHRINK);
    // The cost is paid at the size held before: 8 processors.
    const double cost = 1 + 0.00009 * (2.0 * 128 * 128 * 8) / 8;
    CHECK(a[0].delay == Approx(cost).margin(1e-6));
    // 0.9 of the work left, at 4 of an ideal 8 (linear: 2000 s), after the pause.
    REQUIRE(rota_advance(e.get(), 150 * kUs) == ROTA_OK);
    const std::int64_t expected_end = 100 + static_cast<std::int64_t>(std::ceil(cost + 1800));
    // J2's walltime (200 s) comes first, then J1's.
    CHECK(wakeup_s(e.get()) == 200);
    a = at(e.get(), 200);
    REQUIRE(a.size() >= 1);
    CHECK(a[0].type == ROTA_ACTION_KILL);
    // J1 grows back to 8, paying the cost again (at 4 processors).
    REQUIRE(a.size() == 2);
    CHECK(a[1].type == ROTA_ACTION_GROW);
    const double cost4 = 1 + 0.00009 * (2.0 * 128 * 128 * 8) / 4;
    CHECK(a[1].delay == Approx(cost4).margin(1e-6));
    const double done = 0.1 + (200 - 100 - cost) / 2000.0;
    const auto end = static_cast<std::int64_t>(200 + cost4 + (1 - done) * 1000);
    CHECK(std::abs(wakeup_s(e.get()) - end) <= 1);
    CHECK(expected_end > end);  // growing back ended it sooner than staying on 4
}

TEST_CASE("[Weissman03] §4.3: parabolic execution model", "[capi][malleable]") {
    // a/P + bP with a = P_ideal RT / 2, b = RT / (2 P_ideal): on 4 of an
    // ideal 8 with RT 1000 s, 1000 + 250 = 1250 s.
    EnginePtr e = engine_from(malleable(4, "", "", "exec_model = \"parabolic\"\n"));
    submit(e.get(), 1, 2, 8, 1000);
    auto a = at(e.get(), 0);
    REQUIRE(a.size() == 1);
    CHECK(a[0].nodes.size() == 4);  // MOLDABLE-like start: min(free, ideal)
    CHECK(wakeup_s(e.get()) == 1250);
}

TEST_CASE("[Weissman03] §2.2: harvest policies differ in their victims", "[capi][malleable]") {
    // 12 processors. A (min 1, ideal 4) at 0, B (min 1, ideal 8) at 100
    // fill the machine with their ideal. A has run longer; B has more time
    // left (estimates 400 s and 10000 s); B holds 8 of 8 and A 4 of 4.
    // Then C (min 3, ideal 3) arrives at 200 s.
    struct Case {
        const char* script;
        std::int32_t a_after, b_after;
    };
    // even: round robin A, B, A: A 2, B 7. long: A is older (age 200 >
    // average 150): all 3 from A, to 1. short: B has more time left: all 3
    // from B. low_impact: keeps the larger share of ideal: B 7/8 > A 3/4,
    // then B 6/8 = A 3/4 tie to the earlier started (A), then B: A 3, B 6.
    const Case cases[] = {{"harvest/even.lua", 2, 7},
                          {"harvest/long.lua", 1, 8},
                          {"harvest/short.lua", 4, 5},
                          {"harvest/low_impact.lua", 3, 6},
                          {"harvest/fair.lua", 2, 7}};
    for (const Case& k : cases) {
        INFO(k.script);
        EnginePtr e = engine_from(malleable(12, k.script, ""));
        submit(e.get(), 1, 1, 4, 400);
        at(e.get(), 0);
        submit(e.get(), 2, 1, 8, 10000);
        at(e.get(), 100);
        submit(e.get(), 3, 3, 3, 100);
        auto a = at(e.get(), 200);
        REQUIRE(!a.empty());
        CHECK(a.back().type == ROTA_ACTION_START);
        CHECK(a.back().job == 3);
        CHECK(info(e.get(), 1).nodes == k.a_after);
        CHECK(info(e.get(), 2).nodes == k.b_after);
    }
}

TEST_CASE("[Weissman03] §2.2: fair harvest spreads harvests across events", "[capi][malleable]") {
    // Even harvest takes from A again at the second event; fair takes only
    // from jobs below the average number of harvests suffered.
    EnginePtr e = engine_from(malleable(12, "harvest/fair.lua", ""));
    submit(e.get(), 1, 1, 6, 10000);
    submit(e.get(), 2, 1, 6, 10000);
    at(e.get(), 0);
    submit(e.get(), 3, 1, 1, 10000);  // takes 1: from A (round robin, first)
    at(e.get(), 10);
    CHECK(info(e.get(), 1).harvests == 1);
    CHECK(info(e.get(), 2).harvests == 0);
    submit(e.get(), 4, 1, 1, 10000);  // fair: B is below the average (0.5), A is not
    at(e.get(), 20);
    CHECK(info(e.get(), 1).nodes == 5);
    CHECK(info(e.get(), 2).nodes == 5);
    CHECK(info(e.get(), 2).harvests == 1);
}

TEST_CASE("[Weissman03] §2.2: favor running grows running jobs, favor queued starts waiting ones",
          "[capi][malleable]") {
    // 8 processors, M = 2. A (min 2, ideal 8) on 8; B (min 4, ideal 4)
    // harvests 4 from A; C (min 2, ideal 2) arrives with M = 2 reached and
    // waits. B ends: M = 2 is not met (A alone), so admission starts C on
    // 2 first under both; the 2 left go to A under FR, and under FQ to A
    // too (nothing else waits). A second waiting job D makes the
    // difference: FQ starts it, FR grows A.
    for (const char* d : {"distribution/favor_running.lua", "distribution/favor_queued.lua"}) {
        INFO(d);
        const bool fr = std::string(d).find("running") != std::string::npos;
        EnginePtr e = engine_from(malleable(8, "harvest/even.lua", d, "mpl_limit = 2\n"));
        submit(e.get(), 1, 2, 8, 10000);
        at(e.get(), 0);
        submit(e.get(), 2, 4, 4, 10000);
        at(e.get(), 10);  // SHRINK A to 4, START B on 4
        submit(e.get(), 3, 2, 2, 10000);
        submit(e.get(), 4, 2, 2, 10000);
        CHECK(at(e.get(), 20).empty());  // M = 2 reached: both wait
        REQUIRE(rota_advance(e.get(), 30 * kUs) == ROTA_OK);
        REQUIRE(rota_job_end(e.get(), 2) == ROTA_OK);
        REQUIRE(rota_schedule(e.get()) == ROTA_OK);
        auto a = drain(e.get());
        // Admission first: C restores M = 2 (2 of the 4 free).
        REQUIRE(a.size() == 2);
        CHECK((a[0].type == ROTA_ACTION_START && a[0].job == 3));
        if (fr) {
            CHECK((a[1].type == ROTA_ACTION_GROW && a[1].job == 1 && a[1].nodes.size() == 2));
            CHECK(info(e.get(), 4).state == ROTA_JOB_QUEUED);
        } else {
            CHECK((a[1].type == ROTA_ACTION_START && a[1].job == 4));
            CHECK(info(e.get(), 1).nodes == 4);
        }
    }
}

TEST_CASE("[Weissman03] §2.2: the control policy refuses harvests", "[capi][malleable]") {
    auto harvested = [](const std::string& extra, std::int64_t arrive_s) {
        EnginePtr e = engine_from(malleable(8, "harvest/even.lua", "", extra));
        submit(e.get(), 1, 2, 8, 10000);
        at(e.get(), 0);
        submit(e.get(), 2, 2, 2, 10000);
        at(e.get(), arrive_s);  // the first harvest
        submit(e.get(), 3, 2, 2, 10000);
        at(e.get(), arrive_s + 1);  // the second
        return counters(e.get()).harvests;
    };
    CHECK(harvested("", 10) == 2);
    // Most harvests per job: A may be harvested once.
    CHECK(harvested("max_harvests = 1\n", 10) == 1);
    // Protection age: A is 10 s old at the first request, 11 s at the second.
    CHECK(harvested("protect_age = 11\n", 10) == 1);
    CHECK(harvested("protect_age = 60\n", 10) == 0);
    // Cost against benefit: a 10 s adaptation of A on 6 processors costs
    // 60 processor-seconds; the job would otherwise wait for A's end (10000
    // s): harvesting is worth it. With a huge cost it is not.
    CHECK(harvested("cost_benefit = true\nadapt_latency = 10\n", 10) == 2);
    CHECK(harvested("cost_benefit = true\nadapt_latency = 100000\n", 10) == 0);
}

TEST_CASE(
    "[Weissman03]: a job is never below its min nor above its ideal and broken scripts fall back",
    "[capi][malleable]") {
    // Random arrivals and ends under a harvest script that answers at
    // random: sometimes valid, sometimes nonsense. The engine checks every
    // answer, so the invariants hold and every job is accounted for.
    const std::string dir = std::string(ROTA_TEST_DATA) + "/lua";
    for (const char* script : {"harvest/even.lua", "harvest/low_impact.lua", "bad_harvest.lua"}) {
        INFO(script);
        EnginePtr e =
            engine_from(malleable(32, script, "distribution/favor_running.lua", "mpl_limit = 6\n"),
                        dir.c_str());
        std::mt19937 rng(7);
        std::map<std::int64_t, std::pair<int, int>> spec;  // id -> (min, ideal)
        std::map<std::int64_t, std::int32_t> size;         // running: nodes
        std::set<std::int64_t> done;
        std::int64_t t = 0, next_id = 0;
        auto apply = [&](const std::vector<Act>& acts) {
            for (const Act& a : acts) {
                switch (a.type) {
                    case ROTA_ACTION_START:
                        size[a.job] = static_cast<std::int32_t>(a.nodes.size());
                        break;
                    case ROTA_ACTION_GROW:
                        size[a.job] += static_cast<std::int32_t>(a.nodes.size());
                        break;
                    case ROTA_ACTION_SHRINK:
                        size[a.job] -= static_cast<std::int32_t>(a.nodes.size());
                        break;
                    case ROTA_ACTION_KILL:
                        size.erase(a.job);
                        done.insert(a.job);
                        break;
                    default:
                        FAIL("unexpected action " << a.type);
                }
            }
        };
        for (int step = 0; step < 400; ++step) {
            t += 1 + static_cast<std::int64_t>(rng() % 20);
            REQUIRE(rota_advance(e.get(), t * kUs) == ROTA_OK);
            apply(drain(e.get()));  // walltime kills
            if (rng() % 3 != 0) {
                const int ideal = 1 + static_cast<int>(rng() % 16);
                const int min = 1 + static_cast<int>(rng() % static_cast<unsigned>(ideal));
                spec[next_id] = {min, ideal};
                submit(e.get(), next_id++, min, ideal, 50 + rng() % 400);
            }
            if (!size.empty() && rng() % 2 == 0) {
                auto it = size.begin();
                std::advance(it, rng() % size.size());
                REQUIRE(rota_job_end(e.get(), it->first) == ROTA_OK);
                done.insert(it->first);
                size.erase(it);
            }
            REQUIRE(rota_schedule(e.get()) == ROTA_OK);
            apply(drain(e.get()));
            std::int64_t used = 0;
            for (const auto& [id, n] : size) {
                CHECK(n >= spec[id].first);
                CHECK(n <= spec[id].second);
                CHECK(info(e.get(), id).nodes == n);
                used += n;
            }
            REQUIRE(used <= 32);
            size_t queued = 0;
            REQUIRE(rota_queue(e.get(), nullptr, 0, &queued) == ROTA_OK);
            CHECK(queued + size.size() + done.size() == static_cast<size_t>(next_id));
        }
        const rota_counters c = counters(e.get());
        CHECK(c.harvests > 0);
        if (std::string(script) == "bad_harvest.lua")
            CHECK(hook_stats(e.get(), ROTA_HOOK_HARVEST).failures > 0);
    }
}

TEST_CASE("[Weissman03]: a harvest policy sees the arriving job's user, account, partition and QOS",
          "[capi][malleable][names]") {
    // 8 processors: A (min 2, ideal 8) on all 8 at 0. B (min 4), charged
    // to "blocked", arrives at 10: the policy refuses to harvest for its
    // account and B waits. C (min 4, user 3), charged to "ok", arrives at
    // 20: 4 processors are taken from A and C starts on them.
    const std::string dir = std::string(ROTA_TEST_DATA) + "/lua";
    EnginePtr e = engine_from(malleable(8, "", "",
                                        "[policy.harvest]\nscript = \"harvest_by_account.lua\"\n"
                                        "refuse = \"blocked\"\n"),
                              dir.c_str());
    std::vector<std::string> lines;
    capture_log(e.get(), lines);
    auto named = [&](std::int64_t id, std::int32_t min, std::int32_t ideal, std::int32_t user,
                     const char* account, const char* partition, const char* qos) {
        rota_job j{};
        j.size = sizeof(j);
        j.id = id;
        j.estimate = 10000 * kUs;
        j.procs = ideal;
        j.min_procs = min;
        j.user = user;
        j.account = account;
        j.partition = partition;
        j.qos = qos;
        INFO(rota_errmsg(e.get()));
        REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    };
    named(1, 2, 8, -1, "a", "", "");
    REQUIRE(at(e.get(), 0).size() == 1);
    named(2, 4, 4, -1, "blocked", "batch", "");
    CHECK(at(e.get(), 10).empty());
    CHECK(info(e.get(), 2).state == ROTA_JOB_QUEUED);
    CHECK(info(e.get(), 1).nodes == 8);
    named(3, 4, 4, 3, "ok", nullptr, "high");
    auto a = at(e.get(), 20);
    REQUIRE(a.size() == 2);
    CHECK((a[0].type == ROTA_ACTION_SHRINK && a[0].job == 1 && a[0].nodes.size() == 4));
    CHECK((a[1].type == ROTA_ACTION_START && a[1].job == 3 && a[1].nodes.size() == 4));
    CHECK(info(e.get(), 1).nodes == 4);
    CHECK(info(e.get(), 2).state == ROTA_JOB_QUEUED);
    const rota_hook_stats st = hook_stats(e.get(), ROTA_HOOK_HARVEST);
    CHECK(st.calls == 2);
    CHECK(st.failures == 0);
    CHECK(counters(e.get()).harvests == 1);
    const std::vector<std::string> want = {
        "job 2 user=-1 account=blocked partition=batch qos=",
        "job 3 user=3 account=ok partition= qos=high",
    };
    for (const std::string& w : want) {
        INFO(w);
        CHECK(logged(lines, w));
    }
}

TEST_CASE("[Weissman03]: a harvest policy reads every column of its victims as the job stands",
          "[capi][malleable][names]") {
    // 8 processors, a 2 s adaptation. A (min 2, ideal 8, estimate 1000 s,
    // user 7, account "lab", QOS "high") runs on all 8 from 0. B (min 4)
    // arrives at 100: A is the one victim, 100 s old, 900 s of its 1000 s
    // at 8 processors left (a tenth done), never harvested. After the
    // harvest A holds 4 and, 2 s of pause later, runs at half speed: its
    // 0.9 of the work left takes 1,800 s, so it ends at 1,902. C (min 2)
    // arrives at 300 and harvests A again: 1,602 s left, one harvest, 0.2
    // done (0.1 + 198 s at 1/2000 of the work a second).
    const std::string dir = std::string(ROTA_TEST_DATA) + "/lua";
    EnginePtr e = engine_from(malleable(8, "", "",
                                        "adapt_latency = 2\n[policy.harvest]\n"
                                        "script = \"harvest_columns.lua\"\n"),
                              dir.c_str());
    std::vector<std::string> lines;
    capture_log(e.get(), lines);
    rota_job a{};
    a.size = sizeof(a);
    a.id = 1;
    a.estimate = 1000 * kUs;
    a.procs = 8;
    a.min_procs = 2;
    a.user = 7;
    a.account = "lab";
    a.qos = "high";
    REQUIRE(rota_submit(e.get(), &a) == ROTA_OK);
    REQUIRE(at(e.get(), 0).size() == 1);
    submit(e.get(), 2, 4, 4, 5000);
    REQUIRE(at(e.get(), 100).size() == 2);
    submit(e.get(), 3, 2, 2, 5000);
    REQUIRE(at(e.get(), 300).size() == 2);
    const std::vector<std::string> want = {
        "victim 1 procs=8 min=2 ideal=8 queued=0 age=100000000 time_left=900000000 harvests=0 "
        "cost=2.000 progress=0.100 user=7 account=lab partition= qos=high",
        "victim 1 procs=4 min=2 ideal=8 queued=0 age=300000000 time_left=1602000000 harvests=1 "
        "cost=2.000 progress=0.199 user=7 account=lab partition= qos=high",
    };
    for (const std::string& w : want) {
        INFO(w);
        CHECK(logged(lines, w));
    }
    CHECK(counters(e.get()).harvests == 2);
}

TEST_CASE(
    "[Weissman03]: a job whose run on its min or whose adaptation leaves the time axis is refused",
    "[capi][malleable]") {
    // An estimate the engine accepts for a rigid job runs ideal / min times
    // longer on the min (linear model): 8x past the axis here, where it
    // once wrapped round and the job was killed as it started.
    EnginePtr e = engine_from(malleable(16, "", "", "adapt_per_byte = 1000\n"));
    rota_job j{};
    j.size = sizeof(j);
    j.id = 1;
    j.estimate = std::int64_t{1} << 60;  // 2^60 us: below the axis's quarter
    j.procs = 8;
    j.min_procs = 1;
    CHECK(rota_submit(e.get(), &j) == ROTA_EINVAL);
    CHECK(std::string(rota_errmsg(e.get())).find("on its min of 1 processors") !=
          std::string::npos);
    j.min_procs = 8;  // rigid: the estimate alone, accepted
    CHECK(rota_submit(e.get(), &j) == ROTA_OK);
    // 2^62 bytes at 1000 s a byte: an adaptation cost far past the axis.
    j.id = 2;
    j.estimate = 100 * kUs;
    j.min_procs = 1;
    j.adapt_bytes = std::int64_t{1} << 62;
    CHECK(rota_submit(e.get(), &j) == ROTA_EINVAL);
    CHECK(std::string(rota_errmsg(e.get())).find("adapting its") != std::string::npos);
    j.adapt_bytes = 1000;  // 1e6 s: within the axis
    CHECK(rota_submit(e.get(), &j) == ROTA_OK);
}

TEST_CASE("[Weissman03]: bad malleable input is refused with a clear error", "[capi][malleable]") {
    EnginePtr e = engine_from(malleable(8, "", ""));
    rota_job j{};
    j.size = sizeof(j);
    j.id = 1;
    j.estimate = 10 * kUs;
    j.procs = 4;
    j.min_procs = 5;
    CHECK(rota_submit(e.get(), &j) == ROTA_EINVAL);
    CHECK(std::string(rota_errmsg(e.get())).find("min_procs") != std::string::npos);
    j.min_procs = -1;
    CHECK(rota_submit(e.get(), &j) == ROTA_EINVAL);
    j.min_procs = 2;
    j.adapt_bytes = -5;
    CHECK(rota_submit(e.get(), &j) == ROTA_EINVAL);
    CHECK(rota_job_progress(e.get(), 99, 0.5) == ROTA_ENOTFOUND);
    j.adapt_bytes = 0;
    REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    CHECK(rota_job_progress(e.get(), 1, 0.5) == ROTA_ESTATE);  // not running yet
    at(e.get(), 0);
    CHECK(rota_job_progress(e.get(), 1, 1.5) == ROTA_EINVAL);
    CHECK(rota_job_progress(e.get(), 1, std::nan("")) == ROTA_EINVAL);
    // Reported progress sets the expected end: half done at 2 s, on 4 of
    // ideal 4, leaves 5 s.
    REQUIRE(rota_advance(e.get(), 2 * kUs) == ROTA_OK);
    REQUIRE(rota_job_progress(e.get(), 1, 0.5) == ROTA_OK);
    CHECK(info(e.get(), 1).progress == Approx(0.5));
    CHECK(wakeup_s(e.get()) == 7);

    rota_engine* bad = nullptr;
    auto refused = [&](const std::string& toml, const std::string& words) {
        INFO(toml);
        CHECK(rota_engine_new(toml.c_str(), nullptr, &bad) == ROTA_ECONFIG);
        CHECK(std::string(rota_errmsg(bad)).find(words) != std::string::npos);
        rota_engine_free(bad);
    };
    refused("[machine]\nprocs = 8\n[malleable]\nexec_model = \"cubic\"\n", "malleable.exec_model");
    refused("[machine]\nprocs = 8\n[malleable]\nmpl_limit = -1\n", "malleable.mpl_limit");
    refused("[machine]\nprocs = 8\n[malleable]\nmpl_limit = 99999999999\n",
            "up to 1000000000, not 99999999999");
    refused("[machine]\nprocs = 8\n[malleable]\n[scheduler]\npreset = \"easy\"\n",
            "scheduler.preset");
    refused("[machine]\nprocs = 8\n[policy.harvest]\nscript = \"harvest/even.lua\"\n",
            "no [malleable]");
    refused("[machine]\nprocs = 8\n[malleable]\nbogus = 1\n", "malleable.bogus");
    refused(
        "[machine]\nprocs = 8\n[malleable]\n[policy.harvest]\nscript = \"harvest/long.lua\"\nT = "
        "nan\n",
        "policy.harvest.T' is nan");
    refused("[machine]\nprocs = 8\n[gang]\nmpl = 2\n[malleable]\n", "gang");
}

// A job shrunk twice ends later each time; the engine keeps one expiry
// entry for it, queued again at the new end when the old one comes due,
// so its walltime kill follows the last shrink. 8 processors: J1 (min 2,
// ideal 8, 1000 s) alone. At 100 s J2 (2 of 2) takes 2 from it: 0.9 of
// its work left at 6 (1333.3 s on 6, linear): 1200 s, to 1300 s. At 200 s
// J3 (2 of 2) takes 2 more: 0.9 - 100 / 1333.3 = 0.825 left at 4 (2000
// s): 1650 s, to 1850 s (a microsecond later, from the ceilings).
TEST_CASE("a job shrunk twice is killed at its last expected end, not an earlier one",
          "[capi][malleable]") {
    EnginePtr e = engine_from(malleable(8, "harvest/even.lua", ""));
    submit(e.get(), 1, 2, 8, 1000);
    at(e.get(), 0);
    submit(e.get(), 2, 2, 2, 10000);
    auto a = at(e.get(), 100);
    REQUIRE(a.size() == 2);
    CHECK((a[0].type == ROTA_ACTION_SHRINK && a[0].job == 1));
    CHECK(wakeup_s(e.get()) == 1300);
    submit(e.get(), 3, 2, 2, 10000);
    a = at(e.get(), 200);
    REQUIRE(a.size() == 2);
    CHECK((a[0].type == ROTA_ACTION_SHRINK && a[0].job == 1));
    CHECK(info(e.get(), 1).nodes == 4);
    // Not 1300 s, the end before the second shrink.
    CHECK(wakeup_s(e.get()) == 1850);
    a = at(e.get(), 1301);  // past the entry queued by the first shrink
    CHECK(a.empty());
    CHECK(info(e.get(), 1).state == ROTA_JOB_RUNNING);
    a = at(e.get(), 1851);
    REQUIRE(a.size() >= 1);
    CHECK((a[0].type == ROTA_ACTION_KILL && a[0].job == 1));
}
