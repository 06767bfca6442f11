// A test derived from the schema: every key the configuration accepts
// (rota::config_tables(), the very sets the parser checks each table
// against) is tried at its extremes: the least and the greatest value it
// takes, just outside them, tiny and huge numbers, NaN and infinities
// where a number may be a float, the wrong type, the most entries of an
// array of tables and one more. Each value is either refused with a
// message naming the key, or taken, and then the engine runs a small
// workload to its end within a stated bound (kMaxSteps driver steps and
// kMaxSeconds of wall time). A key of the schema without a range below
// fails the test: adding a key means saying what it takes.
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "capi/config.h"
#include "support.h"

namespace {

using rota::test::EnginePtr;

constexpr long kMaxSteps = 1'000'000;
constexpr double kMaxSeconds = 10.0;
constexpr rota_time kMs = 1000;
constexpr double kInf = std::numeric_limits<double>::infinity();

enum class Kind {
    integer,  // an integer in [lo, hi] (and 0 if zero_too)
    seconds,  // a number of seconds, integer or float, in [lo, hi] (and 0 if zero_too)
    boolean,
    literal,  // only the listed values
};

struct Range {
    std::string key;  // the schema's: table path, '.', key ("machine.pools[].capacity")
    Kind kind = Kind::literal;
    double lo = 0, hi = 0;
    bool zero_too = false;
    std::vector<std::string> taken;    // more TOML values it takes
    std::vector<std::string> refused;  // more TOML values it refuses
    // A configuration in which the key is read; '@' is where `key = value`
    // goes. Empty: "[machine]\nprocs = 8\n[<table>]\n@".
    std::string context;
    std::string named{};  // what a refusal must name; empty: the key, "[]" as "[0]"
};

std::string table_of(const std::string& key) {
    const auto dot = key.rfind('.');
    return dot == std::string::npos ? "" : key.substr(0, dot);
}
std::string leaf_of(const std::string& key) {
    const auto dot = key.rfind('.');
    return dot == std::string::npos ? key : key.substr(dot + 1);
}

std::string number(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    if (v == std::floor(v) && std::fabs(v) < 9e15) return std::to_string(static_cast<long long>(v));
    std::ostringstream o;
    o.precision(17);
    o << v;
    std::string s = o.str();
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
}

std::string integer(double v) {
    if (v >= 9.2e18) return "9223372036854775807";
    if (v <= -9.2e18) return "-9223372036854775808";
    return std::to_string(static_cast<long long>(v));
}

// The extremes of a range: {value, taken}.
std::vector<std::pair<std::string, bool>> extremes(const Range& r) {
    std::vector<std::pair<std::string, bool>> out;
    auto in = [&](double v) { return (v >= r.lo && v <= r.hi) || (r.zero_too && v == 0); };
    switch (r.kind) {
        case Kind::integer: {
            // Up to the ends of int64 (past them TOML has no integer).
            for (double v : {r.lo, r.hi, r.lo - 1, r.hi + 1, 0.0, -1.0, -9.3e18, 9.3e18}) {
                if ((v == r.hi + 1 && r.hi >= 9.2e18) || (v == r.lo - 1 && r.lo <= -9.2e18))
                    continue;
                out.push_back({integer(v), in(v >= 9.2e18 ? 9.3e18 : v)});
            }
            out.push_back({"1.5", false});  // a float where an integer belongs
            out.push_back({"\"1\"", false});
            break;
        }
        case Kind::seconds: {
            const double below = r.lo > 0 ? r.lo / 2 : -1e-300;
            for (double v : {r.lo, r.hi, below, r.hi * (1 + 1e-9) + 1e-6, 1e-300, 1e300, -1e300,
                             0.0, std::nan(""), kInf, -kInf})
                out.push_back({number(v), !std::isnan(v) && in(v)});
            out.push_back({integer(r.hi), true});  // an integer is a number of seconds too
            out.push_back({"\"5m\"", false});
            break;
        }
        case Kind::boolean:
            out.push_back({"true", true});
            out.push_back({"false", true});
            out.push_back({"1", false});
            out.push_back({"\"yes\"", false});
            break;
        case Kind::literal:
            break;
    }
    for (const auto& v : r.taken) out.push_back({v, true});
    for (const auto& v : r.refused) out.push_back({v, false});
    // Duplicates (an extreme listed twice) are tried once, as first listed.
    std::vector<std::pair<std::string, bool>> once;
    std::set<std::string> seen;
    for (auto& p : out)
        if (seen.insert(p.first).second) once.push_back(p);
    return once;
}

std::string entries(int n, const std::function<std::string(int)>& one) {
    std::string s = "[";
    for (int i = 0; i < n; ++i) s += (i ? ", " : "") + one(i);
    return s + "]";
}

const std::string kPolicies = ROTA_POLICY_DIR;

std::string script(const char* rel) {
    return "\"" + kPolicies + "/" + rel + "\"";
}

const char* const kMachine = "[machine]\nprocs = 8\n";
const std::string kGang = std::string(kMachine) + "[gang]\nmpl = 2\n@";
const std::string kMigration = std::string(kMachine) + "[gang]\nmpl = 2\nmigration = true\n@";
const std::string kClasses =
    std::string(kMachine) + "[classes]\n@\n[[classes.class]]\nname = \"a\"\n";
const std::string kClass = std::string(kMachine) + "[classes]\n[[classes.class]]\nname = \"a\"\n@";
const std::string kPeriod = std::string(kMachine) +
                            "[classes]\n[[classes.class]]\nname = \"a\"\n"
                            "[[classes.period]]\nname = \"night\"\nfrom = \"18:00\"\n@";
const std::string kPeriodClass = kPeriod + "\n[[classes.period.class]]\nname = \"a\"\n@";

std::vector<Range> ranges() {
    using K = Kind;
    const double big = 9.3e18;
    std::vector<Range> r;
    auto add = [&](Range x) { r.push_back(std::move(x)); };
    // The root's tables: a table, not a value.
    const std::string root = std::string("@\n") + kMachine;
    for (const char* t : {"scheduler", "policy", "lua", "gang", "malleable"})
        add({t, K::literal, 0, 0, false, {"{}"}, {"5", "\"x\"", "[1]"}, root});
    add({"machine", K::literal, 0, 0, false, {"{ procs = 8 }"}, {"5", "{}"}, "@"});
    add({"classes",
         K::literal,
         0,
         0,
         false,
         {"{ class = [{ name = \"a\" }] }"},
         {"5", "{}"},
         root});

    // [machine]
    add({"machine.procs", K::integer, 1, 1e6, false, {}, {}, "[machine]\n@"});
    add({"machine.node_down",
         K::literal,
         0,
         0,
         false,
         {"\"kill\"", "\"requeue\""},
         {"\"\"", "\"KILL\"", "5"},
         std::string(kMachine) + "@"});
    add({"machine.pools",
         K::literal,
         0,
         0,
         false,
         {entries(1, [](int) { return "{ name = \"m\", capacity = 1 }"; }),
          entries(64,
                  [](int i) { return "{ name = \"p" + std::to_string(i) + "\", capacity = 1 }"; })},
         {"5", "[1]", "[]",
          entries(65,
                  [](int i) { return "{ name = \"p" + std::to_string(i) + "\", capacity = 1 }"; }),
          entries(2, [](int) { return "{ name = \"m\", capacity = 1 }"; })},
         std::string(kMachine) + "@"});
    add({"machine.pools[].name",
         K::literal,
         0,
         0,
         false,
         {"\"mem\""},
         {"\"\"", "5"},
         std::string(kMachine) + "[[machine.pools]]\ncapacity = 1\n@"});
    add({"machine.pools[].capacity",
         K::integer,
         1,
         big,
         false,
         {},
         {},
         std::string(kMachine) + "[[machine.pools]]\nname = \"m\"\n@"});
    add({"machine.clusters",
         K::literal,
         0,
         0,
         false,
         {entries(1, [](int) { return "{ nodes = 8 }"; }),
          entries(256, [](int) { return "{ nodes = 1 }"; })},
         {"5", "[]", entries(257, [](int) { return "{ nodes = 1 }"; }),
          entries(2, [](int) { return "{ nodes = 600000 }"; })},
         "[machine]\n@"});
    add({"machine.clusters[].name",
         K::literal,
         0,
         0,
         false,
         {"\"a\"", "\"\""},
         {"5"},
         "[machine]\n[[machine.clusters]]\nnodes = 8\n@"});
    add({"machine.clusters[].nodes",
         K::integer,
         1,
         1e6,
         false,
         {},
         {},
         "[machine]\n[[machine.clusters]]\n@"});
    add({"machine.partitions",
         K::literal,
         0,
         0,
         false,
         {entries(1, [](int) { return "{ name = \"p\", nodes = \"0-7\" }"; }),
          entries(
              1024,
              [](int i) { return "{ name = \"p" + std::to_string(i) + "\", nodes = \"0\" }"; })},
         {"5", "[]",
          entries(
              1025,
              [](int i) { return "{ name = \"p" + std::to_string(i) + "\", nodes = \"0\" }"; })},
         std::string(kMachine) + "@"});
    add({"machine.partitions[].name",
         K::literal,
         0,
         0,
         false,
         {"\"debug\""},
         {"\"\"", "\"a,b\"", "\"a b\"", "\"a\\u0001\"", "5"},
         std::string(kMachine) + "[[machine.partitions]]\nnodes = \"0-3\"\n@"});
    add({"machine.partitions[].nodes",
         K::literal,
         0,
         0,
         false,
         {"\"0-7\"", "\"0,7\"", "\"7\""},
         {"\"\"", "\"8\"", "\"3-1\"", "\"0-\"", "\"99999999999\"", "\"x\"", "5"},
         std::string(kMachine) + "[[machine.partitions]]\nname = \"p\"\n@"});
    add({"machine.partitions[].default",
         K::boolean,
         0,
         0,
         false,
         {},
         {},
         std::string(kMachine) + "[[machine.partitions]]\nname = \"p\"\nnodes = \"0-7\"\n@"});

    // [scheduler]
    const std::string sched = std::string(kMachine) + "[scheduler]\n@";
    add({"scheduler.preset",
         K::literal,
         0,
         0,
         false,
         {"\"fcfs\"", "\"easy\"", "\"conservative\"", "\"mbgs\"", "\"bb-cons\""},
         {"\"\"", "\"eazy\"", "5"},
         sched});
    add({"scheduler.backfill", K::boolean, 0, 0, false, {}, {}, sched});
    add({"scheduler.reservation_depth", K::integer, -1, 1e6, false, {}, {}, sched});
    const std::string aging = std::string(kMachine) + "[scheduler]\n@\n[policy.order]\nscript = " +
                              script("order/multifactor.lua") + "\n";
    add({"scheduler.rekey_interval", K::seconds, 1, 1e9, true, {}, {"0.5", "0.000001"}, aging});
    add({"scheduler.usage_half_life", K::seconds, 1e-6, 1e9, true, {}, {}, sched});
    add({"scheduler.min_job_age", K::seconds, 0, 1e9, false, {}, {}, sched});

    // [policy]
    const std::string pol = std::string(kMachine) + "[policy]\n@";
    add({"policy.search_path",
         K::literal,
         0,
         0,
         false,
         {"[]", "[\"" + kPolicies + "\"]"},
         {"5", "\"x\"", "[1]", "[\"a\\u0000b\"]"},
         pol});
    add({"policy.quarantine_after", K::integer, 0, 1e9, false, {}, {}, pol});
    add({"policy.quarantine_time", K::seconds, 0, 1e9, false, {}, {}, pol});
    add({"policy.pass_budget", K::integer, 0, big, false, {}, {}, pol});
    // Each hook's table, where that hook is called.
    const std::map<std::string, std::pair<std::string, std::string>> hooks = {
        {"admission", {"admission/accept_all.lua", kMachine}},
        {"order", {"order/sjf.lua", kMachine}},
        {"backfill_select",
         {"backfill/first_fit.lua",
          std::string(kMachine) + "[scheduler]\nreservation_depth = 1\n"}},
        {"migration_option",
         {"migration/min_cost.lua", std::string(kMachine) + "[gang]\nmpl = 2\nmigration = true\n"}},
        {"placement",
         {"placement/first_fit.lua", "[machine]\nclusters = [{ nodes = 4 }, { nodes = 4 }]\n"}},
        {"harvest", {"harvest/fair.lua", std::string(kMachine) + "[malleable]\n"}},
        {"distribution",
         {"distribution/favor_queued.lua", std::string(kMachine) + "[malleable]\n"}},
        {"preempt",
         {"preempt/lowest_cost.lua",
          std::string(kMachine) + "[classes]\nclass = [{ name = \"a\" }]\n"}},
    };
    for (const auto& [hook, how] : hooks)
        add({"policy." + hook,
             K::literal,
             0,
             0,
             false,
             {"{ script = " + script(how.first.c_str()) + " }"},
             {"5", "{}", "{ script = \"\" }", "{ script = \"no/such.lua\" }",
              "{ script = \"a\\u0000b\" }"},
             how.second + "[policy]\n@"});

    // [lua]: with a script, so that the limits are read.
    const std::string lua = std::string(kMachine) + "[lua]\n@\n[policy.admission]\nscript = " +
                            script("admission/accept_all.lua") + "\n";
    add({"lua.instruction_budget", K::integer, 1000, 1e12, true, {}, {}, lua});
    add({"lua.memory_limit_mb", K::integer, 1, 65536, false, {}, {}, lua});
    add({"lua.time_limit", K::seconds, 0.001, 86400, true, {}, {}, lua});

    // [gang]
    add({"gang.mpl", K::integer, 1, 32, false, {}, {}, std::string(kMachine) + "[gang]\n@"});
    add({"gang.slice", K::seconds, 1e-6, 1e9, false, {}, {}, kGang});
    add({"gang.migration", K::boolean, 0, 0, false, {}, {}, kGang});
    add({"gang.migration_cost", K::seconds, 0, 1e9, false, {}, {}, kMigration});
    add({"gang.migration_q", K::integer, -1, 1e9, false, {}, {}, kMigration});
    // Buddy packing takes no reservations (engine/combinations.cpp).
    add({"gang.packing",
         K::literal,
         0,
         0,
         false,
         {"\"first_fit\"", "\"buddy\"", "\"\""},
         {"\"best\"", "5"},
         std::string(kMachine) + "[scheduler]\nreservation_depth = 0\n[gang]\nmpl = 2\n@"});

    // [malleable]
    const std::string mall = std::string(kMachine) + "[malleable]\n@";
    add({"malleable.exec_model",
         K::literal,
         0,
         0,
         false,
         {"\"linear\"", "\"parabolic\"", "\"\""},
         {"\"cubic\"", "5"},
         mall});
    add({"malleable.mpl_limit", K::integer, 0, 1e9, false, {}, {}, mall});
    add({"malleable.max_harvests", K::integer, 0, 1e9, false, {}, {}, mall});
    add({"malleable.protect_age", K::seconds, 0, 1e9, false, {}, {}, mall});
    add({"malleable.cost_benefit", K::boolean, 0, 0, false, {}, {}, mall});
    add({"malleable.adapt_latency", K::seconds, 0, 1e9, false, {}, {}, mall});
    add({"malleable.adapt_per_byte", K::seconds, 0, 1000, false, {}, {}, mall});

    // [classes]
    add({"classes.preset",
         K::literal,
         0,
         0,
         false,
         {"\"llnl-t3d\""},
         {"\"\"", "\"x\"", "5"},
         std::string("[machine]\nprocs = 256\n[classes]\n@")});
    add({"classes.class",
         K::literal,
         0,
         0,
         false,
         {entries(1000, [](int i) { return "{ name = \"c" + std::to_string(i) + "\" }"; })},
         {"5", "[]",
          entries(1001, [](int i) { return "{ name = \"c" + std::to_string(i) + "\" }"; }),
          "[{ name = \"a\" }, { name = \"a\" }]", "[{ priority = 1 }]"},
         std::string(kMachine) + "[classes]\n@"});
    add({"classes.period",
         K::literal,
         0,
         0,
         false,
         {"[{ name = \"n\", from = \"18:00\", to = \"07:00\", days = [\"mon\", \"sun\"] }]"},
         {"5", "[1]", "[{ name = \"n\", from = \"08:00\", to = \"08:00\" }]"},
         kClasses});
    add({"classes.default", K::literal, 0, 0, false, {"\"a\""}, {"\"b\"", "\"\"", "5"}, kClasses});
    add({"classes.swap_time", K::seconds, 0, 1e9, false, {}, {}, kClasses});
    add({"classes.week_start",
         K::literal,
         0,
         0,
         false,
         {"\"mon 08:00\"", "\"sun 23:59\""},
         {"\"mon 24:00\"", "\"xyz 08:00\"", "\"mon 08:60\"", "\"mon 08:00x\"", "\"\"", "5"},
         kClasses});
    for (const char* k : {"large_job", "large_procs", "job_procs", "system_procs"}) {
        add({std::string("classes.") + k, K::integer, 0, 1e6, false, {}, {}, kClasses});
        add({std::string("classes.period[].") + k, K::integer, 0, 1e6, false, {}, {}, kPeriod});
    }
    for (const std::string& cls :
         {std::string("classes.class[]"), std::string("classes.period[].class[]")}) {
        const std::string& ctx = cls == "classes.class[]" ? kClass : kPeriodClass;
        if (cls == "classes.class[]")
            add({cls + ".name",
                 K::literal,
                 0,
                 0,
                 false,
                 {"\"b\""},
                 {"\"\"", "5"},
                 std::string(kMachine) + "[classes]\n[[classes.class]]\n@"});
        else
            add({cls + ".name",
                 K::literal,
                 0,
                 0,
                 false,
                 {"\"a\""},
                 {"\"b\"", "5"},
                 kPeriod + "\n[[classes.period.class]]\n@"});
        add({cls + ".priority", K::integer, -1e6, 1e6, false, {}, {}, ctx});
        add({cls + ".max_wait", K::seconds, 0, 1e9, false, {}, {}, ctx});
        add({cls + ".dnd", K::seconds, 0, 1e9, false, {}, {}, ctx});
        add({cls + ".procs", K::integer, 0, 1e6, false, {}, {}, ctx});
        add({cls + ".preemptable", K::boolean, 0, 0, false, {}, {}, ctx});
    }
    add({"classes.period[].name",
         K::literal,
         0,
         0,
         false,
         {"\"x\"", "\"\""},
         {"5"},
         std::string(kMachine) + "[classes]\n[[classes.class]]\nname = "
                                 "\"a\"\n[[classes.period]]\nfrom = \"18:00\"\n@"});
    add({"classes.period[].days",
         K::literal,
         0,
         0,
         false,
         {"[\"mon\"]", "[\"mon\", \"tue\", \"wed\", \"thu\", \"fri\", \"sat\", \"sun\"]"},
         {"[]", "[\"monday\"]", "[1]", "\"mon\""},
         kPeriod});
    for (const char* k : {"from", "to"})
        add({std::string("classes.period[].") + k,
             K::literal,
             0,
             0,
             false,
             {"\"00:00\"", "\"7:30\"", "\"24:00\""},
             {"\"24:01\"", "\"-0:30\"", "\"08:60\"", "\"8:5\"", "\"\"", "5"},
             std::string(kMachine) +
                 "[classes]\n[[classes.class]]\nname = \"a\"\n[[classes.period]]\nname = \"p\"\n" +
                 (std::string(k) == "from" ? "to = \"12:00\"\n" : "from = \"12:00\"\n") + "@"});
    add({"classes.period[].class",
         K::literal,
         0,
         0,
         false,
         {"[{ name = \"a\", priority = 3 }]"},
         {"5", "[{ name = \"b\" }]"},
         kPeriod});
    return r;
}

// The small workload: 24 jobs, one every 2 ms, of 1 to 12 ms, as wide as
// the smallest cluster allows, driven as an embedder does: to each
// submission, end and wakeup, a pass after each. Under gang scheduling the
// embedder ends a job when it has held its place for its run time times
// the rows. Returns an empty string, or why the run did not end in bound.
std::string run_workload(rota_engine* e) {
    rota_machine_info mi{};
    mi.size = sizeof mi;
    if (rota_machine_info_get(e, &mi) != ROTA_OK) return "rota_machine_info_get failed";
    int32_t widest = std::min(mi.procs, 8);
    for (int32_t c = 0; c < mi.nclusters; ++c) {
        rota_cluster_info ci{};
        ci.size = sizeof ci;
        if (rota_cluster_info_get(e, c, &ci) != ROTA_OK) return "rota_cluster_info_get failed";
        widest = std::min(widest, ci.nodes);
    }
    static const int64_t no_demand[64] = {};
    constexpr int kJobs = 24;
    std::map<int64_t, rota_time> ends;  // running job -> when the embedder ends it
    const auto t0 = std::chrono::steady_clock::now();
    int submitted = 0;
    for (long step = 0; step < kMaxSteps; ++step) {
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() >
            kMaxSeconds)
            return "not finished within " + std::to_string(kMaxSeconds) + " s (" +
                   std::to_string(step) + " steps)";
        rota_time t = INT64_MAX;
        if (submitted < kJobs) t = submitted * 2 * kMs;
        for (const auto& [id, end] : ends) t = std::min(t, end);
        rota_time w = 0;
        const int rw = rota_next_wakeup(e, &w);
        if (rw != ROTA_OK && rw != ROTA_DONE) return "rota_next_wakeup failed";
        if (rw == ROTA_OK) t = std::min(t, w);
        if (t == INT64_MAX) return "";  // nothing left to happen
        t = std::max(t, rota_now(e));
        if (rota_advance(e, t) != ROTA_OK)
            return "rota_advance(" + std::to_string(t) + "): " + rota_errmsg(e);
        for (auto it = ends.begin(); it != ends.end();) {
            if (it->second <= t) {
                const int rc = rota_job_end(e, it->first);
                if (rc != ROTA_OK && rc != ROTA_ESTATE && rc != ROTA_ENOTFOUND)
                    return std::string("rota_job_end: ") + rota_errmsg(e);
                it = ends.erase(it);
            } else {
                ++it;
            }
        }
        while (submitted < kJobs && submitted * 2 * kMs <= t) {
            rota_job j{};
            j.size = sizeof j;
            j.id = submitted;
            j.procs = 1 + submitted * 5 % widest;
            j.estimate = (1 + submitted % 12) * kMs;
            j.user = submitted % 3;
            j.npools = mi.npools;
            j.pools = mi.npools ? no_demand : nullptr;
            if (rota_submit(e, &j) != ROTA_OK) return std::string("rota_submit: ") + rota_errmsg(e);
            ++submitted;
        }
        if (rota_schedule(e) != ROTA_OK) return std::string("rota_schedule: ") + rota_errmsg(e);
        rota_action a{};
        a.size = sizeof a;
        while (rota_next_action(e, &a) == ROTA_OK) {
            if (a.type == ROTA_ACTION_START) {
                const rota_time run = (1 + a.job % 12) * kMs * 3 / 4;
                ends[a.job] = a.time + run * std::max(mi.rows, 1);
            } else if (a.type == ROTA_ACTION_KILL || a.type == ROTA_ACTION_REQUEUE ||
                       a.type == ROTA_ACTION_SWAP_OUT) {
                ends.erase(a.job);
            } else if (a.type == ROTA_ACTION_SWAP_IN) {
                ends[a.job] = a.time + (1 + a.job % 12) * kMs;
            }
        }
    }
    return "not finished within " + std::to_string(kMaxSteps) + " steps";
}

