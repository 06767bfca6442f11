// Bounded by construction (docs/reliability.md, "The engine's own
// arithmetic"): every time the engine reaches is on its time axis, one
// rota_advance across any number of slice boundaries queues a handful of
// actions, the pools are counted, the re-key interval has a floor, and a
// held job costs little at each pass.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>

#include "support.h"

using namespace rota;
using rota::test::engine_from;
using rota::test::EnginePtr;
namespace fs = std::filesystem;

namespace {

using rota::test::temp_dir;

constexpr rota_time kAxis = INT64_MAX / 4;  // rota.h: the last time rota_advance takes
constexpr rota_time kS = 1'000'000;

int submit(rota_engine* e, int64_t id, int32_t procs, rota_time estimate, int32_t npools = 0) {
    static const int64_t no_demand[64] = {};
    rota_job j{};
    j.size = sizeof j;
    j.id = id;
    j.procs = procs;
    j.estimate = estimate;
    j.user = -1;
    j.npools = npools;
    j.pools = npools ? no_demand : nullptr;
    return rota_submit(e, &j);
}

std::vector<rota_action> drain(rota_engine* e) {
    std::vector<rota_action> out;
    rota_action a{};
    a.size = sizeof a;
    while (rota_next_action(e, &a) == ROTA_OK) out.push_back(a);
    return out;
}

std::vector<int64_t> running(rota_engine* e) {
    size_t n = 0;
    REQUIRE(rota_running(e, nullptr, 0, &n) == ROTA_OK);
    std::vector<int64_t> ids(n);
    if (n) REQUIRE(rota_running(e, ids.data(), n, &n) == ROTA_OK);
    return ids;
}

size_t count(int (*list)(const rota_engine*, int64_t*, size_t, size_t*), rota_engine* e) {
    size_t n = 0;
    REQUIRE(list(e, nullptr, 0, &n) == ROTA_OK);
    return n;
}


std::string script(const std::string& name, const std::string& text) {
    const fs::path p = temp_dir() / name;
    std::ofstream(p) << text;
    return p.string();
}

}  // namespace

// The issue as found: an estimate of INT64_MAX/4 - 1 was accepted for each
// of three whole-machine jobs at time 0; under conservative the second
// ended past the axis, rota_next_wakeup gave that time and rota_advance
// refused it, for ever. A job whose window could end past the axis after
// the windows of the jobs the engine holds is refused at submission now.
TEST_CASE("axis: a job that could end past the time axis after the jobs held is refused") {
    auto e = engine_from("[machine]\nprocs = 4\n[scheduler]\npreset = \"conservative\"\n");
    REQUIRE(submit(e.get(), 1, 4, kAxis - 1) == ROTA_OK);
    for (int64_t id : {2, 3}) {
        CHECK(submit(e.get(), id, 4, kAxis - 1) == ROTA_EINVAL);
        const std::string msg = rota_errmsg(e.get());
        INFO(msg);
        CHECK(msg.rfind("job " + std::to_string(id) + ": estimate ", 0) == 0);
        CHECK_THAT(msg, Catch::Contains("could end past the time axis after the 1 job the "
                                        "engine holds (now 0 us plus their windows, "
                                        "2305843009213693950 us, leave 1 us of the axis)"));
    }
    CHECK(submit(e.get(), 2, 4, 1) == ROTA_OK);  // what is left of the axis
    CHECK(submit(e.get(), 3, 1, 1) == ROTA_EINVAL);
    // Every wakeup is one rota_advance takes, and the run ends: job 1 is
    // killed at its walltime, job 2 starts and is killed at the axis's end.
    std::vector<int64_t> killed;
    for (int step = 0; step < 10; ++step) {
        REQUIRE(rota_schedule(e.get()) == ROTA_OK);
        for (const rota_action& a : drain(e.get()))
            if (a.type == ROTA_ACTION_KILL) killed.push_back(a.job);
        rota_time w = 0;
        if (rota_next_wakeup(e.get(), &w) == ROTA_DONE) break;
        REQUIRE(w <= kAxis);
        REQUIRE(rota_advance(e.get(), w) == ROTA_OK);
    }
    CHECK(killed == std::vector<int64_t>{1, 2});
    CHECK(rota_now(e.get()) == kAxis);
    CHECK(running(e.get()).empty());
    // The bound counts what the engine holds now: with nothing held, all
    // that is left of the axis (none, at its end).
    CHECK(submit(e.get(), 4, 1, 1) == ROTA_EINVAL);
}

