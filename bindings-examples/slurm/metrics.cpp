// metrics.cpp: the Prometheus text of the daemon's figures (metrics.h).
#include "metrics.h"

#include <unistd.h>

#include <cstdio>

namespace rota_slurm {

namespace {

void metric(std::string& o, const char* name, const char* type, const char* help, uint64_t v) {
    o += std::string("# HELP rota_") + name + " " + help + "\n# TYPE rota_" + name + " " + type +
         "\nrota_" + name + " " + std::to_string(v) + "\n";
}

}  // namespace

std::string metrics_text(const rota_engine* e, const PassFigures& p) {
    std::string o;
    rota_counters c = {};
    c.size = sizeof c;
    rota_counters_get(e, &c);
    // The engine's own counts (rota_counters_get); an engine made anew by
    // a reload starts them again at 0, as Prometheus counters may.
    metric(o, "passes_total", "counter", "Scheduling passes of the engine.", c.passes);
    metric(o, "submitted_total", "counter", "Jobs submitted to the engine.", c.submitted);
    metric(o, "engine_started_total", "counter", "Jobs the engine started.", c.started);
    metric(o, "backfilled_total", "counter", "Jobs started by backfilling.", c.backfilled);
    metric(o, "finished_total", "counter", "Jobs ended.", c.finished);
    metric(o, "killed_total", "counter", "Jobs killed at their walltime.", c.killed);
    metric(o, "rejected_total", "counter", "Jobs the engine rejected.", c.rejected);
    metric(o, "adopted_total", "counter", "Running jobs taken over.", c.adopted);
    metric(o, "requeued_total", "counter", "Running jobs sent back to the queue.", c.requeued);
    metric(o, "preemptions_total", "counter", "Jobs preempted (job classes).", c.preemptions);
    metric(o, "reloads_total", "counter", "Configurations and policies reloaded.", c.reloads);
    metric(o, "reload_failures_total", "counter", "Reloads that failed.", c.reload_failures);
    o += "# HELP rota_hook_calls_total Calls of a hook's policy.\n"
         "# TYPE rota_hook_calls_total counter\n";
    std::string failures =
        "# HELP rota_hook_failures_total Calls of a hook's policy that failed.\n"
        "# TYPE rota_hook_failures_total counter\n";
    std::string seconds =
        "# HELP rota_hook_seconds_total Wall time in a hook's policy.\n"
        "# TYPE rota_hook_seconds_total counter\n";
    std::string quarantined =
        "# HELP rota_hook_quarantined 1 while a hook is quarantined.\n"
        "# TYPE rota_hook_quarantined gauge\n";
    for (int h = 0; h < ROTA_HOOK_COUNT; ++h) {
        rota_hook_stats s = {};
        s.size = sizeof s;
        if (rota_hook_stats_get(e, h, &s) != ROTA_OK) continue;
        const std::string label = std::string("{hook=\"") + rota_hook_name(h) + "\"} ";
        o += "rota_hook_calls_total" + label + std::to_string(s.calls) + "\n";
        failures += "rota_hook_failures_total" + label + std::to_string(s.failures) + "\n";
        char secs[32];
        std::snprintf(secs, sizeof secs, "%.6f", (double)s.nanoseconds / 1e9);
        seconds += "rota_hook_seconds_total" + label + secs + "\n";
        quarantined += "rota_hook_quarantined" + label + std::to_string(s.quarantined) + "\n";
    }
    o += failures + seconds + quarantined;
    // The daemon's own: the last pass as the status line shows it.
    metric(o, "daemon_passes_total", "counter", "Passes of this daemon.", p.pass);
    metric(o, "nodes", "gauge", "Slurm nodes.", p.nodes);
    metric(o, "nodes_idle", "gauge", "Nodes idle in the engine.", p.idle);
    metric(o, "nodes_out", "gauge", "Nodes down or draining.", p.out);
    metric(o, "jobs_queued", "gauge", "Jobs waiting in the engine's queue.", p.queued);
    metric(o, "jobs_running", "gauge", "Jobs running.", p.running);
    metric(o, "started_total", "counter", "Jobs released to Slurm by this daemon.", p.started);
    metric(o, "ended_total", "counter", "Jobs started by rota that ended in Slurm.", p.ended);
    metric(o, "start_failures_total", "counter", "Releases Slurm refused.", p.failed);
    metric(o, "suspended_total", "counter", "Jobs suspended (gang scheduling).", p.suspended);
    metric(o, "resumed_total", "counter", "Jobs resumed (gang scheduling).", p.resumed);
    return o;
}

bool write_whole(const std::string& path, const std::string& text) {
    const std::string tmp = path + ".tmp";
    std::FILE* f = std::fopen(tmp.c_str(), "w");
    if (!f) return false;
    const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    if (std::fclose(f) != 0 || !ok) {
        unlink(tmp.c_str());
        return false;
    }
    return std::rename(tmp.c_str(), path.c_str()) == 0;
}

}  // namespace rota_slurm
