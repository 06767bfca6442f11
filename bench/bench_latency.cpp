// Embedded pass latency: how long one scheduling pass holds the caller of
// an engine that drives a large, full machine with a deep queue, measured
// through the public C ABI (rota.h) only.
//
//   build/bin/bench_latency [--policy easy|conservative] [--waiting W[,W...]]
//                           [--passes P] [--nodes N] [--budget S] [--skip-wakeups]
//                           [--reservation-depth D]
//
// Setting: a machine of N nodes (default 100,000); job widths log-uniform
// on 1..1,024 nodes, estimates log-uniform on 10 min..24 h, drawn from a
// fixed-seed splitmix64 stream, so every run submits the same jobs.
//
// Warm-up (not measured): jobs are submitted at time 0, in batches with a
// pass after each, until the machine is full and W jobs wait.
//
// Measured: P passes, each one what a batch system reports between two
// passes:
//   1. a running job, chosen at random, ends early (rota_job_end; every
//      running job is before its estimate, since rota_advance kills the
//      others),
//   2. new jobs are submitted: one, or as many as bring the queue back to
//      W when the previous pass started more than one (typically after
//      walltime kills freed nodes), so that at least W jobs wait at every
//      pass; with one job per pass the queue would drain, since the jobs
//      of the warm-up reach their estimates during the run,
//   3. rota_schedule,
//   4. rota_next_action until ROTA_DONE.
// The latency of a pass is the thread CPU time of these calls
// (CLOCK_THREAD_CPUTIME_ID, so that other processes on this shared machine
// do not count). Between passes, outside the measure, the clock advances by
// 1 to 10 s (rota_advance), or only to the engine's next wakeup if that
// comes first, and the KILL actions it gives are drained.
//
// Prints p50, p99 and max per setting, the reservations a compression
// moved per pass (rota_counters.reservations_moved, read outside the
// measure), and the command reproducing it.
//
// Conservative backfilling is slow with deep queues: an early end may let
// every reservation move, and the warm-up grows quadratically (on
// 2026-11-23, one pass with 100,000 waiting jobs took 18 to 26 s of CPU).
// Hence --budget: a setting stops after S wall seconds (default 300), is
// skipped if still warming up, and is reported over the passes done
// otherwise.
//
// --reservation-depth D gives conservative backfilling a reservation depth
// (scheduler.reservation_depth, Flux's reservation-depth): only the first
// D waiting jobs hold a reservation, so a compression moves at most D
// (-1, the default, every waiting job, as pyss does).
//
// --skip-wakeups advances by the full step even past a reservation coming
// due, which an embedder may do: the engine must then place such a
// reservation anew. It exercises that path (rota 2925fb2 failed there with
// ROTA_EINTERNAL "compression would delay a reservation" under
// conservative backfilling when a job also ended early in the step).
#include <time.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "embedded.h"
#include "rota.h"

using bench::check;
using bench::die;
using bench::Rng;
using bench::thread_cpu_ns;

[[noreturn]] void bench::die(const std::string& msg) {
    std::fprintf(stderr, "bench_latency: %s\n", msg.c_str());
    std::exit(1);
}

namespace {

using Clock = std::chrono::steady_clock;

constexpr rota_time kSecond = 1'000'000;

enum class Policy { easy, conservative };

const char* name(Policy p) {
    return p == Policy::easy ? "easy" : "conservative";
}

// Every configuration key this program uses is spelled here and only here,
// so that renaming the engine's keys changes this function alone. The
// parts are given rather than `scheduler.preset = "easy"` so that the
// shipped Lua first fit is named, whatever a preset's default becomes.
std::string engine_toml(Policy p, std::int32_t nodes, int conservative_depth) {
    // 1 is EASY; -1, unlimited, is conservative, which a depth bounds.
    const int depth = p == Policy::easy ? 1 : conservative_depth;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "[machine]\n"
                  "procs = %d\n"
                  "\n"
                  "[scheduler]\n"
                  "backfill = true\n"
                  "reservation_depth = %d\n"
                  "\n"
                  "[policy.backfill_select]\n"
                  "script = \"backfill/first_fit.lua\"\n",
                  nodes, depth);
    return buf;
}

struct Options {
    std::vector<Policy> policies{Policy::easy, Policy::conservative};
    std::vector<std::int64_t> waiting{1000, 10000, 100000};
    std::int64_t passes = 2000;
    std::int32_t nodes = 100000;
    double budget = 300;  // wall seconds per setting; 0: none
    bool skip_wakeups = false;
    int reservation_depth = -1;  // conservative's; -1 unlimited
};

