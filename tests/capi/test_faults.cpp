// Broken policies and bad input through the C ABI: each gives a clear error
// or a counted hook failure with the documented fallback, the engine keeps
// running, and no job is lost.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "sim/generate.h"
#include "support.h"

using namespace rota;
namespace fs = std::filesystem;

namespace {

using rota::test::temp_dir;


void write(const fs::path& p, const std::string& text) {
    std::ofstream(p) << text;
}

std::vector<sim::TraceJob> workload() {
    sim::GenerateOptions g;
    g.jobs = 600;
    g.procs = 64;
    g.load = 0.95;
    g.seed = 3;
    return sim::generate(g);
}

std::string easy_with(const std::string& hook, const fs::path& script,
                      std::int64_t budget = 100000) {
    return "[machine]\nprocs = 64\n[scheduler]\nreservation_depth = 1\n[policy." + hook +
           "]\nscript = \"" + script.string() +
           "\"\n[lua]\ninstruction_budget = " + std::to_string(budget) + "\nmemory_limit_mb = 8\n";
}

void silence(rota_engine* e) {
    rota_set_log(e, nullptr, nullptr);
}

}  // namespace

// The scripts fail only when there is something to decide: a script that
// fails on an empty batch is refused at load time by the dry run.
TEST_CASE("faults: a broken backfill script falls back to no backfill and loses no job") {
    const auto jobs = workload();
    const auto fcfs = rota::test::run("fcfs", 64, jobs);
    fs::path dir = temp_dir();
    const std::pair<const char*, const char*> faults[] = {
        {"error",
         "return { backfill_select = function(c) if c.n == 0 then return {} end error('boom') end "
         "}"},
        {"infinite loop",
         "return { backfill_select = function(c) if c.n == 0 then return {} end while true do end "
         "end }"},
        {"memory bomb",
         "return { backfill_select = function(c) if c.n == 0 then return {} end local t = {} for i "
         "= 1, 1e9 do t[i] = "
         "string.rep('x', 64) .. i end end }"},
        {"invalid return",
         "return { backfill_select = function(c) if c.n == 0 then return {} end return { c.n + 1 } "
         "end }"},
        {"wrong type",
         "return { backfill_select = function(c) if c.n == 0 then return {} end return 'all' end "
         "}"},
        {"duplicate pick",
         "return { backfill_select = function(c) if c.n == 0 then return {} end return { 1, 1 } "
         "end }"},
        {"forbidden io",
         "return { backfill_select = function(c) if c.n == 0 then return {} end io.write('x') "
         "return {} end }"},
        {"forbidden os",
         "return { backfill_select = function(c) if c.n == 0 then return {} end os.exit(1) end }"},
        {"forbidden require",
         "return { backfill_select = function(c) if c.n == 0 then return {} end require('os') end "
         "}"},
    };
    for (const auto& [name, code] : faults) {
        INFO(name);
        fs::path script = dir / "broken.lua";
        write(script, code);
        auto e = rota::test::engine_from(easy_with("backfill_select", script));
        silence(e.get());
        auto r = sim::simulate(e.get(), jobs, {});
        CHECK(r.hooks[ROTA_HOOK_BACKFILL_SELECT].second.failures > 0);
        CHECK(r.hooks[ROTA_HOOK_BACKFILL_SELECT].second.failures ==
              r.hooks[ROTA_HOOK_BACKFILL_SELECT].second.calls);
        // EASY without backfilling is FCFS, job for job.
        CHECK(rota::test::starts(r) == fcfs);
        for (const auto& o : r.jobs) CHECK(o.state != sim::FinalState::unfinished);
    }
}

TEST_CASE("faults: failing admission accepts, failing order keeps FCFS") {
    const auto jobs = workload();
    const auto easy = rota::test::run("easy", 64, jobs);
    fs::path dir = temp_dir();
    fs::path adm = dir / "adm.lua";
    write(adm,
          "return { admission = function(jobs) if jobs.n == 0 then return {} end return 42 end }");
    auto e = rota::test::engine_from(easy_with("admission", adm));
    silence(e.get());
    auto r = sim::simulate(e.get(), jobs, {});
    CHECK(r.hooks[ROTA_HOOK_ADMISSION].second.failures > 0);
    CHECK(rota::test::starts(r) == easy);

    fs::path ord = dir / "ord.lua";
    write(ord,
          "return { order = function(jobs) local k = {} for i = 1, jobs.n do k[i] = 0/0 end "
          "return k end }");
    auto e2 = rota::test::engine_from(easy_with("order", ord));
    silence(e2.get());
    auto r2 = sim::simulate(e2.get(), jobs, {});
    CHECK(r2.hooks[ROTA_HOOK_ORDER].second.failures > 0);
    CHECK(rota::test::starts(r2) == easy);
}

TEST_CASE("faults: hook failures are logged with the hook and the script's message") {
    fs::path dir = temp_dir();
    fs::path script = dir / "err.lua";
    write(script,
          "return { backfill_select = function(c)\n  if c.n > 0 then error('no candidates for "
          "you') end\nend }");
    auto e = rota::test::engine_from(easy_with("backfill_select", script));
    std::vector<std::string> lines;
    rota_set_log(
        e.get(),
        [](void* ud, int, const char* l) {
            static_cast<std::vector<std::string>*>(ud)->push_back(l);
        },
        &lines);
    sim::simulate(e.get(), workload(), {});
    REQUIRE_FALSE(lines.empty());
    // Later failures are only counted; a hook that keeps failing is
    // quarantined, which is logged once each time.
    const auto failed = std::count_if(lines.begin(), lines.end(), [](const std::string& l) {
        return l.find("failed:") != std::string::npos;
    });
    CHECK(failed <= 10);
    CHECK(static_cast<std::size_t>(failed) < lines.size());
    CHECK_THAT(lines[static_cast<std::size_t>(failed)],
               Catch::Contains("backfill_select quarantined after 50 consecutive failures"));
    // After a quarantine the hook gets one call; its failure quarantines it
    // again at once, and the message says so rather than counting 50 again.
    const auto again = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
        return l.find("quarantined again") != std::string::npos;
    });
    REQUIRE(again != lines.end());
    CHECK_THAT(*again, Catch::Contains("(2 quarantines in a row): its one call after the last "
                                       "failed too (last: backfill_select:"));
    CHECK_THAT(*std::prev(again),
               Catch::Contains("backfill_select is called again: its quarantine is over"));
    CHECK(std::none_of(std::next(again), lines.end(), [](const std::string& l) {
        return l.find("consecutive failures") != std::string::npos;
    }));
    CHECK(lines[0].find("backfill_select") != std::string::npos);
    CHECK(lines[0].find("err.lua:2") != std::string::npos);
    CHECK(lines[0].find("no candidates for you") != std::string::npos);
}