// The bound follows the jobs the engine holds: it frees when they end.
TEST_CASE("axis: the room left for a new job is the axis less now and the windows held") {
    auto e = engine_from("[machine]\nprocs = 4\n[gang]\nmpl = 2\nslice = 10\n");
    const rota_time half = kAxis / 4 + 1;  // 2^59 us; its window (x 2 rows) is 2^60 us
    REQUIRE(submit(e.get(), 1, 4, half) == ROTA_OK);
    REQUIRE(submit(e.get(), 2, 4, half) == ROTA_EINVAL);  // 2^61 us of windows: 1 us too many
    CHECK_THAT(rota_errmsg(e.get()), Catch::Contains("(x 2 rows)"));
    REQUIRE(submit(e.get(), 2, 4, half - 1) == ROTA_OK);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    drain(e.get());
    REQUIRE(rota_advance(e.get(), 5 * kS) == ROTA_OK);
    REQUIRE(rota_job_end(e.get(), 1) == ROTA_OK);
    // Job 1's window is free again, less the 5 s gone by.
    CHECK(submit(e.get(), 3, 4, half - 5 * kS / 2 + 1) == ROTA_EINVAL);
    CHECK(submit(e.get(), 3, 4, half - 5 * kS / 2) == ROTA_OK);
    CHECK(submit(e.get(), 4, 1, 1) == ROTA_EINVAL);
}

// What the bound at submission cannot see: the machine idles while a job
// waits (its node out of service) until the axis's end is within one
// window. The job was started at the pass, past the axis, and the engine
// asked to be woken at a time rota_advance refuses; it is rejected instead.
TEST_CASE("axis: a job that waited near the axis's end is rejected, not started past it") {
    auto e = engine_from("[machine]\nprocs = 2\n[scheduler]\npreset = \"easy\"\n");
    REQUIRE(rota_node_down(e.get(), 0, ROTA_NODE_KILL) == ROTA_OK);
    REQUIRE(submit(e.get(), 1, 2, 100 * kS) == ROTA_OK);
    REQUIRE(submit(e.get(), 2, 1, 10 * kS) == ROTA_OK);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    drain(e.get());
    REQUIRE(rota_advance(e.get(), kAxis - 50 * kS) == ROTA_OK);  // job 2 was killed long ago
    REQUIRE(rota_node_up(e.get(), 0) == ROTA_OK);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    const auto acts = drain(e.get());
    REQUIRE(acts.size() >= 1);
    bool rejected = false;
    for (const rota_action& a : acts) {
        CHECK(a.type != ROTA_ACTION_START);
        if (a.type == ROTA_ACTION_REJECT && a.job == 1) {
            rejected = true;
            CHECK_THAT(a.reason, Catch::Contains("would end past the time axis"));
        }
    }
    CHECK(rejected);
    rota_time w = 0;
    CHECK(rota_next_wakeup(e.get(), &w) == ROTA_DONE);
    // A job that fits what is left of the axis still runs.
    REQUIRE(submit(e.get(), 3, 2, 20 * kS) == ROTA_OK);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    CHECK(running(e.get()) == std::vector<int64_t>{3});
}

