// Running a plan's runs as child processes (sweep_pool.h).
#include "sweep_pool.h"

#include <fcntl.h>
#include <fmt/core.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>

extern char** environ;

namespace rota::sim {

namespace fs = std::filesystem;

namespace {

std::string clock_text(double s) {
    const auto t = static_cast<long long>(std::llround(s));
    if (t >= 3600) return fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60);
    return fmt::format("{}:{:02}", t / 60, t % 60);
}

// Starts `rota simulate` for run i; returns its pid.
pid_t spawn_run(const std::string& rota, const std::string& rd) {
    const std::string cfg = rd + "/run.toml", out = rd + "/stdout.txt", err = rd + "/stderr.txt",
                      sum = rd + "/summary.json.part";
    std::vector<std::string> args{rota, "simulate", cfg, "--summary-json", sum, "--no-progress"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, rota.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) throw SweepError("cannot run '" + rota + "': " + std::string(std::strerror(rc)));
    return pid;
}

}  // namespace

std::string self_exe() {
    std::error_code ec;
    auto p = fs::read_symlink("/proc/self/exe", ec);
    if (ec) throw SweepError("cannot find this program's path (/proc/self/exe): " + ec.message());
    return p.string();
}

std::string progress_line(const PoolProgress& p) {
    std::string s = fmt::format("{}/{} runs", p.done, p.total);
    if (p.skipped > 0) s += fmt::format(" ({} done before)", p.skipped);
    if (p.failed > 0) s += fmt::format(", {} failed", p.failed);
    s += ", elapsed " + clock_text(p.elapsed);
    s += p.eta >= 0 ? ", ETA " + clock_text(p.eta) : ", ETA -";
    return s;
}

PoolResult run_pool(const SweepPlan& plan, const std::string& dir, const PoolOptions& o) {
    if (o.jobs < 1) throw SweepError("-j must be at least 1");
    const std::string rota = o.rota.empty() ? self_exe() : o.rota;
    const auto t0 = std::chrono::steady_clock::now();
    auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    PoolResult res;
    std::vector<std::size_t> pending;
    for (const auto& r : plan.runs) {
        if (fs::exists(fs::path(run_dir(dir, r.index)) / "summary.json"))
            ++res.skipped;
        else
            pending.push_back(r.index);
    }
    PoolProgress pg;
    pg.total = plan.runs.size();
    pg.done = pg.skipped = res.skipped;
    if (pending.empty()) pg.eta = 0;
    if (o.progress) o.progress(pg);
    std::map<pid_t, std::size_t> running;
    std::size_t next = 0;
    while (next < pending.size() || !running.empty()) {
        while (next < pending.size() && running.size() < static_cast<std::size_t>(o.jobs)) {
            const std::size_t i = pending[next++];
            running[spawn_run(rota, run_dir(dir, i))] = i;
        }
        int status = 0;
        const pid_t pid = ::waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR) continue;
            throw SweepError(std::string("waitpid: ") + std::strerror(errno));
        }
        auto it = running.find(pid);
        if (it == running.end()) continue;  // not one of ours
        const std::size_t i = it->second;
        running.erase(it);
        const fs::path rd = run_dir(dir, i);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && fs::exists(rd / "summary.json.part")) {
            fs::rename(rd / "summary.json.part", rd / "summary.json");
        } else {
            res.failed.push_back(i);
            std::error_code ec;
            fs::remove(rd / "summary.json.part", ec);
        }
        ++res.ran;
        pg.done = res.skipped + res.ran - res.failed.size();
        pg.failed = res.failed.size();
        pg.elapsed = elapsed();
        const std::size_t left = pending.size() - res.ran;
        // Runs finish `jobs` at a time: the mean wall time per finished run
        // already accounts for the parallelism.
        pg.eta = pg.elapsed / static_cast<double>(res.ran) * static_cast<double>(left);
        if (o.progress) o.progress(pg);
    }
    res.seconds = elapsed();
    return res;
}

}  // namespace rota::sim
