// Helpers shared by the tests: engines built the way `rota simulate`
// builds them, and access to the shared traces.
#pragma once

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "capi/include/rota.h"
#include "sim/run_config.h"
#include "sim/simulation.h"

namespace rota::test {

struct EngineDeleter {
    void operator()(rota_engine* e) const { rota_engine_free(e); }
};
using EnginePtr = std::unique_ptr<rota_engine, EngineDeleter>;

// An engine from a TOML text; fails the test with the engine's message.
inline EnginePtr engine_from(const std::string& toml, const char* base_dir = nullptr) {
    rota_engine* e = nullptr;
    int rc = rota_engine_new(toml.c_str(), base_dir, &e);
    EnginePtr p(e);
    INFO(rota_errmsg(e));
    REQUIRE(rc == ROTA_OK);
    return p;
}

// An engine with one of the `rota simulate` presets (fcfs, easy, ...).
inline EnginePtr preset_engine(const std::string& policy, std::int32_t procs,
                               std::int64_t max_jumps = 10, const std::string& extra = "") {
    sim::RunConfig rc;
    rc.max_jumps = max_jumps;
    if (!extra.empty()) rc.engine = toml::parse(extra);
    return engine_from(sim::engine_toml(rc, policy, procs));
}

// An engine with a gang preset (gs, bgs, mgs, mbgs).
inline EnginePtr gang_engine(const std::string& policy, std::int32_t procs, std::int64_t mpl,
                             double slice = 200.0, double migration_cost = 0.0,
                             std::int64_t migration_q = -1, const std::string& extra = "") {
    sim::RunConfig rc;
    if (!extra.empty()) rc.engine = toml::parse(extra);
    rc.mpl = mpl;
    rc.slice = slice;
    rc.migration_cost = migration_cost;
    rc.migration_q = migration_q;
    return engine_from(sim::engine_toml(rc, policy, procs));
}

// Statistics of one hook of an engine.
inline rota_hook_stats hook_stats(rota_engine* e, int hook) {
    rota_hook_stats st{};
    st.size = sizeof(st);
    REQUIRE(rota_hook_stats_get(e, hook, &st) == ROTA_OK);
    return st;
}

inline sim::TraceJob job(std::int64_t id, std::int64_t submit, std::int32_t procs,
                         std::int64_t runtime, std::int64_t estimate = -1) {
    return sim::TraceJob{id, submit, runtime, estimate < 0 ? runtime : estimate, procs, -1};
}

// Start time (seconds) of every job, by trace id.
inline std::map<std::int64_t, std::int64_t> starts(const sim::SimResult& r) {
    std::map<std::int64_t, std::int64_t> m;
    for (const auto& o : r.jobs) m[o.id] = o.start;
    return m;
}

inline std::map<std::int64_t, std::int64_t> run(const std::string& policy, std::int32_t procs,
                                                const std::vector<sim::TraceJob>& jobs,
                                                std::int64_t max_jumps = 10) {
    auto e = preset_engine(policy, procs, max_jumps);
    return starts(sim::simulate(e.get(), jobs, {}));
}

// The shared data folder (traces, papers). When it is absent, tests that
// need it skip with a message, except under CI=true, where they fail.
inline std::string shared_path(const std::string& rel) {
    std::string p = std::string(ROTA_SHARED_DIR) + "/" + rel;
    if (std::filesystem::exists(p)) return p;
    const char* ci = std::getenv("CI");
    if (ci && std::string(ci) == "true") FAIL("shared data missing under CI: " << p);
    WARN("skipped: shared data not found at " << p);
    return {};
}

}  // namespace rota::test