std::string configuration(const Range& r, const std::string& value) {
    std::string ctx =
        r.context.empty() ? std::string(kMachine) + "[" + table_of(r.key) + "]\n@" : r.context;
    const std::string line = leaf_of(r.key) + " = " + value + "\n";
    // '@' once, or twice in a period class's context (the last is the key's).
    const auto at = ctx.rfind('@');
    ctx.replace(at, 1, line);
    for (std::size_t p; (p = ctx.find('@')) != std::string::npos;) ctx.erase(p, 1);
    return ctx;
}

}  // namespace

TEST_CASE("config schema: every key has a range in this test, and every range a key") {
    std::set<std::string> schema;
    for (const rota::ConfigTable& t : rota::config_tables())
        for (const std::string& k : t.keys) schema.insert(t.path.empty() ? k : t.path + "." + k);
    std::set<std::string> tested;
    for (const Range& r : ranges()) {
        INFO(r.key);
        CHECK(tested.insert(r.key).second);  // one range a key
        CHECK(schema.count(r.key) == 1);     // no range for a key the parser does not take
    }
    for (const std::string& k : schema) {
        INFO("key '" << k
                     << "' is accepted by the parser (rota::config_tables()) and has no "
                        "range in tests/capi/test_config_schema.cpp: add one");
        CHECK(tested.count(k) == 1);
    }
    // The parser reads its key sets from the same table: a key the schema
    // does not list is unknown.
    rota_engine* e = nullptr;
    CHECK(rota_engine_new("[machine]\nprocs = 8\n[gang]\nquantum = 5\n", nullptr, &e) ==
          ROTA_ECONFIG);
    rota::test::EnginePtr p(e);
    CHECK_THAT(rota_errmsg(e), Catch::Contains("unknown key 'gang.quantum'"));
}

