// Running the plot script (sweep_plot.h).
#include "sweep_plot.h"

#include <spawn.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

extern char** environ;

namespace rota::sim {

namespace fs = std::filesystem;

std::string default_plot_script() {
    if (const char* e = std::getenv("ROTA_PLOT_SCRIPT"); e && *e) return e;
#ifdef ROTA_SCRIPTS_DIR
    return std::string(ROTA_SCRIPTS_DIR) + "/sweep_plot.py";
#else
    return "scripts/sweep_plot.py";
#endif
}

PlotOutcome draw_plots(const std::string& dir, const std::string& script, std::string& message) {
    {
        std::ifstream in(fs::path(dir) / "table.json");
        nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
        if (j.is_discarded() || !j.contains("plots") || j["plots"].empty()) {
            message = "no plots asked for ([[sweep.plot]])";
            return PlotOutcome::none;
        }
    }
    if (!fs::exists(script)) {
        message = "plots skipped: the plot script '" + script +
                  "' is not there (set ROTA_PLOT_SCRIPT or --plot-script)";
        return PlotOutcome::skipped;
    }
    std::vector<std::string> args{"python3", script, dir};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    if (posix_spawnp(&pid, "python3", nullptr, nullptr, argv.data(), environ) != 0) {
        message =
            "plots skipped: python3 is not installed (Debian: apt-get install "
            "python3-matplotlib)";
        return PlotOutcome::skipped;
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) break;
    const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (rc == 0) {
        message = "plots in " + (fs::path(dir) / "plots").string();
        return PlotOutcome::drawn;
    }
    if (rc == 3 || rc == 127) {
        message =
            "plots skipped: matplotlib is not installed (Debian: apt-get install "
            "python3-matplotlib)";
        return PlotOutcome::skipped;
    }
    message = "the plot script failed (exit " + std::to_string(rc) + ")";
    return PlotOutcome::failed;
}

}  // namespace rota::sim
