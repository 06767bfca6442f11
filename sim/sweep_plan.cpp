// The sweep file and its expansion into runs (sweep_plan.h, docs/sweeps.md).
#include "sweep_plan.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <type_traits>

#include "escape.h"
#include "output_file.h"
#include "run_config.h"
#include "sweep_slurm.h"

namespace rota::sim {

void write_sweep_file(const std::string& path, const char* what,
                      const std::function<void(std::ostream&)>& body) {
    try {
        OutputFile f(path, what);
        body(f.out());
        f.commit();
    } catch (const SweepError&) {
        throw;
    } catch (const std::runtime_error& e) {
        throw SweepError(e.what());
    }
}

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string& what) {
    throw SweepError(what);
}

// A fault of the sweep file or the command line (exit status 2).
[[noreturn]] void bad(const std::string& what) {
    throw SweepUsageError(what);
}

json to_json(const toml::node& n, const std::string& key) {
    if (auto v = n.as_integer()) return v->get();
    if (auto v = n.as_floating_point()) return v->get();
    if (auto v = n.as_boolean()) return v->get();
    if (auto v = n.as_string()) return v->get();
    bad("'" + key + "' must hold integers, floats, booleans or strings");
}

void set_toml(toml::table& t, const std::string& dotted, const json& v) {
    toml::table* cur = &t;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = dotted.find('.', start);
        const std::string part =
            dotted.substr(start, dot == std::string::npos ? dotted.npos : dot - start);
        if (part.empty()) bad("'" + dotted + "' is not a configuration key");
        if (dot == std::string::npos) {
            if (v.is_boolean())
                cur->insert_or_assign(part, v.get<bool>());
            else if (v.is_number_integer())
                cur->insert_or_assign(part, v.get<std::int64_t>());
            else if (v.is_number())
                cur->insert_or_assign(part, v.get<double>());
            else
                cur->insert_or_assign(part, v.get<std::string>());
            return;
        }
        toml::node* next = cur->get(part);
        if (!next) {
            cur->insert_or_assign(part, toml::table{});
            next = cur->get(part);
        }
        if (!next->is_table())
            bad("'" + dotted + "': '" + part + "' is not a table of the configuration");
        cur = next->as_table();
        start = dot + 1;
    }
}

std::vector<std::string> strings(const toml::node& n, const std::string& key) {
    std::vector<std::string> out;
    if (auto s = n.as_string()) return {s->get()};
    const toml::array* a = n.as_array();
    if (!a) bad("'" + key + "' must be a string or an array of strings");
    for (const auto& e : *a) {
        if (!e.is_string()) bad("'" + key + "' must hold strings");
        out.push_back(e.as_string()->get());
    }
    return out;
}

std::string absolute_from(const std::string& p, const fs::path& base) {
    if (p.empty() || p[0] == '/') return p;
    return fs::absolute(base / p).lexically_normal().string();
}

// Relative file names of the base are resolved against the sweep file's
// folder, since every run reads its configuration from its own folder:
// simulator.trace, and a policy's `script` when that file exists there.
void absolutize(toml::table& t, const fs::path& base, bool top) {
    for (auto&& [k, v] : t) {
        const std::string key(k.str());
        if (auto* sub = v.as_table()) {
            absolutize(*sub, base, false);
        } else if (auto* s = v.as_string()) {
            if (key == "script" && fs::exists(base / s->get()))
                *s = absolute_from(s->get(), base);
            else if (!top && key == "trace")
                *s = absolute_from(s->get(), base);
        }
    }
}

// The simulator's output files: one per run would be one file for all.
constexpr const char* kRunOutputs[] = {"summary_json", "jobs_csv", "batsim_csv", "jobs_npy",
                                       "swf_out"};

struct Grid {
    std::vector<std::string> traces;
    std::vector<std::string> policies;
    std::vector<std::pair<std::string, std::vector<json>>> params;
};

// An axis naming a value twice would run it twice and average the copies
// as if they were independent: refused, as simulate refuses a policy named
// twice.
template <class T>
void no_twice(const std::vector<T>& v, const std::string& name) {
    for (std::size_t i = 0; i < v.size(); ++i)
        for (std::size_t k = 0; k < i; ++k)
            if (v[k] == v[i]) {
                if constexpr (std::is_same_v<T, json>)
                    bad("'" + name + "' holds " + v[i].dump() + " twice");
                else
                    bad("'" + name + "' holds " + fmt::format("{}", v[i]) + " twice");
            }
}