// fuzz/config.dict (libFuzzer's -dict for fuzz_config) holds every table
// and key of the schema, so the fuzzer writes the configuration's words.
TEST_CASE("config schema: the fuzzer's dictionary holds every key of the schema") {
    std::ifstream in(std::string(ROTA_SOURCE_DIR) + "/fuzz/config.dict");
    REQUIRE(in);
    std::set<std::string> words;
    for (std::string line; std::getline(in, line);)
        if (line.size() > 2 && line.front() == '"' && line.back() == '"')
            words.insert(line.substr(1, line.size() - 2));
    for (const rota::ConfigTable& t : rota::config_tables()) {
        std::string table = t.path;
        for (std::size_t p; (p = table.find("[]")) != std::string::npos;) table.erase(p, 2);
        if (!table.empty()) {
            INFO("add \"[" << table << "]\" to fuzz/config.dict");
            CHECK(words.count("[" + table + "]") == 1);
        }
        for (const std::string& k : t.keys) {
            INFO("add \"" << k << " = \" to fuzz/config.dict");
            CHECK(words.count(k + " = ") == 1);
        }
    }
}

TEST_CASE("config schema: every key at its extremes is refused naming it, or runs in bound") {
    const auto t0 = std::chrono::steady_clock::now();
    int taken = 0, refused = 0;
    for (const Range& r : ranges()) {
        std::string named = r.named.empty() ? r.key : r.named;
        for (std::size_t p; (p = named.find("[]")) != std::string::npos;)
            named.replace(p, 2, "[0]");
        for (const auto& [value, ok] : extremes(r)) {
            const std::string cfg = configuration(r, value);
            INFO("key " << r.key << " = "
                        << (value.size() > 200 ? value.substr(0, 200) + "..." : value));
            INFO((cfg.size() > 600 ? cfg.substr(0, 600) + "..." : cfg));
            rota_engine* raw = nullptr;
            const int rc = rota_engine_new(cfg.c_str(), nullptr, &raw);
            EnginePtr e(raw);
            INFO(rota_errmsg(raw));
            if (!ok) {
                ++refused;
                CHECK((rc == ROTA_ECONFIG || rc == ROTA_ESCRIPT));  // a script not found
                const std::string msg = rota_errmsg(raw);
                const std::string table = table_of(named);
                // Named as the key, or as its table with the key's leaf
                // ("[classes] needs at least one [[classes.class]]").
                CHECK((msg.find(named) != std::string::npos ||
                       (msg.find(leaf_of(named)) != std::string::npos &&
                        (table.empty() || msg.find(table) != std::string::npos))));
                continue;
            }
            ++taken;
            CHECK(rc == ROTA_OK);
            if (rc != ROTA_OK) continue;
            rota_set_log(raw, nullptr, nullptr);
            CHECK(run_workload(raw) == "");
        }
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    WARN("config schema: " << taken << " values taken and run, " << refused << " refused, in "
                           << secs << " s");
}