TEST_CASE("faults: hot reload swaps a good script and refuses a broken one") {
    fs::path dir = temp_dir();
    fs::path script = dir / "policy.lua";
    // Backfill nothing at first.
    write(script, "return { backfill_select = function(c) return {} end }");
    auto e = rota::test::engine_from(easy_with("backfill_select", script));
    rota_engine* eng = e.get();
    auto submit = [&](int64_t id, int32_t procs, rota_time est) {
        rota_job j{};
        j.size = sizeof(rota_job);
        j.id = id;
        j.procs = procs;
        j.estimate = est;
        REQUIRE(rota_submit(eng, &j) == ROTA_OK);
    };
    auto started = [&] {
        std::vector<int64_t> ids;
        rota_action a{};
        a.size = sizeof(rota_action);
        while (rota_next_action(eng, &a) == ROTA_OK)
            if (a.type == ROTA_ACTION_START) ids.push_back(a.job);
        return ids;
    };
    submit(1, 60, 1000);
    submit(2, 64, 1000);  // head, reserved at 1000
    submit(3, 2, 100);    // a backfill candidate
    REQUIRE(rota_schedule(eng) == ROTA_OK);
    CHECK(started() == std::vector<int64_t>{1});

    write(script, "return { backfill_select = function(c)\n  return {1\nend }");  // syntax error
    CHECK(rota_reload_policies(eng) == ROTA_ESCRIPT);
    std::string msg = rota_errmsg(eng);
    CHECK(msg.find("policy.lua:") != std::string::npos);
    rota_counters c{};
    c.size = sizeof(c);
    rota_counters_get(eng, &c);
    CHECK(c.reload_failures == 1);
    REQUIRE(rota_advance(eng, 10) == ROTA_OK);
    REQUIRE(rota_schedule(eng) == ROTA_OK);
    CHECK(started().empty());  // the old policy still refuses to backfill

    write(script, "return { backfill_select = function(c) if c.n > 0 then return { 1 } end end }");
    REQUIRE(rota_reload_policies(eng) == ROTA_OK);
    REQUIRE(rota_advance(eng, 20) == ROTA_OK);
    REQUIRE(rota_schedule(eng) == ROTA_OK);
    CHECK(started() == std::vector<int64_t>{3});
}

TEST_CASE("faults: a script that fails its dry run is refused at load with file and line") {
    fs::path script = temp_dir() / "always.lua";
    write(script, "return { backfill_select = function(c)\n  error('always')\nend }");
    rota_engine* e = nullptr;
    CHECK(rota_engine_new(easy_with("backfill_select", script).c_str(), nullptr, &e) ==
          ROTA_ESCRIPT);
    CHECK(std::string(rota_errmsg(e)).find("always.lua:2: always") != std::string::npos);
    rota_engine_free(e);
}

TEST_CASE("faults: the dry run at load sees the machine's size and rows, empty") {
    // A script may divide by them: at load, as at every call, they are the machine's.
    fs::path script = temp_dir() / "per_row.lua";
    write(script,
          "return { order = function(j, ctx)\n"
          "  assert(ctx.free_procs == ctx.machine_procs and ctx.now == 0)\n"
          "  local per_row = ctx.machine_procs // ctx.rows\n"
          "  local t = {} for i = 1, j.n do t[i] = j.procs[i] / per_row end return t\n"
          "end }");
    rota_engine* e = nullptr;
    CHECK(rota_engine_new(easy_with("order", script).c_str(), nullptr, &e) == ROTA_OK);
    INFO(rota_errmsg(e));
    rota_engine_free(e);
}