double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// A progress line on stderr: redrawn in place on a terminal, one line each
// otherwise (a log file would get one very long line).
void progress(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void progress(const char* fmt, ...) {
    static const bool tty = isatty(fileno(stderr));
    std::fputs(tty ? "\r" : "", stderr);
    va_list ap;
    va_start(ap, fmt);
    std::vfprintf(stderr, fmt, ap);
    va_end(ap);
    std::fputs(tty ? "\033[K" : "\n", stderr);
}

// Ends the progress line on a terminal.
void progress_done() {
    if (isatty(fileno(stderr))) std::fputc('\n', stderr);
}

// The embedder's side of one engine: the jobs it submitted and which of
// them run, as told by START and KILL actions.
class Machine {
  public:
    Machine(rota_engine* e, std::int32_t nodes, std::uint64_t seed)
        : e_(e), nodes_(nodes), rng_(seed) {
        actions_.reserve(1 << 16);
    }

    void submit() {
        rota_job j{};
        j.size = sizeof j;
        j.id = next_id_++;
        // floor of a log-uniform draw on [1, 1025): every width 1..1024 can occur
        j.procs = std::min<std::int32_t>(
            {static_cast<std::int32_t>(rng_.log_uniform(1, 1025)), 1024, nodes_});
        j.estimate = static_cast<rota_time>(rng_.log_uniform(600, 86400) * kSecond);
        j.user = -1;
        check(e_, rota_submit(e_, &j), "rota_submit");
        pos_.push_back(-1);
        ++waiting_;
    }

    // Ends a random running job at the current time: it is before its
    // estimate, or rota_advance would have killed it.
    void end_random() {
        if (running_.empty()) die("no running job to end");
        std::int64_t id = running_[rng_.below(running_.size())];
        check(e_, rota_job_end(e_, id), "rota_job_end");
        forget(id);
    }

    void schedule() { check(e_, rota_schedule(e_), "rota_schedule"); }

    // Pops every pending action into a buffer; what they mean is applied
    // by apply(), outside the measured region.
    void drain() {
        rota_action a{};
        a.size = sizeof a;
        int rc;
        while ((rc = rota_next_action(e_, &a)) == ROTA_OK) actions_.push_back({a.type, a.job});
        check(e_, rc, "rota_next_action");
    }

    // Returns the number of jobs started.
    std::int64_t apply() {
        std::int64_t started = 0;
        for (const auto& [type, id] : actions_) {
            switch (type) {
                case ROTA_ACTION_START:
                    pos_[id] = static_cast<std::int64_t>(running_.size());
                    running_.push_back(id);
                    --waiting_;
                    ++started;
                    break;
                case ROTA_ACTION_KILL:
                    forget(id);
                    break;
                case ROTA_ACTION_REJECT:
                    die("unexpected REJECT of job " + std::to_string(id));
                default:
                    break;
            }
        }
        actions_.clear();
        return started;
    }

    // Moves the clock on by dt, or only to the engine's next wakeup (a
    // reservation coming due) if that is sooner, as a batch system that
    // sleeps until its next event would; --skip-wakeups jumps over it.
    void advance(rota_time dt, bool skip_wakeups) {
        rota_time t = rota_now(e_) + dt, wake = 0;
        int rc = rota_next_wakeup(e_, &wake);
        check(e_, rc, "rota_next_wakeup");
        if (rc == ROTA_OK && wake < t && !skip_wakeups) t = wake;
        check(e_, rota_advance(e_, t), "rota_advance");
    }

    std::size_t idle() {
        std::size_t n = 0;
        int rc = rota_free_nodes(e_, nullptr, 0, &n);  // ROTA_ERANGE: only the count
        if (rc != ROTA_ERANGE) check(e_, rc, "rota_free_nodes");
        return n;
    }

    Rng& rng() { return rng_; }
    std::int64_t waiting() const { return waiting_; }
    std::size_t running() const { return running_.size(); }

  private:
    rota_engine* e_;
    std::int32_t nodes_;
    Rng rng_;
    std::int64_t next_id_ = 0;
    std::int64_t waiting_ = 0;
    std::vector<std::int64_t> running_;                  // ids, unordered
    std::vector<std::int64_t> pos_;                      // id -> index in running_, or -1
    std::vector<std::pair<int, std::int64_t>> actions_;  // (type, job) since the last apply()

    void forget(std::int64_t id) {
        std::int64_t k = pos_[id];
        if (k < 0) die("job " + std::to_string(id) + " is not running");
        running_[k] = running_.back();
        pos_[running_[k]] = k;
        running_.pop_back();
        pos_[id] = -1;
    }
};

struct Figures {
    bool skipped = false;
    double warmup_s = 0;
    std::vector<double> ns;  // one per measured pass
    std::int64_t submitted = 0, started = 0;
    std::uint64_t moved = 0;            // reservations moved by the measured passes
    std::size_t idle_after_warmup = 0;  // nodes
};

std::uint64_t reservations_moved(rota_engine* e) {
    rota_counters c{};
    c.size = sizeof c;
    check(e, rota_counters_get(e, &c), "rota_counters_get");
    return c.reservations_moved;
}

// Submits in batches, one pass each, until W jobs wait (the machine is then
// full: a job waits only when it does not fit). Progress goes to stderr.
bool warm_up(Machine& m, std::int64_t w, const Options& o, Clock::time_point t0, Policy p) {
    const std::int64_t batch = 1000;
    double last_report = -1;
    while (m.waiting() < w) {
        for (std::int64_t k = std::min(batch, w - m.waiting()); k > 0; --k) m.submit();
        m.schedule();
        m.drain();
        m.apply();
        double s = seconds_since(t0);
        if (s - last_report >= 1 || m.waiting() >= w) {
            last_report = s;
            progress("%s, %lld waiting: warm-up %lld/%lld waiting, %zu running, %.0f s", name(p),
                     static_cast<long long>(w), static_cast<long long>(m.waiting()),
                     static_cast<long long>(w), m.running(), s);
        }
        if (o.budget > 0 && s > o.budget) {
            progress_done();
            return false;
        }
    }
    progress_done();
    return true;
}

Figures measure(Policy p, std::int64_t w, const Options& o) {
    Figures f;
    rota_engine* e = nullptr;
    const std::string toml = engine_toml(p, o.nodes, o.reservation_depth);
    if (rota_engine_new(toml.c_str(), nullptr, &e) != ROTA_OK)
        die(std::string("rota_engine_new: ") + rota_errmsg(e) +
            "\n(the configuration is written by engine_toml() in bench/bench_latency.cpp)");
    Machine m(e, o.nodes, 0x5eed0001);

    auto t0 = Clock::now();
    if (!warm_up(m, w, o, t0, p)) {
        f.skipped = true;
        rota_engine_free(e);
        return f;
    }
    f.warmup_s = seconds_since(t0);
    f.idle_after_warmup = m.idle();

    f.ns.reserve(static_cast<std::size_t>(o.passes));
    double last_report = seconds_since(t0);
    bool reported = false;
    for (std::int64_t i = 0; i < o.passes; ++i) {
        // Replace what left the queue since the last pass, at least one job.
        const std::int64_t n = std::max<std::int64_t>(1, w - m.waiting());
        const std::uint64_t moved0 = reservations_moved(e);
        const double c0 = thread_cpu_ns();
        m.end_random();
        for (std::int64_t k = 0; k < n; ++k) m.submit();
        m.schedule();
        m.drain();
        const double c1 = thread_cpu_ns();
        f.ns.push_back(c1 - c0);
        f.moved += reservations_moved(e) - moved0;
        f.submitted += n;
        f.started += m.apply();

        m.advance(kSecond + static_cast<rota_time>(m.rng().below(9 * kSecond + 1)), o.skip_wakeups);
        m.drain();  // walltime kills
        m.apply();

        const double s = seconds_since(t0);
        if (s - last_report >= 5) {
            last_report = s;
            reported = true;
            progress("%s, %lld waiting: pass %lld/%lld, %.0f s", name(p), static_cast<long long>(w),
                     static_cast<long long>(i + 1), static_cast<long long>(o.passes), s);
        }
        if (o.budget > 0 && s > o.budget) break;
    }
    if (reported) progress_done();
    rota_engine_free(e);
    return f;
}

// Nearest rank: the smallest value with at least q of the values at or
// below it (as rota's metrics do).
double percentile(const std::vector<double>& sorted, double q) {
    std::size_t k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size())));
    return sorted[std::max<std::size_t>(k, 1) - 1];
}

