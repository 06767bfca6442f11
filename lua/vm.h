// One lua_State with a set of policy scripts loaded into it: what LuaPolicy
// swaps as a whole on reload. Each script runs in its own sandbox env; the
// state carries the memory cap, the instruction budget and the reused batch
// tables.
#pragma once

#include <array>
#include <cstdint>
#include <lua.hpp>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "batch_view.h"
#include "budget.h"
#include "lua_policy.h"
#include "sandbox.h"
#include "slots.h"
#include "state_links.h"
#include "watchdog.h"

namespace rota::lua {

class Vm {
  public:
    // Loads every configured script; throws rota::Error(Errc::script).
    explicit Vm(const LuaConfig& cfg);
    ~Vm();
    Vm(const Vm&) = delete;
    Vm& operator=(const Vm&) = delete;

    bool provides(Hook h) const { return !path_[index(h)].empty(); }
    bool streams(Hook h) const { return streams_[index(h)]; }
    bool ages(Hook h) const { return ages_[index(h)]; }
    const std::string& path(Hook h) const { return path_[index(h)]; }
    // VM instructions the last hook call ran (lua/budget.h).
    std::int64_t instructions_used() const { return budget_.used(); }

    // Calls every configured hook on an empty batch; throws
    // rota::Error(Errc::script) with the first failure.
    void dry_run(const BackfillContext& last);

    // Hands batch `b` and context `c` to hook H's script and reads its
    // answer (lua/answer.h). May throw only std::bad_alloc; the state
    // stays usable either way.
    template <Hook H>
    HookOutcome ask(const typename HookSignature<H>::Batch& b,
                    const typename HookSignature<H>::Context& c,
                    typename HookSignature<H>::Answer& a);

  private:
    struct Closer {
        void operator()(lua_State* L) const { lua_close(L); }
    };
    static std::size_t index(Hook h) { return static_cast<std::size_t>(h); }
    lua_State* L() const { return state_.get(); }

    void load_module(const std::string& path);
    void bind_hook(Hook h, int module, const Params& params);
    // Runs a protected C function with one light userdata argument and
    // `nargs` more values from the stack, under the script limits; `file`
    // is the script it runs, for a time limit's message.
    int run_protected(lua_CFunction f, void* args, int nargs, int nresults,
                      const std::string& file);
    // Runs lua_pcall under the script limits: the budgets armed, the
    // allocator enforcing, the deadline watched.
    int limited_pcall(int nargs, int nresults, const std::string& file);
    // (Re)creates the batch tables and context proxies in their slots.
    void create_views();

    // Where each kind of batch and context lives in the state: its slot
    // and its view.
    struct BatchSlot {
        int slot;
        BatchView& view;
    };
    struct ContextSlot {
        slot::Ctx slot;
        ContextView& view;
    };
    BatchSlot slot_of(const JobBatch&) { return {slot::jobs, jobs_view_}; }
    BatchSlot slot_of(const MigrationBatch&) { return {slot::moves, moves_view_}; }
    BatchSlot slot_of(const MalleableBatch&) { return {slot::mall, mall_view_}; }
    BatchSlot slot_of(const PreemptBatch&) { return {slot::sets, sets_view_}; }
    ContextSlot slot_of(const CommonContext&) { return {slot::common, common_view_}; }
    ContextSlot slot_of(const BackfillContext&) { return {slot::backfill, backfill_view_}; }
    ContextSlot slot_of(const MigrationContext&) { return {slot::migration, migration_view_}; }
    ContextSlot slot_of(const PlacementContext&) { return {slot::placement, placement_view_}; }
    ContextSlot slot_of(const MalleableContext&) { return {slot::malleable, malleable_view_}; }
    ContextSlot slot_of(const PreemptContext&) { return {slot::preempt, preempt_view_}; }
    // Hands a batch and a context to hook `h`; the result is on top on LUA_OK.
    template <class Batch, class Ctx>
    int call(Hook h, const Batch& b, const Ctx& ctx);
    // The dry run of hook H (dry_run).
    template <Hook H>
    HookOutcome dry_run_one(const BackfillContext& last);
    HookOutcome failure(Hook h, int status);
    HookOutcome invalid(Hook h);
    std::string error_text(int status) const;
    std::string with_full_paths(std::string msg) const;

    // Declared before the state: the allocator and the hook use them until
    // lua_close.
    MemoryBudget memory_;
    InstructionBudget budget_;
    StateLinks links_;  // behind the state's extra space
    // print() from scripts: each line made printable and bounded
    // (lua/text.h), at most kPrintPerCall lines a hook call and
    // kPrintPerState since the scripts were loaded; then one notice.
    static constexpr int kPrintPerCall = 20;
    static constexpr std::int64_t kPrintPerState = 10'000;
    static constexpr std::size_t kPrintLineMax = 1024;
    static constexpr std::size_t kErrorMax = 1024;  // a script's error message, in the log
    // The largest script read (and never more than the memory limit).
    static constexpr std::size_t kScriptMax = std::size_t{16} << 20;
    int printed_in_call_ = 0;
    std::int64_t printed_ = 0;
    LogSink sink_;  // the embedder's
    LogSink log_;   // what print() writes to: sink_ behind the limits
    void print_line(std::string_view line);
    std::unique_ptr<lua_State, Closer> state_;
    // After the state: unregistered from the watchdog before it is closed.
    std::unique_ptr<Deadline> deadline_;
    BatchView jobs_view_{kJobBatch};
    BatchView moves_view_{kMigrationBatch};
    BatchView mall_view_{kMalleableBatch};
    BatchView sets_view_{kPreemptBatch};
    ContextView common_view_, backfill_view_, migration_view_, placement_view_, malleable_view_,
        preempt_view_;
    std::array<std::string, kHookCount> path_;
    std::array<bool, kHookCount> streams_{};
    std::array<bool, kHookCount> ages_{};
    // The names of each hook's params, for a failed dry run's message.
    std::array<std::string, kHookCount> param_names_;
    // What Lua prints for a file in messages (it shortens long names with
    // "...") and the full path to put back.
    std::vector<std::pair<std::string, std::string>> chunk_ids_;
    std::vector<std::string> modules_;  // files loaded, in stack order
    std::string why_;                   // what was wrong with the last invalid answer
};

}  // namespace rota::lua