TEST_CASE("bad input: configuration errors name the key or the line") {
    auto expect = [](const std::string& toml, const std::string& needle) {
        rota_engine* e = nullptr;
        int rc = rota_engine_new(toml.c_str(), nullptr, &e);
        std::string msg = rota_errmsg(e);
        rota_engine_free(e);
        INFO(msg);
        CHECK(rc == ROTA_ECONFIG);
        CHECK(msg.find(needle) != std::string::npos);
    };
    expect("[machine]\nprocs = 8\nnodes = 3\n", "unknown key 'machine.nodes'");
    expect("[machine]\nprocs = \"eight\"\n", "'machine.procs' must be an integer");
    expect("[machine]\nprocs = 8\n[scheduler]\nreservation_depth = true\n",
           "'scheduler.reservation_depth' must be an integer");
    expect("[machine]\nprocs = 8\n[bogus]\n", "unknown key 'bogus'");
    expect("[machine]\nprocs = 8\n[machine\n", ":3:");
    expect("[scheduler]\nbackfill = true\n", "[machine] is required");
    expect("[machine]\nprocs = 0\n", "machine.procs");
    expect("[machine]\nprocs = 8\n[policy.backfill_select]\nmax_jumps = 3\n",
           "'policy.backfill_select.script' is required");
    expect("[machine]\nprocs = 8\n[lua]\nmemory_limit_mb = 0\n", "lua.memory_limit_mb");
    // Presets own their keys; a key the configured mode would never read is
    // named, never ignored.
    expect("[machine]\nprocs = 8\n[scheduler]\npreset = \"bgs\"\nreservation_depth = 1\n",
           "key 'scheduler.reservation_depth' is set by the preset 'bgs'");
    expect("[machine]\nprocs = 8\n[scheduler]\npreset = \"easy\"\nbackfill = false\n",
           "key 'scheduler.backfill' is set by the preset 'easy'");
    expect("[machine]\nprocs = 8\n[scheduler]\npreset = \"mbgs\"\n[gang]\nmigration = false\n",
           "key 'gang.migration' is set by the preset 'mbgs'");
    expect(
        "[machine]\nprocs = 8\n[scheduler]\npreset = \"fpfs\"\n[policy.backfill_select]\n"
        "script = \"backfill/first_fit.lua\"\n",
        "key 'policy.backfill_select.script' is set by the preset 'fpfs'");
    expect(
        "[machine]\nprocs = 8\n[scheduler]\npreset = \"gs\"\n[policy.backfill_select]\n"
        "script = \"backfill/first_fit.lua\"\n",
        "key 'policy.backfill_select' is never called: scheduler.backfill is false (preset "
        "'gs')");
    expect("[machine]\nprocs = 8\n[scheduler]\npreset = \"\"\n",
           "key 'scheduler.preset': an empty name (expected fcfs, easy");
    expect("[machine]\nprocs = 8\n[classes]\npreset = \"\"\n",
           "key 'classes.preset': an empty name (expected llnl-t3d)");
    // The engine counts microseconds: a slice that truncates to none is refused.
    expect("[machine]\nprocs = 8\n[gang]\nmpl = 2\nslice = 1e-7\n",
           "key 'gang.slice' must be a number of seconds from one microsecond (0.000001) to 1e9, "
           "not 1e-07");
    // A class given twice would have the second table change the first.
    expect(
        "[machine]\nprocs = 8\n[classes]\n[[classes.class]]\nname = \"a\"\nprocs = 4\n"
        "[[classes.class]]\nname = \"b\"\n[[classes.class]]\nname = \"a\"\npriority = 2\n",
        "key 'classes.class[2].name': class 'a' is already given by classes.class[0]");
    expect(
        "[machine]\nprocs = 8\n[classes]\npreset = \"llnl-t3d\"\n[[classes.period]]\nname = "
        "\"night\"\nfrom = \"18:00\"\nto = \"08:00\"\n[[classes.period.class]]\nname = "
        "\"debug\"\n[[classes.period.class]]\nname = \"debug\"\nprocs = 8\n",
        "key 'classes.period[0].class[1].name': class 'debug' is already given by "
        "classes.period[0].class[0]");
    expect("[machine]\nprocs = 8\n[lua]\ninstruction_budget = 9223372036854775807\n",
           "key 'lua.instruction_budget' must be between 1000 and 1000000000000, or 0 for none; "
           "it is 9223372036854775807");
    // A range refused says the value it got, NaN included.
    expect("[machine]\nprocs = 8\n[gang]\nmpl = 2\nmigration = true\nmigration_cost = nan\n",
           "key 'gang.migration_cost' must be 0..1e9 seconds, got nan");
    expect("[machine]\nprocs = 8\n[gang]\nmpl = 2\nmigration = true\nmigration_q = 9999999999\n",
           "key 'gang.migration_q' must be -1 (unlimited) or 0..1000000000, got 9999999999");
    expect("[machine]\nprocs = 8\n[lua]\nmemory_limit_mb = 0\n",
           "key 'lua.memory_limit_mb' must be between 1 and 65536, got 0");
    expect("[machine]\nprocs = 8\n[policy]\nquarantine_time = -5\n",
           "key 'policy.quarantine_time' must be 0 (until a reload) or a number of seconds up to "
           "1e9, got -5");
    expect("[machine]\nprocs = 8\n[[machine.pools]]\nname = \"mem\"\ncapacity = -3\n",
           "key 'machine.pools[0].capacity' must be a positive integer, got -3");
    expect("[machine]\nprocs = 8\n[malleable]\nadapt_latency = 1e20\n",
           "key 'malleable.adapt_latency' must be 0..1e9 seconds, got 1e+20");
    expect("[machine]\nprocs = 8\n[classes]\n[[classes.class]]\nname = \"a\"\npriority = 2000000\n",
           "key 'classes.class[0].priority' must be -1000000..1000000, got 2000000");
    const std::string swap =
        "[machine]\nprocs = 8\n[classes]\nswap_time = -1\n[[classes.class]]\nname = \"a\"\n";
    expect(swap, "key 'classes.swap_time' must be 0..");
    expect(swap, " seconds, got -1");
    expect("[machine]\nprocs = 8\n[lua]\ntime_limit = -1\n",
           "key 'lua.time_limit' must be 0 (none) or 0.001..86400 seconds; it is -1");
    expect("[machine]\nprocs = 8\n[scheduler]\npreset = \"eazy\"\n",
           "unknown preset 'eazy' (expected fcfs, easy, conservative, fpfs, gs, bgs, mgs, mbgs, "
           "ff-easy, ff-cons, bl-easy, bb-easy, bl-cons, bb-cons)");
    // Gang keys without what they need.
    expect("[machine]\nprocs = 8\n[gang]\nmpl = 2\nmigration_cost = 5\n",
           "key 'gang.migration_cost' has no effect: gang.migration is false");
    expect(
        "[machine]\nprocs = 8\n[policy.migration_option]\nscript = "
        "\"migration/min_cost.lua\"\n",
        "key 'policy.migration_option' is never called: gang.migration is false");
    expect("[machine]\nprocs = 8\n[gang]\nmpl = 1\nslice = 100\n",
           "key 'gang.slice' has no effect with one row (gang.mpl = 1)");
    expect("[machine]\nprocs = 8\n[scheduler]\npreset = \"easy\"\n[gang]\nslice = 100\n",
           "key 'gang.slice' has no effect with one row");
    expect(
        "[machine]\nprocs = 8\n[scheduler]\npreset = \"mgs\"\n[gang]\nmpl = 1\nmigration_q = 4\n",
        "key 'gang.migration_q' has no effect with one row");
    expect(
        "[machine]\nprocs = 8\n[scheduler]\npreset = \"gs\"\n[policy.migration_option]\n"
        "script = \"migration/min_cost.lua\"\n",
        "key 'policy.migration_option' is never called: gang.migration is false (preset 'gs')");
    // Keys that moved point to where they went.
    expect("[machine]\nprocs = 8\n[gang]\nmpl = 2\nbackfill = true\n",
           "unknown key 'gang.backfill' (backfilling in every row is scheduler.backfill");
    expect("[machine]\nprocs = 8\n[policy.backfill]\nscript = \"backfill/first_fit.lua\"\n",
           "unknown key 'policy.backfill' (the hook is named backfill_select");
    // A path with a NUL would be cut there by the C call that opens it.
    expect("[machine]\nprocs = 8\n[policy.backfill_select]\nscript = \"a\\u0000b.lua\"\n",
           "key 'policy.backfill_select.script' holds a NUL character (\\u0000)");

    rota_engine* e = nullptr;
    CHECK(rota_engine_new("[machine]\nprocs = 8\n[policy.backfill_select]\nscript = \"nope.lua\"\n",
                          nullptr, &e) == ROTA_ESCRIPT);
    CHECK(std::string(rota_errmsg(e)).find("nope.lua") != std::string::npos);
    CHECK(rota_schedule(e) == ROTA_ESTATE);  // a failed handle answers nothing else
    rota_engine_free(e);
    rota_engine_free(nullptr);  // a no-op
    CHECK(rota_engine_new_file("/nonexistent/rota.toml", &e) == ROTA_ECONFIG);
    CHECK(std::string(rota_errmsg(e)).find("/nonexistent/rota.toml") != std::string::npos);
    rota_engine_free(e);
    const std::string dir = std::filesystem::temp_directory_path().string();
    CHECK(rota_engine_new_file(dir.c_str(), &e) == ROTA_ECONFIG);
    CHECK_THAT(rota_errmsg(e), Catch::EndsWith("': it is a directory"));
    rota_engine_free(e);
    // A FIFO without a writer would block the open; a device would fill memory.
    const std::string fifo = dir + "/rota_config_fifo_" + std::to_string(::getpid());
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    CHECK(rota_engine_new_file(fifo.c_str(), &e) == ROTA_ECONFIG);
    CHECK_THAT(rota_errmsg(e), Catch::EndsWith("': it is not a regular file"));
    rota_engine_free(e);
    std::filesystem::remove(fifo);
    CHECK(rota_engine_new_file("/dev/zero", &e) == ROTA_ECONFIG);
    CHECK_THAT(rota_errmsg(e), Catch::EndsWith("': it is not a regular file"));
    rota_engine_free(e);
}

