// Sequences of C-ABI calls driven by the input: submits, time steps, job
// ends, cancels and passes on engines of every mode. Estimates and clock
// jumps come at every scale up to the end of the time axis. After each
// call the engine's invariants are checked: idle and busy nodes add up, no
// status is ROTA_EINTERNAL, after a pass the engine is never wedged (a job
// runs, a wakeup is pending, or the queue is empty), and a wakeup is a time
// rota_advance takes (from now to the axis's end).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "rota.h"

namespace {

struct Bytes {
    const std::uint8_t* p;
    std::size_t n;
    std::uint8_t next() { return n ? (--n, *p++) : 0; }
};

const char* const kConfigs[] = {
    "[machine]\nprocs = 16\n[scheduler]\npreset = \"fcfs\"\n",
    "[machine]\nprocs = 16\n[scheduler]\npreset = \"easy\"\n",
    "[machine]\nprocs = 16\n[scheduler]\npreset = \"conservative\"\n",
    "[machine]\nprocs = 16\n[scheduler]\npreset = \"fpfs\"\n",
    "[machine]\nprocs = 16\n[scheduler]\npreset = \"bgs\"\n[gang]\nmpl = 3\nslice = 5\n",
    ("[machine]\n[[machine.clusters]]\nnodes = 8\n[[machine.clusters]]\nnodes = 8\n"
     "[scheduler]\npreset = \"easy\"\n"),
    "[machine]\nprocs = 16\n[malleable]\n",
    "[machine]\nprocs = 16\n[classes]\n[[classes.class]]\nname = \"a\"\nmax_wait = 100\ndnd = 10\n",
};

// The end of the time axis (rota_advance refuses later times).
constexpr rota_time kAxis = INT64_MAX / 4;

// A length of time from one byte for the scale, another for the digits:
// up to `room`, at every power of two below it.
rota_time scaled(Bytes& in, rota_time room) {
    const rota_time r = room >> (in.next() % 64);
    return r > 0 ? 1 + static_cast<rota_time>(in.next()) * (r / 256 + 1) % r : 0;
}

void check(int rc) {
    if (rc == ROTA_EINTERNAL) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Bytes in{data, size};
    const std::size_t mode = in.next() % (sizeof kConfigs / sizeof *kConfigs);
    rota_engine* e = nullptr;
    if (rota_engine_new(kConfigs[mode], nullptr, &e) != ROTA_OK) std::abort();
    rota_set_log(e, nullptr, nullptr);
    rota_machine_info mi{};
    mi.size = sizeof mi;
    rota_machine_info_get(e, &mi);
    std::vector<std::int64_t> known;
    std::int64_t next_id = 0;
    rota_time now = 0;
    while (in.n > 0) {
        switch (in.next() % 6) {
            case 0: {  // submit
                rota_job j{};
                j.size = sizeof j;
                j.id = next_id++;
                j.procs = 1 + in.next() % 20;  // sometimes wider than the machine
                j.estimate = in.next() % 4 == 0 ? std::max<rota_time>(scaled(in, kAxis - now), 1)
                                                : (1 + in.next()) * 1'000'000;
                j.user = -1;
                std::int32_t comps[2] = {j.procs / 2, j.procs - j.procs / 2};
                if (mi.nclusters > 0 && j.procs > 1 && in.next() % 2) {
                    j.ncomponents = 2;
                    j.components = comps;
                }
                // A partition of a byte or two, some of them control
                // characters the engine must refuse, unchanged.
                char partition[3] = {static_cast<char>(in.next()), static_cast<char>(in.next()), 0};
                if (in.next() % 2) j.partition = partition;
                check(rota_submit(e, &j));
                known.push_back(j.id);
                break;
            }
            case 1:  // time passes, now and then by a jump at any scale
                now += in.next() % 8 == 0 ? scaled(in, kAxis - now)
                                          : std::min<rota_time>(in.next() * 250'000, kAxis - now);
                check(rota_advance(e, now));
                break;
            case 2:  // a running job ends
                if (!known.empty()) check(rota_job_end(e, known[in.next() % known.size()]));
                break;
            case 3:
                if (!known.empty()) check(rota_cancel(e, known[in.next() % known.size()]));
                break;
            default: {
                check(rota_schedule(e));
                size_t running = 0, queued = 0;
                check(rota_running(e, nullptr, 0, &running));
                check(rota_queue(e, nullptr, 0, &queued));
                rota_time w = 0;
                const int wake = rota_next_wakeup(e, &w);
                if (queued > 0 && running == 0 && wake != ROTA_OK) std::abort();  // wedged
                if (wake == ROTA_OK && (w < rota_now(e) || w > kAxis)) std::abort();
                if (mi.rows == 1) {
                    size_t idle = 0;
                    check(rota_free_nodes(e, nullptr, 0, &idle));
                    if (idle > static_cast<size_t>(mi.procs)) std::abort();
                    if (running == 0 && idle != static_cast<size_t>(mi.procs)) std::abort();
                }
                break;
            }
        }
        rota_action a{};
        a.size = sizeof a;
        while (rota_next_action(e, &a) == ROTA_OK) {
        }
    }
    rota_engine_free(e);
    return 0;
}
