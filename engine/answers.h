// The one place where hook answers are checked, whoever gave them (a Lua
// script, a C callback): sizes, index ranges, duplicates, reasons, finite
// keys, option numbers. Each returns "" for a valid answer, or what is
// wrong with it. Messages count from 1 (candidate index 0 of a C policy is
// "index 1"), as Lua does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "policy.h"

namespace rota {

// A number as an error message shows it, whoever read it (a script's
// answer, a C callback's): 14 significant digits, so that 0.1 reads 0.1
// and 2^53 in full; NaN by name.
std::string number_text(double v);

std::string check_admission(const std::vector<Admission>& a, std::size_t jobs);
std::string check_keys(const std::vector<double>& keys, std::size_t jobs);
// `seen` is scratch kept by the caller so that no call allocates. Messages
// count indices from `first`, as the policy that answered does (Lua 1, C 0).
std::string check_picks(const std::vector<std::int64_t>& picks, std::size_t candidates,
                        std::vector<std::uint8_t>& seen, std::int64_t first = 1);
std::string check_options(const std::vector<std::int64_t>& options, std::size_t moves);
// A cluster in 0..clusters-1 for every component of every job, distinct
// within a job (whether they have room is the engine's to check).
std::string check_placement(const std::vector<std::int64_t>& a, const JobBatch& jobs,
                            std::int32_t clusters);

// [Weissman03]: a harvest takes 0..procs-min from each victim and exactly
// `needed` in all (an empty answer, "cannot", is valid too); a
// distribution gives each running job 0..ideal-procs, each queued job 0 or
// min..ideal, at most `avail` in all.
std::string check_harvest(const std::vector<std::int64_t>& take, const MalleableBatch& victims,
                          std::int64_t needed);
std::string check_distribution(const std::vector<std::int64_t>& give, const MalleableBatch& jobs,
                               std::int64_t avail);

// [Feitelson97]: one set index in 0..sets-1, or nothing (no reservation).
std::string check_preempt(const std::vector<std::int64_t>& pick, std::size_t sets);

// The failure of a call whose answer `why` rejected, naming hook and source.
HookOutcome invalid_answer(Hook h, const Policy& p, const std::string& why);

}  // namespace rota