TEST_CASE("bad input: events through the ABI are checked") {
    auto e = rota::test::engine_from("[machine]\nprocs = 8\n");
    rota_engine* eng = e.get();
    rota_job j{};
    j.size = sizeof(rota_job);
    j.id = 1;
    j.procs = 4;
    j.estimate = 100;
    REQUIRE(rota_submit(eng, &j) == ROTA_OK);
    CHECK(rota_submit(eng, &j) == ROTA_EEXIST);
    j.id = 2;
    j.procs = 0;
    CHECK(rota_submit(eng, &j) == ROTA_EINVAL);
    CHECK(std::string(rota_errmsg(eng)).find("procs must be positive") != std::string::npos);
    j.procs = 9;  // bigger than the machine: rejected at the next pass, with a reason
    REQUIRE(rota_submit(eng, &j) == ROTA_OK);
    REQUIRE(rota_advance(eng, 500) == ROTA_OK);
    CHECK(rota_advance(eng, 499) == ROTA_ETIME);
    CHECK(std::string(rota_errmsg(eng)).find("backwards") != std::string::npos);
    CHECK(rota_now(eng) == 500);
    CHECK(rota_job_end(eng, 77) == ROTA_ENOTFOUND);
    CHECK(rota_job_end(eng, 1) == ROTA_ESTATE);
    REQUIRE(rota_schedule(eng) == ROTA_OK);
    rota_action a{};
    a.size = sizeof(rota_action);
    bool rejected = false;
    while (rota_next_action(eng, &a) == ROTA_OK) {
        if (a.type == ROTA_ACTION_REJECT) {
            rejected = true;
            CHECK(a.job == 2);
            CHECK(std::string(a.reason) == "requests 9 processors; the machine has 8");
        }
    }
    CHECK(rejected);
    rota_action tiny{};
    tiny.size = sizeof(size_t);
    CHECK(rota_next_action(eng, &tiny) == ROTA_EINVAL);
    size_t n = 0;
    int64_t one[1];
    // cap 0 is a count query; a buffer too small is ROTA_ERANGE.
    CHECK(rota_running(eng, nullptr, 0, &n) == ROTA_OK);
    CHECK(n == 1);
    n = 0;
    CHECK(rota_running(eng, one, 0, &n) == ROTA_OK);
    CHECK(n == 1);
    CHECK(rota_queue(eng, nullptr, 0, &n) == ROTA_OK);
    CHECK(n == 0);
    rota_reservation none[1];
    CHECK(rota_reservations(eng, none, 0, &n) == ROTA_OK);
    CHECK(n == 0);
}

