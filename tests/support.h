// Helpers shared by the tests: engines built the way `rota simulate`
// builds them, and access to the shared traces.
#pragma once

#include <unistd.h>

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

// A folder of this test process's own (scripts, traces, configurations it
// writes), removed when the process exits so that repeated runs do not
// fill the temporary folder.
inline std::filesystem::path temp_dir() {
    struct Folder {
        std::filesystem::path path =
            std::filesystem::temp_directory_path() / ("rota-test-" + std::to_string(::getpid()));
        Folder() { std::filesystem::create_directories(path); }
        ~Folder() {
            std::error_code ignored;
            std::filesystem::remove_all(path, ignored);
        }
    };
    static const Folder folder;
    return folder.path;
}

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

// Driving an engine by hand through the ABI, times in seconds: the
// actions of the last event call, an advance followed by a pass, and the
// queries the scenario tests check.
struct Act {
    int type;
    std::int64_t job;
    std::int64_t time;  // s
    std::vector<std::int32_t> nodes;
    double delay;  // s
};

inline std::vector<Act> drain(rota_engine* e) {
    std::vector<Act> out;
    rota_action a{};
    a.size = sizeof(a);
    while (rota_next_action(e, &a) == ROTA_OK) {
        Act x{a.type, a.job, a.time / 1'000'000, {}, static_cast<double>(a.delay) / 1e6};
        for (int32_t r = 0; r < a.nruns; ++r)
            for (int32_t k = 0; k < a.runs[r].count; ++k) x.nodes.push_back(a.runs[r].first + k);
        out.push_back(std::move(x));
        a = rota_action{};
        a.size = sizeof(a);
    }
    return out;
}

inline std::vector<Act> at(rota_engine* e, std::int64_t t_s) {
    INFO(rota_errmsg(e));
    REQUIRE(rota_advance(e, t_s * 1'000'000) == ROTA_OK);
    REQUIRE(rota_schedule(e) == ROTA_OK);
    return drain(e);
}

inline rota_job_info info(rota_engine* e, std::int64_t id) {
    rota_job_info i{};
    i.size = sizeof(i);
    REQUIRE(rota_job_info_get(e, id, &i) == ROTA_OK);
    return i;
}

inline rota_counters counters(rota_engine* e) {
    rota_counters c{};
    c.size = sizeof(c);
    REQUIRE(rota_counters_get(e, &c) == ROTA_OK);
    return c;
}

inline std::int64_t wakeup_s(rota_engine* e) {
    rota_time t = 0;
    REQUIRE(rota_next_wakeup(e, &t) == ROTA_OK);
    return t / 1'000'000;
}

inline std::vector<std::int32_t> range(std::int32_t a, std::int32_t b) {
    std::vector<std::int32_t> v;
    for (std::int32_t i = a; i <= b; ++i) v.push_back(i);
    return v;
}

}  // namespace rota::test
