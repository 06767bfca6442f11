// [classes]: [Feitelson97] §4.2's job classes, global limits and the parameter
// sets of parts of the week (docs/config.md, "[classes]").
#include "config_classes.h"

#include <cmath>
#include <map>
#include <tuple>

#include "config.h"
#include "toml_read.h"

namespace rota {

namespace {

constexpr std::int64_t kMaxSeconds = 1'000'000'000;  // ~31 years: "1 Year" fits
const char* const kDays[7] = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"};

int day_index(const std::string& d) {
    for (int i = 0; i < 7; ++i)
        if (d == kDays[i]) return i;
    return -1;
}

Time seconds(const toml::table& t, const char* key, const std::string& where, Time dflt) {
    if (!t.get(key)) return dflt;
    const double v = get_seconds(t, key, where, 0.0);
    if (!(v >= 0) || v > static_cast<double>(kMaxSeconds))
        fail("key '" + where + key + "' must be 0.." + std::to_string(kMaxSeconds) +
             " seconds, got " + config_number(v));
    return static_cast<Time>(std::llround(v * 1e6));
}

std::int32_t procs(const toml::table& t, const char* key, const std::string& where,
                   std::int32_t dflt) {
    const std::int64_t v = get_int(t, key, where, dflt);
    if (v < 0 || v > 1'000'000)
        fail("key '" + where + key + "' must be 0 (no limit) or a number of processors up to " +
             "1000000, got " + std::to_string(v));
    return static_cast<std::int32_t>(v);
}

// "HH:MM" as seconds of the day; "24:00" is the end of the day.
std::int32_t clock_time(const toml::table& t, const char* key, const std::string& where,
                        std::int32_t dflt) {
    if (!t.get(key)) return dflt;
    const std::string s = get_string(t, key, where);
    // Digits only, one or two for the hour and two for the minutes: sscanf
    // alone would take "-0:30", "+8:00" or " 8:5".
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    const std::size_t colon = s.find(':');
    bool ok = (colon == 1 || colon == 2) && s.size() == colon + 3;
    for (std::size_t i = 0; ok && i < s.size(); ++i) ok = i == colon || digit(s[i]);
    const int h = ok ? std::stoi(s.substr(0, colon)) : -1;
    const int m = ok ? std::stoi(s.substr(colon + 1)) : -1;
    if (!ok || m > 59 || h * 60 + m > 24 * 60)
        fail("key '" + where + key + "' must be a time of day \"HH:MM\", got \"" + s + "\"");
    return (h * 60 + m) * 60;
}

void limits(const toml::table& t, const std::string& where, ClassLimits& l) {
    l.large_job = procs(t, "large_job", where, l.large_job);
    l.large_procs = procs(t, "large_procs", where, l.large_procs);
    l.job_procs = procs(t, "job_procs", where, l.job_procs);
    l.system_procs = procs(t, "system_procs", where, l.system_procs);
}

// The keys of a class table given in `t` over `c`.
void class_keys(const toml::table& t, const std::string& where, JobClassConfig& c) {
    const std::int64_t p = get_int(t, "priority", where, c.priority);
    if (p < -1'000'000 || p > 1'000'000)
        fail("key '" + where + "priority' must be -1000000..1000000, got " + std::to_string(p));
    c.priority = static_cast<std::int32_t>(p);
    c.max_wait = seconds(t, "max_wait", where, c.max_wait);
    c.dnd = seconds(t, "dnd", where, c.dnd);
    c.procs = procs(t, "procs", where, c.procs);
    c.preemptable = get_bool(t, "preemptable", where, c.preemptable);
}

// The class tables of `arr` ([[<path>]]), each named, and each name once:
// a second table of the same name would silently change the first's keys.
template <class F>
void each_class(const toml::node& arr, const std::string& path, const std::set<std::string>& keys,
                F&& f) {
    if (!arr.is_array_of_tables())
        fail("key '" + path + "' must be an array of tables ([[" + path + "]])");
    std::map<std::string, std::size_t> seen;
    std::size_t i = 0;
    for (const auto& e : *arr.as_array()) {
        const toml::table& t = *e.as_table();
        const std::string where = path + "[" + std::to_string(i) + "].";
        only_keys(t, where.substr(0, where.size() - 1), keys);
        if (!t.get("name")) fail("key '" + where + "name' is required");
        const std::string name = get_string(t, "name", where);
        if (const auto [it, fresh] = seen.emplace(name, i); !fresh)
            fail("key '" + where + "name': class '" + name + "' is already given by " + path + "[" +
                 std::to_string(it->second) + "]");
        ++i;
        f(t, where, name);
    }
}

// [Feitelson97] Table 1 (weekday daytime) and §4.2's global limits on the LLNL
// T3D's 256 processors.
ClassParams llnl_t3d() {
    constexpr Time kYear = 365LL * 24 * 3600 * kSecond;
    ClassParams p;
    p.classes = {
        {"interactive", 4, 0, 10 * kSecond, 256, true},
        {"debug", 4, 300 * kSecond, kYear, 96, false},
        {"production", 3, 3600 * kSecond, 10 * kSecond, 256, true},
        {"benchmark", 2, kYear, kYear, 64, false},
        {"standby", 1, kYear, 3 * kSecond, 256, true},
    };
    p.limits = {64, 192, 256, 576};
    return p;
}

using ClassIndex = std::map<std::string, std::size_t>;

// [[classes.class]]: new classes, or the preset's changed; by name.
ClassIndex parse_class_list(const toml::table& t, ClassesConfig& c) {
    ClassIndex index;
    for (std::size_t i = 0; i < c.base.classes.size(); ++i) index[c.base.classes[i].name] = i;
    if (const toml::node* arr = t.get("class")) {
        each_class(*arr, "classes.class", config_keys("classes.class[]"),
                   [&](const toml::table& ct, const std::string& where, const std::string& name) {
                       if (name.empty()) fail("key '" + where + "name' must not be empty");
                       auto it = index.find(name);
                       if (it == index.end()) {  // a new class
                           if (c.base.classes.size() >= 1000)
                               fail("key 'classes.class': at most 1000 classes");
                           it = index.emplace(name, c.base.classes.size()).first;
                           c.base.classes.push_back(JobClassConfig{name});
                       }
                       class_keys(ct, where,
                                  c.base.classes[it->second]);  // or the preset's, changed
                   });
    }
    if (c.base.classes.empty())
        fail("[classes] needs at least one [[classes.class]] (or classes.preset)");
    return index;
}

std::int64_t week_start(const toml::table& t) {
    const std::string w = get_string(t, "week_start", "classes.");
    char day[8] = {0};
    int h = -1, m = -1;
    char tail = 0;
    const int d =
        std::sscanf(w.c_str(), "%3s %d:%d%c", day, &h, &m, &tail) == 3 ? day_index(day) : -1;
    if (d < 0 || h < 0 || h > 23 || m < 0 || m > 59)
        fail("key 'classes.week_start' must be a day and time, \"mon 08:00\", got \"" + w + "\"");
    return static_cast<std::int64_t>(d) * 86400 + h * 3600 + m * 60;
}

void preset_periods(ClassesConfig& c) {
    // Table 1 is weekday daytime (07:00-18:00, the hours of §4.6's
    // Table 2). At weekends and at night interactive jobs have the
    // priority of production jobs (§4.2) and large jobs may fill the
    // machine; the paper gives no other night values.
    for (auto [name, days, from, to] :
         {std::tuple{"weekend", std::uint8_t{0x60}, 0, 86400},
          std::tuple{"night", std::uint8_t{0x7f}, 18 * 3600, 7 * 3600}}) {
        ClassPeriod p{name, days, from, to, c.base};
        p.params.classes[0].priority = c.base.classes[2].priority;
        p.params.limits.large_procs = 0;
        c.periods.push_back(std::move(p));
    }
}

void parse_period_days(const toml::node& days, const std::string& where, ClassPeriod& p) {
    if (!days.is_array() || days.as_array()->empty())
        fail("key '" + where + "days' must be a non-empty array of \"mon\"..\"sun\"");
    p.days = 0;
    for (const auto& dn : *days.as_array()) {
        const int d = dn.is_string() ? day_index(dn.as_string()->get()) : -1;
        if (d < 0) fail("key '" + where + "days' must hold \"mon\", \"tue\", ..., \"sun\"");
        p.days |= static_cast<std::uint8_t>(1u << d);
    }
}

ClassPeriod parse_period(const toml::table& pt, const std::string& path, const ClassesConfig& c,
                         const ClassIndex& index) {
    const std::string where = path + ".";
    only_keys(pt, path, config_keys("classes.period[]"));
    ClassPeriod p;
    p.name = get_string(pt, "name", where);
    if (const toml::node* days = pt.get("days")) parse_period_days(*days, where, p);
    p.from = clock_time(pt, "from", where, 0);
    p.to = clock_time(pt, "to", where, 86400);
    if (p.from == p.to) fail("key '" + where + "to' equals its 'from': an empty period");
    p.params = c.base;
    limits(pt, where, p.params.limits);
    if (const toml::node* carr = pt.get("class")) {
        each_class(*carr, where + "class", config_keys("classes.period[].class[]"),
                   [&](const toml::table& ct, const std::string& cw, const std::string& name) {
                       auto it = index.find(name);
                       if (it == index.end())
                           fail("key '" + cw + "name' names no class of [[classes.class]]: '" +
                                name + "'");
                       class_keys(ct, cw, p.params.classes[it->second]);
                   });
    }
    return p;
}

void parse_periods(const toml::node& arr, ClassesConfig& c, const ClassIndex& index) {
    if (!arr.is_array_of_tables())
        fail("key 'classes.period' must be an array of tables ([[classes.period]])");
    std::size_t i = 0;
    for (const auto& e : *arr.as_array()) {
        const toml::table& pt = *e.as_table();
        const std::string path = "classes.period[" + std::to_string(i++) + "]";
        c.periods.push_back(parse_period(pt, path, c, index));
    }
}

}  // namespace

void parse_classes(const toml::table& t, SchedulerConfig& s) {
    only_keys(t, "classes", config_keys("classes"));
    ClassesConfig& c = s.classes;
    c.enabled = true;
    const std::string preset = get_string(t, "preset", "classes.");
    if (preset.empty() && t.get("preset"))
        fail("key 'classes.preset': an empty name (expected llnl-t3d)");
    if (!preset.empty()) {
        if (preset != "llnl-t3d")
            fail("key 'classes.preset': unknown preset '" + preset + "' (expected llnl-t3d)");
        c.base = llnl_t3d();
        c.default_class = 2;  // production: batch jobs' class (§4.4)
        c.swap_time = kSecond;
    }
    const ClassIndex index = parse_class_list(t, c);
    if (t.get("default")) {
        const std::string d = get_string(t, "default", "classes.");
        auto it = index.find(d);
        if (it == index.end()) fail("key 'classes.default' names no class: '" + d + "'");
        c.default_class = static_cast<std::int32_t>(it->second);
    }
    c.swap_time = seconds(t, "swap_time", "classes.", c.swap_time);
    if (t.get("week_start")) c.week_origin = week_start(t);
    limits(t, "classes.", c.base.limits);
    if (!preset.empty() && !t.get("period")) preset_periods(c);

    if (const toml::node* arr = t.get("period")) parse_periods(*arr, c, index);
}

}  // namespace rota
