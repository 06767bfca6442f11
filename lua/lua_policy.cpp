#include "lua_policy.h"

#include <cstdio>
#include <exception>
#include <new>

#include "engine/error.h"
#include "vm.h"

namespace rota {

namespace {

void log_to_stderr(std::string_view line) {
    std::fprintf(stderr, "rota: lua: %.*s\n", static_cast<int>(line.size()), line.data());
}

void check(const LuaConfig& cfg) {
    if (cfg.instruction_budget < 0) {
        throw Error(Errc::config, "lua instruction_budget must be positive, or 0 for none");
    }
    if (cfg.memory_limit == 0) throw Error(Errc::config, "lua memory_limit must be positive");
    if (!(cfg.time_limit >= 0)) throw Error(Errc::config, "lua time_limit must be >= 0 seconds");
    bool seen[kHookCount] = {};
    for (const auto& [hook, hc] : cfg.hooks) {
        const auto i = static_cast<int>(hook);
        if (i < 0 || i >= kHookCount) throw Error(Errc::config, "unknown policy hook");
        if (seen[i]) {
            throw Error(Errc::config,
                        std::string("policy hook '") + hook_name(hook) + "' configured twice");
        }
        seen[i] = true;
    }
}

// The hook methods promise not to throw; only allocation can fail in there.
template <class F>
HookOutcome guarded(Hook h, F&& f) {
    try {
        return f();
    } catch (const std::exception& e) {
        return HookOutcome::failure(std::string(hook_name(h)) + ": " + e.what());
    } catch (...) {
        return HookOutcome::failure(std::string(hook_name(h)) + ": unknown exception");
    }
}

}  // namespace

LuaPolicy::LuaPolicy(LuaConfig cfg) : cfg_(std::move(cfg)) {
    check(cfg_);
    if (!cfg_.log) cfg_.log = log_to_stderr;
    // Until the engine has called a hook, the dry run sees the machine empty.
    last_ctx_.machine_procs = cfg_.machine_procs;
    last_ctx_.rows = cfg_.rows;
    last_ctx_.free_procs = cfg_.machine_procs;
    vms_ = load_all();
}

LuaPolicy::~LuaPolicy() = default;

LuaPolicy::Vms LuaPolicy::load_all() const {
    Vms fresh;
    // Running out of memory while the scripts are read or built is a
    // script load that failed like any other (Errc::script): a reload or
    // a reconfiguration then counts as failed and keeps the running
    // policies, as the C ABI promises.
    try {
        for (const auto& [hook, hc] : cfg_.hooks) {
            LuaConfig one = cfg_;
            one.hooks = {{hook, hc}};
            auto v = std::make_unique<lua::Vm>(one);
            v->dry_run(last_ctx_);
            fresh[static_cast<std::size_t>(hook)] = std::move(v);
        }
    } catch (const std::bad_alloc&) {
        throw Error(Errc::script, "out of memory while loading the policy scripts");
    }
    return fresh;
}

bool LuaPolicy::provides(Hook h) const {
    return vm(h) != nullptr && vm(h)->provides(h);
}

bool LuaPolicy::streams(Hook h) const {
    return vm(h) != nullptr && vm(h)->streams(h);
}

bool LuaPolicy::ages(Hook h) const {
    return vm(h) != nullptr && vm(h)->ages(h);
}

std::string LuaPolicy::resolved_path(Hook h) const {
    return vm(h) != nullptr ? vm(h)->path(h) : std::string();
}

void LuaPolicy::reload() {
    // The dry run reads no usage records and no names: the engine that
    // kept them may be gone, and an empty batch has no users or names to
    // look up.
    last_ctx_.user_usage.book = nullptr;
    last_ctx_.user_procs.book = nullptr;
    last_ctx_.user_running.book = nullptr;
    last_ctx_.names = nullptr;
    // Built and tried aside: the running states are untouched until the swap.
    Vms fresh = load_all();
    vms_.swap(fresh);
    have_backfill_ctx_ = false;
}

// The last context seen is what a reload dry-runs with.
void LuaPolicy::remember(const CommonContext& c) {
    static_cast<CommonContext&>(last_ctx_) = c;
}

// The backfill fields only once per load: their shape (resources,
// capacities) is what a dry run needs, and copying them at every call was
// a tenth of the call.
void LuaPolicy::remember(const BackfillContext& c) {
    if (have_backfill_ctx_) return remember(static_cast<const CommonContext&>(c));
    last_ctx_ = c;
    have_backfill_ctx_ = true;
}

template <Hook H>
HookOutcome LuaPolicy::ask(const typename HookSignature<H>::Batch& b,
                           const typename HookSignature<H>::Context& c,
                           typename HookSignature<H>::Answer& a) {
    remember(c);
    lua::Vm* v = vm(H);
    HookOutcome o = guarded(H, [&] {
        return v ? v->ask<H>(b, c, a)
                 : HookOutcome::failure(std::string(hook_name(H)) + ": no script configured");
    });
    last_work_ = v ? v->instructions_used() : 0;
    return o;
}

#define ROTA_X(hook, id, Batch, Context, Answer, fallback)                                \
    HookOutcome LuaPolicy::hook(const Batch& batch, const Context& ctx, Answer& answer) { \
        return ask<Hook::hook>(batch, ctx, answer);                                       \
    }
ROTA_HOOKS(ROTA_X)
#undef ROTA_X

}  // namespace rota
