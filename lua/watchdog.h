// The time limit of a hook call, enforced from outside the call
// (docs/lua-api.md, "Budgets"). The count hook reads the clock only every
// 1000 VM instructions, and an instruction can run long inside C (a string
// function on megabytes), so the hook alone lets a call outrun its limit
// by a thousand such instructions. A Deadline is watched by one thread per
// process: when a call has run past its limit, the watchdog
//
//  * raises the call's `expired` flag, which the state's allocator reads:
//    from then on it refuses every allocation that grows memory, so a C
//    function that allocates as it goes (the parser of `load`, a buffer
//    that grows) fails at its next allocation;
//  * sends the thread running the call a real-time signal whose handler
//    sets the count hook to fire at the next VM instruction
//    (lua_sethook, the one Lua call documented as safe from a signal
//    handler, as lua.c does on SIGINT). The signal, not the watchdog
//    thread, calls lua_sethook: the call's own thread is interrupted, so
//    the state's call chain is never walked while it changes.
//
// A call thus overruns its limit by the watchdog's tick (a tenth of the
// limit, at least 1 ms and at most 100 ms, twice at worst) plus the one
// instruction running when the signal lands, and no instruction runs long:
// the library functions whose time is not linear in a bounded size are
// bounded (bounded.h), and no single block a script allocates is larger
// than MemoryBudget::max_block.
//
// Many engines, in many threads: one watchdog thread serves every Deadline
// of the process; a call registers by storing a number (begin/end take no
// lock and make no system call). The signal is the highest real-time
// signal that had no handler when the first Deadline was made; before
// each use the watchdog checks that its handler is still installed, and
// without one (or without a thread) the count hook's own clock check and
// the allocator's flag remain.
#pragma once

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <cstdint>
#include <lua.hpp>

namespace rota::lua {

class Deadline {
  public:
    // No watch when `limit_ns` is 0. `hook` is what the signal sets, to
    // fire at every instruction; it must check expired().
    Deadline(lua_State* L, lua_Hook hook, std::int64_t limit_ns);
    ~Deadline();
    Deadline(const Deadline&) = delete;
    Deadline& operator=(const Deadline&) = delete;

    // A call on L starts (resets expired()) and ends, on the calling
    // thread. Calls may nest on a thread (a log callback that drives
    // another engine), each with its own Deadline.
    void begin();
    void end();

    // Whether the watchdog found the current call past its limit.
    bool expired() const { return expired_.load(std::memory_order_relaxed); }
    const std::atomic<bool>* flag() const { return &expired_; }

    // The signal the watchdog sends (0: none).
    static int signal_number();

  private:
    friend struct Watchdog;
    lua_State* const L_;
    const lua_Hook hook_;
    const std::int64_t limit_ns_;
    // 0 between calls; an even number while call n runs; that number + 1
    // while the watchdog is signalling the call's thread (end() waits).
    std::atomic<std::uint64_t> call_{0};
    std::atomic<bool> expired_{false};
    std::uint64_t next_ = 0;
    pthread_t thread_{};
    Deadline* prev_ = nullptr;  // the call this one nests in, on its thread
    // The watchdog's own, under its lock: the call it saw and since when.
    std::uint64_t seen_ = 0;
    std::int64_t seen_at_ = 0;

    static void on_signal(int, siginfo_t*, void*);
};

}  // namespace rota::lua
