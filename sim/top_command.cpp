// The `rota top` subcommand (top_command.h).
#include "top_command.h"

#include <fmt/core.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <iostream>
#include <sstream>
#include <thread>
#include <vector>

#include "classes.h"
#include "escape.h"
#include "generate.h"
#include "pools.h"
#include "run_config.h"
#include "simulation.h"
#include "swf.h"

namespace rota::sim {

namespace {

constexpr std::int64_t kUs = 1'000'000;
constexpr std::int32_t kDefaultProcs = 256;  // the LLNL T3D of [Feitelson97]
constexpr std::int32_t kDefaultUsers = 32;

class UsageError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct Workload {
    std::vector<TraceJob> jobs;
    PoolDemands pools;
    std::int32_t procs = 0;
    std::string name;
    Dependencies deps;  // SWF fields 17 and 18 (docs/workloads.md)
};

// The workload as `rota simulate` reads it: the trace, else the generated
// one (on 256 processors unless told otherwise). Components and clusters
// are left aside: the view shows one machine.
Workload load(RunConfig& rc, bool defaults) {
    Workload w;
    if (rc.trace.empty()) {
        GenerateOptions g = rc.workload;
        g.procs = rc.procs > 0 ? rc.procs : defaults ? kDefaultProcs : g.procs;
        if (defaults && g.users == 0) g.users = kDefaultUsers;
        if (g.model == WorkloadModel::ngubiri)
            throw UsageError("rota top shows one machine; the ngubiri model makes clusters");
        GeneratedWorkload gw = generate_configured(g);
        w.jobs = std::move(gw.jobs);
        w.pools = std::move(gw.pools);
        w.deps = std::move(gw.deps);
        w.procs = g.procs;
        w.name = "generated: " + describe(g);
    } else {
        Trace t;
        try {
            t = load_trace(rc.trace, load_options(rc));
            w.procs = trace_procs(rc, t);
        } catch (const std::invalid_argument& e) {
            throw UsageError(e.what());
        }
        w.jobs = std::move(t.jobs);
        w.pools = std::move(t.pools);
        w.deps = std::move(t.deps);
        w.name = rc.trace;
    }
    if (!rc.clusters.empty())
        throw UsageError("rota top shows one machine: drop [[machine.clusters]]");
    try {
        merge_pools(w.pools, w.jobs.size(), rc.pools);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    rc.pools = w.pools.pools;
    return w;
}

// The terminal: its size, and keys read one at a time while the view runs
// (q quits) or holds its last frame. Restored when it goes.
class Terminal {
  public:
    Terminal() : out_tty_(isatty(STDOUT_FILENO)), in_tty_(isatty(STDIN_FILENO)) {}
    ~Terminal() {
        if (raw_) tcsetattr(STDIN_FILENO, TCSANOW, &saved_);
    }
    Terminal(const Terminal&) = delete;
    Terminal& operator=(const Terminal&) = delete;

    bool out_tty() const { return out_tty_; }
    // Keys arrive one by one, unechoed; Ctrl-C and Ctrl-D come as keys.
    void raw() {
        if (!in_tty_ || raw_ || tcgetattr(STDIN_FILENO, &saved_) != 0) return;
        termios t = saved_;
        t.c_lflag &= static_cast<tcflag_t>(~(ICANON | ECHO | ISIG));
        t.c_cc[VMIN] = 1;
        t.c_cc[VTIME] = 0;
        raw_ = tcsetattr(STDIN_FILENO, TCSANOW, &t) == 0;
    }
    void size(std::int32_t& cols, std::int32_t& rows) const {
        winsize ws{};
        if (out_tty_ && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
            cols = ws.ws_col;
            rows = ws.ws_row;
        } else {
            cols = 80;
            rows = 0;  // no limit
        }
    }
    // Waits `seconds`; true if a quit key (q, Q, Esc, Ctrl-C, Ctrl-D) came.
    bool wait(double seconds) {
        if (seconds <= 0) return false;
        if (!raw_) {
            std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
            return false;
        }
        const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
        for (;;) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                end - std::chrono::steady_clock::now());
            if (left.count() <= 0) return false;
            pollfd p{STDIN_FILENO, POLLIN, 0};
            if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
            char c = 0;
            if (read(STDIN_FILENO, &c, 1) != 1) return true;
            if (c == 'q' || c == 'Q' || c == 27 || c == 3 || c == 4) return true;
        }
    }
    // Until a key, or the end of the standard input when it is no terminal.
    void hold() {
        char c = 0;
        if (in_tty_) {
            raw();
            while (read(STDIN_FILENO, &c, 1) < 0 && errno == EINTR) {
            }
            return;
        }
        char buf[4096];
        while (true) {
            const ssize_t k = read(STDIN_FILENO, buf, sizeof buf);
            if (k == 0 || (k < 0 && errno != EINTR)) return;
        }
    }