TEST_CASE("list queries: a short buffer is ROTA_ERANGE with the full count") {
    auto e = rota::test::engine_from("[machine]\nprocs = 8\n");
    for (int64_t id = 1; id <= 3; ++id) {
        rota_job j{};
        j.size = sizeof j;
        j.id = id;
        j.estimate = 1000000;
        j.procs = 8;
        j.user = -1;
        REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    }
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    int64_t two[2] = {-1, -1};
    size_t n = 0;
    CHECK(rota_queue(e.get(), two, 2, &n) == ROTA_OK);
    CHECK(n == 2);  // jobs 2 and 3 wait; job 1 runs
    two[0] = two[1] = -1;
    // An earlier failure's message does not stand for the short buffer.
    CHECK(rota_job_end(e.get(), 42) == ROTA_ENOTFOUND);
    CHECK(rota_queue(e.get(), two, 1, &n) == ROTA_ERANGE);
    CHECK(n == 2);
    CHECK(two[0] == 2);
    CHECK(two[1] == -1);
    CHECK(std::string(rota_errmsg(e.get())).find("too small") != std::string::npos);
}

TEST_CASE("submit: npools 0 is no pool demand and a negative npools is refused") {
    auto e = rota::test::engine_from(
        "[machine]\nprocs = 8\n[[machine.pools]]\nname = \"mem\"\ncapacity = 100\n");
    rota_job j{};
    j.size = sizeof j;
    j.id = 1;
    j.estimate = 1000000;
    j.procs = 2;
    j.user = -1;
    REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    std::int64_t amounts[1] = {-1};
    std::size_t n = 0;
    REQUIRE(rota_job_pools(e.get(), 1, amounts, 1, &n) == ROTA_OK);
    CHECK(n == 1);
    CHECK(amounts[0] == 0);
    const std::int64_t five = 5;
    j.id = 2;
    j.pools = &five;
    j.npools = -1;
    CHECK(rota_submit(e.get(), &j) == ROTA_EINVAL);
    CHECK(std::string(rota_errmsg(e.get())) ==
          "rota_submit: npools must be 0 or the machine's pool count (1), got -1");
    rota_job_info ji{};
    ji.size = sizeof ji;
    CHECK(rota_job_info_get(e.get(), 1, &ji) == ROTA_OK);
    CHECK(rota_job_info_get(e.get(), 2, &ji) == ROTA_ENOTFOUND);  // refused, left no trace
    auto plain = rota::test::engine_from("[machine]\nprocs = 8\n");
    CHECK(rota_submit(plain.get(), &j) == ROTA_EINVAL);
}

TEST_CASE("rota_next_wakeup sets *t even when nothing is pending") {
    auto e = rota::test::engine_from("[machine]\nprocs = 8\n");
    rota_time t = 42;
    CHECK(rota_next_wakeup(e.get(), &t) == ROTA_DONE);
    CHECK(t == INT64_MAX);
}

// The circuit breaker (issue: a runaway script costs its whole instruction
// budget at every pass). A script that always runs over its budget is
// called quarantine_after times in a row, then its fallback applies
// without calling it until the cool-down ends or the policies reload; a
// success in between resets the count.
TEST_CASE("faults: a hook that keeps failing is quarantined, then tried again") {
    fs::path dir = temp_dir();
    fs::path script = dir / "loop.lua";
    write(script,
          "return { backfill_select = function(c)\n"
          "  if c.n > 0 then while true do end end\nend }");
    const std::string cfg = easy_with("backfill_select", script, 10000);
    SECTION("until a reload") {
        auto e =
            rota::test::engine_from(cfg + "[policy]\nquarantine_after = 5\nquarantine_time = 0\n");
        silence(e.get());
        const auto r = sim::simulate(e.get(), workload(), {});
        const auto st = rota::test::hook_stats(e.get(), ROTA_HOOK_BACKFILL_SELECT);
        CHECK(st.calls == 5);
        CHECK(st.failures == 5);
        CHECK(st.skipped > 0);
        CHECK(st.quarantined == 1);
        // Every job still ran: the fallback (no backfill) kept the schedule going.
        CHECK(r.counters.started == r.jobs.size());
        write(script, "return { backfill_select = function(c) return c end }");
        REQUIRE(rota_reload_policies(e.get()) == ROTA_OK);
        CHECK(rota::test::hook_stats(e.get(), ROTA_HOOK_BACKFILL_SELECT).quarantined == 0);
    }
    SECTION("for a cool-down of engine time") {
        auto e = rota::test::engine_from(
            cfg + "[policy]\nquarantine_after = 5\nquarantine_time = 3600\n");
        silence(e.get());
        sim::simulate(e.get(), workload(), {});
        const auto st = rota::test::hook_stats(e.get(), ROTA_HOOK_BACKFILL_SELECT);
        // After each cool-down one more call fails and quarantines it again.
        CHECK(st.calls > 5);
        CHECK(st.calls == st.failures);
        CHECK(st.skipped > st.calls);
    }
    SECTION("never, when quarantine_after is 0") {
        auto e = rota::test::engine_from(cfg + "[policy]\nquarantine_after = 0\n");
        silence(e.get());
        sim::simulate(e.get(), workload(), {});
        const auto st = rota::test::hook_stats(e.get(), ROTA_HOOK_BACKFILL_SELECT);
        CHECK(st.skipped == 0);
        CHECK(st.calls == st.failures);
        CHECK(st.calls > 5);
    }
    SECTION("a success resets the count") {
        write(script,
              "local k = 0\n"
              "return { backfill_select = function(c)\n"
              "  if c.n == 0 then return nil end\n"
              "  k = k + 1\n"
              "  if k % 2 == 0 then error('every other call') end\n"
              "  return c\nend }");
        auto e = rota::test::engine_from(easy_with("backfill_select", script) +
                                         "[policy]\nquarantine_after = 2\n");
        silence(e.get());
        sim::simulate(e.get(), workload(), {});
        const auto st = rota::test::hook_stats(e.get(), ROTA_HOOK_BACKFILL_SELECT);
        CHECK(st.failures > 2);
        CHECK(st.skipped == 0);
    }
    SECTION("bad values are refused") {
        rota_engine* e = nullptr;
        CHECK(rota_engine_new((cfg + "[policy]\nquarantine_after = -1\n").c_str(), nullptr, &e) ==
              ROTA_ECONFIG);
        CHECK_THAT(rota_errmsg(e), Catch::Contains("policy.quarantine_after"));
        rota_engine_free(e);
    }
}

