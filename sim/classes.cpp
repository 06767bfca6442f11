#include "classes.h"

namespace rota::sim {

void classes_engine(toml::table& t) {
    if (!t.get("classes")) t.insert("classes", toml::table{{"preset", "llnl-t3d"}});
}

std::vector<std::int32_t> job_classes(rota_engine* e, const std::vector<TraceJob>& jobs,
                                      std::int64_t procs, std::int64_t seconds) {
    rota_machine_info mi{};
    mi.size = sizeof(mi);
    if (rota_machine_info_get(e, &mi) != ROTA_OK || mi.nclasses == 0) return {};
    std::int32_t interactive = 0;
    if (rota_class_find(e, "interactive", &interactive) != ROTA_OK) interactive = 0;
    std::vector<std::int32_t> out(jobs.size(), 0);
    if (interactive == 0) return out;
    for (std::size_t i = 0; i < jobs.size(); ++i)
        if (jobs[i].procs <= procs && jobs[i].estimate <= seconds) out[i] = interactive;
    return out;
}

}  // namespace rota::sim