  private:
    bool out_tty_, in_tty_;
    bool raw_ = false;
    termios saved_{};
};

// rota_top's text for the engine as it is now.
std::string frame_text(rota_engine* e, std::int32_t width) {
    std::size_t n = 0;
    if (rota_top(e, width, nullptr, 0, &n) != ROTA_OK)
        throw std::runtime_error(std::string("rota_top: ") + rota_errmsg(e));
    std::string text(n + 1, '\0');
    if (rota_top(e, width, text.data(), text.size(), &n) != ROTA_OK)
        throw std::runtime_error(std::string("rota_top: ") + rota_errmsg(e));
    text.resize(n);
    return text;
}

std::int32_t clamp_width(std::int32_t w) {
    return std::clamp<std::int32_t>(w, 40, 1024);
}

void check(bool ok, const std::string& what) {
    if (!ok) throw UsageError(what);
}

// Each message names the flag, what it takes and the value given, as
// rota simulate's flags do.
template <typename Value>
void need(bool ok, const char* flag, const std::string& want, Value value) {
    check(ok, fmt::format("{}: must be {}, not {}", flag, want, value));
}

bool given(const TopArgs& a, const char* flag) {
    return a.command->count(flag) > 0;
}

// The flags' own ranges, before any file is read.
void check_flags(const TopArgs& a) {
    // Frames are drawn at whole microseconds, the engine's unit, within
    // its time axis.
    const auto max_s = static_cast<double>(kMaxSimSeconds);
    need(a.step >= 1e-6 && a.step <= max_s, "--step",
         fmt::format("a number of seconds from 0.000001 to {}", kMaxSimSeconds), a.step);
    need(a.delay >= 0 && a.delay <= 3600, "--delay", "a number of seconds from 0 to 3600", a.delay);
    need(a.start >= 0 && a.start <= max_s, "--start",
         fmt::format("a time in seconds from 0 to {}", kMaxSimSeconds), a.start);
    need(a.frames >= 0, "--frames", "a whole number >= 0", a.frames);
    need(!given(a, "--procs") || (a.procs >= 1 && a.procs <= kMaxMachineProcs), "--procs",
         fmt::format("a number of processors from 1 to {}", kMaxMachineProcs), a.procs);
    need(!given(a, "--jobs") || (a.jobs >= 1 && a.jobs <= kMaxJobs), "--jobs",
         fmt::format("a whole number from 1 to {}", kMaxJobs), a.jobs);
    // The range rota simulate takes: a load of 1e-9 spreads 50 jobs over
    // so long a span that the frames never reach them.
    need(!given(a, "--load") || (a.load >= kMinLoad && a.load <= kMaxLoad), "--load",
         fmt::format("an offered load from {} to {}", kMinLoad, kMaxLoad), a.load);
    need(!given(a, "--seed") || a.seed >= 0, "--seed", "a whole number >= 0", a.seed);
    need(!given(a, "--width") || (a.width >= 40 && a.width <= 1024), "--width",
         "a number of columns from 40 to 1024", a.width);
    need(!given(a, "--once") || (a.once >= 0 && a.once <= max_s), "--once",
         fmt::format("a time in seconds from 0 to {}", kMaxSimSeconds), a.once);
    check(a.config.empty() || a.config_flag.empty(),
          "give the configuration once: as an argument or with --config");
    check(!(given(a, "--once") && (a.hold || given(a, "--frames"))),
          "--once prints one frame: drop --hold and --frames");
}

// The configuration file's run, with the flags given over it.
RunConfig top_config(const TopArgs& a) {
    const std::string config = a.config.empty() ? a.config_flag : a.config;
    RunConfig rc;
    try {
        rc = load_run_config(config);
    } catch (const ConfigError& e) {
        throw UsageError(e.what());
    }
    // As rota simulate: an empty trace, or a generated workload's flag
    // with a trace, is an error, never ignored.
    check(!given(a, "--trace") || !a.trace.empty(),
          "--trace is empty: name a trace, or leave --trace out for the generated workload");
    if (!a.trace.empty()) rc.trace = a.trace;
    if (!rc.trace.empty())
        for (const char* f : {"--jobs", "--load", "--seed"})
            check(!given(a, f), std::string(f) + " has no effect on a trace (--trace " + rc.trace +
                                    "): it is for the generated workload");
    if (given(a, "--procs")) rc.procs = static_cast<std::int32_t>(a.procs);
    if (given(a, "--jobs")) rc.workload.jobs = a.jobs;
    if (given(a, "--load")) rc.workload.load = a.load;
    if (given(a, "--seed")) rc.workload.seed = static_cast<std::uint64_t>(a.seed);
    return rc;
}

// The one policy shown: --policy, else the file's first, else classes.
std::string top_policy(const TopArgs& a, const RunConfig& rc) {
    std::string policy = a.policy;
    if (policy.empty()) {
        policy = rc.policies.empty() ? "classes" : rc.policies.front();
        if (rc.policies.size() > 1)
            std::cerr << "rota: note: rota top shows one policy: " << policy << "\n";
    }
    try {
        check_policy(policy);
    } catch (const std::exception& e) {
        throw UsageError(e.what());
    }
    return policy;
}

using EnginePtr = std::unique_ptr<rota_engine, void (*)(rota_engine*)>;

// The engine of the policy over the workload's machine, its warnings given.
EnginePtr make_engine(const RunConfig& rc, const std::string& policy, const Workload& w) {
    std::string cfg;
    try {
        cfg = engine_toml(rc, policy, w.procs);
    } catch (const ConfigError& e) {
        throw UsageError(e.what());
    }
    rota_engine* raw = nullptr;
    if (rota_engine_new(cfg.c_str(), rc.base_dir.c_str(), &raw) != ROTA_OK) {
        const std::string msg = rota_errmsg(raw);
        rota_engine_free(raw);
        throw UsageError(policy + ": " + msg);
    }
    EnginePtr engine(raw, rota_engine_free);
    if (const std::string warn = slice_warning(raw, w.jobs); !warn.empty())
        std::cerr << "rota: warning: " << escaped(warn) << "\n";
    if (const std::string warn = cycle_warning(rc.cycle, w.jobs); !warn.empty())
        std::cerr << "rota: warning: " << escaped(warn) << "\n";
    rota_set_log(raw, nullptr, nullptr);  // log lines would break the frames
    return engine;
}

// Keep to the screen: the table's last lines give way to a count.
void fit_rows(std::vector<std::string>& lines, std::int32_t rows) {
    if (rows > 2 && lines.size() + 1 > static_cast<std::size_t>(rows)) {
        const std::size_t keep = static_cast<std::size_t>(rows) - 2;
        const std::size_t more = lines.size() - keep;
        lines.resize(keep);
        lines.push_back(fmt::format("... {} more line{}", more, more == 1 ? "" : "s"));
    }
}

// The view on a screen of `cols` columns: each line clears what the last
// frame left after it, but a line as wide as the screen: there the cursor
// waits on its last character. The first frame clears the screen.
std::string screen_text(const std::vector<std::string>& lines, const std::string& footer,
                        std::int32_t cols, bool first) {
    const auto erase = [&](const std::string& l) {
        return l.size() < static_cast<std::size_t>(cols) ? "\x1b[K" : "";
    };
    std::string screen = first ? "\x1b[2J\x1b[H" : "\x1b[H";
    for (const auto& l : lines) screen += l + erase(l) + "\n";
    screen += footer + erase(footer) + "\x1b[J";
    return screen;
}

// The frames of one run: drawn as the simulation passes their times,
// plain text, or redrawn in place on a terminal (live).
struct TopRun {
    const TopArgs& a;
    const bool once;
    Terminal term;
    const bool live;
    const std::int64_t step;
    std::int64_t next;  // the time of the next frame, microseconds
    std::int64_t drawn = 0;
    bool done = false, quit = false;
    std::ostream& os = std::cout;

