// The `rota sweep` subcommand (sweep.h).
#include "sweep.h"

#include <fmt/core.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "escape.h"
#include "sweep_plan.h"
#include "sweep_plot.h"
#include "sweep_pool.h"
#include "sweep_slurm.h"
#include "sweep_table.h"

namespace rota::sim {

namespace fs = std::filesystem;

namespace {

std::string absolute(const std::string& p) {
    return fs::absolute(p).lexically_normal().string();
}

// Merges what the runs wrote, draws the plots; 0 if every run has a summary.
int collect(const SweepPlan& plan, const std::string& dir, const SweepArgs& a) {
    SweepTable t = collect_table(plan, dir);
    write_table(plan, t, dir);
    std::cerr << fmt::format("rota: {} points of {} runs merged: {}, {}, {}\n", t.rows.size(),
                             plan.runs.size(), escaped((fs::path(dir) / "table.csv").string()),
                             escaped((fs::path(dir) / "table.json").string()),
                             escaped((fs::path(dir) / "runs.csv").string()));
    if (!a.no_plots) {
        std::string msg;
        const auto o =
            draw_plots(dir, a.plot_script.empty() ? default_plot_script() : a.plot_script, msg);
        if (o != PlotOutcome::none) std::cerr << "rota: " << escaped(msg) << "\n";
        if (o == PlotOutcome::failed) return 1;
    }
    if (t.missing > 0) {
        std::size_t shown = 0;
        for (const auto& r : plan.runs) {
            const fs::path rd = run_dir(dir, r.index);
            if (fs::exists(rd / "summary.json")) continue;
            std::string last;
            std::ifstream err(rd / "stderr.txt");
            for (std::string line; std::getline(err, line);)
                if (!line.empty()) last = line;
            if (shown++ < 5)
                std::cerr << fmt::format("rota: run {} ({}) has no summary{}{}\n", r.index,
                                         escaped(rd.string()), last.empty() ? "" : ": ",
                                         escaped(last));
        }
        std::cerr << fmt::format("rota: {} of {} runs have no summary; the table leaves them out\n",
                                 t.missing, plan.runs.size());
        return 1;
    }
    return 0;
}

}  // namespace

std::shared_ptr<SweepArgs> add_sweep_command(CLI::App& app) {
    auto a = std::make_shared<SweepArgs>();
    CLI::App* c = app.add_subcommand(
        "sweep",
        "run traces x policies x parameters x seeds from a sweep file; merge them into one "
        "table with confidence intervals, and plot (docs/sweeps.md)");
    a->command = c;
    c->add_option("file", a->file, "the sweep file (TOML)")->check(CLI::ExistingFile);
    c->add_option("-o,--output", a->output,
                  "the sweep folder: plan, runs, table, plots (default: [sweep].output, else "
                  "NAME.sweep)");
    c->add_option("-j,--jobs", a->jobs, "runs at a time (default 1)")->check(CLI::Range(1, 4096));
    c->add_option("--slurm", a->slurm,
                  "write the plan and a Slurm job-array script (DIR/sweep.sbatch) into DIR "
                  "instead of running");
    c->add_option("--collect", a->collect,
                  "merge what the runs of the sweep folder DIR wrote (after --slurm)");
    c->add_option("--rota", a->rota, "the rota binary the runs use (default: this one)");
    c->add_option("--plot-script", a->plot_script,
                  "the plot script (default: $ROTA_PLOT_SCRIPT, else scripts/sweep_plot.py of "
                  "the source tree)");
    c->add_flag("--no-plots", a->no_plots, "write the table only");
    return a;
}

int run_sweep_command(const SweepArgs& a) {
    try {
        if (!a.collect.empty()) {
            if (!a.file.empty() || !a.slurm.empty())
                throw SweepUsageError("--collect DIR takes no sweep file and no --slurm");
            const std::string dir = absolute(a.collect);
            return collect(read_plan(dir), dir, a);
        }
        if (a.file.empty()) throw SweepUsageError("a sweep file is needed (or --collect DIR)");
        SweepPlan plan = load_sweep(a.file);
        const std::string rota = absolute(a.rota.empty() ? self_exe() : a.rota);
        if (!a.slurm.empty()) {
            if (!a.output.empty())
                throw SweepUsageError("--slurm DIR is the sweep folder; drop -o");
            const std::string dir = absolute(a.slurm);
            write_plan(plan, dir);
            const std::string script = write_slurm(plan, dir, rota);
            std::cout << fmt::format(
                "{} runs in {} array tasks: {}\nsubmit:  sbatch {}\nthen:    {} sweep --collect "
                "{}\n",
                plan.runs.size(), slurm_tasks(plan), escaped(script), escaped(script),
                escaped(rota), escaped(dir));
            return 0;
        }
        const std::string dir = absolute(!a.output.empty()      ? a.output
                                         : !plan.output.empty() ? plan.output
                                                                : plan.name + ".sweep");
        write_plan(plan, dir);
        const bool tty = ::isatty(2) != 0;
        auto last = std::chrono::steady_clock::now() - std::chrono::hours(1);
        PoolOptions po;
        po.jobs = a.jobs;
        po.rota = rota;
        po.progress = [&](const PoolProgress& p) {
            const auto now = std::chrono::steady_clock::now();
            const bool end = p.done + p.failed == p.total;
            if (tty) {
                std::cerr << "\rsweep: " << progress_line(p) << "   " << (end ? "\n" : "")
                          << std::flush;
            } else if (end || now - last >= std::chrono::seconds(2)) {
                std::cerr << "sweep: " << progress_line(p) << "\n";
                last = now;
            }
        };
        std::cerr << fmt::format("rota: sweep '{}': {} runs, {} at a time, in {}\n",
                                 escaped(plan.name), plan.runs.size(), a.jobs, escaped(dir));
        PoolResult r = run_pool(plan, dir, po);
        const int rc = collect(plan, dir, a);
        return r.failed.empty() ? rc : 1;
    } catch (const SweepUsageError& e) {
        std::cerr << "rota: error: " << escaped(e.what()) << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "rota: error: " << escaped(e.what()) << "\n";
        return 1;
    }
}

}  // namespace rota::sim
