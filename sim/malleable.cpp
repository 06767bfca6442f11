#include "malleable.h"

#include <cmath>
#include <stdexcept>

#include "run_config.h"

namespace rota::sim {

namespace {

struct Named {
    const char* name;
    const char* harvest;       // harvest script, or null
    const char* distribution;  // distribution script, or null
    const char* inverse;       // the harvest policy distribution inverts
    bool grow_running;
};

// §2.2: "Even-H-FR, Even-H-FQ, Low-Imp-FR, and Low-Imp-FQ", and MOLDABLE:
// never harvest, never adapt running jobs.
const Named kNamed[] = {
    {"moldable", nullptr, "distribution/favor_queued.lua", "even", false},
    {"even-h-fq", "harvest/even.lua", "distribution/favor_queued.lua", "even", true},
    {"even-h-fr", "harvest/even.lua", "distribution/favor_running.lua", "even", true},
    {"low-imp-fq", "harvest/low_impact.lua", "distribution/favor_queued.lua", "low_impact", true},
    {"low-imp-fr", "harvest/low_impact.lua", "distribution/favor_running.lua", "low_impact", true},
};

}  // namespace

const std::vector<std::string>& malleable_policy_names() {
    static const std::vector<std::string> names{"ideal-only", "ideal-backfill", "moldable",
                                                "even-h-fq",  "even-h-fr",      "low-imp-fq",
                                                "low-imp-fr"};
    return names;
}

bool is_malleable_policy(const std::string& name) {
    for (const auto& n : malleable_policy_names())
        if (n == name) return true;
    return false;
}

bool uses_min(const std::string& name) {
    return is_malleable_policy(name) && name != "ideal-only" && name != "ideal-backfill";
}

std::string malleable_model(const std::string& engine_toml) {
    const toml::table t = toml::parse(engine_toml);
    const toml::table* m = t["malleable"].as_table();
    if (m == nullptr) return "";
    return (*m)["exec_model"].value_or(std::string("linear"));
}

void malleable_engine(toml::table& t, const RunConfig& rc, const std::string& policy) {
    for (const char* k : {"scheduler", "malleable"})
        if (t.get(k))
            throw ConfigError(std::string("table [") + k +
                              "] is set by the simulator with policy '" + policy +
                              "'; use policy = \"custom\" to set it yourself");
    if (policy == "ideal-only" || policy == "ideal-backfill") {
        // §2.2's baselines: FCFS, and EASY backfilling, every job on its ideal.
        t.insert("scheduler", toml::table{{"preset", policy == "ideal-only" ? "fcfs" : "easy"}});
        return;
    }
    const Named* n = nullptr;
    for (const Named& k : kNamed)
        if (policy == k.name) n = &k;
    if (!n) throw ConfigError("unknown malleable policy '" + policy + "'");
    toml::table m{{"exec_model", rc.exec_model}, {"mpl_limit", rc.mpl_limit}};
    if (rc.adapt_latency > 0) m.insert("adapt_latency", rc.adapt_latency);
    if (rc.adapt_per_byte > 0) m.insert("adapt_per_byte", rc.adapt_per_byte);
    t.insert("malleable", std::move(m));
    if (!t.get("policy")) t.insert("policy", toml::table{});
    toml::table& pol = *t.get("policy")->as_table();
    for (const char* k : {"harvest", "distribution", "backfill_select"})
        if (pol.get(k))
            throw ConfigError(std::string("key 'policy.") + k +
                              "' is set by the simulator with policy '" + policy +
                              "'; use policy = \"custom\" to set it yourself");
    if (n->harvest) pol.insert("harvest", toml::table{{"script", n->harvest}});
    toml::table d{{"script", n->distribution}, {"harvest", n->inverse}};
    if (!n->grow_running) d.insert("grow_running", false);
    pol.insert("distribution", std::move(d));
}

std::vector<std::int32_t> min_procs(const std::vector<TraceJob>& jobs, double min_pct) {
    std::vector<std::int32_t> out(jobs.size());
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const double m = std::ceil(min_pct / 100.0 * static_cast<double>(jobs[i].procs) - 1e-9);
        out[i] = std::max<std::int32_t>(1, std::min(jobs[i].procs, static_cast<std::int32_t>(m)));
    }
    return out;
}

}  // namespace rota::sim
