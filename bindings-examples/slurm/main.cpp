// rota-slurm: rota as the external scheduler of a Slurm controller.
//
// Jobs are submitted held (sbatch --hold); Slurm's own scheduler then never
// starts them. Every pass this daemon reads the controller's nodes and
// jobs, reports what changed to a rota engine (mirror.h), runs one
// scheduling pass, and releases each job the engine starts, pinned to the
// engine's nodes (actions.h). It uses only rota.h and libslurm's public
// slurm/slurm.h. See README.md beside this file and docs/c-api.md,
// "Embedding in a batch system".
//
//   rota-slurm --config easy.toml [--interval 1] [--journal FILE]
//              [--default-walltime SECONDS] [--metrics FILE] [--qos-classes]
//
// --journal appends what the engine was told and decided to FILE (journal.h).
// --metrics rewrites FILE after every pass with the engine's counters and
// hook statistics in the Prometheus text format (metrics.h).
// --qos-classes makes the site's QOS the engine's job classes (qos.h).
//
// SIGHUP re-reads the configuration file and hands it to rota_reconfigure:
// scripts and their parameters change together, or not at all; SIGTERM and
// SIGINT end the daemon after the current pass. Held jobs stay held and
// released ones keep running: a restarted daemon submits the first again
// and adopts the second.
#include <getopt.h>
#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "actions.h"
#include "metrics.h"
#include "mirror.h"
#include "qos.h"
#include "rota.h"
#include "slurm_view.h"

using namespace rota_slurm;

namespace {

volatile std::sig_atomic_t g_stop = 0, g_reload = 0;

void on_signal(int sig) {
    if (sig == SIGHUP)
        g_reload = 1;
    else
        g_stop = 1;
}

// Without SA_RESTART, so that a signal cuts the sleep between passes short.
void install_handlers() {
    struct sigaction sa = {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGHUP, SIGTERM, SIGINT}) sigaction(sig, &sa, nullptr);
}

// Engine time is wall-clock time in microseconds since the epoch, the clock
// Slurm's submit and start times use.
rota_time wall_now() {
    timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (rota_time)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void sleep_for(double seconds) {
    timespec ts;
    ts.tv_sec = (time_t)seconds;
    ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
    nanosleep(&ts, nullptr);  // EINTR on a signal: the loop looks at the flags
}

struct Options {
    const char* config = nullptr;
    const char* journal = nullptr;
    const char* metrics = nullptr;
    double interval = 1.0;
    double default_walltime = 3600;
    bool qos_classes = false;
    std::set<std::string> file_classes;  // --qos-classes: the classes the file names itself
};

// --qos-classes: a class that stands in for the QOS while the file is
// checked before Slurm is read ([classes] needs one), and never used.
constexpr const char* kStandInClass = "rota-slurm: the QOS";

// How often the QOS are read again: the accounting database offers no
// "changed since", and a QOS changes rarely.
constexpr double kQosEvery = 5;

void usage(std::FILE* to) {
    std::fprintf(
        to,
        "usage: rota-slurm --config FILE.toml [--interval SECONDS] [--journal FILE]\n"
        "                  [--default-walltime SECONDS] [--metrics FILE] [--qos-classes]\n");
}

// A number of seconds in [lo, hi] from a flag's value, all of it a number;
// false, with the reason printed, otherwise.
bool seconds(const char* flag, const char* text, double lo, double hi, double& out) {
    // Decimal digits only: strtod would also take " 5", "0x10" and "inf".
    if (text[0] == '\0' || std::strspn(text, "0123456789.eE+-") != std::strlen(text)) {
        std::fprintf(stderr,
                     "rota-slurm: %s: must be a number of seconds from %g to %g, not '%s'\n", flag,
                     lo, hi, text);
        return false;
    }
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text, &end);
    if (end == text || *end != '\0' || errno == ERANGE || !(v >= lo && v <= hi)) {
        std::fprintf(stderr,
                     "rota-slurm: %s: must be a number of seconds from %g to %g, not '%s'\n", flag,
                     lo, hi, text);
        return false;
    }
    out = v;
    return true;
}

