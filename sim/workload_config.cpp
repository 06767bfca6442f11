#include "workload_config.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>

#include "clusters.h"
#include "config_keys.h"
#include "swf.h"  // kMaxMachineProcs

namespace rota::sim {

namespace {

const std::string kTable = "simulator.workload";

const std::set<std::string> kWorkloadKeys = {
    // common to the models
    "jobs", "procs", "load", "phi", "seed", "users", "model",
    // zhang
    "factor",
    // feitelson-k
    "k", "variance", "pool_capacity",
    // ngubiri
    "q", "size_min", "size_max", "thres", "max_components", "partition", "mean_runtime",
    "mean_interarrival", "time_unit", "clusters",
    // weissman, weissman-apps
    "fit_trace", "apps", "beta"};

// The keys common to the models, over the defaults in `g`: each model
// takes from them those that apply to it.
void read_common_keys(const toml::table& wt, GenerateOptions& g) {
    g.jobs = get_between(wt, "jobs", kTable, g.jobs, 0, kMaxJobs);
    g.procs =
        static_cast<std::int32_t>(get_between(wt, "procs", kTable, g.procs, 1, kMaxMachineProcs));
    g.load = get<double>(wt, "load", kTable, g.load);
    g.phi = get<double>(wt, "phi", kTable, g.phi);
    g.seed = get<std::uint64_t>(wt, "seed", kTable, g.seed);
    g.users = static_cast<std::int32_t>(
        get_between(wt, "users", kTable, g.users, 0, std::numeric_limits<std::int32_t>::max()));
}

// [Weissman03]'s models: their defaults (the SDSC SP2's 128 processors and
// its own rates; 64 processors, mixed, beta 1) unless given.
GenerateOptions weissman_workload(const toml::table& wt, const std::string& model,
                                  const GenerateOptions& g) {
    GenerateOptions f =
        model == "weissman" ? weissman_options(g.seed) : weissman_apps_options(g.seed);
    f.jobs = g.jobs;
    if (wt.get("procs")) f.procs = g.procs;
    if (wt.get("phi")) f.phi = g.phi;
    if (model == "weissman") {
        if (wt.get("load")) f.load = g.load;
        f.fit_trace = get<std::string>(wt, "fit_trace", kTable, "");
        return f;
    }
    if (wt.get("load"))
        fail(
            "key 'simulator.workload.load' does not apply to model \"weissman-apps\": beta sets "
            "the arrivals");
    f.apps = get<std::string>(wt, "apps", kTable, f.apps);
    f.beta = get<double>(wt, "beta", kTable, f.beta);
    if (!(f.beta >= 0) || !std::isfinite(f.beta))
        fail("key 'simulator.workload.beta' must be a number >= 0");
    return f;
}

// [Feitelson97]'s model: 128 processors, load 0.5, exact estimates unless
// the common keys say otherwise.
GenerateOptions feitelson96_workload(const toml::table& wt, const GenerateOptions& g) {
    GenerateOptions f = feitelson96_options(g.seed);
    f.jobs = g.jobs;
    if (wt.get("load")) f.load = g.load;
    if (wt.get("procs")) f.procs = g.procs;
    if (wt.get("phi")) f.phi = g.phi;
    return f;
}

// [Ngubiri07]'s model: its defaults (§4.1) unless given.
GenerateOptions ngubiri_workload(const toml::table& wt, const GenerateOptions& g) {
    GenerateOptions n = ngubiri_options(g.seed);
    n.jobs = g.jobs;
    n.q = get<double>(wt, "q", kTable, n.q);
    // The sizes' own bounds; one against the other in generate.
    n.size_min = static_cast<std::int32_t>(
        get_between(wt, "size_min", kTable, n.size_min, 1, kMaxNgubiriSize));
    n.size_max = static_cast<std::int32_t>(
        get_between(wt, "size_max", kTable, n.size_max, 1, kMaxNgubiriSize));
    n.thres =
        static_cast<std::int32_t>(get_between(wt, "thres", kTable, n.thres, 0, kMaxNgubiriSize));
    n.max_components = static_cast<std::int32_t>(
        get_between(wt, "max_components", kTable, n.max_components, 1, kMaxComponents));
    n.mean_runtime = get<double>(wt, "mean_runtime", kTable, n.mean_runtime);
    n.mean_interarrival = get<double>(wt, "mean_interarrival", kTable, n.mean_interarrival);
    n.time_unit = get<double>(wt, "time_unit", kTable, n.time_unit);
    try {
        n.partition = parse_partition(get<std::string>(wt, "partition", kTable, "random"));
        if (wt.get("clusters")) {
            n.clusters.clear();
            for (const auto& c : parse_clusters(get<std::string>(wt, "clusters", kTable, "")))
                n.clusters.push_back(c.nodes);
        }
    } catch (const std::invalid_argument& e) {
        fail("key 'simulator.workload': " + std::string(e.what()));
    }
    for (const char* key : {"procs", "load", "phi", "users"})
        if (wt.get(key))
            fail(std::string("key 'simulator.workload.") + key +
                 "' does not apply to model \"ngubiri\"");
    return n;
}

// [Leinberger99]'s model: 128 processors and exact estimates unless the
// common keys say otherwise.
GenerateOptions feitelson_k_workload(const toml::table& wt, const GenerateOptions& g) {
    // variance before k: a file wrong in both has been told of variance.
    const double variance = get<double>(wt, "variance", kTable, 0.1);
    const auto k = static_cast<std::int32_t>(get_between(wt, "k", kTable, 2, 1, kMaxResources));
    GenerateOptions f = feitelson_k_options(k, variance, g.seed);
    f.pool_capacity = get<std::int64_t>(wt, "pool_capacity", kTable, f.pool_capacity);
    f.jobs = g.jobs;
    f.load = wt.get("load") ? g.load : GenerateOptions{}.load;
    if (wt.get("procs")) f.procs = g.procs;
    if (wt.get("phi")) f.phi = g.phi;
    return f;
}

// The named model's settings: its defaults, with the common keys (read
// into `g`) where the model takes them, and its own keys.
GenerateOptions model_workload(const toml::table& wt, const std::string& model,
                               const GenerateOptions& g) {
    // Read for every model, so a wrong factor is named before a wrong model.
    const double factor = get<double>(wt, "factor", kTable, 1.0);
    if (model != "zhang" && model != "standard" && model != "feitelson-k" && model != "ngubiri" &&
        model != "lublin" && model != "feitelson96" && model != "weissman" &&
        model != "weissman-apps")
        fail(
            "key 'simulator.workload.model' must be \"lublin\", \"standard\", \"zhang\", "
            "\"feitelson-k\", \"ngubiri\", \"feitelson96\", \"weissman\" or \"weissman-apps\"");
    if (model == "weissman" || model == "weissman-apps") return weissman_workload(wt, model, g);
    if (model == "feitelson96") return feitelson96_workload(wt, g);
    if (model == "ngubiri") return ngubiri_workload(wt, g);
    if (model == "feitelson-k") return feitelson_k_workload(wt, g);
    if (model == "zhang") {
        // [Zhang00]'s model: its own defaults (10,000 jobs, 320 nodes, Φ 0.2);
        // of the common keys, jobs and phi (its §2.1 Φ model, as `rota
        // generate --phi`) are taken.
        GenerateOptions z = zhang_options(factor, g.seed);
        if (wt.get("jobs")) z.jobs = g.jobs;
        if (wt.get("phi")) z.phi = g.phi;
        return z;
    }
    return g;  // lublin and standard: the common keys
}

// A model's own key given with another model would go unread.
void refuse_other_models_keys(const toml::table& wt, WorkloadModel model) {
    if (model != WorkloadModel::feitelson_k)
        for (const char* key : {"k", "variance", "pool_capacity"})
            if (wt.get(key))
                fail(std::string("key 'simulator.workload.") + key +
                     "' applies only to model \"feitelson-k\"");
    if (model != WorkloadModel::weissman && wt.get("fit_trace"))
        fail("key 'simulator.workload.fit_trace' applies only to model \"weissman\"");
    if (model != WorkloadModel::weissman_apps)
        for (const char* key : {"apps", "beta"})
            if (wt.get(key))
                fail(std::string("key 'simulator.workload.") + key +
                     "' applies only to model \"weissman-apps\"");
    if (model != WorkloadModel::ngubiri)
        for (const char* key : {"q", "size_min", "size_max", "thres", "max_components", "partition",
                                "mean_runtime", "mean_interarrival", "time_unit", "clusters"})
            if (wt.get(key))
                fail(std::string("key 'simulator.workload.") + key +
                     "' applies only to model \"ngubiri\"");
}

}  // namespace

void read_workload_table(const toml::table& wt, GenerateOptions& g) {
    only(wt, kTable, kWorkloadKeys);
    // The default is the lublin model; model = "standard" starts from the
    // standard model's own defaults (1,024 processors, 0.9).
    if (get<std::string>(wt, "model", kTable, "") == "standard") g = GenerateOptions{};
    read_common_keys(wt, g);
    const std::string model = get<std::string>(wt, "model", kTable, "");
    if (wt.get("model") && model.empty())
        fail(
            "key 'simulator.workload.model' is empty: name a model, or leave the key out for the "
            "default (lublin)");
    if (!model.empty()) g = model_workload(wt, model, g);
    refuse_other_models_keys(wt, g.model);
}

}  // namespace rota::sim