// A controller that restarts tells the engine when its jobs were really
// submitted: they keep their FCFS place ahead of jobs submitted since.
TEST_CASE("submit: an explicit earlier submit time keeps the job's FCFS place") {
    auto e = rota::test::engine_from("[machine]\nprocs = 8\n[scheduler]\npreset = \"fcfs\"\n");
    const rota_time s = 1'000'000;
    auto submit = [&](int64_t id, rota_time submitted) {
        rota_job j{};
        j.size = sizeof j;
        j.id = id;
        j.estimate = 100 * s;
        j.procs = 8;
        j.user = -1;
        j.submitted = submitted;
        return rota_submit(e.get(), &j);
    };
    REQUIRE(submit(1, 0) == ROTA_OK);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    REQUIRE(rota_advance(e.get(), 50 * s) == ROTA_OK);
    REQUIRE(submit(2, 0) == ROTA_OK);       // now: 50 s
    REQUIRE(submit(3, 10 * s) == ROTA_OK);  // waited since 10 s elsewhere
    CHECK(submit(4, 60 * s) == ROTA_EINVAL);
    CHECK_THAT(rota_errmsg(e.get()), Catch::Contains("after now"));
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    rota_job_info info{};
    info.size = sizeof info;
    REQUIRE(rota_job_info_get(e.get(), 3, &info) == ROTA_OK);
    CHECK(info.submit == 10 * s);
    int64_t q[4];
    size_t n = 0;
    REQUIRE(rota_queue(e.get(), q, 4, &n) == ROTA_OK);
    REQUIRE(n == 2);
    CHECK(q[0] == 3);
    CHECK(q[1] == 2);
}

// Reservations of jobs whose estimates add up near the time axis: a chain
// of conservative reservations used to overflow start + window and wedge
// the engine at every pass ("compression would delay a reservation").
// Submission now keeps the windows of the jobs held on the axis (a fifth
// such job is refused), so every reservation of the chain ends on it, and
// they move up when a job ends early.
TEST_CASE("faults: reservations near the end of the time axis are made on it, nothing wedges") {
    auto e =
        rota::test::engine_from("[machine]\nprocs = 8\n[scheduler]\npreset = \"conservative\"\n");
    const rota_time E = INT64_MAX / 17;  // four of them chained fill most of the axis
    auto submit = [&](int64_t id) {
        rota_job j{};
        j.size = sizeof j;
        j.id = id;
        j.estimate = E;
        j.procs = 8;
        j.user = -1;
        return rota_submit(e.get(), &j);
    };
    for (int64_t id = 1; id <= 4; ++id) REQUIRE(submit(id) == ROTA_OK);
    CHECK(submit(5) == ROTA_EINVAL);  // its window would end past the axis
    CHECK_THAT(rota_errmsg(e.get()), Catch::Contains("job 5: ") &&
                                         Catch::Contains("past the time axis after the 4 jobs"));
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    rota_reservation rs[4];
    rs[0].size = sizeof(rota_reservation);
    size_t n = 0;
    REQUIRE(rota_reservations(e.get(), rs, 4, &n) == ROTA_OK);
    REQUIRE(n == 3);
    CHECK((rs[0].job == 2 && rs[0].start == E));
    CHECK((rs[1].job == 3 && rs[1].start == 2 * E));
    CHECK((rs[2].job == 4 && rs[2].start == 3 * E));
    // Job 1 ends early: job 2 starts, the others move up by E - 10.
    REQUIRE(rota_advance(e.get(), 10) == ROTA_OK);
    REQUIRE(rota_job_end(e.get(), 1) == ROTA_OK);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    rota_action a{};
    a.size = sizeof a;
    bool started2 = false;
    while (rota_next_action(e.get(), &a) == ROTA_OK)
        started2 |= a.type == ROTA_ACTION_START && a.job == 2;
    CHECK(started2);
    REQUIRE(rota_reservations(e.get(), rs, 4, &n) == ROTA_OK);
    REQUIRE(n == 2);
    CHECK((rs[0].job == 3 && rs[0].start == 10 + E));
    CHECK((rs[1].job == 4 && rs[1].start == 10 + 2 * E));
    // Every pass keeps working, and a wakeup is pending (job 2's walltime).
    for (int k = 0; k < 3; ++k) REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    rota_time w = 0;
    CHECK(rota_next_wakeup(e.get(), &w) == ROTA_OK);
    CHECK(w == 10 + E);
}

// Scripts are isolated from each other (one lua_State per hook): a script
// that rawsets the batch or the context it was handed, or hoards memory,
// changes nothing for another hook's script. Before, both attacks made the
// shipped admission/max_procs.lua admit jobs it must reject, or fail.
TEST_CASE("faults: one script cannot change what another decides") {
    fs::path dir = temp_dir();
    const fs::path poison = dir / "poison.lua";
    write(poison,
          "return { order = function(jobs, ctx)\n"
          "  if jobs.n > 0 then\n"
          "    local fake = {}\n"
          "    for i = 1, 1000 do fake[i] = 1 end\n"
          "    rawset(jobs, 'procs', fake)\n"
          "    rawset(ctx, 'machine_procs', 1000000)\n"
          "  end\n"
          "  local k = {}\n"
          "  for i = 1, jobs.n do k[i] = jobs.submit[i] end\n"
          "  return k\nend }");
    const fs::path hoard = dir / "hoard.lua";
    write(hoard,
          "local kept = {}\n"
          "return { order = function(jobs)\n"
          "  if jobs.n > 0 then\n"
          "    for i = 1, 1e9 do kept[#kept + 1] = string.rep('x', 1000) .. i end\n"
          "  end\n"
          "  return {}\nend }");
    for (const fs::path& order : {poison, hoard}) {
        INFO(order.filename().string());
        auto e = rota::test::engine_from(
            "[machine]\nprocs = 128\n[policy.admission]\nscript = \"admission/max_procs.lua\"\n"
            "max_procs = 50\n[policy.order]\nscript = \"" +
            order.string() + "\"\n[lua]\nmemory_limit_mb = 8\n");
        silence(e.get());
        std::vector<int64_t> rejected, started;
        for (int64_t id = 1; id <= 6; ++id) {
            REQUIRE(rota_advance(e.get(), id * 1'000'000) == ROTA_OK);
            rota_job j{};
            j.size = sizeof j;
            j.id = id;
            j.estimate = 1'000'000;
            j.procs = id % 2 ? 10 : 100;  // the even ones are over max_procs
            j.user = -1;
            REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
            REQUIRE(rota_schedule(e.get()) == ROTA_OK);
            rota_action a{};
            a.size = sizeof a;
            while (rota_next_action(e.get(), &a) == ROTA_OK) {
                if (a.type == ROTA_ACTION_REJECT) rejected.push_back(a.job);
                if (a.type == ROTA_ACTION_START) started.push_back(a.job);
            }
        }
        CHECK(rejected == std::vector<int64_t>{2, 4, 6});
        CHECK(started == std::vector<int64_t>{1, 3, 5});
        CHECK(rota::test::hook_stats(e.get(), ROTA_HOOK_ADMISSION).failures == 0);
        if (order == hoard) CHECK(rota::test::hook_stats(e.get(), ROTA_HOOK_ORDER).failures > 0);
    }
}