    explicit TopRun(const TopArgs& args)
        : a(args),
          once(given(args, "--once")),
          live(!once && term.out_tty()),
          step(static_cast<std::int64_t>(std::llround(args.step * 1e6))),
          next(static_cast<std::int64_t>(std::llround((once ? args.once : args.start) * 1e6))) {}

    std::int32_t width_now() const {
        std::int32_t cols = 80, rows = 0;
        term.size(cols, rows);
        return a.width > 0 ? static_cast<std::int32_t>(a.width)
                           : clamp_width(once || !term.out_tty() ? 80 : cols);
    }

    std::string footer(bool last, std::int32_t width) const {
        std::string f = fmt::format(
            "rota top  frame {}{}  step {:g} s  {}  ST: N new, W waiting on nodes, R running, S "
            "suspended, i/o swapping in/out, O swapped out",
            drawn + 1, a.frames > 0 ? "/" + std::to_string(a.frames) : std::string(), a.step,
            last && a.hold ? "any key quits" : "q quits");
        if (f.size() > static_cast<std::size_t>(width)) f.resize(static_cast<std::size_t>(width));
        return f;
    }

    void draw(rota_engine* e, bool last) {
        std::int32_t cols = 80, rows = 0;
        term.size(cols, rows);
        const std::int32_t width = width_now();
        // Names in it come from files: their control bytes are shown, not obeyed.
        const std::string text = escaped(frame_text(e, width), true);
        if (!live) {
            os << (drawn > 0 && !once ? "\n" : "") << text << std::flush;
            return;
        }
        std::vector<std::string> lines;
        std::istringstream in(text);
        for (std::string l; std::getline(in, l);) lines.push_back(l);
        const std::string foot = footer(last, width);
        fit_rows(lines, rows);
        os << screen_text(lines, foot, cols, drawn == 0) << std::flush;
    }