// 0: run; 1: --help was asked (printed); 2: a usage error (printed).
int parse(int argc, char** argv, Options& o) {
    static const option longopts[] = {{"config", required_argument, nullptr, 'c'},
                                      {"interval", required_argument, nullptr, 'i'},
                                      {"journal", required_argument, nullptr, 'j'},
                                      {"default-walltime", required_argument, nullptr, 'w'},
                                      {"metrics", required_argument, nullptr, 'm'},
                                      {"qos-classes", no_argument, nullptr, 'q'},
                                      {"help", no_argument, nullptr, 'h'},
                                      {nullptr, 0, nullptr, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "c:i:j:w:m:qh", longopts, nullptr)) != -1) {
        switch (c) {
            case 'c':
                o.config = optarg;
                break;
            case 'i':
                // A poll at least every hour, and not so often that the
                // controller is asked without pause.
                if (!seconds("--interval", optarg, 0.01, 3600, o.interval)) return 2;
                break;
            case 'j':
                o.journal = optarg;
                break;
            case 'm':
                o.metrics = optarg;
                break;
            case 'q':
                o.qos_classes = true;
                break;
            case 'w':
                // Whole seconds, within what rota_submit takes as an estimate.
                if (!seconds("--default-walltime", optarg, 1, 1e8, o.default_walltime)) return 2;
                break;
            case 'h':
                return 1;
            default:  // getopt has said what was wrong
                return 2;
        }
    }
    if (optind != argc) {
        std::fprintf(stderr, "rota-slurm: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    if (!o.config) {
        std::fprintf(stderr, "rota-slurm: --config FILE.toml is required\n");
        return 2;
    }
    return 0;
}

int32_t classes(rota_engine* e) {
    rota_machine_info mi = {};
    mi.size = sizeof mi;
    rota_machine_info_get(e, &mi);
    return mi.nclasses;
}

size_t count(int (*list)(const rota_engine*, int64_t*, size_t, size_t*), const rota_engine* e) {
    size_t n = 0;
    list(e, nullptr, 0, &n);
    return n;
}

// The figures of a pass, for the status line and the metrics file.
PassFigures figures(rota_engine* e, const View& v, uint64_t pass, const Mirror& m,
                    const Applied& a) {
    PassFigures p;
    p.pass = pass;
    p.nodes = v.node_names.size();
    rota_free_nodes(e, nullptr, 0, &p.idle);
    for (Service s : v.service) p.out += s != Service::up;
    p.queued = count(rota_queue, e);
    p.running = count(rota_running, e);
    p.started = a.started;
    p.ended = m.ended();
    p.failed = a.failed;
    p.suspended = a.suspended;
    p.resumed = a.resumed;
    return p;
}

void status_line(rota_engine* e, const PassFigures& p) {
    time_t t = (time_t)(rota_now(e) / 1000000);
    char when[32];
    std::strftime(when, sizeof when, "%H:%M:%S", std::localtime(&t));
    std::fprintf(stderr,
                 "rota-slurm: %s pass %llu: nodes %zu idle %zu out %zu | queued %zu running %zu | "
                 "started %llu ended %llu failed %llu suspended %llu resumed %llu\n",
                 when, (unsigned long long)p.pass, p.nodes, p.idle, p.out, p.queued, p.running,
                 (unsigned long long)p.started, (unsigned long long)p.ended,
                 (unsigned long long)p.failed, (unsigned long long)p.suspended,
                 (unsigned long long)p.resumed);
}

bool read_file(const char* path, std::string& out) {
    std::FILE* f = std::fopen(path, "rb");
    if (!f) return false;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    const bool ok = !std::ferror(f);
    std::fclose(f);
    return ok;
}

