#include "classes.h"

namespace rota::sim {

namespace {

constexpr std::int32_t kInteractiveProcs = 64;  // seed 003 §4.6
constexpr std::int64_t kInteractiveTime = 2 * 3600;

}  // namespace

void classes_engine(toml::table& t) {
    if (!t.get("classes")) t.insert("classes", toml::table{{"preset", "llnl-t3d"}});
}

std::vector<std::int32_t> job_classes(rota_engine* e, const std::vector<TraceJob>& jobs) {
    rota_machine_info mi{};
    mi.size = sizeof(mi);
    if (rota_machine(e, &mi) != ROTA_OK || mi.nclasses == 0) return {};
    std::int32_t interactive = 0;
    if (rota_class_find(e, "interactive", &interactive) != ROTA_OK) interactive = 0;
    std::vector<std::int32_t> out(jobs.size(), 0);
    if (interactive == 0) return out;
    for (std::size_t i = 0; i < jobs.size(); ++i)
        if (jobs[i].procs <= kInteractiveProcs && jobs[i].estimate <= kInteractiveTime)
            out[i] = interactive;
    return out;
}

}  // namespace rota::sim
