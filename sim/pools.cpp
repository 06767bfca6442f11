#include "pools.h"

#include <fmt/format.h>

#include <charconv>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "small_file.h"
#include "swf.h"  // printable_token

namespace rota::sim {

std::vector<double> PoolDemands::shares(std::size_t j, std::int32_t procs,
                                        std::int32_t machine_procs) const {
    std::vector<double> r;
    r.reserve(1 + pools.size());
    r.push_back(machine_procs > 0 ? static_cast<double>(procs) / machine_procs : 0.0);
    for (std::size_t k = 0; k < pools.size(); ++k)
        r.push_back(static_cast<double>(at(j, k)) / static_cast<double>(pools[k].capacity));
    return r;
}

double PoolDemands::mean_share(std::size_t j, std::int32_t procs,
                               std::int32_t machine_procs) const {
    double sum = machine_procs > 0 ? static_cast<double>(procs) / machine_procs : 0.0;
    for (std::size_t k = 0; k < pools.size(); ++k)
        sum += static_cast<double>(at(j, k)) / static_cast<double>(pools[k].capacity);
    return sum / static_cast<double>(1 + pools.size());
}

std::int64_t parse_amount(const std::string& text, const std::string& what) {
    std::string s = text;
    std::int64_t mult = 1;
    if (!s.empty()) {
        switch (s.back()) {
            case 'K':
            case 'k':
                mult = 1;
                break;
            case 'M':
            case 'm':
                mult = std::int64_t{1} << 10;
                break;
            case 'G':
            case 'g':
                mult = std::int64_t{1} << 20;
                break;
            case 'T':
            case 't':
                mult = std::int64_t{1} << 30;
                break;
            default:
                mult = 0;
        }
        if (mult != 0)
            s.pop_back();
        else
            mult = 1;
    }
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || p != s.data() + s.size())
        throw std::invalid_argument(what + ": '" + printable_token(text) +
                                    "' is not a positive integer (optionally with K, M, G or T)");
    if (v <= 0)
        throw std::invalid_argument(what + ": '" + printable_token(text) + "' must be positive");
    if (v > std::numeric_limits<std::int64_t>::max() / mult)
        throw std::invalid_argument(what + ": '" + printable_token(text) + "' is out of range");
    return v * mult;
}

PoolSpec parse_pool_spec(const std::string& text) {
    auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        throw std::invalid_argument("pool '" + printable_token(text) +
                                    "': expected name=capacity, e.g. memory=32G");
    PoolSpec p;
    p.name = text.substr(0, eq);
    for (char c : p.name)
        if (c == ' ' || c == '\t' || c == '=')
            throw std::invalid_argument("pool '" + printable_token(text) +
                                        "': the name may not hold blanks");
    p.capacity =
        parse_amount(text.substr(eq + 1), "pool '" + printable_token(p.name) + "' capacity");
    return p;
}

void merge_pools(PoolDemands& w, std::size_t njobs, const std::vector<PoolSpec>& machine,
                 std::vector<std::string>* unused) {
    for (std::size_t a = 0; a < machine.size(); ++a)
        for (std::size_t b = a + 1; b < machine.size(); ++b)
            if (machine[a].name == machine[b].name)
                throw std::invalid_argument("pool '" + machine[a].name + "' is given twice");
    std::vector<PoolSpec> pools = machine;
    // where[k]: the index in w.pools of final pool k, or -1 (no demand)
    std::vector<std::ptrdiff_t> where;
    for (const auto& p : machine) {
        std::ptrdiff_t at = -1;
        for (std::size_t k = 0; k < w.pools.size(); ++k)
            if (w.pools[k].name == p.name) at = static_cast<std::ptrdiff_t>(k);
        if (at < 0 && unused) unused->push_back(p.name);
        where.push_back(at);
    }
    for (std::size_t k = 0; k < w.pools.size(); ++k) {
        bool named = false;
        for (const auto& p : machine) named = named || p.name == w.pools[k].name;
        if (named) continue;
        pools.push_back(w.pools[k]);
        where.push_back(static_cast<std::ptrdiff_t>(k));
    }
    if (pools == w.pools) return;
    std::vector<std::int64_t> demand(njobs * pools.size(), 0);
    for (std::size_t j = 0; j < njobs; ++j)
        for (std::size_t k = 0; k < pools.size(); ++k)
            if (where[k] >= 0)
                demand[j * pools.size() + k] = w.at(j, static_cast<std::size_t>(where[k]));
    w.pools = std::move(pools);
    w.demand = std::move(demand);
}