// The engine's log, held back while a reload is tried: a reload that
// fails says so in one line, the engine's, or none when a new engine
// takes over instead (reload()).
struct Log {
    bool holding = false;
    std::vector<std::pair<int, std::string>> held;
    static void sink(void* ud, int level, const char* line) {
        Log* l = static_cast<Log*>(ud);
        if (l->holding)
            l->held.emplace_back(level, line);
        else
            rota_log_stderr(nullptr, level, line);
    }
    void release() {
        for (const auto& [level, line] : held) rota_log_stderr(nullptr, level, line.c_str());
        held.clear();
    }
};

// The directory of a path, for the scripts the configuration names.
std::string dir_of(const char* path) {
    const char* slash = std::strrchr(path, '/');
    return slash ? std::string(path, (size_t)(slash - path) + (slash == path)) : std::string(".");
}

// The engine again, from the configuration file's text with the site's
// partitions and licences appended (site_config): false, with the engine's
// message printed, if they do not combine with the file's tables.
bool with_site(const Options& o, const std::string& site, rota_engine*& e) {
    std::string text;
    if (!read_file(o.config, text)) {
        std::fprintf(stderr, "rota-slurm: %s: cannot read it again\n", o.config);
        return false;
    }
    rota_engine* n = nullptr;
    if (rota_engine_new((text + site).c_str(), dir_of(o.config).c_str(), &n) != ROTA_OK) {
        std::fprintf(stderr, "rota-slurm: %s with Slurm's partitions, licences and QOS: %s\n",
                     o.config, rota_errmsg(n));
        rota_engine_free(n);
        return false;
    }
    rota_engine_free(e);
    e = n;
    return true;
}

// Whether engine `e` can schedule Slurm's `nodes` nodes: its machine.procs
// is their count, and it does not migrate (Slurm cannot move a running job).
bool fits_slurm(const Options& o, rota_engine* e, size_t nodes) {
    rota_machine_info mi = {};
    mi.size = sizeof mi;
    rota_machine_info_get(e, &mi);
    if (mi.procs != (int32_t)nodes) {
        std::fprintf(
            stderr, "rota-slurm: %s: machine.procs must be the controller's %zu nodes (it is %d)\n",
            o.config, nodes, mi.procs);
        return false;
    }
    if (mi.migration) {
        std::fprintf(stderr,
                     "rota-slurm: %s: migration between rows (gang.migration, the mgs and mbgs "
                     "presets) moves running jobs to other nodes, which Slurm cannot do\n",
                     o.config);
        return false;
    }
    return true;
}

// A new engine from the configuration `text` and the `site`, in place of
// `e` if Slurm can run it on its `nodes`; otherwise `e` stays and the
// reason is printed after `what`.
bool take_over(const Options& o, const std::string& text, const std::string& site, size_t nodes,
               const char* what, Log& log, rota_engine*& e) {
    rota_engine* n = nullptr;
    if (rota_engine_new((text + site).c_str(), dir_of(o.config).c_str(), &n) != ROTA_OK ||
        !fits_slurm(o, n, nodes)) {
        if (*rota_errmsg(n))
            std::fprintf(stderr, "rota-slurm: %s: %s; the running configuration stays\n", what,
                         rota_errmsg(n));
        else
            std::fprintf(stderr, "rota-slurm: %s: the running configuration stays\n", what);
        rota_engine_free(n);
        return false;
    }
    rota_set_log(n, &Log::sink, &log);
    rota_engine_free(e);
    e = n;
    return true;
}

