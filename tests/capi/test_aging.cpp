// Order keys that change with time (docs/design.md, "Order keys that
// change") and the usage the engine records per user, through the C ABI.
// Times are seconds unless stated; the machine is kept busy so that the
// jobs of interest wait.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "support.h"

namespace fs = std::filesystem;
using rota::test::engine_from;
using Ids = std::vector<std::int64_t>;

namespace {

constexpr rota_time kS = 1'000'000;

// A directory of its own per test case, removed at the end.
struct Dir {
    fs::path path;
    Dir() {
        static int n = 0;
        path = fs::temp_directory_path() /
               ("rota-aging-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
        fs::create_directories(path);
    }
    ~Dir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string write(const std::string& name, const std::string& text) const {
        std::ofstream(path / name) << text;
        return (path / name).string();
    }
};

void submit(rota_engine* e, std::int64_t id, std::int32_t procs, double estimate_s,
            std::int32_t user = -1, std::int32_t priority = 0) {
    rota_job j{};
    j.size = sizeof(j);
    j.id = id;
    j.procs = procs;
    j.estimate = static_cast<rota_time>(estimate_s * kS);
    j.user = user;
    j.priority = priority;
    INFO(rota_errmsg(e));
    REQUIRE(rota_submit(e, &j) == ROTA_OK);
}

void at(rota_engine* e, double t_s) {
    INFO(rota_errmsg(e));
    REQUIRE(rota_advance(e, static_cast<rota_time>(t_s * kS)) == ROTA_OK);
    REQUIRE(rota_schedule(e) == ROTA_OK);
    rota_action a{};
    a.size = sizeof(a);
    while (rota_next_action(e, &a) == ROTA_OK) {
    }
}

Ids queue(rota_engine* e) {
    Ids ids(64);
    size_t n = 0;
    REQUIRE(rota_queue(e, ids.data(), ids.size(), &n) == ROTA_OK);
    ids.resize(n);
    return ids;
}

// (job, start in seconds) of every reservation, in queue order.
std::vector<std::pair<std::int64_t, double>> reservations(rota_engine* e) {
    std::vector<rota_reservation> r(16);
    r[0].size = sizeof(rota_reservation);
    size_t n = 0;
    REQUIRE(rota_reservations(e, r.data(), r.size(), &n) == ROTA_OK);
    std::vector<std::pair<std::int64_t, double>> out;
    for (size_t i = 0; i < n; ++i) out.push_back({r[i].job, static_cast<double>(r[i].start) / kS});
    return out;
}

rota_counters counters(rota_engine* e) {
    rota_counters c{};
    c.size = sizeof(c);
    REQUIRE(rota_counters_get(e, &c) == ROTA_OK);
    return c;
}

// Wide jobs age faster: score = 1000 x priority + procs x seconds waited,
// key = -score.
const char* kAging =
    "return { ages = true, order = function(jobs, ctx)\n"
    "  local keys = {}\n"
    "  for i = 1, jobs.n do\n"
    "    local waited = (ctx.now - jobs.submit[i]) / rota.second\n"
    "    keys[i] = -(1000 * jobs.priority[i] + jobs.procs[i] * waited)\n"
    "  end\n"
    "  return keys\n"
    "end }\n";

std::string config(const std::string& preset, const std::string& order_script,
                   const std::string& scheduler_extra = "") {
    return "[machine]\nprocs = 8\n[scheduler]\npreset = \"" + preset + "\"\n" + scheduler_extra +
           "[policy.order]\nscript = \"" + order_script + "\"\n";
}

}  // namespace

// Job A (1 processor, priority 1) scores 1000 + t after waiting t seconds,
// job B (8 processors, priority 0) 8t: A leads until t = 1000 / 7 = 142.9
// s, B after. With an interval of 100 s the queue is re-sorted at the
// first pass at or after 100, 200, ...: still A, B at 100 (1100 > 800) and
// at 150 (no re-key between 100 and 200), B, A from 200 on (1200 < 1600).
TEST_CASE("aging: order keys that age re-sort the queue at the interval") {
    Dir dir;
    const std::string script = dir.write("aging.lua", kAging);
    const bool easy = GENERATE(false, true);
    auto e = engine_from(config(easy ? "easy" : "fcfs", script, "rekey_interval = 100\n"));
    rota_set_log(e.get(), nullptr, nullptr);
    submit(e.get(), 1, 8, 10000);  // fills the machine until 10000
    at(e.get(), 0);
    submit(e.get(), 2, 1, 50, -1, 1);
    submit(e.get(), 3, 8, 50, -1, 0);
    at(e.get(), 0);
    CHECK(queue(e.get()) == Ids{2, 3});
    rota_time w = 0;
    REQUIRE(rota_next_wakeup(e.get(), &w) == ROTA_OK);
    CHECK(w == 100 * kS);  // the re-key, before the walltime at 10000
    at(e.get(), 100);
    CHECK(queue(e.get()) == Ids{2, 3});
    at(e.get(), 150);
    CHECK(queue(e.get()) == Ids{2, 3});
    REQUIRE(rota_next_wakeup(e.get(), &w) == ROTA_OK);
    CHECK(w == 200 * kS);
    at(e.get(), 200);
    CHECK(queue(e.get()) == Ids{3, 2});
    const rota_counters c = counters(e.get());
    CHECK(c.rekeys == 2);
    CHECK(c.resorts == 1);
    if (easy) {
        // EASY protects the first blocked job of the order as it now
        // stands: the reservation moved from job 2 to job 3.
        CHECK(reservations(e.get()) == std::vector<std::pair<std::int64_t, double>>{{3, 10000}});
    }
    // The order holds from then on: it ran as re-sorted.
    at(e.get(), 10000);
    CHECK(queue(e.get()) == Ids{2});
}

// Under conservative backfilling a reservation is a promise: a re-sort
// changes the queue's order, not the reservations already given.
TEST_CASE("aging: a re-sort keeps conservative reservations") {
    Dir dir;
    const std::string script = dir.write("aging.lua", kAging);
    auto e = engine_from(config("conservative", script, "rekey_interval = 100\n"));
    submit(e.get(), 1, 8, 1000);
    at(e.get(), 0);
    submit(e.get(), 2, 1, 50, -1, 1);
    submit(e.get(), 3, 8, 50, -1, 0);
    at(e.get(), 0);
    const auto promised = reservations(e.get());
    // Job 3 needs all 8 processors: after job 2's [1000, 1050).
    CHECK(promised == std::vector<std::pair<std::int64_t, double>>{{2, 1000}, {3, 1050}});
    at(e.get(), 200);
    CHECK(queue(e.get()) == Ids{3, 2});
    auto now = reservations(e.get());
    std::sort(now.begin(), now.end());
    CHECK(now == promised);
}

TEST_CASE("aging: a reload of the order script re-keys and re-sorts the queue") {
    Dir dir;
    const std::string by_id =
        "return { order = function(jobs) local k = {} for i = 1, jobs.n do k[i] = jobs.id[i] end "
        "return k end }\n";
    const std::string path = dir.write("order.lua", by_id);
    auto e = engine_from(config("easy", path));
    rota_set_log(e.get(), nullptr, nullptr);
    submit(e.get(), 1, 8, 1000);
    at(e.get(), 0);
    for (int id = 2; id <= 5; ++id) submit(e.get(), id, 2, 50);
    at(e.get(), 0);
    REQUIRE(queue(e.get()) == Ids{2, 3, 4, 5});
    REQUIRE(reservations(e.get()).at(0).first == 2);

    // Script B, which does not age: the reload alone re-sorts, at once.
    dir.write("order.lua",
              "return { order = function(jobs) local k = {} for i = 1, jobs.n do k[i] = "
              "-jobs.id[i] end return k end }\n");
    REQUIRE(rota_reload_policies(e.get()) == ROTA_OK);
    CHECK(queue(e.get()) == Ids{5, 4, 3, 2});
    CHECK(counters(e.get()).resorts == 1);
    // EASY's reservation is placed anew for the new head at the next pass.
    at(e.get(), 1);
    CHECK(reservations(e.get()).at(0).first == 5);
    // A reload that changes nothing re-keys without re-sorting.
    REQUIRE(rota_reload_policies(e.get()) == ROTA_OK);
    CHECK(counters(e.get()).rekeys == 2);
    CHECK(counters(e.get()).resorts == 1);
    // New arrivals are keyed by the new script too.
    submit(e.get(), 9, 2, 50);
    at(e.get(), 2);
    CHECK(queue(e.get()) == Ids{9, 5, 4, 3, 2});
}

// The order hook fails only when it has something to decide (at t >= 100
// s it answers one key short), so the dry run passes; the whole-queue call
// then fails and the queue keeps its order: not FCFS, the fallback for
// jobs entering the queue, but the order it had.
TEST_CASE("aging: a failing re-key keeps the previous order") {
    Dir dir;
    const std::string script =
        dir.write("order.lua",
                  "return { ages = true, order = function(jobs, ctx)\n"
                  "  local k = {}\n"
                  "  for i = 1, jobs.n do k[i] = -jobs.id[i] end\n"
                  "  if ctx.now >= 100 * rota.second then k[jobs.n] = nil end\n"
                  "  return k\n"
                  "end }\n");
    auto e = engine_from(config("fcfs", script, "rekey_interval = 100\n"));
    rota_set_log(e.get(), nullptr, nullptr);
    submit(e.get(), 1, 8, 1000);
    at(e.get(), 0);
    for (int id = 2; id <= 4; ++id) submit(e.get(), id, 8, 50);
    at(e.get(), 0);
    REQUIRE(queue(e.get()) == Ids{4, 3, 2});
    at(e.get(), 100);
    CHECK(queue(e.get()) == Ids{4, 3, 2});
    const rota_hook_stats st = rota::test::hook_stats(e.get(), ROTA_HOOK_ORDER);
    CHECK(st.failures == 1);
    CHECK(counters(e.get()).rekeys == 0);

    SECTION("after a reload too") {
        dir.write("order.lua",
                  "return { order = function(jobs) if jobs.n > 0 then error('broken') end "
                  "return {} end }\n");
        REQUIRE(rota_reload_policies(e.get()) == ROTA_OK);  // its dry run passes
        CHECK(queue(e.get()) == Ids{4, 3, 2});
        CHECK(rota::test::hook_stats(e.get(), ROTA_HOOK_ORDER).failures == 2);
    }
}

// User 7 runs 4 processors from 0; user 9 runs 2 from 0 to 50. At 100:
// user 7 has used 4 x 100 = 400 processor-seconds and holds 4 in one job,
// user 9 has used 2 x 50 = 100 and holds nothing, 500 in all; user 5 has
// run nothing. With a half-life H = 100 s (decay rate l = ln 2 / H), user
// 7's usage is 4 (1 - 2^-1) / l = 2 / l and user 9's is 2 (1 - 2^-0.5) /
// l decayed by 2^-0.5 over the last 50 s.
TEST_CASE("aging: per-user usage in the context matches a hand computation") {
    const bool decay = GENERATE(false, true);
    Dir dir;
    const std::string admission = dir.write(
        "admission.lua",
        "return { admission = function(jobs, ctx)\n"
        "  if jobs.n > 0 then\n"
        "    local u, p, r = ctx.user_usage, ctx.user_procs, ctx.user_running\n"
        "    local seen = 0\n"
        "    for user, v in pairs(ctx.user_usage) do seen = seen + 1 end\n"
        "    print(string.format('%d %.17g %.17g %.17g %.17g %d %d %d %d %d %d', ctx.users,\n"
        "      ctx.total_usage, u[7], u[9], u[5], p[7], p[9], r[7], r[9], r[5], seen))\n"
        "  end\n"
        "  return {}\n"
        "end }\n");
    auto e = engine_from("[machine]\nprocs = 10\n[scheduler]\npreset = \"easy\"\n" +
                         std::string(decay ? "usage_half_life = 100\n" : "") +
                         "[policy.admission]\nscript = \"" + admission + "\"\n");
    std::vector<std::string> lines;
    rota_set_log(
        e.get(),
        [](void* ud, int, const char* l) {
            static_cast<std::vector<std::string>*>(ud)->push_back(l);
        },
        &lines);
    struct Seen {
        int calls = 0;
        std::vector<std::int32_t> ids, procs, running;
        std::vector<double> usage;
        double total = 0;
    } seen;
    auto native = [](void* ud, const rota_batch* c, const rota_backfill_context* ctx,
                     uint32_t* picks) {
        auto* s = static_cast<Seen*>(ud);
        ++s->calls;
        s->total = ctx->total_usage;
        s->ids.assign(ctx->user_ids, ctx->user_ids + ctx->users);
        s->usage.assign(ctx->user_usage, ctx->user_usage + ctx->users);
        s->procs.assign(ctx->user_procs, ctx->user_procs + ctx->users);
        s->running.assign(ctx->user_running, ctx->user_running + ctx->users);
        for (size_t i = 0; i < c->n; ++i) picks[i] = static_cast<uint32_t>(i);
        return static_cast<int>(c->n);
    };
    REQUIRE(rota_set_backfill_select(e.get(), native, &seen, 0) == ROTA_OK);

    submit(e.get(), 1, 4, 1000, 7);
    submit(e.get(), 2, 2, 1000, 9);
    at(e.get(), 0);
    REQUIRE(rota_advance(e.get(), 50 * kS) == ROTA_OK);
    REQUIRE(rota_job_end(e.get(), 2) == ROTA_OK);
    lines.clear();
    submit(e.get(), 3, 10, 100, 9);  // the head: blocked until 1000
    submit(e.get(), 4, 1, 10, 5);    // a backfill candidate
    at(e.get(), 100);

    const double l = std::log(2.0) / 100.0;
    const double u7 = decay ? 2.0 / l : 400.0;
    const double u9 = decay ? 2.0 * (1.0 - std::pow(2.0, -0.5)) / l * std::pow(2.0, -0.5) : 100.0;
    REQUIRE(lines.size() == 1);
    std::istringstream in(lines[0].substr(lines[0].find(": ") + 2));
    int users = 0, p7 = 0, p9 = 0, r7 = 0, r9 = 0, r5 = 0, visited = 0;
    double total = 0, got7 = 0, got9 = 0, got5 = -1;
    in >> users >> total >> got7 >> got9 >> got5 >> p7 >> p9 >> r7 >> r9 >> r5 >> visited;
    INFO(lines[0]);
    CHECK(users == 2);
    CHECK(got7 == Approx(u7).epsilon(1e-12));
    CHECK(got9 == Approx(u9).epsilon(1e-12));
    CHECK(got5 == 0);
    CHECK(total == Approx(u7 + u9).epsilon(1e-12));
    CHECK(p7 == 4);
    CHECK(p9 == 0);
    CHECK(r7 == 1);
    CHECK(r9 == 0);
    CHECK(r5 == 0);
    CHECK(visited == 2);

    // A C policy sees the same figures, users in id order.
    REQUIRE(seen.calls == 1);
    CHECK(seen.ids == std::vector<std::int32_t>{7, 9});
    REQUIRE(seen.usage.size() == 2);
    CHECK(seen.usage[0] == Approx(u7).epsilon(1e-12));
    CHECK(seen.usage[1] == Approx(u9).epsilon(1e-12));
    CHECK(seen.procs == std::vector<std::int32_t>{4, 0});
    CHECK(seen.running == std::vector<std::int32_t>{1, 0});
    CHECK(seen.total == Approx(u7 + u9).epsilon(1e-12));

    // And so does the embedder: job 4 (user 5) has just started.
    rota_user_info ui{};
    ui.size = sizeof(ui);
    REQUIRE(rota_user_info_get(e.get(), 5, &ui) == ROTA_OK);
    CHECK(ui.usage == 0);
    CHECK(ui.procs == 1);
    CHECK(ui.running == 1);
    REQUIRE(rota_advance(e.get(), 110 * kS) == ROTA_OK);  // job 4 is killed at its walltime
    REQUIRE(rota_user_info_get(e.get(), 5, &ui) == ROTA_OK);
    CHECK(ui.usage == Approx(decay ? (1.0 - std::pow(2.0, -0.1)) / l : 10.0).epsilon(1e-12));
    CHECK(ui.running == 0);
    std::int32_t ids[4];
    size_t n = 0;
    REQUIRE(rota_users(e.get(), ids, 4, &n) == ROTA_OK);
    CHECK(std::vector<std::int32_t>(ids, ids + n) == std::vector<std::int32_t>{5, 7, 9});
}

// A C policy's user arrays are kept between calls: sorted again when a user
// is added, read again when the records or the time change. Over a run in
// which users appear out of id order, on the small table and the hash, every
// call that starts nothing (so the engine is as the call saw it) saw what
// rota_users and rota_user_info_get give.
TEST_CASE("aging: a C policy's user arrays stay right call after call") {
    const bool decay = GENERATE(false, true);
    auto e = engine_from("[machine]\nprocs = 16\n[scheduler]\npreset = \"easy\"\n" +
                         std::string(decay ? "usage_half_life = 300\n" : ""));
    struct Seen {
        bool pick = false;
        int calls = 0;
        std::vector<std::int32_t> ids, procs, running;
        std::vector<double> usage;
    } seen;
    auto native = [](void* ud, const rota_batch* c, const rota_backfill_context* ctx,
                     uint32_t* picks) {
        auto* s = static_cast<Seen*>(ud);
        ++s->calls;
        s->ids.assign(ctx->user_ids, ctx->user_ids + ctx->users);
        s->usage.assign(ctx->user_usage, ctx->user_usage + ctx->users);
        s->procs.assign(ctx->user_procs, ctx->user_procs + ctx->users);
        s->running.assign(ctx->user_running, ctx->user_running + ctx->users);
        if (!s->pick) return 0;
        for (size_t i = 0; i < c->n; ++i) picks[i] = static_cast<uint32_t>(i);
        return static_cast<int>(c->n);
    };
    REQUIRE(rota_set_backfill_select(e.get(), native, &seen, 0) == ROTA_OK);
    const std::int32_t users[] = {70000, 42, 7, 1000, 3, -1, 99999, 5};
    std::mt19937 rng(3);
    auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    std::int64_t next_id = 1;
    int compared = 0;
    for (int step = 0; step < 120; ++step) {
        for (int k = uni(1, 3); k > 0; --k)
            submit(e.get(), next_id++, uni(1, 10), uni(10, 100), users[uni(0, 7)]);
        seen.pick = step % 3 == 0;
        const int before = seen.calls;
        at(e.get(), 5.0 * step);  // jobs end at their walltimes
        if (seen.pick || seen.calls == before) continue;
        ++compared;
        std::int32_t ids[16];
        size_t n = 0;
        REQUIRE(rota_users(e.get(), ids, 16, &n) == ROTA_OK);
        INFO("step " << step);
        REQUIRE(seen.ids == std::vector<std::int32_t>(ids, ids + n));
        for (size_t k = 0; k < n; ++k) {
            rota_user_info ui{};
            ui.size = sizeof(ui);
            REQUIRE(rota_user_info_get(e.get(), ids[k], &ui) == ROTA_OK);
            INFO("user " << ids[k]);
            CHECK(seen.usage[k] == ui.usage);
            CHECK(seen.procs[k] == ui.procs);
            CHECK(seen.running[k] == ui.running);
        }
    }
    CHECK(compared >= 20);
    CHECK(seen.ids.size() == 8);  // every user has been seen, -1 among them
}

// [Feitelson97] §4.3: class priority, then time waiting; rota's multifactor
// adds Slurm's fair share. Job 1 (user 1, the whole machine) runs; jobs 2
// (user 1, priority 3, submitted at 0), 3 (user 2, priority 4, at 100) and
// 4 (user 3, priority 3, at 50) wait. At 200: job 3 first (priority 4).
// With fair share (user 1 used everything: 2^-1 against 2^0 for user 3,
// 500 points) job 4 passes job 2; without, job 2 has waited longer.
TEST_CASE("aging: the shipped multifactor order, priority then waiting then fair share") {
    const bool fair = GENERATE(true, false);
    auto e = engine_from(std::string("[machine]\nprocs = 8\n[scheduler]\npreset = \"fcfs\"\n") +
                         "rekey_interval = 100\n" +
                         "[policy.order]\nscript = \"order/multifactor.lua\"\n" +
                         (fair ? "" : "weight_fairshare = 0\n"));
    submit(e.get(), 1, 8, 10000, 1);
    at(e.get(), 0);
    submit(e.get(), 2, 8, 50, 1, 3);
    at(e.get(), 0);
    submit(e.get(), 4, 8, 50, 3, 3);
    at(e.get(), 50);
    submit(e.get(), 3, 8, 50, 2, 4);
    at(e.get(), 100);
    at(e.get(), 200);
    CHECK(queue(e.get()) == (fair ? Ids{3, 4, 2} : Ids{3, 2, 4}));
}

TEST_CASE("aging: scheduler.rekey_interval refuses values it cannot honour") {
    Dir dir;
    const std::string aging = dir.write("aging.lua", kAging);
    const std::string fixed = dir.write(
        "fixed.lua",
        "return { order = function(j) local k = {} for i = 1, j.n do k[i] = 0 end return k end }");
    auto refused = [&](const std::string& toml, const std::string& why) {
        rota_engine* e = nullptr;
        const int rc = rota_engine_new(toml.c_str(), nullptr, &e);
        rota::test::EnginePtr p(e);
        INFO(rota_errmsg(e));
        CHECK(rc == ROTA_ECONFIG);
        CHECK_THAT(rota_errmsg(e), Catch::Contains(why));
    };
    const char* range =
        "'scheduler.rekey_interval' must be 0 (re-key only after a reload) or a number of seconds "
        "from 1 to 1e9, got ";
    refused(config("easy", aging, "rekey_interval = -1\n"), std::string(range) + "-1");
    refused(config("easy", aging, "rekey_interval = nan\n"), std::string(range) + "nan");
    refused(config("easy", aging, "rekey_interval = inf\n"), std::string(range) + "inf");
    refused(config("easy", aging, "rekey_interval = 2e9\n"), std::string(range) + "2e+09");
    refused(config("easy", aging, "rekey_interval = 1e-9\n"), std::string(range) + "1e-09");
    refused(config("easy", aging, "rekey_interval = 0.5\n"), std::string(range) + "0.5");
    refused(config("easy", aging, "rekey_interval = \"5m\"\n"),
            "'scheduler.rekey_interval' must be a number (seconds), got a string");
    refused("[machine]\nprocs = 8\n[scheduler]\nrekey_interval = 60\n",
            "'scheduler.rekey_interval' has no effect: there is no [policy.order] script");
    refused(config("easy", fixed, "rekey_interval = 60\n"),
            "'scheduler.rekey_interval' has no effect: the order policy " + fixed +
                " does not declare that its keys age");
    refused(config("easy", aging, "usage_half_life = -3\n"),
            "'scheduler.usage_half_life' must be 0 (no decay) or a number of seconds");
    const std::string bad_flag =
        dir.write("bad.lua", "return { ages = 1, order = function() return {} end }");
    {
        rota_engine* e = nullptr;
        const int rc = rota_engine_new(config("easy", bad_flag).c_str(), nullptr, &e);
        rota::test::EnginePtr p(e);
        CHECK(rc == ROTA_ESCRIPT);
        CHECK_THAT(rota_errmsg(e), Catch::Contains("'ages' must be a boolean, not number"));
    }
    // 0 keeps the keys until a reload; any interval from a second is taken.
    engine_from(config("easy", aging, "rekey_interval = 0\n"));
    engine_from(config("easy", aging, "rekey_interval = 1\n"));
    engine_from(config("easy", fixed));  // the default interval needs no aging script
}
