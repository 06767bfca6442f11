// The plan as a Slurm job array (sweep_slurm.h).
#include "sweep_slurm.h"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "escape.h"
#include "sweep_plan.h"

namespace rota::sim {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// A word for the shell, in single quotes.
std::string quote(const std::string& s) {
    std::string o = "'";
    for (char c : s) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return o + "'";
}

// A value for sbatch, which reads the #SBATCH lines itself: in double
// quotes, with \, " and # (its comment sign, even inside quotes) escaped.
std::string sbatch_quote(const std::string& s) {
    std::string o = "\"";
    for (char c : s) {
        if (c == '\\' || c == '"' || c == '#') o += '\\';
        o += c;
    }
    return o + "\"";
}

bool has_control(const std::string& s) {
    return std::any_of(s.begin(), s.end(), [](char c) {
        const auto b = static_cast<unsigned char>(c);
        return b < 0x20 || b == 0x7F;
    });
}

[[noreturn]] void refuse(const std::string& key, const json& v, const std::string& why) {
    throw SweepUsageError("'sweep.slurm." + key + "' = '" + escaped(cell(v)) + "': " + why +
                          " (it is written into the batch script)");
}

std::string opt(const json& slurm, const char* key) {
    if (!slurm.contains(key)) return "";
    return cell(slurm[key]);
}

std::size_t max_array(const SweepPlan& p) {
    std::int64_t m = 1000;
    if (p.slurm.contains("max_array_size") && p.slurm["max_array_size"].is_number_integer())
        m = p.slurm["max_array_size"].get<std::int64_t>();
    if (m < 1) throw SweepError("'sweep.slurm.max_array_size' must be at least 1");
    return static_cast<std::size_t>(m);
}

}  // namespace

void check_slurm_options(const json& slurm) {
    if (!slurm.is_object()) throw SweepUsageError("'sweep.slurm' must be a table");
    for (const auto& [key, v] : slurm.items()) {
        if (key == "partition" || key == "time" || key == "mem" || key == "account") {
            const std::string s = cell(v);
            const bool ok = (v.is_string() || v.is_number_integer()) && !s.empty() &&
                            s.size() <= 256 && std::all_of(s.begin(), s.end(), [](char c) {
                                return std::isalnum(static_cast<unsigned char>(c)) ||
                                       (c != '\0' && std::strchr("._:,+-", c) != nullptr);
                            });
            if (!ok) refuse(key, v, "only letters, digits and . _ : , + - may be used");
        } else if (key == "max_parallel" || key == "max_array_size") {
            if (!v.is_number_integer() || v.get<std::int64_t>() < 1)
                refuse(key, v, "must be a whole number of at least 1");
        } else if (key == "options") {
            if (!v.is_array()) refuse(key, v, "must be a list of strings");
            for (const auto& o : v) {
                const std::string s = o.is_string() ? o.get<std::string>() : std::string();
                if (!o.is_string() || s.empty() || s[0] != '-' || s.size() > 1024 || !is_clean(s))
                    refuse(key, o,
                           "each option must start with '-' and hold no control byte (one "
                           "#SBATCH line each)");
            }
        } else {
            throw SweepUsageError("unknown key 'sweep.slurm." + escaped(key) + "'");
        }
    }
}

std::size_t slurm_tasks(const SweepPlan& p) {
    return std::max<std::size_t>(1, std::min(p.runs.size(), max_array(p)));
}

std::string slurm_script(const SweepPlan& p, const std::string& dir, const std::string& rota) {
    if (p.runs.empty()) throw SweepError("the sweep has no runs");
    check_slurm_options(p.slurm);
    // A newline in a path would end a comment or an #SBATCH line early.
    if (has_control(dir))
        throw SweepUsageError("--slurm '" + escaped(dir) +
                              "': a folder whose path holds a control byte cannot be named in "
                              "a batch script");
    if (has_control(rota))
        throw SweepUsageError("--rota '" + escaped(rota) +
                              "': a program whose path holds a control byte cannot be named in "
                              "a batch script");
    const std::size_t tasks = slurm_tasks(p);
    std::string name;
    for (char c : p.name) name += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
    std::string s = "#!/bin/bash\n";
    s += fmt::format("# Sweep '{}': {} runs in {} array tasks. Submit with\n", escaped(p.name),
                     p.runs.size(), tasks);
    s += fmt::format("#   sbatch {}\n", quote(dir + "/sweep.sbatch"));
    s += fmt::format("# and merge with: {} sweep --collect {}\n", quote(rota), quote(dir));
    s += fmt::format("#SBATCH --job-name=rota-{}\n", name);
    std::string array = fmt::format("0-{}", tasks - 1);
    if (const std::string mp = opt(p.slurm, "max_parallel"); !mp.empty()) array += "%" + mp;
    s += "#SBATCH --array=" + array + "\n";
    s += "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
    // In the output's file name pattern, % is Slurm's: %% is a percent sign.
    std::string out_dir;
    for (char c : dir) out_dir += c == '%' ? std::string("%%") : std::string(1, c);
    s += "#SBATCH --output=" + sbatch_quote(out_dir + "/slurm/task-%a.out") + "\n";
    for (const char* k : {"partition", "time", "mem", "account"})
        if (const std::string v = opt(p.slurm, k); !v.empty())
            s += fmt::format("#SBATCH --{}={}\n", k, v);
    if (p.slurm.contains("options"))
        for (const auto& o : p.slurm["options"]) s += "#SBATCH " + o.get<std::string>() + "\n";
    s += "set -u\n";
    s += "DIR=" + quote(dir) + "\n";
    s += "ROTA=" + quote(rota) + "\n";
    s += fmt::format("RUNS={}\nTASKS={}\n", p.runs.size(), tasks);
    s += "TASK=${SLURM_ARRAY_TASK_ID:?not running as a Slurm array task}\n";
    s += "status=0\n";
    s += "for ((i = TASK; i < RUNS; i += TASKS)); do\n";
    s += "  R=\"$DIR/runs/$i\"\n";
    s += "  [ -e \"$R/summary.json\" ] && continue\n";
    s += "  if \"$ROTA\" simulate \"$R/run.toml\" --summary-json \"$R/summary.json.part\" "
         "--no-progress >\"$R/stdout.txt\" 2>\"$R/stderr.txt\"; then\n";
    s += "    mv \"$R/summary.json.part\" \"$R/summary.json\"\n";
    s += "  else\n";
    s += "    echo \"run $i failed: $R/stderr.txt\" >&2; status=1\n";
    s += "  fi\n";
    s += "done\n";
    s += "exit $status\n";
    return s;
}

std::string write_slurm(const SweepPlan& p, const std::string& dir, const std::string& rota) {
    std::error_code ec;
    fs::create_directories(fs::path(dir) / "slurm", ec);
    if (ec) throw SweepError("cannot create '" + dir + "/slurm': " + ec.message());
    const fs::path f = fs::path(dir) / "sweep.sbatch";
    write_sweep_file(f.string(), "Slurm batch script",
                     [&](std::ostream& out) { out << slurm_script(p, dir, rota); });
    fs::permissions(f, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add, ec);
    return f.string();
}

}  // namespace rota::sim
