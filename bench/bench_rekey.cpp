// Re-keying a deep queue: the cost of a pass at which an order policy whose
// keys age is called with the whole queue and the queue re-sorted
// (docs/design.md, "Order keys that change"), through the public C ABI
// (rota.h) only.
//
//   build/bin/bench_rekey [--waiting W] [--pairs P] [--script multifactor|shuffle|both]
//                         [--users U]
//
// Setting: a machine of 1,024 nodes held by 16 running jobs of 64 nodes,
// each of another user, for longer than the run; W jobs wait (default
// 100,000): widths log-uniform on 1..1,024 nodes, estimates log-uniform
// on 10 min..24 h, users uniform on 1..U (default 1,000), priorities
// uniform on 0..4, submitted 1 s apart before the measure, all from a
// fixed-seed splitmix64 stream. EASY backfilling with the shipped Lua
// first fit; nothing can start, so a pass does little besides the re-key.
// Order scripts (scheduler.rekey_interval = 60 s):
//   multifactor  policies/order/multifactor.lua, its defaults but max_age
//                of one hour and a priority level worth a tenth of a full
//                age: as older jobs reach max_age, younger ones of a higher
//                priority overtake them, so most re-keys move some jobs
//   shuffle      a key that is a new pseudo-random permutation of the
//                queue at every re-key: the worst case for the re-sort,
//                every re-key moves nearly every job (and EASY's
//                reservation)
//
// Measured, P pairs alternated: (a) rota_advance to the next multiple of
// the interval and rota_schedule: a pass with the re-key, and (b)
// rota_advance by 1 s and rota_schedule: the same pass without. Thread CPU
// time (CLOCK_THREAD_CPUTIME_ID) of the rota_schedule call. Prints the
// medians of (a) and (b), their difference (the re-key), the ratio, the
// order hook's own wall time per call from rota_hook_stats_get (the Lua
// call and the check of its answer, the rest being the batch, the sort
// and the walk), how many re-keys re-sorted, and the command.
#include <time.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "embedded.h"
#include "rota.h"

using bench::check;
using bench::die;
using bench::Rng;
using bench::thread_cpu_ns;

[[noreturn]] void bench::die(const std::string& msg) {
    std::fprintf(stderr, "bench_rekey: %s\n", msg.c_str());
    std::exit(1);
}

