// The two limits a policy script runs under (ARCHITECTURE §5): a memory cap
// per lua_State, enforced by the allocator, and an instruction budget per
// hook call, enforced by a count hook. Both are cheap enough to stay armed
// on every call.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

struct lua_State;
struct lua_Debug;

namespace rota::lua {

struct InstructionBudget;

// The lua_Alloc of every policy state. The cap applies only while a script
// runs (`enforce`): the runtime's own stores into the batch tables happen
// outside protected mode, where a refused allocation would abort the
// process, so those are always granted.
struct MemoryBudget {
    // The embedder's allocator (rota_engine_options.alloc, lua_Alloc's
    // contract), or null for realloc/free.
    using Backing = void* (*)(void* ud, void* ptr, std::size_t osize, std::size_t nsize);

    std::size_t limit = 0;
    std::size_t used = 0;
    // The largest single block a script may allocate (a string, a table's
    // array or hash part): the time of one C library call is linear in the
    // size of what it handles, so this bounds the time of one VM
    // instruction (watchdog.h). A quarter of the limit, at least kMinBlock:
    // a string of 16 MiB with its header, a table part of 2^20 slots.
    static constexpr std::size_t kMinBlock = (std::size_t{16} << 20) + 256;
    std::size_t max_block = kMinBlock;
    // Raised by the watchdog when the call is past its time limit: from
    // then on no allocation that grows memory is granted, and the first
    // refusal trips `timing` (the state's budget), saying where the call
    // was (the state `state`, at an allocation, is consistent enough for
    // lua_getinfo, as it is in a hook).
    const std::atomic<bool>* expired = nullptr;
    InstructionBudget* timing = nullptr;
    lua_State* state = nullptr;
    bool enforce = false;
    Backing backing = nullptr;
    void* backing_ud = nullptr;

    static void* alloc(void* ud, void* ptr, std::size_t osize, std::size_t nsize) noexcept;
};

// Counts instructions down in steps of kStep: the hook fires once per
// step. Lua 5.4 still stops before every instruction while a count hook is
// set (luaG_traceexec), which doubles the time of a tight Lua loop; limit
// 0 sets no hook at all, for scripts trusted to end (docs/lua-api.md,
// "Budgets").
struct InstructionBudget {
    static constexpr int kStep = 1000;

    std::int64_t limit = 0;  // instructions per call; 0: no budget, no hook
    std::int64_t steps_left = 0;
    std::int64_t armed_steps = 0;  // steps_left when the call began
    // One instruction may run for milliseconds inside C (`..` or
    // string.upper on a string of megabytes), so instructions alone do not
    // bound a call's time: at every step the hook also checks the call's
    // elapsed time against this limit (0: none). Only a runaway script
    // reaches it; its verdict depends on the machine, the budget's does not.
    std::int64_t time_limit_ns = 0;
    std::int64_t deadline_ns = 0;  // from the call's first step; 0: not yet
    // The watchdog's verdict on the call (watchdog.h): checked first at
    // every firing of the hook, which the watchdog's signal makes fire at
    // the next instruction.
    const std::atomic<bool>* expired = nullptr;
    bool timed_out = false;  // tripped by the time limit, not the count
    bool tripped = false;
    char where[96] = {};  // "file:line" where the budget ran out

    // The count hook, for the watchdog's signal to set.
    static void hook(lua_State* L, lua_Debug* ar);
    // Marks the call as stopped by its time limit where the hook could not
    // say where (the allocator refused it, or the call ended first).
    void time_out(const char* where);

    // Installs the hook and remembers `this` in the state's links
    // (state_links.h), which must be set.
    void install(lua_State* L);
    // Called before every script call: a fresh budget, and the normal
    // step if the last call tripped it.
    void arm(lua_State* L);
    // Instructions the call since arm() ran, to the step (deterministic:
    // the same script on the same batch counts the same).
    std::int64_t used() const {
        if (limit == 0) return 0;
        const std::int64_t steps = tripped ? armed_steps : armed_steps - steps_left;
        return steps * kStep;
    }
};

// Whether the budget of the call running on L has run out (false when the
// state has no budget installed).
bool budget_tripped(lua_State* L);

}  // namespace rota::lua
