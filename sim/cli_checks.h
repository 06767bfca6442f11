// Range checks for the command-line options (CLI11 validators), shared by
// rota's commands: a value out of range, not a number, infinite or NaN is
// a usage error naming the option.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace rota::sim {

// A real number in [lo, hi], either end open if asked; `what` names the range.
CLI::Validator real_in(double lo, double hi, bool open_lo, bool open_hi, const std::string& what);
// An offered load within the simulator's range (run_config.h).
CLI::Validator offered_load();
CLI::Validator nonnegative_real();
// A whole number in [lo, hi]; `what` names the range.
CLI::Validator int_in(long long lo, long long hi, const std::string& what);
CLI::Validator int_at_least(long long lo);

}  // namespace rota::sim
