// rota_reconfigure: a running engine takes new policies, parameters and
// tunables all at once or not at all; the machine and the pass's shape
// stay. And the creation options: log sink and level from the start, an
// allocator for the scripts' memory.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "support.h"

namespace {

using rota::test::EnginePtr;

const std::string kMachine = "[machine]\nprocs = 8\n[scheduler]\npreset = \"easy\"\n";

std::string with_limit(int max_procs) {
    return kMachine + "[policy.admission]\nscript = \"admission/max_procs.lua\"\nmax_procs = " +
           std::to_string(max_procs) + "\n";
}

void submit(rota_engine* e, int64_t id, int32_t procs, rota_time estimate = 100) {
    rota_job j{};
    j.size = sizeof j;
    j.id = id;
    j.procs = procs;
    j.estimate = estimate;
    REQUIRE(rota_submit(e, &j) == ROTA_OK);
}

// The actions of the last pass, as "type:job".
std::vector<std::string> drain(rota_engine* e) {
    std::vector<std::string> out;
    rota_action a{};
    a.size = sizeof a;
    while (rota_next_action(e, &a) == ROTA_OK)
        out.push_back(std::to_string(a.type) + ":" + std::to_string(a.job));
    return out;
}

rota_counters counters(rota_engine* e) {
    rota_counters c{};
    c.size = sizeof c;
    REQUIRE(rota_counters_get(e, &c) == ROTA_OK);
    return c;
}

struct Lines {
    std::vector<std::pair<int, std::string>> all;
    static void sink(void* ud, int level, const char* line) {
        static_cast<Lines*>(ud)->all.emplace_back(level, line);
    }
    bool has(int level, const std::string& part) const {
        for (const auto& [l, s] : all)
            if (l == level && s.find(part) != std::string::npos) return true;
        return false;
    }
};

}  // namespace

TEST_CASE("reconfigure: new script parameters apply from the next pass") {
    EnginePtr e = rota::test::engine_from(with_limit(4));
    submit(e.get(), 1, 6);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    CHECK(drain(e.get()) == std::vector<std::string>{"3:1"});  // rejected: over 4

    REQUIRE(rota_reconfigure(e.get(), with_limit(8).c_str()) == ROTA_OK);
    CHECK(counters(e.get()).reloads == 1);
    submit(e.get(), 2, 6);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    CHECK(drain(e.get()) == std::vector<std::string>{"1:2"});  // started: within 8
}

TEST_CASE("reconfigure: the machine and the pass's shape cannot change, and nothing is lost") {
    EnginePtr e = rota::test::engine_from(with_limit(4));
    Lines log;
    REQUIRE(rota_set_log(e.get(), Lines::sink, &log) == ROTA_OK);
    submit(e.get(), 1, 2, 500);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    drain(e.get());

    const std::map<std::string, std::string> refused = {
        {"machine.procs", "[machine]\nprocs = 16\n[scheduler]\npreset = \"easy\"\n"},
        {"scheduler.reservation_depth",
         "[machine]\nprocs = 8\n[scheduler]\npreset = \"conservative\"\n"},
        {"scheduler.backfill", "[machine]\nprocs = 8\n[scheduler]\npreset = \"fcfs\"\n"},
        {"gang.mpl", "[machine]\nprocs = 8\n[scheduler]\npreset = \"gs\"\n"},
    };
    for (const auto& [key, toml] : refused) {
        INFO(key);
        REQUIRE(rota_reconfigure(e.get(), toml.c_str()) == ROTA_ECONFIG);
        CHECK(std::string(rota_errmsg(e.get())).find("'" + key + "'") != std::string::npos);
    }
    // A configuration that does not parse is refused the same way.
    CHECK(rota_reconfigure(e.get(), "[machine\n") == ROTA_ECONFIG);
    CHECK(rota_reconfigure(e.get(), nullptr) == ROTA_EINVAL);
    CHECK(counters(e.get()).reload_failures == refused.size() + 1);
    CHECK(log.has(ROTA_LOG_ERROR, "reconfiguration failed"));

    // Unchanged: the running job, and the old limit.
    int64_t running[4];
    size_t n = 0;
    REQUIRE(rota_running(e.get(), running, 4, &n) == ROTA_OK);
    CHECK(n == 1);
    submit(e.get(), 2, 6);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    CHECK(drain(e.get()) == std::vector<std::string>{"3:2"});
}

