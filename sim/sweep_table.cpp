// Merging the runs' summaries (sweep_table.h).
#include "sweep_table.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "batch_means.h"
#include "escape.h"

namespace rota::sim {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

void leaves(const json& j, const std::string& prefix, std::vector<std::string>& out) {
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string p = prefix.empty() ? it.key() : prefix + "." + it.key();
        if (it->is_object())
            leaves(*it, p, out);
        else if (it->is_number())
            out.push_back(p);
    }
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string o = "\"";
    for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
    return o + "\"";
}

std::string num(double v) {
    return std::isfinite(v) ? fmt::format("{:.10g}", v) : std::string();
}

json num_json(double v) {
    return std::isfinite(v) ? json(v) : json(nullptr);
}

}  // namespace

const json* metric_at(const json& summary, const std::string& path) {
    const json* cur = &summary;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = path.find('.', start);
        const std::string part =
            path.substr(start, dot == std::string::npos ? path.npos : dot - start);
        if (!cur->is_object() || !cur->contains(part)) return nullptr;
        cur = &(*cur)[part];
        if (dot == std::string::npos) return cur->is_number() ? cur : nullptr;
        start = dot + 1;
    }
}

std::vector<std::string> numeric_paths(const json& summary) {
    std::vector<std::string> out;
    if (summary.is_object()) leaves(summary, "", out);
    return out;
}

SweepStat describe_values(std::vector<double> values, double confidence) {
    SweepStat s;
    s.values = std::move(values);
    s.n = s.values.size();
    if (s.n == 0) {
        s.mean = std::nan("");
        return s;
    }
    double sum = 0;
    for (double v : s.values) sum += v;
    s.mean = sum / static_cast<double>(s.n);
    if (s.n >= 2) {
        double ss = 0;
        for (double v : s.values) ss += (v - s.mean) * (v - s.mean);
        s.sd = std::sqrt(ss / static_cast<double>(s.n - 1));
        s.ci = student_t_quantile(0.5 + confidence / 2, static_cast<double>(s.n - 1)) * s.sd /
               std::sqrt(static_cast<double>(s.n));
    }
    return s;
}

SweepTable collect_table(const SweepPlan& plan, const std::string& dir) {
    SweepTable t;
    std::vector<json> summaries(plan.runs.size());
    for (const auto& r : plan.runs) {
        const fs::path f = fs::path(run_dir(dir, r.index)) / "summary.json";
        std::ifstream in(f);
        if (!in) {
            ++t.missing;
            continue;
        }
        try {
            json s = json::parse(in);
            if (!s.contains(r.policy))
                throw SweepError("'" + f.string() + "' has no summary of policy " + r.policy);
            summaries[r.index] = s[r.policy];
        } catch (const json::exception& e) {
            throw SweepError("'" + f.string() + "': " + e.what());
        }
    }
    // A metric no run reports is a misspelling, not an empty column (some
    // are reported by some policies only, e.g. the malleable ones).
    std::set<std::string> reported;
    for (const auto& s : summaries)
        if (!s.is_null())
            for (const auto& p : numeric_paths(s)) reported.insert(p);
    for (const auto& m : plan.metrics) {
        if (m != "*") {
            if (!reported.empty() && reported.count(m) == 0)
                throw SweepError("metric '" + m +
                                 "' is in no run's summary; metrics are paths such as "
                                 "utilization or all.wait.mean, or * for all");
            t.metrics.push_back(m);
            continue;
        }
        for (const auto& s : summaries) {
            if (s.is_null()) continue;
            for (const auto& p : numeric_paths(s))
                if (std::find(t.metrics.begin(), t.metrics.end(), p) == t.metrics.end())
                    t.metrics.push_back(p);
            break;
        }
    }
    // Points in the order their first run appears.
    std::map<std::string, std::size_t> point;
    std::vector<std::vector<std::size_t>> members;
    for (const auto& r : plan.runs) {
        json id = {r.trace, r.policy, json::object()};
        for (const auto& [k, v] : r.params) id[2][k] = v;
        auto [it, fresh] = point.emplace(json_safe(id).dump(), t.rows.size());
        if (fresh) {
            SweepRow row;
            row.trace = r.trace;
            row.policy = r.policy;
            row.params = r.params;
            t.rows.push_back(row);
            members.emplace_back();
        }
        members[it->second].push_back(r.index);
        json jr = {{"index", r.index}, {"trace", r.trace}, {"policy", r.policy},
                   {"seed", r.seed},   {"params", id[2]},  {"ok", !summaries[r.index].is_null()}};
        json mv = json::object();
        for (const auto& m : t.metrics) {
            const json* v =
                summaries[r.index].is_null() ? nullptr : metric_at(summaries[r.index], m);
            mv[m] = v ? *v : json(nullptr);
        }
        jr["metrics"] = mv;
        t.runs.push_back(jr);
    }
    for (std::size_t p = 0; p < t.rows.size(); ++p) {
        SweepRow& row = t.rows[p];
        row.runs = members[p].size();
        for (std::size_t i : members[p])
            if (summaries[i].is_null()) ++row.missing;
        for (const auto& m : t.metrics) {
            std::vector<double> vals;
            for (std::size_t i : members[p]) {
                if (summaries[i].is_null()) continue;
                if (const json* v = metric_at(summaries[i], m)) vals.push_back(v->get<double>());
            }
            row.stats.push_back(describe_values(std::move(vals), plan.confidence));
        }
    }
    return t;
}

