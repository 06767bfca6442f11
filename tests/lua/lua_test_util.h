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

#include "engine/answers.h"
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
    std::int32_t job_class = 0;
    std::int32_t class_priority = 0;
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
        b.job_class.push_back(r.job_class);
        b.class_priority.push_back(r.class_priority);
        b.account.push_back({});
        b.partition.push_back({});
        b.qos.push_back({});
    }
    return b;
}

// `now` doubles as the mode selector of the fault fixtures. A backfill
// context is a common context too, so it serves every hook.
inline BackfillContext make_ctx(Time now = 0, std::int32_t free_procs = 64,
                                std::int32_t machine_procs = 64) {
    BackfillContext ctx;
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

// The calls as the engine makes them: the policy's answer, then the
// engine's check of it (engine/answers.h), failing the call as it would.
inline HookOutcome checked_backfill(Policy& p, const JobBatch& b, const BackfillContext& ctx,
                                    std::vector<std::int64_t>& picks) {
    HookOutcome r = p.backfill_select(b, ctx, picks);
    std::vector<std::uint8_t> seen;
    if (r.ok) {
        const std::string why = check_picks(picks, b.size(), seen);
        if (!why.empty()) r = invalid_answer(Hook::backfill_select, p, why);
    }
    if (!r.ok) picks.clear();
    return r;
}
inline HookOutcome checked_admission(Policy& p, const JobBatch& b, const CommonContext& ctx,
                                     std::vector<Admission>& out) {
    HookOutcome r = p.admission(b, ctx, out);
    if (r.ok) {
        const std::string why = check_admission(out, b.size());
        if (!why.empty()) r = invalid_answer(Hook::admission, p, why);
    }
    return r;
}
inline HookOutcome checked_order(Policy& p, const JobBatch& b, const CommonContext& ctx,
                                 std::vector<double>& keys) {
    HookOutcome r = p.order(b, ctx, keys);
    if (r.ok) {
        const std::string why = check_keys(keys, b.size());
        if (!why.empty()) r = invalid_answer(Hook::order, p, why);
    }
    return r;
}
inline HookOutcome checked_migration(Policy& p, const MigrationBatch& m,
                                     const MigrationContext& ctx, std::vector<std::int64_t>& out) {
    HookOutcome r = p.migration_option(m, ctx, out);
    if (r.ok) {
        const std::string why = check_options(out, m.size());
        if (!why.empty()) r = invalid_answer(Hook::migration_option, p, why);
    }
    return r;
}

inline std::vector<std::int64_t> picks_of(LuaPolicy& p, const JobBatch& b,
                                          const BackfillContext& ctx) {
    std::vector<std::int64_t> picks;
    const HookOutcome r = checked_backfill(p, b, ctx, picks);
    if (!r.ok) throw std::runtime_error(r.error);
    return picks;
}

}  // namespace rota::test