// SIGHUP: the configuration file again. What a running engine may change
// (scripts, their parameters, tunables) is applied by rota_reconfigure.
// What shapes the machine or the pass (a preset, the reservation depth,
// the rows) cannot change under a running engine, nor through a snapshot
// (rota_restore needs the same mode): a new engine takes over instead,
// as a restarted daemon would, and `fresh` is set (the caller starts a new
// mirror: held jobs are queued again in their Slurm submit order, running
// and released ones adopted). One line says what happened.
void reload(const Options& o, const std::string& site, size_t nodes, Log& log, rota_engine*& e,
            bool& fresh) {
    fresh = false;
    std::string text;
    if (!read_file(o.config, text)) {
        std::fprintf(stderr,
                     "rota-slurm: reload: cannot read %s; the running configuration stays\n",
                     o.config);
        return;
    }
    log.holding = true;
    const int rc = rota_reconfigure(e, (text + site).c_str());
    log.holding = false;
    if (rc == ROTA_OK) {
        log.held.clear();
        std::fprintf(stderr, "rota-slurm: reload: ROTA_OK\n");
        return;
    }
    if (rc != ROTA_ECONFIG || !std::strstr(rota_errmsg(e), "cannot change while the engine runs")) {
        log.release();  // the engine's one line says why; the running configuration stays
        return;
    }
    const std::string why = rota_errmsg(e);
    log.held.clear();
    if (!take_over(o, text, site, nodes, "reload", log, e)) return;
    fresh = true;
    std::fprintf(stderr,
                 "rota-slurm: reload: a new engine takes over (%s): held jobs are queued again in "
                 "their submit order, running ones adopted\n",
                 why.c_str());
}

// Slurm's partitions or licences changed (scontrol reconfigure, scontrol
// create or update): the engine's machine is made of them, and no running
// engine can change its machine, so a new engine takes over as after a
// reload. A site the configuration file cannot take (its own tables clash
// with it) leaves the running engine, told once (the caller keeps
// `refused` until the site changes again).
bool site_changed(const Options& o, const std::string& site, size_t nodes, Log& log,
                  rota_engine*& e) {
    std::string text;
    if (!read_file(o.config, text)) {
        std::fprintf(stderr, "rota-slurm: %s: cannot read it again\n", o.config);
        return false;
    }
    if (!take_over(o, text, site, nodes, "Slurm's site changed", log, e)) return false;
    std::fprintf(stderr,
                 "rota-slurm: Slurm's site changed: a new engine takes over "
                 "with %zu nodes; held jobs are queued again in their submit order, running ones "
                 "adopted\n",
                 nodes);
    return true;
}

// Slurm's QOS as [[classes.class]] tables in `text` (--qos-classes; ""
// without it). False, with `err` set, if they cannot be read or the engine
// cannot carry them out on Slurm. `preempt_qos`: Slurm preempts by QOS
// (PreemptType=preempt/qos); otherwise no class is preemptable.
bool qos_text(const Options& o, std::string& text, std::string& err, bool* preempt_qos = nullptr) {
    text.clear();
    if (!o.qos_classes) return true;
    QosSite q;
    if (!load_qos(q, err)) return false;
    if (preempt_qos) *preempt_qos = q.preempt_qos;
    if (!q.accounting) {
        err =
            "Slurm keeps no accounting (AccountingStorageType=accounting_storage/slurmdbd), so "
            "it has no QOS";
        return false;
    }
    text = classes_config(q, o.file_classes, err);
    return err.empty();
}