void read_axes(const toml::table& t, const std::string& where, Grid& g, const fs::path& base) {
    if (const toml::node* n = t.get("traces")) {
        g.traces.clear();
        for (const auto& s : strings(*n, where + ".traces")) {
            if (s.empty()) bad("'" + where + ".traces' holds an empty name");
            g.traces.push_back(absolute_from(s, base));
        }
        if (g.traces.empty())
            bad("'" + where +
                ".traces' is empty: leave it out to run the base configuration's workload");
        no_twice(g.traces, where + ".traces");
    }
    if (const toml::node* n = t.get("policies")) {
        g.policies = strings(*n, where + ".policies");
        no_twice(g.policies, where + ".policies");
        for (const auto& p : g.policies) {
            try {
                check_policy(p);
            } catch (const std::exception& e) {
                bad("'" + where + ".policies': " + e.what());
            }
        }
    }
    if (const toml::node* n = t.get("parameters")) {
        const toml::table* pt = n->as_table();
        if (!pt) bad("'" + where + ".parameters' must be a table");
        for (auto&& [k, v] : *pt) {
            const std::string key(k.str());
            const std::string name = where + ".parameters.\"" + key + "\"";
            if (key == "simulator.policy" || key == "simulator.trace")
                bad("'" + name + "': use the policies and traces axes");
            for (const char* out : kRunOutputs)
                if (key == std::string("simulator.") + out)
                    bad("'" + name +
                        "': every run would write this one file, outside the sweep folder (each "
                        "run writes its own summary into its folder)");
            std::vector<json> values;
            if (const toml::array* a = v.as_array()) {
                for (const auto& e : *a) values.push_back(to_json(e, name));
            } else if (v.is_table()) {
                bad("'" + name +
                    "' must be a list of values; quote a dotted key: "
                    "\"simulator.mpl\" = [2, 5]");
            } else {
                values.push_back(to_json(v, name));
            }
            if (values.empty()) bad("'" + name + "' has no values");
            no_twice(values, name);
            auto it = std::find_if(g.params.begin(), g.params.end(),
                                   [&](const auto& p) { return p.first == key; });
            if (it != g.params.end())
                it->second = values;
            else
                g.params.emplace_back(key, values);
        }
    }
}

void only(const toml::table& t, const std::string& where, std::set<std::string> keys) {
    for (auto&& [k, v] : t)
        if (!keys.count(std::string(k.str())))
            bad("unknown key '" + where + "." + std::string(k.str()) + "'");
}

}  // namespace

const std::vector<std::string>& default_sweep_metrics() {
    static const std::vector<std::string> m{
        "utilization",   "capacity_loss",     "all.mean_bounded_slowdown",
        "all.wait.mean", "all.response.mean", "simulation_seconds"};
    return m;
}

std::string cell(const json& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_null()) return "";
    return v.dump();
}

std::string run_dir(const std::string& dir, std::size_t i) {
    return (fs::path(dir) / "runs" / std::to_string(i)).string();
}

toml::table run_config_table(const SweepPlan& p, const SweepRun& r) {
    toml::table t = toml::parse(p.base_toml);
    if (!r.trace.empty()) set_toml(t, "simulator.trace", r.trace);
    set_toml(t, "simulator.policy", r.policy);
    set_toml(t, p.seed_key, r.seed);
    for (const auto& [k, v] : r.params) set_toml(t, k, v);
    set_toml(t, "simulator.progress", false);
    return t;
}

