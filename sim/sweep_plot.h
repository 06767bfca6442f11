// `rota sweep`: the plots of a merged table, drawn by scripts/sweep_plot.py
// with matplotlib (docs/sweeps.md, "Plots").
#pragma once

#include <string>

namespace rota::sim {

enum class PlotOutcome { drawn, none, skipped, failed };

// The plot script: $ROTA_PLOT_SCRIPT, else the one of the source tree rota
// was built from.
std::string default_plot_script();

// Runs `python3 SCRIPT DIR`, which reads dir/table.json and writes
// dir/plots/*.png. `none`: the sweep asks for no plots; `skipped`: no
// python3 or no matplotlib (the message says what to install); `failed`:
// the script failed. Messages go to `log`.
PlotOutcome draw_plots(const std::string& dir, const std::string& script, std::string& message);

}  // namespace rota::sim