int run(const Options& o, rota_engine* e, std::FILE* journal_file) {
    View v;
    std::map<std::string, int32_t> numbers;
    std::string err;
    if (!load_view(v, numbers, err)) {
        std::fprintf(stderr, "rota-slurm: cannot read the controller: %s\n", err.c_str());
        rota_engine_free(e);
        return 1;
    }
    // Slurm's partitions and licences become the engine's partitions and
    // pools, and its QOS its classes; when they change, a new engine takes
    // over (site_changed).
    std::string qos, qos_err;
    bool preempt_qos = true;
    if (!qos_text(o, qos, qos_err, &preempt_qos)) {
        std::fprintf(stderr, "rota-slurm: --qos-classes: %s\n", qos_err.c_str());
        rota_engine_free(e);
        return 2;
    }
    if (!preempt_qos)
        std::fprintf(stderr,
                     "rota-slurm: --qos-classes: Slurm's PreemptType is not preempt/qos: the "
                     "QOS become classes, none of them preemptable\n");
    std::string site = site_config(v) + qos, refused;
    double qos_read = (double)wall_now() / 1e6;
    bool qos_told = false;  // a QOS read that failed, told once until one succeeds
    // (With --qos-classes, e has a stand-in class: replaced in any case.)
    if ((!site.empty() || o.qos_classes) && !with_site(o, site, e)) {
        rota_engine_free(e);
        return 2;
    }
    if (!fits_slurm(o, e, v.node_names.size())) {
        rota_engine_free(e);
        return 2;
    }
    Log log;
    rota_set_log(e, &Log::sink, &log);
    std::fprintf(stderr,
                 "rota-slurm: rota %s scheduling %zu nodes (%s .. %s), %zu partitions, %zu "
                 "licences, %d classes from %s\n",
                 rota_version(), v.node_names.size(), v.node_names.front().c_str(),
                 v.node_names.back().c_str(), v.partitions.size(), v.licenses.size(), classes(e),
                 o.config);

    const auto rows = [](rota_engine* en) {
        rota_machine_info mi = {};
        mi.size = sizeof mi;
        rota_machine_info_get(en, &mi);
        return mi.rows;
    };
    bool gang = rows(e) > 1;
    Journal journal(journal_file);
    const auto walltime = (rota_time)(o.default_walltime * 1e6);
    auto mirror = std::make_unique<Mirror>(e, walltime, journal);
    Applied a;
    uint64_t pass = 0;
    bool metrics_ok = true;
    while (!g_stop) {
        Mirror& m = *mirror;
        if (g_reload) {
            g_reload = 0;
            bool fresh = false;
            // Actions of the running engine are Slurm's already (applied
            // after every pass): nothing is left to pull.
            reload(o, site, v.node_names.size(), log, e, fresh);
            if (fresh) {
                mirror = std::make_unique<Mirror>(e, walltime, journal);
                gang = rows(e) > 1;
                continue;  // the new engine's clock starts at this pass
            }
        }
        // The clock never goes backwards for the engine, even if the
        // system's does.
        rota_time now = wall_now();
        if (now < rota_now(e)) now = rota_now(e);
        report(e, rota_advance(e, now), "rota_advance", -1);
        // What time alone brings (walltime KILLs, slice boundaries) first,
        // then Slurm is read: the snapshot then shows every release, hold
        // and suspension this daemon has made.
        apply_actions(e, v, m, journal, gang, a);
        if (!load_view(v, numbers, err)) {
            std::fprintf(stderr, "rota-slurm: cannot read the controller: %s\n", err.c_str());
            sleep_for(o.interval);
            continue;
        }
        if (o.qos_classes && (double)wall_now() / 1e6 - qos_read >= kQosEvery) {
            qos_read = (double)wall_now() / 1e6;
            std::string now_qos;
            if (qos_text(o, now_qos, qos_err)) {
                qos = std::move(now_qos);
                qos_told = false;
            } else if (!qos_told) {
                std::fprintf(stderr, "rota-slurm: --qos-classes: %s; the classes stay\n",
                             qos_err.c_str());
                qos_told = true;
            }
        }
        if (std::string now_site = site_config(v) + qos; now_site != site && now_site != refused) {
            if (site_changed(o, now_site, v.node_names.size(), log, e)) {
                site = std::move(now_site);
                refused.clear();
                mirror = std::make_unique<Mirror>(e, walltime, journal);
                gang = rows(e) > 1;
                continue;  // the new engine's clock starts at the next pass
            }
            refused = std::move(now_site);
        }
        m.sync(v);
        report(e, rota_schedule(e), "rota_schedule", -1);
        apply_actions(e, v, m, journal, gang, a);
        m.tell_reasons();
        const PassFigures p = figures(e, v, ++pass, m, a);
        status_line(e, p);
        // A file that cannot be written is told once, until a write succeeds.
        if (o.metrics) {
            const bool wrote = write_whole(o.metrics, metrics_text(e, p));
            if (!wrote && metrics_ok)
                std::fprintf(stderr, "rota-slurm: --metrics %s: %s\n", o.metrics,
                             std::strerror(errno));
            metrics_ok = wrote;
        }
        // Sooner if the engine needs a pass before the next poll (a
        // reservation's start, a walltime).
        rota_time wake = INT64_MAX;
        rota_next_wakeup(e, &wake);
        double wait = o.interval;
        if (wake != INT64_MAX)
            wait = std::min(wait, std::max(0.01, (double)(wake - wall_now()) / 1e6));
        if (!g_stop) sleep_for(wait);
    }
    std::fprintf(stderr, "rota-slurm: stopping after %llu passes; held jobs stay held\n",
                 (unsigned long long)pass);
    rota_engine_free(e);
    return 0;
}