namespace {

toml::table parse_sweep_file(const std::string& path) {
    std::string text;
    try {
        text = read_config_file(path);
    } catch (const ConfigError& e) {
        bad(e.what());
    }
    try {
        return toml::parse(text, path);
    } catch (const toml::parse_error& e) {
        const auto& b = e.source().begin;
        bad(path + ":" + std::to_string(b.line) + ":" + std::to_string(b.column) +
            ": TOML syntax error: " + std::string(e.description()));
    }
}

// The folder is <name>.sweep beside where rota runs (or sweep.output).
void read_name(const toml::table& sw, const std::string& path, SweepPlan& p) {
    p.name = sw["name"].value_or(fs::path(path).stem().string());
    if (p.name.empty() || p.name == "." || p.name == ".." || p.name.find('/') != std::string::npos)
        bad("'sweep.name' must be a plain name, without '/' (the runs go to '<name>.sweep'), not "
            "'" +
            escaped(p.name) + "'");
    // It is printed, and written into every run's run.toml and the batch script.
    if (!is_clean(p.name))
        bad("'sweep.name' must be printable UTF-8, without control bytes, not '" + escaped(p.name) +
            "'" + (sw.get("name") ? std::string() : std::string(" (the sweep file's name)")));
}

void read_seeds(const toml::table& sw, SweepPlan& p) {
    const toml::node* n = sw.get("seeds");
    if (!n) return;
    p.seeds.clear();
    const toml::array* a = n->as_array();
    if (!a || a->empty()) bad("'sweep.seeds' must be a non-empty array of integers");
    for (const auto& e : *a) {
        if (!e.is_integer() || e.as_integer()->get() < 0)
            bad("'sweep.seeds' must hold integers >= 0");
        p.seeds.push_back(e.as_integer()->get());
    }
    no_twice(p.seeds, "sweep.seeds");
}

// What the table reports of the runs: the metrics and their intervals.
void read_metrics(const toml::table& sw, SweepPlan& p) {
    p.metrics =
        sw.get("metrics") ? strings(*sw.get("metrics"), "sweep.metrics") : default_sweep_metrics();
    if (p.metrics.empty()) bad("'sweep.metrics' is empty: leave it out for the default metrics");
    no_twice(p.metrics, "sweep.metrics");
    if (const toml::node* n = sw.get("confidence")) {
        auto c = n->value<double>();
        if (!c || !(*c > 0 && *c < 1)) bad("'sweep.confidence' must be in (0, 1)");
        p.confidence = *c;
    }
}

// A plot's `where`: each key with the values kept, a single value as a list
// of one.
void read_plot_where(const toml::node& v, json& j) {
    const toml::table* w = v.as_table();
    if (!w) bad("'sweep.plot.where' must be a table");
    for (auto&& [wk, wv] : *w) {
        const std::string name = "sweep.plot.where.\"" + std::string(wk.str()) + "\"";
        json vals = json::array();
        if (const toml::array* wa = wv.as_array())
            for (const auto& x : *wa) vals.push_back(to_json(x, name));
        else
            vals.push_back(to_json(wv, name));
        j["where"][std::string(wk.str())] = vals;
    }
}

// One [[sweep.plot]], as the plot script reads it.
json read_plot(const toml::table& t) {
    only(t, "sweep.plot",
         {"x", "y", "series", "panels", "where", "file", "title", "logx", "logy", "xlabel",
          "ylabel"});
    json j = json::object();
    for (auto&& [k, v] : t) {
        const std::string key(k.str());
        if (key == "y" || key == "series" || (key == "logy" && v.is_array()))
            j[key] = strings(v, "sweep.plot." + key);
        else if (key == "where")
            read_plot_where(v, j);
        else
            j[key] = to_json(v, "sweep.plot." + key);
    }
    if (!j.contains("x") || !j.contains("y")) bad("every [[sweep.plot]] needs x and y");
    return j;
}

void read_plots(const toml::table& sw, SweepPlan& p) {
    const toml::node* n = sw.get("plot");
    if (!n) return;
    const toml::array* a = n->as_array();
    if (!a) bad("'sweep.plot' must be an array of tables: [[sweep.plot]]");
    for (const auto& e : *a) {
        const toml::table* t = e.as_table();
        if (!t) bad("'sweep.plot' must be an array of tables: [[sweep.plot]]");
        p.plots.push_back(read_plot(*t));
    }
}

void read_slurm(const toml::table& sw, SweepPlan& p) {
    const toml::node* n = sw.get("slurm");
    if (!n) return;
    const toml::table* t = n->as_table();
    if (!t) bad("'sweep.slurm' must be a table");
    only(*t, "sweep.slurm",
         {"partition", "time", "mem", "account", "max_parallel", "max_array_size", "options"});
    for (auto&& [k, v] : *t) {
        const std::string key(k.str());
        if (key == "options")
            p.slurm[key] = strings(v, "sweep.slurm.options");
        else
            p.slurm[key] = to_json(v, "sweep.slurm." + key);
    }
    check_slurm_options(p.slurm);
}

// The top level's axes; each [[sweep.grid]] starts from them.
std::vector<Grid> read_grids(const toml::table& sw, const fs::path& base) {
    Grid top;
    read_axes(sw, "sweep", top, base);
    const toml::node* n = sw.get("grid");
    if (!n) return {top};
    const toml::array* a = n->as_array();
    if (!a || a->empty()) bad("'sweep.grid' must be an array of tables: [[sweep.grid]]");
    std::vector<Grid> grids;
    for (const auto& e : *a) {
        const toml::table* t = e.as_table();
        if (!t) bad("'sweep.grid' must be an array of tables: [[sweep.grid]]");
        only(*t, "sweep.grid", {"traces", "policies", "parameters"});
        Grid g = top;
        read_axes(*t, "sweep.grid", g, base);
        grids.push_back(g);
    }
    return grids;
}

// The configuration every run starts from: the file without [sweep].
std::string base_configuration(const toml::table& root, const fs::path& base) {
    toml::table b = root;
    b.erase("sweep");
    absolutize(b, base, true);
    if (const toml::node* s = b.get("simulator")) {
        if (const toml::table* st = s->as_table()) {
            if (auto tr = (*st)["trace"].value<std::string>())
                set_toml(b, "simulator.trace", absolute_from(*tr, base));
            for (const char* k : kRunOutputs)
                if (st->contains(k))
                    bad(std::string("'simulator.") + k +
                        "' in a sweep file: every run writes its own summary into its folder");
        }
    }
    std::ostringstream bs;
    bs << b;
    return bs.str();
}

// The runs are counted before any is made: a few lines can describe
// billions of them.
void check_run_count(const std::vector<Grid>& grids, std::size_t seeds) {
    double described = 0;
    for (const Grid& g : grids) {
        double n = static_cast<double>(std::max<std::size_t>(1, g.traces.size())) *
                   static_cast<double>(g.policies.size()) * static_cast<double>(seeds);
        for (const auto& [k, v] : g.params) n *= static_cast<double>(v.size());
        described += n;
    }
    if (described > static_cast<double>(kMaxSweepRuns))
        bad(
            fmt::format("the sweep describes {:.0f} runs (traces x policies x parameter values x "
                        "seeds, over its grids); a sweep may have at most {}: split it, or "
                        "narrow its axes",
                        described, kMaxSweepRuns));
}

// A grid's runs, seed by seed within each parameter combination, within
// each policy, within each trace. `seen` holds the runs of the grids
// before: identical runs of several grids are made once.
void add_grid_runs(const Grid& g, SweepPlan& p, std::set<std::string>& seen) {
    if (g.policies.empty()) bad("no policies: set sweep.policies (or a grid's policies)");
    for (const auto& [k, v] : g.params)
        if (std::find(p.columns.begin(), p.columns.end(), k) == p.columns.end())
            p.columns.push_back(k);
    std::vector<std::string> traces = g.traces.empty() ? std::vector<std::string>{""} : g.traces;
    if (!g.traces.empty()) p.has_traces = true;
    // Odometer over the parameters; the last parameter varies fastest.
    std::vector<std::size_t> at(g.params.size(), 0);
    for (const auto& tr : traces)
        for (const auto& pol : g.policies) {
            std::fill(at.begin(), at.end(), 0);
            while (true) {
                for (std::int64_t seed : p.seeds) {
                    SweepRun r;
                    r.trace = tr;
                    r.policy = pol;
                    r.seed = seed;
                    for (std::size_t i = 0; i < g.params.size(); ++i)
                        r.params.emplace_back(g.params[i].first, g.params[i].second[at[i]]);
                    json id = {tr, pol, seed, json::object()};
                    for (const auto& [k, v] : r.params) id[3][k] = v;
                    if (!seen.insert(json_safe(id).dump()).second) continue;
                    r.index = p.runs.size();
                    p.runs.push_back(std::move(r));
                }
                std::size_t i = g.params.size();
                while (i > 0 && ++at[i - 1] == g.params[i - 1].second.size()) at[--i] = 0;
                if (i == 0) break;
            }
        }
}

void expand_runs(const std::vector<Grid>& grids, SweepPlan& p) {
    std::set<std::string> seen;
    for (const Grid& g : grids) add_grid_runs(g, p, seen);
    for (auto& r : p.runs) {
        // Parameters in column order, so every run lists them the same way.
        std::vector<std::pair<std::string, json>> ordered;
        for (const auto& c : p.columns)
            for (const auto& kv : r.params)
                if (kv.first == c) ordered.push_back(kv);
        r.params = std::move(ordered);
    }
}

// The run's configuration, written in `file`, as `rota simulate` reads it;
// a refusal names the run by its axes.
void check_run(const SweepRun& r, const fs::path& file, const std::string& path) {
    try {
        RunConfig rc = load_run_config(file.string());
        check_statistics(rc);
        // The machine's size is known here when the run sets it.
        if (rc.procs > 0 && rc.clusters.empty()) check_machine_procs(rc, rc.procs);
    } catch (const std::exception& e) {
        std::string where = "run " + std::to_string(r.index) + " (policy " + r.policy;
        for (const auto& [k, v] : r.params) where += ", " + k + " = " + cell(v);
        bad(path + ": " + where + "): " + e.what());
    }
}

// Every run's configuration must be one `rota simulate` accepts. It is
// read back from a folder of our own (mkdtemp): a file of a name others
// can guess in the shared temporary folder could be a link they made
// to a file of ours, which writing it would overwrite.
void check_runs(const SweepPlan& p, const std::string& path) {
    std::string folder = (fs::temp_directory_path() / "rota_sweep_check_XXXXXX").string();
    if (::mkdtemp(folder.data()) == nullptr)
        fail("cannot make a temporary folder to check the runs: " +
             std::string(std::strerror(errno)));
    struct Remove {
        std::string dir;
        ~Remove() {
            std::error_code ec;
            fs::remove_all(dir, ec);
        }
    } remove{folder};
    const fs::path tmp = fs::path(folder) / "run.toml";
    std::set<std::string> checked;
    for (const auto& r : p.runs) {
        std::ostringstream os;
        try {
            os << run_config_table(p, r);
        } catch (const toml::parse_error& e) {
            bad("the base configuration: " + std::string(e.description()));
        }
        if (!checked.insert(os.str()).second) continue;
        {
            std::ofstream f(tmp, std::ios::trunc);
            f << os.str();
        }
        check_run(r, tmp, path);
    }
}

}  // namespace

