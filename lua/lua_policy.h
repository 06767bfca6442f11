// rota::LuaPolicy: the engine's Policy answered by Lua 5.4 scripts
// (ARCHITECTURE §5; the script-side API is docs/lua-api.md).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/policy.h"

namespace rota {

namespace lua {
class Vm;
}

// One configured hook: `[policy.<hook>] script = "...", <param> = <value>`.
struct LuaHookConfig {
    std::string script;  // the path as written in the config
    Params params;
};

struct LuaConfig {
    std::vector<std::pair<Hook, LuaHookConfig>> hooks;  // only the configured hooks
    std::int64_t instruction_budget = 10'000'000;  // Lua VM instructions per hook call; 0: none
    // Seconds a hook call may run, checked with the budget (budget.h); 0: none.
    double time_limit = 10.0;
    std::size_t memory_limit = 64u << 20;  // bytes per lua_State
    // Directories for relative script paths, tried in order; ROTA_POLICY_DIR
    // (the shipped policies) is always tried last.
    std::vector<std::string> search_path;
    // Where a script's print() goes; empty means stderr.
    std::function<void(std::string_view)> log;
    // Where every lua_State's memory comes from (rota_engine_options.alloc);
    // null: realloc and free.
    void* (*alloc)(void* ud, void* ptr, std::size_t osize, std::size_t nsize) = nullptr;
    void* alloc_ud = nullptr;
    // The machine, for the context of the dry run at load (an empty machine
    // at time 0): a script may divide by its size or its rows.
    std::int32_t machine_procs = 0;
    std::int32_t rows = 1;
};

// Not thread-safe: one engine, one thread (ARCHITECTURE §6).
class LuaPolicy : public Policy {
  public:
    // Loads and compiles every configured script and calls each hook once
    // on an empty batch. Throws rota::Error: Errc::config for bad limits or
    // a hook configured twice, Errc::script for a missing or broken script
    // ("<file>:<line>: <message>" where there is a line).
    explicit LuaPolicy(LuaConfig cfg);
    ~LuaPolicy() override;
    LuaPolicy(const LuaPolicy&) = delete;
    LuaPolicy& operator=(const LuaPolicy&) = delete;

    bool provides(Hook h) const override;
    bool streams(Hook h) const override;
    bool ages(Hook h) const override;
    std::string source(Hook h) const override { return resolved_path(h); }
    std::int64_t first_index() const override { return 1; }
    std::int64_t last_work() const override { return last_work_; }
    // One per hook (ROTA_HOOKS). Never throw: a broken script gives
    // HookOutcome::failure("<hook>: ...").
#define ROTA_X(hook, id, Batch, Context, Answer, fallback) \
    HookOutcome hook(const Batch& batch, const Context& ctx, Answer& answer) override;
    ROTA_HOOKS(ROTA_X)
#undef ROTA_X

    // Re-reads and recompiles every configured script into new lua_States
    // and dry-runs each hook on an empty batch (with the last context seen).
    // Only if all of that succeeds are the new states swapped in; otherwise
    // throws rota::Error(Errc::script) and the old ones keep serving.
    void reload();

    // The file a hook's script was loaded from; empty if not configured.
    std::string resolved_path(Hook h) const;

  private:
    // One lua_State per configured hook: scripts cannot see or damage one
    // another's tables, memory or budgets, and a failure is the failing
    // script's alone (docs/lua-api.md, "Sandbox").
    using Vms = std::array<std::unique_ptr<lua::Vm>, kHookCount>;
    Vms load_all() const;
    lua::Vm* vm(Hook h) const {
        return vms_[static_cast<std::size_t>(h)].get();
    }
    // Asks hook H's state, guarded against exceptions; records the call's
    // work and the context, for a reload's dry run.
    template <Hook H>
    HookOutcome ask(const typename HookSignature<H>::Batch& b,
                    const typename HookSignature<H>::Context& c,
                    typename HookSignature<H>::Answer& a);
    void remember(const CommonContext& c);
    void remember(const BackfillContext& c);

    LuaConfig cfg_;
    std::int64_t last_work_ = 0;
    BackfillContext last_ctx_;
    bool have_backfill_ctx_ = false;  // last_ctx_'s backfill fields were set since the last load
    Vms vms_;
};

}  // namespace rota