// The property, on adversarial estimates and times: whatever is submitted
// (estimates at the axis's end, half of it, a third, what is left), with
// nodes going down and up, jobs ending early and the clock jumping ahead,
// in each discipline, rota_next_wakeup never gives a time rota_advance
// refuses, and the run then ends in a bounded number of steps.
TEST_CASE("axis: rota_next_wakeup never returns a time rota_advance refuses") {
    const std::string hold =
        script("hold.lua",
               "return { admission = function(jobs, ctx)\n"
               "  local out = {}\n"
               "  for i = 1, jobs.n do\n"
               "    if jobs.id[i] % 5 == 0 and ctx.now < 1 << 60 then\n"
               "      out[i] = { hold = math.min(ctx.now + (1 << 60), (1 << 61) - 1) }\n"
               "    else out[i] = 'accept' end\n"
               "  end\n"
               "  return out\nend }");
    const std::vector<std::string> modes = {
        "[machine]\nprocs = 8\n[scheduler]\npreset = \"fcfs\"\n",
        "[machine]\nprocs = 8\n[scheduler]\npreset = \"easy\"\n",
        "[machine]\nprocs = 8\n[scheduler]\npreset = \"conservative\"\n",
        "[machine]\nprocs = 8\n[[machine.pools]]\nname = \"mem\"\ncapacity = 10\n"
        "[scheduler]\npreset = \"conservative\"\n",
        "[machine]\nprocs = 8\n[scheduler]\npreset = \"easy\"\n[policy.admission]\nscript = \"" +
            hold + "\"\n",
        "[machine]\nprocs = 8\n[scheduler]\npreset = \"bgs\"\n[gang]\nmpl = 3\nslice = 100\n",
        "[machine]\nprocs = 8\n[scheduler]\npreset = \"gs\"\n[gang]\nmpl = 2\nslice = 0.001\n",
        "[machine]\nprocs = 8\n[malleable]\n",
        "[machine]\nprocs = 8\n[classes]\n[[classes.class]]\nname = \"a\"\nmax_wait = 100\n"
        "dnd = 10\n",
    };
    const int rounds = 12;
    for (std::size_t m = 0; m < modes.size(); ++m) {
        for (int round = 0; round < rounds; ++round) {
            INFO("mode " << m << " round " << round);
            std::mt19937_64 rng(1000 * m + round);
            auto e = engine_from(modes[m]);
            rota_set_log(e.get(), nullptr, nullptr);
            rota_machine_info mi{};
            mi.size = sizeof mi;
            REQUIRE(rota_machine_info_get(e.get(), &mi) == ROTA_OK);
            // The embedder ends jobs in the wind-down where one may hold
            // its place for longer than it computes: under gang scheduling,
            // and under classes, where two jobs past their maximum wait
            // take turns of their do-not-disturb times ([Feitelson97] §4.3),
            // some 10^8 turns for estimates near the axis's end.
            const bool gang = mi.rows > 1 || modes[m].find("[classes]") != std::string::npos;
            auto pick = [&](std::uint64_t n) { return static_cast<int64_t>(rng() % n); };
            auto estimate = [&]() -> rota_time {
                const rota_time left =
                    std::max<rota_time>((kAxis - rota_now(e.get())) / mi.rows, 1);
                switch (pick(8)) {
                    case 0:
                        return 1;
                    case 1:
                        return left;
                    case 2:
                        return std::max<rota_time>(left - 1, 1);
                    case 3:
                        return std::max<rota_time>(left / 2, 1);
                    case 4:
                        return std::max<rota_time>(left / 3, 1);
                    case 5:
                        return 1 + pick(static_cast<std::uint64_t>(left));
                    case 6:
                        return kAxis;
                    default:
                        return 1 + pick(1000) * kS;
                }
            };
            int64_t next_id = 1;
            std::set<int32_t> down;
            auto step = [&](bool wind_down) {
                REQUIRE(rota_schedule(e.get()) == ROTA_OK);
                drain(e.get());
                rota_time w = 0;
                const int rc = rota_next_wakeup(e.get(), &w);
                REQUIRE((rc == ROTA_OK || rc == ROTA_DONE));
                if (rc == ROTA_OK) {
                    INFO("now " << rota_now(e.get()) << ", wakeup " << w);
                    REQUIRE(w <= kAxis);
                    REQUIRE(w >= rota_now(e.get()));
                }
                const int64_t what = wind_down ? 9 : pick(10);
                if (what <= 2) {
                    const int64_t id = next_id++;
                    const int32_t procs = 1 + static_cast<int32_t>(pick(8));
                    const int rs = submit(e.get(), id, procs, estimate(), mi.npools);
                    REQUIRE((rs == ROTA_OK || rs == ROTA_EINVAL));
                    if (rs == ROTA_EINVAL) {
                        const std::string msg = rota_errmsg(e.get());
                        INFO(msg);
                        CHECK(msg.rfind("job " + std::to_string(id) + ": ", 0) == 0);
                        CHECK_THAT(msg, Catch::Contains("time axis"));
                    }
                } else if (what == 3 && !wind_down) {
                    const int32_t node = static_cast<int32_t>(pick(8));
                    if (down.count(node)) {
                        REQUIRE(rota_node_up(e.get(), node) == ROTA_OK);
                        down.erase(node);
                    } else if (down.size() < 7) {
                        REQUIRE(rota_node_down(e.get(), node, ROTA_NODE_REQUEUE) == ROTA_OK);
                        down.insert(node);
                    }
                } else if (what == 4 || (gang && what == 9)) {
                    const auto ids = running(e.get());
                    if (!ids.empty()) {
                        const int64_t id = ids[static_cast<std::size_t>(pick(ids.size()))];
                        REQUIRE(rota_job_end(e.get(), id) == ROTA_OK);
                    }
                } else if (what == 5) {  // the clock jumps ahead, past wakeups, at any scale
                    const rota_time now = rota_now(e.get());
                    const rota_time most = pick(10) == 0 ? kAxis - now : (kAxis - now) >> pick(62);
                    REQUIRE(rota_advance(e.get(), now + pick(static_cast<std::uint64_t>(most) +
                                                             1)) == ROTA_OK);
                } else if (rc == ROTA_OK) {
                    REQUIRE(rota_advance(e.get(), w) == ROTA_OK);
                }
            };
            for (int s = 0; s < 150; ++s) step(false);
            // Wind down: every node back, then only wakeups (and, under
            // gang scheduling, the embedder ending jobs) until nothing is
            // left; a wedge would never get there.
            for (int32_t node : down) REQUIRE(rota_node_up(e.get(), node) == ROTA_OK);
            down.clear();
            int s = 0;
            for (; s < 2000; ++s) {
                rota_time w = 0;
                if (count(rota_queue, e.get()) == 0 && running(e.get()).empty() &&
                    count(rota_held, e.get()) == 0 && rota_next_wakeup(e.get(), &w) == ROTA_DONE)
                    break;
                step(true);
            }
            CHECK(s < 2000);
        }
    }
}

