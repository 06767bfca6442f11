// What the job-class tests share ([Feitelson97] §4.2): Table 1's classes as a
// configuration, and submitting a job of a class.
#pragma once

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "support.h"

namespace rota::test {

constexpr std::int64_t kUs = 1'000'000;

// Classes as in [Feitelson97] Table 1, with swap_time 1 s per processor; `extra`
// goes into [classes], `more` after the class tables.
inline std::string classes(int procs, const std::string& extra = "", const std::string& more = "",
                           const std::string& production_wait = "3600") {
    std::ostringstream os;
    os << "[machine]\nprocs = " << procs << "\n[classes]\ndefault = \"production\"\n"
       << "swap_time = 1\n"
       << extra << "\n"
       << "[[classes.class]]\nname = \"interactive\"\npriority = 4\nmax_wait = 0\ndnd = 10\n"
       << "[[classes.class]]\nname = \"debug\"\npriority = 4\nmax_wait = 300\n"
          "preemptable = false\n"
       << "[[classes.class]]\nname = \"production\"\npriority = 3\nmax_wait = " << production_wait
       << "\ndnd = 10\n"
       << "[[classes.class]]\nname = \"benchmark\"\npriority = 2\npreemptable = false\n"
       << "[[classes.class]]\nname = \"standby\"\npriority = 1\ndnd = 3\n"
       << more;
    return os.str();
}
// `toml` with `keys` added to the first table named `name`: a class is
// given by one table (a second one of the same name is refused).
inline std::string with_class_keys(std::string toml, const std::string& name,
                                   const std::string& keys) {
    const std::string at = "name = \"" + name + "\"\n";
    const std::size_t p = toml.find(at);
    REQUIRE(p != std::string::npos);
    toml.insert(p + at.size(), keys);
    return toml;
}
// Class numbers, counted from 1 as the ABI does.
enum { kInteractive = 1, kDebug = 2, kProduction = 3, kBenchmark = 4, kStandby = 5 };

inline void submit(rota_engine* e, std::int64_t id, std::int32_t procs, std::int64_t estimate_s,
                   std::int32_t cls = 0) {
    rota_job j{};
    j.size = sizeof(j);
    j.id = id;
    j.estimate = estimate_s * kUs;
    j.procs = procs;
    j.user = -1;
    j.job_class = cls;
    INFO(rota_errmsg(e));
    REQUIRE(rota_submit(e, &j) == ROTA_OK);
}

inline bool has(const std::vector<Act>& a, int type) {
    return std::any_of(a.begin(), a.end(), [&](const Act& x) { return x.type == type; });
}

}  // namespace rota::test