// Callbacks run inside an engine call and must not call into the same
// engine: such a call is refused with ROTA_ESTATE and changes nothing.
TEST_CASE("faults: a callback calling back into its engine gets ROTA_ESTATE") {
    struct Probe {
        rota_engine* e = nullptr;
        int submit_rc = -1, queue_rc = -1;
        std::string why, free_why;
    } probe;
    auto e = rota::test::engine_from("[machine]\nprocs = 8\n[scheduler]\npreset = \"easy\"\n");
    probe.e = e.get();
    REQUIRE(rota_set_backfill_select(
                e.get(),
                [](void* ud, const rota_batch* c, const rota_backfill_context*, uint32_t* picks) {
                    auto* p = static_cast<Probe*>(ud);
                    rota_job j{};
                    j.size = sizeof j;
                    j.id = 99;
                    j.estimate = 1'000'000;
                    j.procs = 1;
                    j.user = -1;
                    p->submit_rc = rota_submit(p->e, &j);
                    p->why = rota_errmsg(p->e);
                    size_t n = 0;
                    p->queue_rc = rota_queue(p->e, nullptr, 0, &n);
                    // Freeing the engine that is running this call is refused too.
                    rota_engine_free(p->e);
                    p->free_why = rota_errmsg(p->e);
                    for (size_t i = 0; i < c->n; ++i) picks[i] = static_cast<uint32_t>(i);
                    return static_cast<int>(c->n);
                },
                &probe, 0) == ROTA_OK);
    auto submit = [&](int64_t id, int32_t procs, int64_t est) {
        rota_job j{};
        j.size = sizeof j;
        j.id = id;
        j.estimate = est * 1'000'000;
        j.procs = procs;
        j.user = -1;
        REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    };
    submit(1, 6, 100);
    submit(2, 8, 100);  // blocked head
    submit(3, 2, 50);   // a backfill candidate: the callback runs
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    CHECK(probe.submit_rc == ROTA_ESTATE);
    CHECK_THAT(probe.why, Catch::Contains("inside a callback"));
    CHECK(probe.queue_rc == ROTA_ESTATE);
    rota_job_info info{};
    info.size = sizeof info;
    CHECK(rota_job_info_get(e.get(), 99, &info) == ROTA_ENOTFOUND);  // nothing was submitted
    CHECK(rota_job_info_get(e.get(), 3, &info) == ROTA_OK);
    CHECK(info.state == ROTA_JOB_RUNNING);
    CHECK_THAT(probe.free_why, Catch::Contains("rota_engine_free called from inside a callback"));
    CHECK(rota_advance(e.get(), 10'000'000) == ROTA_OK);  // the engine still works
}

TEST_CASE("faults: hooks that spend a pass's budget leave the rest of the pass to the fallbacks") {
    // Admission and order each burn about 100,000 loop iterations (several
    // hundred thousand VM instructions) a call. With a pass budget of
    // 200,000 instructions, admission spends it and the pass's order call
    // is skipped: FCFS keys. The next pass has a whole budget again.
    const std::string dir = std::string(ROTA_TEST_DATA) + "/lua";
    const std::string scripts =
        "[policy.admission]\nscript = \"burn.lua\"\nloops = 100000\n"
        "[policy.order]\nscript = \"burn.lua\"\nloops = 100000\n";
    auto e = rota::test::engine_from(
        "[machine]\nprocs = 8\n[policy]\npass_budget = 200000\n" + scripts, dir.c_str());
    std::vector<std::string> lines;
    rota_set_log(
        e.get(),
        [](void* ud, int, const char* l) {
            static_cast<std::vector<std::string>*>(ud)->push_back(l);
        },
        &lines);
    rota_job j{};
    j.size = sizeof(j);
    j.procs = 1;
    j.estimate = 100 * 1'000'000LL;
    for (std::int64_t id = 1; id <= 2; ++id) {
        j.id = id;
        REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
        REQUIRE(rota_advance(e.get(), id * 1'000'000LL) == ROTA_OK);
        REQUIRE(rota_schedule(e.get()) == ROTA_OK);
        const auto adm = rota::test::hook_stats(e.get(), ROTA_HOOK_ADMISSION);
        const auto ord = rota::test::hook_stats(e.get(), ROTA_HOOK_ORDER);
        CHECK(adm.calls == static_cast<std::uint64_t>(id));  // each pass starts afresh
        CHECK(adm.failures == 0);
        CHECK(ord.calls == 0);
        CHECK(ord.skipped == static_cast<std::uint64_t>(id));
        CHECK(rota::test::info(e.get(), id).state == ROTA_JOB_RUNNING);  // nothing lost
    }
    REQUIRE(std::count_if(lines.begin(), lines.end(), [](const std::string& l) {
                return l.find("pass budget of 200000 instructions is spent") != std::string::npos;
            }) == 1);  // logged once
    // Without a limit (0) both hooks are called.
    auto free = rota::test::engine_from(
        "[machine]\nprocs = 8\n[policy]\npass_budget = 0\n" + scripts, dir.c_str());
    j.id = 9;
    REQUIRE(rota_submit(free.get(), &j) == ROTA_OK);
    REQUIRE(rota_schedule(free.get()) == ROTA_OK);
    CHECK(rota::test::hook_stats(free.get(), ROTA_HOOK_ORDER).calls == 1);
    rota_engine* bad = nullptr;
    CHECK(rota_engine_new("[machine]\nprocs = 8\n[policy]\npass_budget = -1\n", nullptr, &bad) ==
          ROTA_ECONFIG);
    CHECK(std::string(rota_errmsg(bad)).find("policy.pass_budget") != std::string::npos);
    rota_engine_free(bad);
}

