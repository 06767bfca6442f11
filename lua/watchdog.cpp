#include "watchdog.h"

#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace rota::lua {

namespace {

// The innermost call running on this thread (its Deadline), for the
// signal handler. Set by begin() before the call is published to the
// watchdog, so that the handler finds it allocated.
thread_local Deadline* tls_current = nullptr;

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

struct Watchdog {
    std::mutex m;
    std::condition_variable cv;
    std::vector<Deadline*> all;
    bool running = false;
    // Set in a child after fork(): the thread did not come along.
    std::atomic<bool> restart{false};
    int signo = 0;  // 0: none
    bool signal_chosen = false;

    static Watchdog& get() {
        // Never destroyed: a detached thread may outlive static destructors.
        static Watchdog* w = [] {
            auto* p = new Watchdog;
            pthread_atfork([] { get().m.lock(); }, [] { get().m.unlock(); },
                           [] {
                               Watchdog& g = get();
                               g.m.unlock();
                               if (g.running) {
                                   g.running = false;
                                   g.restart.store(true);
                               }
                           });
            return p;
        }();
        return *w;
    }

    // The highest real-time signal nobody handles, taken once.
    void choose_signal() {
        if (signal_chosen) return;
        signal_chosen = true;
        for (int s = SIGRTMAX; s >= SIGRTMIN; --s) {
            struct sigaction old {};
            if (sigaction(s, nullptr, &old) != 0) continue;
            if ((old.sa_flags & SA_SIGINFO) != 0 || old.sa_handler != SIG_DFL) continue;
            struct sigaction sa {};
            sa.sa_sigaction = &Deadline::on_signal;
            sa.sa_flags = SA_SIGINFO | SA_RESTART;
            sigfillset(&sa.sa_mask);
            if (sigaction(s, &sa, nullptr) == 0) {
                signo = s;
                return;
            }
        }
    }

    // Whether our handler still serves the signal: an embedder may have
    // taken it since, and the default action of a real-time signal ends
    // the process.
    bool signal_ours() const {
        if (signo == 0) return false;
        struct sigaction cur {};
        return sigaction(signo, nullptr, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) != 0 &&
               cur.sa_sigaction == &Deadline::on_signal;
    }

    // Under the lock.
    void start() {
        if (running) return;
        // The thread takes no signal meant for the process.
        sigset_t all_signals, old;
        sigfillset(&all_signals);
        pthread_sigmask(SIG_SETMASK, &all_signals, &old);
        try {
            std::thread([this] { run(); }).detach();
            running = true;
        } catch (...) {
            // No thread: the count hook's clock and the allocator remain.
        }
        pthread_sigmask(SIG_SETMASK, &old, nullptr);
    }

    void run() {
        std::unique_lock<std::mutex> lk(m);
        for (;;) {
            if (all.empty()) {
                // Engines come and go (a test makes thousands): linger.
                if (!cv.wait_for(lk, std::chrono::seconds(1), [&] { return !all.empty(); })) {
                    running = false;
                    return;
                }
            }
            const std::int64_t now = now_ns();
            std::int64_t tick = 100'000'000;
            for (Deadline* d : all) {
                tick = std::min(
                    tick, std::clamp<std::int64_t>(d->limit_ns_ / 10, 1'000'000, 100'000'000));
                std::uint64_t v = d->call_.load(std::memory_order_acquire);
                if (v == 0 || (v & 1) != 0) {
                    d->seen_ = 0;
                    continue;
                }
                // A call is timed from the first tick that sees it, so it
                // is never stopped before its limit.
                if (v != d->seen_) {
                    d->seen_ = v;
                    d->seen_at_ = now;
                    continue;
                }
                if (now - d->seen_at_ < d->limit_ns_) continue;
                // While the odd value stands, end() waits: the thread lives.
                // The signal goes again at every tick the call still runs:
                // the hook count it sets may be lost to the count the VM
                // was storing when the signal landed.
                if (!d->call_.compare_exchange_strong(v, v | 1, std::memory_order_acq_rel))
                    continue;
                d->expired_.store(true);
                if (signal_ours()) pthread_kill(d->thread_, signo);
                d->call_.store(v, std::memory_order_release);
            }
            cv.wait_for(lk, std::chrono::nanoseconds(tick));
        }
    }
};

void Deadline::on_signal(int, siginfo_t*, void*) {
    const int saved = errno;
    for (Deadline* d = tls_current; d != nullptr; d = d->prev_)
        if (d->expired_.load(std::memory_order_relaxed))
            lua_sethook(d->L_, d->hook_, LUA_MASKCOUNT, 1);
    errno = saved;
}

int Deadline::signal_number() {
    Watchdog& w = Watchdog::get();
    std::lock_guard<std::mutex> lk(w.m);
    return w.signo;
}

Deadline::Deadline(lua_State* L, lua_Hook hook, std::int64_t limit_ns)
    : L_(L), hook_(hook), limit_ns_(limit_ns) {
    if (limit_ns_ <= 0) return;
    Watchdog& w = Watchdog::get();
    std::lock_guard<std::mutex> lk(w.m);
    w.choose_signal();
    w.all.push_back(this);
    w.start();
    w.cv.notify_one();
}

Deadline::~Deadline() {
    if (limit_ns_ <= 0) return;
    Watchdog& w = Watchdog::get();
    std::lock_guard<std::mutex> lk(w.m);
    w.all.erase(std::remove(w.all.begin(), w.all.end(), this), w.all.end());
}

void Deadline::begin() {
    if (limit_ns_ <= 0) return;
    Watchdog& w = Watchdog::get();
    if (w.restart.load(std::memory_order_relaxed)) {
        std::lock_guard<std::mutex> lk(w.m);
        w.restart.store(false);
        w.start();
    }
    expired_.store(false, std::memory_order_relaxed);
    thread_ = pthread_self();
    prev_ = tls_current;
    tls_current = this;
    std::atomic_signal_fence(std::memory_order_seq_cst);
    next_ += 2;
    call_.store(next_, std::memory_order_release);
}

void Deadline::end() {
    if (limit_ns_ <= 0) return;
    std::uint64_t v = call_.load(std::memory_order_acquire);
    for (;;) {
        if ((v & 1) != 0) {  // being signalled: a system call away
            std::this_thread::yield();
            v = call_.load(std::memory_order_acquire);
        } else if (call_.compare_exchange_weak(v, 0, std::memory_order_acq_rel)) {
            break;
        }
    }
    std::atomic_signal_fence(std::memory_order_seq_cst);
    tls_current = prev_;
}

}  // namespace rota::lua
