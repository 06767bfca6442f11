#include "budget.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <lua.hpp>

#include "state_links.h"

namespace rota::lua {

namespace {

// "file:line" of the innermost Lua function running on L (C functions have
// no line), into `where`.
void locate(lua_State* L, char* where, std::size_t size) {
    lua_Debug ar;
    for (int level = 0; lua_getstack(L, level, &ar) != 0; ++level) {
        if (lua_getinfo(L, "Sl", &ar) == 0 || ar.currentline <= 0) continue;
        std::snprintf(where, size, "%s:%d", ar.short_src, ar.currentline);
        return;
    }
}

}  // namespace

void* MemoryBudget::alloc(void* ud, void* ptr, std::size_t osize, std::size_t nsize) noexcept {
    auto* m = static_cast<MemoryBudget*>(ud);
    const std::size_t lua_osize = osize;  // the backing allocator gets Lua's own
    // For a new block Lua passes the object's type in osize, not a size.
    if (ptr == nullptr) osize = 0;
    if (nsize == 0) {
        if (m->backing)
            m->backing(m->backing_ud, ptr, lua_osize, 0);
        else
            std::free(ptr);
        m->used -= osize;
        return nullptr;
    }
    // Shrinking is never refused: Lua does not expect it to fail.
    if (m->enforce && nsize > osize) {
        if (m->used > m->limit || nsize - osize > m->limit - m->used || nsize > m->max_block)
            return nullptr;  // Lua collects garbage, retries, then raises LUA_ERRMEM
        if (m->expired != nullptr && m->expired->load(std::memory_order_relaxed)) {
            InstructionBudget* b = m->timing;
            if (b != nullptr && !b->tripped && m->state != nullptr) {
                b->tripped = true;
                b->timed_out = true;
                b->where[0] = '\0';
                locate(m->state, b->where, sizeof b->where);
            }
            return nullptr;
        }
    }
    void* p =
        m->backing ? m->backing(m->backing_ud, ptr, lua_osize, nsize) : std::realloc(ptr, nsize);
    if (p != nullptr) m->used = m->used - osize + nsize;
    return p;
}

namespace {

InstructionBudget* budget_of(lua_State* L) {
    const StateLinks* k = links(L);
    return k != nullptr ? k->budget : nullptr;
}

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void count_hook(lua_State* L, lua_Debug* ar) {
    InstructionBudget* b = budget_of(L);
    if (!b->tripped) {
        if (b->expired != nullptr && b->expired->load(std::memory_order_relaxed)) {
            b->timed_out = true;  // the watchdog's signal: at the next instruction
        } else if (--b->steps_left > 0) {
            if (b->time_limit_ns <= 0) return;
            // The clock starts at the first step, so that the calls that
            // end within 1000 instructions (most) never read it.
            const std::int64_t now = now_ns();
            if (b->deadline_ns == 0) b->deadline_ns = now + b->time_limit_ns;
            if (now <= b->deadline_ns) return;
            b->timed_out = true;
        }
        b->tripped = true;
        if (lua_getinfo(L, "Sl", ar) != 0 && ar->currentline > 0) {
            std::snprintf(b->where, sizeof b->where, "%s:%d", ar->short_src, ar->currentline);
        } else {
            std::snprintf(b->where, sizeof b->where, "%s", ar->short_src);
        }
        // From now on fire at every instruction, so that a script which
        // catches the error with pcall is stopped again at once.
        lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
    }
    if (b->timed_out)
        lua_pushliteral(L, "time limit exceeded");
    else
        lua_pushliteral(L, "instruction budget exceeded");
    lua_error(L);
}

}  // namespace

void InstructionBudget::hook(lua_State* L, lua_Debug* ar) {
    count_hook(L, ar);
}

void InstructionBudget::time_out(const char* at) {
    if (!tripped) {
        tripped = true;
        timed_out = true;
        where[0] = '\0';
    }
    if (where[0] == '\0') std::snprintf(where, sizeof where, "%s", at);
}

bool budget_tripped(lua_State* L) {
    const InstructionBudget* b = budget_of(L);
    return b != nullptr && b->tripped;
}

void InstructionBudget::install(lua_State* L) {
    links(L)->budget = this;
    arm(L);
}

void InstructionBudget::arm(lua_State* L) {
    if (limit == 0) {
        tripped = false;
        timed_out = false;
        lua_sethook(L, nullptr, 0, 0);
        return;
    }
    steps_left = limit / kStep + (limit % kStep != 0 ? 1 : 0);
    armed_steps = steps_left;
    tripped = false;
    timed_out = false;
    deadline_ns = 0;  // set at the first step
    // Also restarts the step counter, so each call gets its whole budget.
    lua_sethook(L, count_hook, LUA_MASKCOUNT, kStep);
}

}  // namespace rota::lua