std::vector<std::int64_t> over_capacity(const PoolDemands& w, std::size_t njobs) {
    std::vector<std::int64_t> n(w.count(), 0);
    for (std::size_t j = 0; j < njobs; ++j)
        for (std::size_t k = 0; k < w.count(); ++k)
            if (w.at(j, k) > w.pools[k].capacity) ++n[k];
    return n;
}

std::optional<MachinesFile> read_machines_file(const std::string& trace_path) {
    if (trace_path == "-") return std::nullopt;  // standard input has nothing beside it
    MachinesFile m;
    m.path = trace_path + ".machines";
    const std::optional<std::string> text =
        read_small_file(m.path, "machines file", kMaxMachinesFileBytes, true);
    if (!text) return std::nullopt;
    const auto bad = [&m](int lineno, const std::string& why) {
        return std::runtime_error(fmt::format("{}:{}: {}", m.path, lineno, why));
    };
    const auto whole = [&bad](int lineno, std::string_view tok, const char* what) {
        std::int64_t v = 0;
        const auto [p, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
        if (ec != std::errc() || p != tok.data() + tok.size() || v <= 0)
            throw bad(lineno, fmt::format("{} '{}' is not a positive whole number", what,
                                          printable_token(tok)));
        return v;
    };
    std::istringstream in(*text);
    std::string line;
    int lineno = 0;
    while (std::getline(in, line)) {
        ++lineno;
        std::size_t i = line.find_first_not_of(" \t\r");
        if (i == std::string::npos || line[i] == '#' || line[i] == ';') continue;
        std::vector<std::string_view> tok;
        for (std::size_t at = i; at < line.size();) {
            const std::size_t end = std::min(line.find_first_of(" \t\r", at), line.size());
            tok.emplace_back(line.data() + at, end - at);
            at = std::min(line.find_first_not_of(" \t\r", end), line.size());
        }
        if (tok.size() < 6)
            throw bad(lineno, fmt::format("{} columns; expected 'id name nodes cpus_per_node _ "
                                          "ram_per_node_kb'",
                                          tok.size()));
        const std::int64_t nodes = whole(lineno, tok[2], "nodes");
        const std::int64_t cpus = whole(lineno, tok[3], "CPUs per node");
        const std::int64_t ram = whole(lineno, tok[5], "RAM per node (KB)");
        std::int64_t line_cpus = 0, line_ram = 0;
        if (__builtin_mul_overflow(nodes, cpus, &line_cpus))
            throw bad(lineno, fmt::format("{} nodes of {} CPUs is more than a count can hold",
                                          nodes, cpus));
        if (__builtin_mul_overflow(nodes, ram, &line_ram))
            throw bad(lineno,
                      fmt::format("{} nodes of {} KB is more than a count can hold", nodes, ram));
        if (__builtin_add_overflow(m.cpus, line_cpus, &m.cpus) ||
            __builtin_add_overflow(m.memory_kb, line_ram, &m.memory_kb))
            throw bad(lineno,
                      "the total of the CPUs or of the RAM so far passes what a count can hold");
        if (__builtin_add_overflow(m.nodes, nodes, &m.nodes))
            throw bad(lineno, "more nodes than a count can hold");
        ++m.clusters;
    }
    if (m.clusters == 0) throw std::runtime_error(m.path + ": no cluster described");
    return m;
}

}  // namespace rota::sim