SweepPlan load_sweep(const std::string& path) {
    const toml::table root = parse_sweep_file(path);
    const fs::path base = fs::absolute(fs::path(path)).parent_path();
    const toml::table* sw = root["sweep"].as_table();
    if (!sw) bad(path + ": no [sweep] table");
    // The keys are read in the order below, which is the order in which a
    // file wrong in several of them is told.
    only(*sw, "sweep",
         {"name", "output", "seeds", "seed_key", "metrics", "confidence", "traces", "policies",
          "parameters", "grid", "plot", "slurm"});
    SweepPlan p;
    p.source = fs::absolute(path).lexically_normal().string();
    read_name(*sw, path, p);
    p.output = (*sw)["output"].value_or(std::string());
    p.seed_key = (*sw)["seed_key"].value_or(p.seed_key);
    read_seeds(*sw, p);
    read_metrics(*sw, p);
    read_plots(*sw, p);
    read_slurm(*sw, p);
    const std::vector<Grid> grids = read_grids(*sw, base);
    p.base_toml = base_configuration(root, base);
    check_run_count(grids, p.seeds.size());
    expand_runs(grids, p);
    check_runs(p, path);
    return p;
}

json plan_to_json(const SweepPlan& p) {
    json j = {{"name", p.name},
              {"seed_key", p.seed_key},
              {"seeds", p.seeds},
              {"columns", p.columns},
              {"has_traces", p.has_traces},
              {"metrics", p.metrics},
              {"confidence", p.confidence},
              {"plots", p.plots},
              {"slurm", p.slurm},
              {"base_toml", p.base_toml},
              {"source", p.source},
              {"output", p.output}};
    j["runs"] = json::array();
    for (const auto& r : p.runs) {
        json params = json::object();
        for (const auto& [k, v] : r.params) params[k] = v;
        j["runs"].push_back({{"index", r.index},
                             {"trace", r.trace},
                             {"policy", r.policy},
                             {"seed", r.seed},
                             {"params", params}});
    }
    return j;
}

