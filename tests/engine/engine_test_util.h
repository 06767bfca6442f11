// Helpers shared by the engine's unit tests: a job spec and the actions a
// pass left.
#pragma once

#include <vector>

#include "engine/scheduler.h"

namespace rota::test {

inline JobSpec spec(JobId id, std::int32_t procs, Time est) {
    JobSpec s;
    s.id = id;
    s.procs = procs;
    s.estimate = est;
    return s;
}

inline std::vector<Action> drain(Scheduler& s) {
    std::vector<Action> v;
    Action a;
    while (s.next_action(a)) v.push_back(a);
    return v;
}

}  // namespace rota::test
