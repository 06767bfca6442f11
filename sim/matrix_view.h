// Prints the Ousterhout matrix of an engine the way [Zhang00] shows it in
// Figure 7: one line per time slice (row), one column per node, each cell
// J_i^k, the k-th task of job i; '*' marks the active row.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

#include "rota.h"

namespace rota::sim {

// `name_of` turns an engine job id into the id to print (the trace's).
void print_matrix(std::ostream& os, rota_engine* e, const std::string& label, std::int64_t now_us,
                  const std::function<std::int64_t(std::int64_t)>& name_of = {});

}  // namespace rota::sim
