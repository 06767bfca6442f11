// Helpers shared by the Lua runtime tests: batches, configs, temp scripts.
#pragma once

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/policy.h"
#include "lua/lua_policy.h"

namespace rota::test {

inline std::string fixture(const std::string& name) {
    return std::string(ROTA_TEST_DATA) + "/lua/" + name;
}

inline std::string shipped(const std::string& name) {
    return std::string(ROTA_POLICY_DIR) + "/" + name;
}

struct JobRow {
    JobId id;
    std::int32_t procs;
    Time estimate = 100;
    Time submit = 0;
    std::int32_t user = 1;
    std::int32_t priority = 0;
};

inline JobBatch make_batch(const std::vector<JobRow>& rows) {
    JobBatch b;
    for (const JobRow& r : rows) {
        b.id.push_back(r.id);
        b.procs.push_back(r.procs);
        b.estimate.push_back(r.estimate);
        b.submit.push_back(r.submit);
        b.user.push_back(r.user);
        b.priority.push_back(r.priority);
    }
    return b;
}

// `now` doubles as the mode selector of the fault fixtures.
inline PassContext make_ctx(Time now = 0, std::int32_t free_procs = 64,
                            std::int32_t machine_procs = 64) {
    PassContext ctx;
    ctx.now = now;
    ctx.machine_procs = machine_procs;
    ctx.free_procs = free_procs;
    return ctx;
}

inline LuaConfig config(Hook h, const std::string& script, Params params = {}) {
    LuaConfig cfg;
    cfg.hooks.push_back({h, LuaHookConfig{script, std::move(params)}});
    cfg.log = [](std::string_view) {};
    return cfg;
}

// A fresh directory under the system temp dir, removed at the end of scope.
class TempDir {
  public:
    TempDir() {
        static std::atomic<int> counter{0};
        path_ = std::filesystem::temp_directory_path() /
                ("rota_lua_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return path_; }

    // Writes (or overwrites) a file and returns its full path.
    std::string write(const std::string& name, const std::string& text) const {
        const auto p = path_ / name;
        std::filesystem::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
        return p.string();
    }

  private:
    std::filesystem::path path_;
};

inline std::vector<std::uint32_t> picks_of(LuaPolicy& p, const JobBatch& b,
                                           const PassContext& ctx) {
    std::vector<std::uint32_t> picks;
    const HookOutcome r = p.backfill_select(b, ctx, picks);
    if (!r.ok) throw std::runtime_error(r.error);
    return picks;
}

}  // namespace rota::test