// [gang] mpl = 2, slice = 0.000001, then one rota_advance of 2 s held
// 6,000,000 pending actions (516 MB): three a boundary. Only the net change
// is told, at the last boundary: at most a SWITCH and one SUSPEND or RESUME
// per running job, and the rows end as they would boundary by boundary.
TEST_CASE("gang: one advance across many slice boundaries tells only the net change") {
    const std::string cfg =
        "[machine]\nprocs = 4\n[scheduler]\npreset = \"gs\"\n[gang]\nmpl = 3\nslice = 0.000001\n";
    auto one = engine_from(cfg);   // one advance
    auto step = engine_from(cfg);  // boundary by boundary
    // Jobs 1 and 2 fill rows 0 and 1, job 3 half of row 2.
    for (rota_engine* e : {one.get(), step.get()}) {
        REQUIRE(submit(e, 1, 4, 1000 * kS) == ROTA_OK);
        REQUIRE(submit(e, 2, 4, 1000 * kS) == ROTA_OK);
        REQUIRE(submit(e, 3, 2, 1000 * kS) == ROTA_OK);
        REQUIRE(rota_schedule(e) == ROTA_OK);
        drain(e);
    }
    for (const rota_time until : {rota_time{20'000}, rota_time{20'001}, rota_time{20'002},
                                  rota_time{2 * kS}, rota_time{2 * kS + 7}}) {
        INFO("until " << until);
        const rota_time from = rota_now(one.get());
        REQUIRE(rota_advance(one.get(), until) == ROTA_OK);
        const auto acts = drain(one.get());
        CHECK(acts.size() <= 1 + 3);
        std::size_t switches = 0;
        std::set<int64_t> told;
        for (const rota_action& a : acts) {
            CHECK(a.time == until);  // 1 us slices: the last boundary is `until`
            if (a.type == ROTA_ACTION_SWITCH)
                ++switches;
            else
                CHECK(told.insert(a.job).second);  // one action a job at most
        }
        CHECK(switches <= 1);
        // The same end state as every boundary passed one by one.
        std::size_t stepped = 0;
        for (rota_time t = from + 1; t <= until; ++t, ++stepped) {
            REQUIRE(rota_advance(step.get(), t) == ROTA_OK);
            drain(step.get());
            if (stepped > 30'000) {  // the rest in one: the same rule, checked above
                REQUIRE(rota_advance(step.get(), until) == ROTA_OK);
                drain(step.get());
                break;
            }
        }
        int32_t r1 = -1, r2 = -2;
        REQUIRE(rota_active_row(one.get(), &r1) == ROTA_OK);
        REQUIRE(rota_active_row(step.get(), &r2) == ROTA_OK);
        CHECK(r1 == r2);
        rota_time w1 = 0, w2 = 0;
        REQUIRE(rota_next_wakeup(one.get(), &w1) == ROTA_OK);
        REQUIRE(rota_next_wakeup(step.get(), &w2) == ROTA_OK);
        CHECK(w1 == until + 1);
        CHECK(w2 == w1);
    }
}

TEST_CASE("gang: a long advance passes its boundaries in constant time and memory") {
    auto e = engine_from(
        "[machine]\nprocs = 4\n[scheduler]\npreset = \"gs\"\n[gang]\nmpl = 2\nslice = 0.000001\n");
    REQUIRE(submit(e.get(), 1, 4, 1000 * kS) == ROTA_OK);
    REQUIRE(submit(e.get(), 2, 4, 1000 * kS) == ROTA_OK);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    drain(e.get());
    const auto t0 = std::chrono::steady_clock::now();
    // 8.64 x 10^10 boundaries: a day of 1 us slices.
    REQUIRE(rota_advance(e.get(), 86'400 * kS + 1) == ROTA_OK);
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(1));
    const auto acts = drain(e.get());
    REQUIRE(acts.size() == 3);  // an odd number of boundaries: row 1 is active
    CHECK(acts[0].type == ROTA_ACTION_SWITCH);
    CHECK(acts[0].row == 1);
    CHECK(acts[1].type == ROTA_ACTION_SUSPEND);
    CHECK(acts[1].job == 1);
    CHECK(acts[2].type == ROTA_ACTION_RESUME);
    CHECK(acts[2].job == 2);
    for (const rota_action& a : acts) CHECK(a.time == 86'400 * kS + 1);
}

// 20,000 unused [[machine.pools]] took 87 s and 4.5 GB on KTH (every job
// carries an amount per pool). At most 64, counted before any is read, and
// names compared through a set, not each with each.
TEST_CASE("config: machine.pools holds at most 64 pools, named once each") {
    auto pools = [](int n, bool twice = false) {
        std::string s = "[machine]\nprocs = 8\n";
        for (int i = 0; i < n; ++i)
            s += "[[machine.pools]]\nname = \"p" + std::to_string(twice && i == n - 1 ? 0 : i) +
                 "\"\ncapacity = 10\n";
        return s;
    };
    auto e = engine_from(pools(64));
    rota_machine_info mi{};
    mi.size = sizeof mi;
    REQUIRE(rota_machine_info_get(e.get(), &mi) == ROTA_OK);
    CHECK(mi.npools == 64);
    for (int n : {65, 20'000}) {
        rota_engine* bad = nullptr;
        const auto t0 = std::chrono::steady_clock::now();
        CHECK(rota_engine_new(pools(n).c_str(), nullptr, &bad) == ROTA_ECONFIG);
        EnginePtr p(bad);
        CHECK_THAT(rota_errmsg(bad), Catch::Contains("key 'machine.pools' holds " +
                                                     std::to_string(n) + " pools; at most 64"));
        CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
    }
    rota_engine* bad = nullptr;
    CHECK(rota_engine_new(pools(64, true).c_str(), nullptr, &bad) == ROTA_ECONFIG);
    EnginePtr p(bad);
    CHECK_THAT(rota_errmsg(bad),
               Catch::Contains("key 'machine.pools[63].name': pool 'p0' is given twice"));
}

// scheduler.rekey_interval = 0.000001 was taken: the engine then asks to be
// woken every microsecond while jobs wait, each wakeup a pass and an order
// call over the whole queue. Intervals under a second are refused, naming
// the key and what they would cost.
TEST_CASE("config: scheduler.rekey_interval under a second is refused with its cost") {
    const std::string aging = script("aging.lua",
                                     "return { ages = true, order = function(jobs, ctx)\n"
                                     "  local k = {}\n"
                                     "  for i = 1, jobs.n do k[i] = jobs.submit[i] end\n"
                                     "  return k\nend }");
    auto config = [&](const std::string& every) {
        return "[machine]\nprocs = 8\n[scheduler]\npreset = \"easy\"\nrekey_interval = " + every +
               "\n[policy.order]\nscript = \"" + aging + "\"\n";
    };
    for (const char* every : {"0.000001", "0.5", "0.999"}) {
        INFO(every);
        rota_engine* bad = nullptr;
        CHECK(rota_engine_new(config(every).c_str(), nullptr, &bad) == ROTA_ECONFIG);
        EnginePtr p(bad);
        CHECK_THAT(rota_errmsg(bad),
                   Catch::Contains("key 'scheduler.rekey_interval' must be 0 (re-key only after a "
                                   "reload) or a number of seconds from 1 to 1e9"));
        CHECK_THAT(rota_errmsg(bad), Catch::Contains("a day of engine time while jobs wait"));
    }
    engine_from(config("1"));
    engine_from(config("0"));
}