TEST_CASE("faults: lua.instruction_budget = 0 runs scripts without a budget") {
    // burn.lua's admission runs 2,000,000 loop iterations, several million
    // VM instructions: over a budget of 1,000,000 even the dry run at load
    // fails; with no budget it runs to its end.
    const std::string dir = std::string(ROTA_TEST_DATA) + "/lua";
    const std::string scripts = "[policy.admission]\nscript = \"burn.lua\"\nloops = 2000000\n";
    rota_job j{};
    j.size = sizeof(j);
    j.id = 1;
    j.procs = 1;
    j.estimate = 100 * 1'000'000LL;
    rota_engine* capped = nullptr;
    CHECK(rota_engine_new(
              ("[machine]\nprocs = 8\n[lua]\ninstruction_budget = 1000000\n" + scripts).c_str(),
              dir.c_str(), &capped) != ROTA_OK);
    CHECK(std::string(rota_errmsg(capped)).find("instruction budget of 1000000 exceeded") !=
          std::string::npos);
    rota_engine_free(capped);

    auto unbounded = rota::test::engine_from(
        "[machine]\nprocs = 8\n[lua]\ninstruction_budget = 0\n" + scripts, dir.c_str());
    REQUIRE(rota_submit(unbounded.get(), &j) == ROTA_OK);
    REQUIRE(rota_schedule(unbounded.get()) == ROTA_OK);
    const auto adm = rota::test::hook_stats(unbounded.get(), ROTA_HOOK_ADMISSION);
    CHECK(adm.calls == 1);
    CHECK(adm.failures == 0);
    CHECK(rota::test::info(unbounded.get(), 1).state == ROTA_JOB_RUNNING);

    // Below 1000 is refused, and so is a pass budget, which adds up the
    // instructions that only a per-call budget counts.
    for (const char* bad_toml : {"[machine]\nprocs = 8\n[lua]\ninstruction_budget = 500\n",
                                 "[machine]\nprocs = 8\n[lua]\ninstruction_budget = "
                                 "0\n[policy]\npass_budget = 1000000\n"}) {
        rota_engine* bad = nullptr;
        CHECK(rota_engine_new(bad_toml, nullptr, &bad) == ROTA_ECONFIG);
        CHECK(std::string(rota_errmsg(bad)).find("instruction_budget") != std::string::npos);
        rota_engine_free(bad);
    }
    rota_engine* ok = nullptr;
    CHECK(rota_engine_new(
              "[machine]\nprocs = 8\n[lua]\ninstruction_budget = 0\n[policy]\npass_budget = 0\n",
              nullptr, &ok) == ROTA_OK);
    rota_engine_free(ok);
}

// A native policy counts candidates from 0: the message about a bad pick
// says so in its own terms (a Lua script's counts from 1).
TEST_CASE("faults: a native backfill_select's bad picks are reported 0-based") {
    struct Case {
        uint32_t picks[2];
        int n;
        const char* why;
    };
    const Case cases[] = {
        {{2, 0}, 1, "index 2 is outside the candidates 0..1 (at position 1)"},
        {{0, 0}, 2, "index 0 appears twice (at position 2)"},
    };
    for (const Case& c : cases) {
        auto e = rota::test::engine_from("[machine]\nprocs = 8\n[scheduler]\npreset = \"easy\"\n");
        std::vector<std::string> lines;
        REQUIRE(rota_set_log(
                    e.get(),
                    [](void* ud, int, const char* l) {
                        static_cast<std::vector<std::string>*>(ud)->push_back(l);
                    },
                    &lines) == ROTA_OK);
        REQUIRE(rota_set_backfill_select(
                    e.get(),
                    [](void* ud, const rota_batch*, const rota_backfill_context*, uint32_t* picks) {
                        const auto* k = static_cast<const Case*>(ud);
                        picks[0] = k->picks[0];
                        if (k->n > 1) picks[1] = k->picks[1];
                        return k->n;
                    },
                    const_cast<Case*>(&c), 0) == ROTA_OK);
        for (int64_t id : {1, 2, 3, 4}) {
            rota_job j{};
            j.size = sizeof j;
            j.id = id;
            j.estimate = (id >= 3 ? 50 : 100) * 1'000'000;
            j.procs = id == 1 ? 6 : id == 2 ? 8 : 1;  // 2 is the blocked head: 3 and 4 candidates
            j.user = -1;
            REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
        }
        REQUIRE(rota_schedule(e.get()) == ROTA_OK);
        CHECK(rota::test::hook_stats(e.get(), ROTA_HOOK_BACKFILL_SELECT).failures == 1);
        bool said = false;
        for (const auto& l : lines)
            said = said || l.find(std::string("the native backfill_select returned an invalid "
                                              "answer: ") +
                                  c.why) != std::string::npos;
        INFO((lines.empty() ? std::string("no log line") : lines.front()));
        CHECK(said);
    }
}