// --qos-classes: the file with a stand-in for the QOS' classes, which
// are read from Slurm later; the classes the file names itself are noted
// (their tables are used whole, in place of the QOS').
bool check_with_qos(Options& o, rota_engine*& e) {
    std::string text;
    if (!read_file(o.config, text)) {
        std::fprintf(stderr, "rota-slurm: cannot open config file '%s'\n", o.config);
        return false;
    }
    text += std::string("\n[[classes.class]]\nname = \"") + kStandInClass + "\"\n";
    if (rota_engine_new(text.c_str(), dir_of(o.config).c_str(), &e) != ROTA_OK) {
        std::fprintf(stderr, "rota-slurm: %s: %s\n", o.config, rota_errmsg(e));
        rota_engine_free(e);
        e = nullptr;
        return false;
    }
    for (int32_t c = 1; c <= classes(e); ++c) {
        rota_class_info ci = {};
        ci.size = sizeof ci;
        if (rota_class_info_get(e, c, &ci) == ROTA_OK && std::strcmp(ci.name, kStandInClass))
            o.file_classes.insert(ci.name);
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    if (const int p = parse(argc, argv, o); p != 0) {
        usage(p == 1 ? stdout : stderr);
        return p == 1 ? 0 : 2;
    }
    if (rota_abi_version() != ROTA_ABI_VERSION) {
        std::fprintf(stderr, "rota-slurm: built for rota ABI %d, the library has %d\n",
                     ROTA_ABI_VERSION, rota_abi_version());
        return 2;
    }
    // The configuration before Slurm's: a broken one is reported whether
    // or not there is a controller (libslurm exits when it finds none).
    rota_engine* e = nullptr;
    if (!o.qos_classes && rota_engine_new_file(o.config, &e) != ROTA_OK) {
        std::fprintf(stderr, "rota-slurm: %s\n", rota_errmsg(e));
        rota_engine_free(e);
        return 2;
    }
    if (o.qos_classes && !check_with_qos(o, e)) return 2;
    // Migration would move a running job to other nodes, which Slurm
    // cannot do; every other gang action maps onto suspend and resume.
    rota_machine_info mi = {};
    mi.size = sizeof mi;
    rota_machine_info_get(e, &mi);
    if (mi.migration) {
        std::fprintf(stderr,
                     "rota-slurm: %s: migration between rows (gang.migration, the mgs and mbgs "
                     "presets) moves running jobs to other nodes, which Slurm cannot do\n",
                     o.config);
        rota_engine_free(e);
        return 2;
    }
    std::FILE* journal_file = nullptr;
    if (o.journal && !(journal_file = std::fopen(o.journal, "a"))) {
        std::fprintf(stderr, "rota-slurm: --journal %s: %s\n", o.journal, std::strerror(errno));
        rota_engine_free(e);
        return 2;
    }
    install_handlers();
    slurm_init(nullptr);  // reads slurm.conf (SLURM_CONF): before any other libslurm call
    int rc = run(o, e, journal_file);  // frees e
    if (journal_file) std::fclose(journal_file);
    slurm_fini();
    return rc;
}