SweepPlan plan_from_json(const json& j) {
    SweepPlan p;
    try {
        p.name = j.at("name").get<std::string>();
        p.seed_key = j.at("seed_key").get<std::string>();
        p.seeds = j.at("seeds").get<std::vector<std::int64_t>>();
        p.columns = j.at("columns").get<std::vector<std::string>>();
        p.has_traces = j.at("has_traces").get<bool>();
        p.metrics = j.at("metrics").get<std::vector<std::string>>();
        p.confidence = j.at("confidence").get<double>();
        p.plots = j.at("plots");
        p.slurm = j.at("slurm");
        p.base_toml = j.at("base_toml").get<std::string>();
        p.source = j.at("source").get<std::string>();
        p.output = j.value("output", "");
        for (const auto& r : j.at("runs")) {
            SweepRun s;
            s.index = r.at("index").get<std::size_t>();
            s.trace = r.at("trace").get<std::string>();
            s.policy = r.at("policy").get<std::string>();
            s.seed = r.at("seed").get<std::int64_t>();
            for (const auto& c : p.columns)
                if (r.at("params").contains(c)) s.params.emplace_back(c, r.at("params").at(c));
            p.runs.push_back(std::move(s));
        }
    } catch (const json::exception& e) {
        fail(std::string("plan.json: ") + e.what());
    }
    return p;
}