namespace {

constexpr rota_time kSecond = 1'000'000;
constexpr rota_time kInterval = 60 * kSecond;
constexpr std::int32_t kNodes = 1024;

// The key is a hash of the job id and the time: a new permutation at
// every re-key.
const char* kShuffle =
    "return { ages = true, order = function(jobs, ctx)\n"
    "  local keys, id, salt = {}, jobs.id, ctx.now // rota.second\n"
    "  for i = 1, jobs.n do\n"
    "    keys[i] = ((id[i] + salt) * 2654435761) % 4294967296\n"
    "  end\n"
    "  return keys\n"
    "end }\n";

std::string engine_toml(const std::string& script) {
    std::string t =
        "[machine]\nprocs = 1024\n"
        "[scheduler]\nbackfill = true\nreservation_depth = 1\nrekey_interval = 60\n"
        "[policy.backfill_select]\nscript = \"backfill/first_fit.lua\"\n"
        "[policy.order]\n";
    if (script == "multifactor")
        t += "script = \"order/multifactor.lua\"\nmax_age = 3600\nweight_priority = 100\n";
    else
        t += "script = \"rekey_shuffle.lua\"\n";
    return t;
}

struct Result {
    double with_ns, without_ns;  // medians
    double hook_ns_per_call;
    std::uint64_t rekeys, resorts;
    std::size_t waiting;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

Result run(const std::string& script, std::int64_t waiting, int pairs, std::int32_t users,
           const std::string& dir) {
    rota_engine* e = nullptr;
    check(e, rota_engine_new(engine_toml(script).c_str(), dir.c_str(), &e), "rota_engine_new");
    Rng rng(42);
    std::int64_t id = 0;
    auto submit = [&](std::int32_t procs, rota_time estimate, std::int32_t user,
                      std::int32_t priority) {
        rota_job j{};
        j.size = sizeof j;
        j.id = id++;
        j.procs = procs;
        j.estimate = estimate;
        j.user = user;
        j.priority = priority;
        check(e, rota_submit(e, &j), "rota_submit");
    };
    auto drain = [&] {
        rota_action a{};
        a.size = sizeof a;
        while (rota_next_action(e, &a) == ROTA_OK) {
        }
    };
    // The machine, held for longer than the run by 16 users' jobs.
    for (std::int32_t u = 0; u < 16; ++u) submit(kNodes / 16, 1000 * 86400 * kSecond, 10000 + u, 0);
    check(e, rota_schedule(e), "rota_schedule");
    drain();
    // The queue: one job a second, a pass every 1,000 jobs.
    rota_time now = 0;
    for (std::int64_t k = 0; k < waiting; ++k) {
        now += kSecond;
        check(e, rota_advance(e, now), "rota_advance");
        const auto procs = std::min<std::int32_t>(
            static_cast<std::int32_t>(rng.log_uniform(1, kNodes + 1)), kNodes);
        submit(procs, static_cast<rota_time>(rng.log_uniform(600, 86400) * kSecond),
               static_cast<std::int32_t>(rng.below(static_cast<std::uint64_t>(users))) + 1,
               static_cast<std::int32_t>(rng.below(5)));
        if ((k + 1) % 1000 == 0 || k + 1 == waiting) {
            check(e, rota_schedule(e), "rota_schedule");
            drain();
        }
    }
    size_t n = 0;
    check(e, rota_queue(e, nullptr, 0, &n), "rota_queue");
    if (static_cast<std::int64_t>(n) != waiting) die("some jobs did not wait");

    rota_hook_stats before{};
    before.size = sizeof before;
    check(e, rota_hook_stats_get(e, ROTA_HOOK_ORDER, &before), "rota_hook_stats_get");
    rota_counters c0{};
    c0.size = sizeof c0;
    check(e, rota_counters_get(e, &c0), "rota_counters_get");
    std::vector<double> with, without;
    for (int i = 0; i < pairs; ++i) {
        // (b): 1 s later, no multiple of the interval crossed.
        if ((now + kSecond) / kInterval != now / kInterval) now += kSecond;
        now += kSecond;
        check(e, rota_advance(e, now), "rota_advance");
        double t0 = thread_cpu_ns();
        check(e, rota_schedule(e), "rota_schedule");
        without.push_back(thread_cpu_ns() - t0);
        drain();
        // (a): the next multiple of the interval: a re-key is due.
        now = (now / kInterval + 1) * kInterval;
        check(e, rota_advance(e, now), "rota_advance");
        t0 = thread_cpu_ns();
        check(e, rota_schedule(e), "rota_schedule");
        with.push_back(thread_cpu_ns() - t0);
        drain();
    }
    rota_hook_stats after{};
    after.size = sizeof after;
    check(e, rota_hook_stats_get(e, ROTA_HOOK_ORDER, &after), "rota_hook_stats_get");
    rota_counters c1{};
    c1.size = sizeof c1;
    check(e, rota_counters_get(e, &c1), "rota_counters_get");
    if (after.failures != before.failures)
        die("the order hook failed " + std::to_string(after.failures - before.failures) +
            " times (raise lua.instruction_budget?): " + rota_errmsg(e));
    Result r;
    r.with_ns = median(with);
    r.without_ns = median(without);
    const auto calls = after.calls - before.calls;
    r.hook_ns_per_call =
        calls ? static_cast<double>(after.nanoseconds - before.nanoseconds) / calls : 0;
    r.rekeys = c1.rekeys - c0.rekeys;
    r.resorts = c1.resorts - c0.resorts;
    r.waiting = n;
    rota_engine_free(e);
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    std::int64_t waiting = 100000;
    int pairs = 30;
    std::int32_t users = 1000;
    std::string which = "both";
    CLI::App app{
        "Re-keying a deep queue: thread CPU time of an order policy's whole-queue call and "
        "the re-sort, through rota.h only (docs/benchmarks.md)",
        "bench_rekey"};
    app.add_option("--waiting", waiting, "jobs kept waiting")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{10'000'000}))
        ->capture_default_str();
    app.add_option("--pairs", pairs, "alternated pairs of passes; the median is reported")
        ->check(CLI::Range(1, 100'000))
        ->capture_default_str();
    app.add_option("--users", users, "distinct users of the jobs")
        ->check(CLI::Range(1, 10'000'000))
        ->capture_default_str();
    app.add_option("--script", which, "order/multifactor.lua, a shuffle, or both")
        ->check(CLI::IsMember({"multifactor", "shuffle", "both"}))
        ->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    char tmpl[] = "/tmp/bench_rekey.XXXXXX";
    if (!mkdtemp(tmpl)) die("cannot make a temporary directory");
    const std::string dir = tmpl;
    std::ofstream(dir + "/rekey_shuffle.lua") << kShuffle;

    std::printf(
        "rota %s, re-keying %lld waiting jobs (EASY, 1,024 nodes, %d users), thread CPU time, "
        "median of %d alternated pairs of passes\n",
        rota_version(), static_cast<long long>(waiting), users, pairs);
    std::vector<std::string> scripts;
    if (which == "both")
        scripts = {"multifactor", "shuffle"};
    else
        scripts = {which};
    for (const std::string& s : scripts) {
        const Result r = run(s, waiting, pairs, users, dir);
        std::printf(
            "%-12s pass with re-key %8.2f ms  without %7.3f ms  re-key %8.2f ms  ratio %6.0fx  "
            "(order hook %.2f ms a call; %llu of %llu re-keys re-sorted)\n",
            s.c_str(), r.with_ns / 1e6, r.without_ns / 1e6, (r.with_ns - r.without_ns) / 1e6,
            r.without_ns > 0 ? r.with_ns / r.without_ns : 0.0, r.hook_ns_per_call / 1e6,
            static_cast<unsigned long long>(r.resorts), static_cast<unsigned long long>(r.rekeys));
    }
    std::remove((dir + "/rekey_shuffle.lua").c_str());
    std::remove(dir.c_str());
    std::printf(
        "reproduce: build/bin/bench_rekey --waiting %lld --pairs %d --users %d --script %s\n",
        static_cast<long long>(waiting), pairs, users, which.c_str());
    return 0;
}