void write_table(const SweepPlan& plan, const SweepTable& t, const std::string& dir) {
    const fs::path d(dir);
    const auto ci_name = fmt::format("ci{:g}", plan.confidence * 100);
    write_sweep_file((d / "table.csv").string(), "sweep table", [&](std::ostream& f) {
        if (plan.has_traces) f << "trace,";
        f << "policy";
        for (const auto& c : plan.columns) f << "," << csv_field(c);
        f << ",runs,missing";
        for (const auto& m : t.metrics)
            f << "," << csv_field(m) << "," << csv_field(m + "_" + ci_name) << ","
              << csv_field(m + "_sd");
        f << "\n";
        for (const auto& row : t.rows) {
            if (plan.has_traces) f << csv_field(row.trace) << ",";
            f << row.policy;
            for (const auto& c : plan.columns) {
                f << ",";
                for (const auto& [k, v] : row.params)
                    if (k == c) f << csv_field(cell(v));
            }
            f << "," << row.runs << "," << row.missing;
            for (const auto& s : row.stats)
                f << "," << num(s.mean) << "," << (s.ci >= 0 ? num(s.ci) : "") << ","
                  << (s.n >= 2 ? num(s.sd) : "");
            f << "\n";
        }
    });
    write_sweep_file((d / "runs.csv").string(), "sweep runs table", [&](std::ostream& f) {
        f << "run,";
        if (plan.has_traces) f << "trace,";
        f << "policy";
        for (const auto& c : plan.columns) f << "," << csv_field(c);
        f << ",seed,ok";
        for (const auto& m : t.metrics) f << "," << csv_field(m);
        f << "\n";
        for (const auto& r : t.runs) {
            f << r["index"].get<std::size_t>() << ",";
            if (plan.has_traces) f << csv_field(r["trace"].get<std::string>()) << ",";
            f << r["policy"].get<std::string>();
            for (const auto& c : plan.columns)
                f << "," << (r["params"].contains(c) ? csv_field(cell(r["params"][c])) : "");
            f << "," << r["seed"].get<std::int64_t>() << "," << (r["ok"].get<bool>() ? 1 : 0);
            for (const auto& m : t.metrics)
                f << "," << (r["metrics"][m].is_null() ? "" : num(r["metrics"][m].get<double>()));
            f << "\n";
        }
    });
    json j = {{"name", plan.name},         {"confidence", plan.confidence},
              {"columns", plan.columns},   {"has_traces", plan.has_traces},
              {"metrics", t.metrics},      {"seeds", plan.seeds},
              {"seed_key", plan.seed_key}, {"plots", plan.plots},
              {"missing", t.missing},      {"source", plan.source}};
    j["rows"] = json::array();
    for (const auto& row : t.rows) {
        json params = json::object();
        for (const auto& [k, v] : row.params) params[k] = v;
        json stats = json::object();
        for (std::size_t m = 0; m < t.metrics.size(); ++m) {
            const SweepStat& s = row.stats[m];
            stats[t.metrics[m]] = {{"n", s.n},
                                   {"mean", num_json(s.mean)},
                                   {"ci", s.ci >= 0 ? num_json(s.ci) : json(nullptr)},
                                   {"sd", s.n >= 2 ? num_json(s.sd) : json(nullptr)},
                                   {"values", s.values}};
        }
        j["rows"].push_back({{"trace", row.trace},
                             {"policy", row.policy},
                             {"params", params},
                             {"runs", row.runs},
                             {"missing", row.missing},
                             {"metrics", stats}});
    }
    j["runs"] = t.runs;
    write_sweep_file((d / "table.json").string(), "sweep table",
                     [&](std::ostream& f) { f << json_safe(j).dump(1) << "\n"; });
}

}  // namespace rota::sim