void write_plan(const SweepPlan& p, const std::string& dir) {
    const fs::path d(dir);
    std::error_code ec;
    // A sweep writes table.csv, plots and runs/ into its folder: a folder
    // of something else keeps what it holds. Hidden files (a .gitkeep) do
    // not make it something else.
    if (fs::is_directory(d, ec) && !fs::exists(d / "plan.json"))
        for (const auto& entry : fs::directory_iterator(d, ec))
            if (entry.path().filename().string().rfind('.', 0) != 0)
                fail("'" + dir +
                     "' exists and is not a sweep folder (it has no plan.json); use another "
                     "folder or an empty one");
    fs::create_directories(d / "runs", ec);
    if (ec) fail("cannot create '" + (d / "runs").string() + "': " + ec.message());
    // A path that is not UTF-8 (a trace's) is kept in it escaped.
    const json j = json_safe(plan_to_json(p));
    if (fs::exists(d / "plan.json")) {
        json old;
        try {
            std::ifstream f(d / "plan.json");
            old = json::parse(f);
        } catch (const json::exception&) {
            fail("'" + (d / "plan.json").string() + "' is not a sweep plan; use another folder");
        }
        json a = old, b = j;
        for (json* x : {&a, &b}) x->erase("plots"), x->erase("slurm"), x->erase("source");
        if (a != b)
            fail("'" + dir + "' holds the plan of another sweep; use another folder or remove it");
    }
    write_sweep_file((d / "plan.json").string(), "sweep plan",
                     [&](std::ostream& f) { f << j.dump(1) << "\n"; });
    for (const auto& r : p.runs) {
        const fs::path rd = run_dir(dir, r.index);
        fs::create_directories(rd, ec);
        if (ec) fail("cannot create '" + rd.string() + "': " + ec.message());
        write_sweep_file((rd / "run.toml").string(), "run configuration", [&](std::ostream& f) {
            f << "# run " << r.index << " of sweep '" << escaped(p.name) << "' ("
              << escaped(p.source) << ")\n"
              << run_config_table(p, r) << "\n";
        });
    }
}

SweepPlan read_plan(const std::string& dir) {
    const fs::path f = fs::path(dir) / "plan.json";
    std::ifstream in(f);
    if (!in) fail("'" + f.string() + "' not found: not a sweep folder");
    json j;
    try {
        j = json::parse(in);
    } catch (const json::exception& e) {
        fail("'" + f.string() + "': " + e.what());
    }
    return plan_from_json(j);
}

}  // namespace rota::sim