TEST_CASE("reconfigure: a refused key of the malleable or classes table is named") {
    // Each change of `edits` (key named -> text after `base`) is refused
    // naming its key; `base` itself still applies.
    const auto names_each = [](const std::string& base,
                               const std::map<std::string, std::string>& edits,
                               const std::string& same) {
        EnginePtr e = rota::test::engine_from(base + same);
        for (const auto& [key, rest] : edits) {
            INFO(key);
            REQUIRE(rota_reconfigure(e.get(), (base + rest).c_str()) == ROTA_ECONFIG);
            CHECK(std::string(rota_errmsg(e.get())).find("key '" + key + "' cannot change") !=
                  std::string::npos);
        }
        CHECK(rota_reconfigure(e.get(), (base + same).c_str()) == ROTA_OK);
    };
    names_each("[machine]\nprocs = 8\n[malleable]\n",
               {
                   {"malleable.mpl_limit", "mpl_limit = 3\n"},
                   {"malleable.exec_model", "mpl_limit = 2\nexec_model = \"parabolic\"\n"},
                   {"malleable.adapt_latency", "mpl_limit = 2\nadapt_latency = 1\n"},
               },
               "mpl_limit = 2\n");
    names_each("[machine]\nprocs = 256\n[classes]\npreset = \"llnl-t3d\"\n",
               {
                   {"classes.swap_time", "swap_time = 2\n"},
                   {"classes.large_job", "large_job = 32\n"},
                   {"classes.week_start", "week_start = \"tue 08:00\"\n"},
               },
               "");
}

TEST_CASE("reconfigure: a script that does not load leaves the running policies in place") {
    EnginePtr e = rota::test::engine_from(with_limit(4));
    Lines log;
    REQUIRE(rota_set_log(e.get(), Lines::sink, &log) == ROTA_OK);
    const std::string broken =
        kMachine + "[policy.admission]\nscript = \"admission/no_such_policy.lua\"\n";
    CHECK(rota_reconfigure(e.get(), broken.c_str()) == ROTA_ESCRIPT);
    CHECK(std::string(rota_errmsg(e.get())).find("no_such_policy.lua") != std::string::npos);
    // A parameter the script refuses fails its dry run: refused too.
    CHECK(rota_reconfigure(e.get(), with_limit(-1).c_str()) == ROTA_ESCRIPT);
    // The script names the param; the error adds where the params were set.
    CHECK_THAT(rota_errmsg(e.get()),
               Catch::Matchers::Contains("max_procs") &&
                   Catch::Matchers::Contains("(its params, from [policy.admission]: max_procs)"));
    submit(e.get(), 1, 6);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    CHECK(drain(e.get()) == std::vector<std::string>{"3:1"});  // still the limit of 4
}

TEST_CASE("reconfigure: a new order policy re-sorts the waiting queue at once") {
    EnginePtr e = rota::test::engine_from("[machine]\nprocs = 8\n[scheduler]\npreset = \"fcfs\"\n");
    submit(e.get(), 1, 8, 1000);  // runs; the rest wait behind it
    submit(e.get(), 2, 4, 900);
    submit(e.get(), 3, 4, 100);
    submit(e.get(), 4, 4, 500);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    drain(e.get());
    int64_t q[8];
    size_t n = 0;
    REQUIRE(rota_queue(e.get(), q, 8, &n) == ROTA_OK);
    REQUIRE(n == 3);
    CHECK(std::vector<int64_t>(q, q + n) == std::vector<int64_t>{2, 3, 4});

    const std::string sjf =
        "[machine]\nprocs = 8\n[scheduler]\npreset = \"fcfs\"\n"
        "[policy.order]\nscript = \"order/sjf.lua\"\n";
    REQUIRE(rota_reconfigure(e.get(), sjf.c_str()) == ROTA_OK);
    REQUIRE(rota_queue(e.get(), q, 8, &n) == ROTA_OK);
    CHECK(std::vector<int64_t>(q, q + n) == std::vector<int64_t>{3, 4, 2});
}

TEST_CASE("reconfigure: a new re-key interval counts from now") {
    const std::string aging = kMachine + "[policy.order]\nscript = \"order/multifactor.lua\"\n";
    EnginePtr e = rota::test::engine_from(aging);  // rekey_interval 300 s by default
    submit(e.get(), 1, 8, 1000 * 1000000LL);
    submit(e.get(), 2, 8, 1000 * 1000000LL);  // waits, so the queue is re-keyed
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    REQUIRE(rota_advance(e.get(), 70 * 1000000LL) == ROTA_OK);
    rota_time t = 0;
    REQUIRE(rota_next_wakeup(e.get(), &t) == ROTA_OK);
    CHECK(t == 300 * 1000000LL);
    std::string sixty = aging;
    sixty.replace(sixty.find("preset = \"easy\"\n"), 16,
                  "preset = \"easy\"\nrekey_interval = 60\n");
    REQUIRE(rota_reconfigure(e.get(), sixty.c_str()) == ROTA_OK);
    REQUIRE(rota_next_wakeup(e.get(), &t) == ROTA_OK);
    CHECK(t == 120 * 1000000LL);  // the next multiple of 60 s after 70 s
}