// Latency with three significant figures or so, in a unit that suits it.
std::string format_latency(double ns) {
    char buf[32];
    const double us = ns / 1000;
    if (us < 100)
        std::snprintf(buf, sizeof buf, "%.1f us", us);
    else if (us < 1000)
        std::snprintf(buf, sizeof buf, "%.0f us", us);
    else if (us < 1e4)
        std::snprintf(buf, sizeof buf, "%.2f ms", us / 1e3);
    else if (us < 1e5)
        std::snprintf(buf, sizeof buf, "%.1f ms", us / 1e3);
    else if (us < 1e6)
        std::snprintf(buf, sizeof buf, "%.0f ms", us / 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.2f s", us / 1e6);
    return buf;
}

void report(Policy p, std::int64_t w, const Options& o, Figures f) {
    std::printf("%-12s %7lld waiting  ", name(p), static_cast<long long>(w));
    if (f.skipped) {
        std::printf("skipped: warm-up over the %.0f s budget\n", o.budget);
    } else {
        std::sort(f.ns.begin(), f.ns.end());
        const double n = static_cast<double>(f.ns.size());
        std::printf(
            "p50 %9s  p99 %9s  max %9s  (%zu passes%s; warm-up %.1f s, then %zu idle nodes; per "
            "pass %.2f submits, %.2f starts, %.0f reservations moved)\n",
            format_latency(percentile(f.ns, 0.50)).c_str(),
            format_latency(percentile(f.ns, 0.99)).c_str(), format_latency(f.ns.back()).c_str(),
            f.ns.size(),
            static_cast<std::int64_t>(f.ns.size()) < o.passes ? ", stopped by the budget" : "",
            f.warmup_s, f.idle_after_warmup, static_cast<double>(f.submitted) / n,
            static_cast<double>(f.started) / n, static_cast<double>(f.moved) / n);
    }
    std::printf(
        "  reproduce: build/bin/bench_latency --policy %s --waiting %lld --passes %lld "
        "--nodes %d --budget %.0f%s%s\n",
        name(p), static_cast<long long>(w), static_cast<long long>(o.passes), o.nodes, o.budget,
        o.skip_wakeups ? " --skip-wakeups" : "",
        o.reservation_depth >= 0
            ? (" --reservation-depth " + std::to_string(o.reservation_depth)).c_str()
            : "");
    std::fflush(stdout);
}

Options parse(int argc, char** argv) {
    Options o;
    std::string policy = "both";
    CLI::App app{
        "Pass latency of an embedded engine with a deep queue: thread CPU time of one "
        "scheduling pass, through rota.h only (docs/benchmarks.md)",
        "bench_latency"};
    app.add_option("--policy", policy, "easy, conservative or both")
        ->check(CLI::IsMember({"easy", "conservative", "both"}))
        ->capture_default_str();
    app.add_option("--waiting", o.waiting, "jobs kept waiting, a setting each")
        ->delimiter(',')
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{10'000'000}))
        ->capture_default_str();
    app.add_option("--passes", o.passes, "passes measured in each setting")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{100'000'000}))
        ->capture_default_str();
    app.add_option("--nodes", o.nodes, "nodes of the machine, kept full")
        ->check(CLI::Range(1, 1'000'000))
        ->capture_default_str();
    app.add_option("--budget", o.budget, "wall seconds per setting; 0: none")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    app.add_flag("--skip-wakeups", o.skip_wakeups,
                 "advance the clock past reservations coming due");
    app.add_option("--reservation-depth", o.reservation_depth,
                   "conservative reserves for the first D waiting jobs only "
                   "(scheduler.reservation_depth); -1: all of them")
        ->check(CLI::Range(-1, 100'000'000))
        ->capture_default_str();
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        std::exit(app.exit(e));
    }
    if (policy == "easy") o.policies = {Policy::easy};
    if (policy == "conservative") o.policies = {Policy::conservative};
    return o;
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    if (rota_abi_version() != ROTA_ABI_VERSION) die("librota's ABI version differs from rota.h's");
    std::printf(
        "rota %s: pass latency, thread CPU time of rota_job_end + rota_submit + rota_schedule + "
        "draining rota_next_action\n"
        "%d nodes kept full, widths log-uniform 1..1024, estimates log-uniform 10 min..24 h, "
        "backfill/first_fit.lua\n",
        rota_version(), o.nodes);
    std::fflush(stdout);
    for (Policy p : o.policies)
        for (std::int64_t w : o.waiting) report(p, w, o, measure(p, w, o));
    return 0;
}