    void after_pass(rota_engine* e, std::int64_t now) {
        if (done || now < next) return;
        // Frame k shows the engine after the first pass at or after
        // start + k x step; a quiet stretch of several steps is one frame.
        const bool last = once || (a.frames > 0 && drawn + 1 >= a.frames);
        draw(e, last);
        ++drawn;
        next += step * ((now - next) / step + 1);
        if (last) {
            done = true;
            return;
        }
        if (term.wait(a.delay)) done = quit = true;
    }

    // The simulation ended first: its final state is the last frame.
    void draw_end(rota_engine* e) {
        // (An empty workload ends at 0, which is no earlier than --once 0.)
        if (once && static_cast<double>(rota_now(e)) < a.once * 1e6)
            std::cerr << fmt::format("rota: note: the simulation ended at {} s, before --once {}\n",
                                     rota_now(e) / kUs, a.once);
        draw(e, true);
        ++drawn;
    }

    void play(rota_engine* e, const RunConfig& rc, Workload& w) {
        const std::vector<std::int32_t> classes =
            job_classes(e, w.jobs, rc.interactive_procs, rc.interactive_time);
        SimOptions opt;
        if (!classes.empty()) opt.job_class = &classes;
        if (!w.pools.empty()) opt.pools = &w.pools;
        opt.deps = &w.deps;
        opt.cycle = rc.cycle;
        if (live) term.raw();
        opt.after_pass = [this](rota_engine* engine, std::int64_t now) { after_pass(engine, now); };
        opt.stop = [this](const std::vector<JobOutcome>&) { return done; };
        simulate(e, w.jobs, opt);
        if (!done) draw_end(e);
        if (live) os << "\n" << std::flush;
        if (a.hold && !quit) term.hold();
    }
};

int run(const TopArgs& a) {
    check_flags(a);
    RunConfig rc = top_config(a);
    const std::string policy = top_policy(a, rc);
    // rota top's own machine and users unless the file describes the workload.
    Workload w = load(rc, !rc.workload_given);
    const EnginePtr engine = make_engine(rc, policy, w);
    TopRun view(a);
    view.play(engine.get(), rc, w);
    return 0;
}

}  // namespace

std::shared_ptr<TopArgs> add_top_command(CLI::App& app) {
    auto a = std::make_shared<TopArgs>();
    CLI::App* c = app.add_subcommand(
        "top",
        "watch a simulation live: [Feitelson97]'s gangster display (node map and job table, "
        "rota_top()) redrawn as simulated time passes; by default a generated workload on 256 "
        "processors under the classes policy ([Feitelson97]'s Table 1)");
    a->command = c;
    c->add_option("config", a->config,
                  "a TOML configuration file, as for rota simulate (docs/config.md)")
        ->check(CLI::ExistingFile);
    c->add_option("--config", a->config_flag, "the same, as an option")->check(CLI::ExistingFile);
    c->add_option("--trace", a->trace,
                  "the SWF trace to run, plain or gzipped [simulator.trace]; default: a generated "
                  "workload");
    c->add_option("--policy", a->policy,
                  "the policy (one of rota simulate's); default: the configuration's first, else "
                  "classes");
    c->add_option("--procs", a->procs,
                  "machine size [simulator.procs]; default: the trace header's, else 256");
    c->add_option("--jobs", a->jobs, "generated workload: number of jobs");
    c->add_option("--load", a->load, "generated workload: offered load");
    c->add_option("--seed", a->seed, "generated workload: random seed");
    c->add_option("--step", a->step, "simulated seconds between frames")->default_str("300");
    c->add_option("--delay", a->delay, "real seconds between frames")->default_str("0.5");
    c->add_option("--start", a->start, "simulated time of the first frame, seconds")
        ->default_str("0");
    c->add_option("--frames", a->frames, "stop after this many frames (0: at the end)")
        ->default_str("0");
    c->add_flag("--hold", a->hold,
                "keep the last frame on screen until a key is pressed (or the standard input "
                "ends)");
    c->add_option("--once", a->once,
                  "print the one frame at this simulated time (seconds) as plain text and exit");
    c->add_option("--width", a->width, "columns of the view; default: the terminal's, else 80");
    return a;
}

int run_top_command(const TopArgs& a) {
    try {
        return run(a);
    } catch (const UsageError& e) {
        std::cerr << "rota: error: " << escaped(e.what()) << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "rota: error: " << escaped(e.what()) << "\n";
        return 1;
    }
}

}  // namespace rota::sim