TEST_CASE("reconfigure: a native backfill policy stays installed") {
    EnginePtr e = rota::test::engine_from(kMachine);
    static int calls = 0;
    calls = 0;
    auto pick_none = [](void*, const rota_batch*, const rota_backfill_context*, uint32_t*) {
        ++calls;
        return 0;
    };
    REQUIRE(rota_set_backfill_select(e.get(), pick_none, nullptr, 0) == ROTA_OK);
    const std::string tuned = kMachine + "[policy]\nquarantine_after = 3\n";
    REQUIRE(rota_reconfigure(e.get(), tuned.c_str()) == ROTA_OK);
    submit(e.get(), 1, 6, 1000);
    submit(e.get(), 2, 8, 100);  // the head, reserved at 1000
    submit(e.get(), 3, 2, 50);   // a candidate the native policy declines
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    CHECK(calls == 1);
    CHECK(drain(e.get()) == std::vector<std::string>{"1:1"});
}

TEST_CASE("options: the log sink and level hold from creation on") {
    Lines log;
    rota_engine_options o{};
    o.size = sizeof o;
    o.log = Lines::sink;
    o.log_ud = &log;
    o.log_level = ROTA_LOG_DEBUG;
    // The script prints as it loads: before any rota_set_log could have
    // been called.
    namespace fs = std::filesystem;
    const fs::path script =
        fs::temp_directory_path() / ("rota-options-" + std::to_string(::getpid()) + ".lua");
    std::ofstream(script) << "print('loading the order policy')\n"
                             "return { order = function(jobs) local k = {} "
                             "for i = 1, jobs.n do k[i] = jobs.estimate[i] end return k end }\n";
    const std::string printing =
        "[machine]\nprocs = 8\n[policy.order]\nscript = \"" + script.string() + "\"\n";
    rota_engine* raw = nullptr;
    REQUIRE(rota_engine_new_v2(printing.c_str(), nullptr, &o, &raw) == ROTA_OK);
    EnginePtr e(raw);
    fs::remove(script);
    CHECK(log.has(ROTA_LOG_INFO, "loading the order policy"));
    submit(e.get(), 1, 4);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    CHECK(log.has(ROTA_LOG_DEBUG, "pass 1"));

    // Above the level, lines are dropped.
    log.all.clear();
    REQUIRE(rota_set_log_level(e.get(), ROTA_LOG_INFO) == ROTA_OK);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    CHECK(log.all.empty());
    CHECK(rota_set_log_level(e.get(), 5) == ROTA_EINVAL);
    CHECK(rota_set_log_level(e.get(), -1) == ROTA_EINVAL);

    // Bad options are refused with a message.
    rota_engine_options bad{};
    rota_engine* b = nullptr;
    CHECK(rota_engine_new_v2(printing.c_str(), nullptr, &bad, &b) == ROTA_EINVAL);
    CHECK(std::string(rota_errmsg(b)).find("size") != std::string::npos);
    rota_engine_free(b);
    bad.size = sizeof bad;
    bad.log_level = 9;
    CHECK(rota_engine_new_v2(printing.c_str(), nullptr, &bad, &b) == ROTA_EINVAL);
    rota_engine_free(b);
}

namespace {

// Counts what the scripts' states take and give back; refuses everything
// once `fail` is set.
struct CountingAlloc {
    std::size_t live = 0, calls = 0;
    bool fail = false;
    static void* alloc(void* ud, void* ptr, size_t osize, size_t nsize) {
        auto* c = static_cast<CountingAlloc*>(ud);
        ++c->calls;
        const size_t old = ptr ? osize : 0;
        if (nsize == 0) {
            std::free(ptr);
            c->live -= old;
            return nullptr;
        }
        if (c->fail) return nullptr;
        void* p = std::realloc(ptr, nsize);
        if (p) c->live = c->live - old + nsize;
        return p;
    }
};

}  // namespace

TEST_CASE("options: the scripts' memory comes from the embedder's allocator") {
    CountingAlloc a;
    rota_engine_options o{};
    o.size = sizeof o;
    o.alloc = CountingAlloc::alloc;
    o.alloc_ud = &a;
    const std::string toml = with_limit(4);
    rota_engine* raw = nullptr;
    REQUIRE(rota_engine_new_v2(toml.c_str(), nullptr, &o, &raw) == ROTA_OK);
    EnginePtr e(raw);
    CHECK(a.calls > 0);
    CHECK(a.live > 0);
    submit(e.get(), 1, 6);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    CHECK(drain(e.get()) == std::vector<std::string>{"3:1"});  // the script ran

    // A reconfiguration's new states come from it too; the old ones go back.
    const std::size_t before = a.calls;
    REQUIRE(rota_reconfigure(e.get(), with_limit(8).c_str()) == ROTA_OK);
    CHECK(a.calls > before);
    e.reset();
    CHECK(a.live == 0);  // every byte given back

    // An allocator that refuses: the engine is not created, with a message.
    CountingAlloc none;
    none.fail = true;
    o.alloc_ud = &none;
    REQUIRE(rota_engine_new_v2(toml.c_str(), nullptr, &o, &raw) != ROTA_OK);
    CHECK(std::string(rota_errmsg(raw)).empty() == false);
    rota_engine_free(raw);
    CHECK(none.live == 0);
}
