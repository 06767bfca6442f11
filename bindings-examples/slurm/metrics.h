// metrics.h: the daemon's figures for an operator to scrape, in the
// Prometheus text format (node_exporter's textfile collector reads such a
// file): the engine's counters, each hook's statistics, and the state of
// the last pass.
#pragma once

#include <cstdint>
#include <string>

#include "rota.h"

namespace rota_slurm {

struct PassFigures {
    uint64_t pass = 0;
    size_t nodes = 0, idle = 0, out = 0, queued = 0, running = 0;
    uint64_t started = 0, ended = 0, failed = 0, suspended = 0, resumed = 0;
};

// The metrics text for engine `e` after a pass.
std::string metrics_text(const rota_engine* e, const PassFigures& p);

// Writes `text` to `path` whole: into a temporary file beside it, then
// renamed over it, so that a scraper never reads half a file. False, with
// errno set, if it could not.
bool write_whole(const std::string& path, const std::string& text);

}  // namespace rota_slurm
