#include "partitions.h"

#include <charconv>
#include <stdexcept>

namespace rota::sim {

namespace {

[[noreturn]] void bad(const std::string& what) {
    throw std::invalid_argument(what);
}

// A node number of a run: digits only, at most the largest machine's.
std::int64_t node_number(const std::string& part, const std::string& item) {
    std::int64_t v = -1;
    auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || ec != std::errc() || ptr != part.data() + part.size() || v < 0)
        bad("in '" + printable_token(item) + "': '" + printable_token(part) +
            "' is not a node number (a node is a number from 0, a run first-last)");
    if (v >= kMaxMachineProcs)
        bad("in '" + printable_token(item) + "': node " + part + " is past the largest machine (" +
            std::to_string(kMaxMachineProcs) + " nodes)");
    return v;
}

// Checks a run "first-last" or a node "n" of `item`.
void check_run(const std::string& run, const std::string& item) {
    const auto dash = run.find('-');
    if (dash == std::string::npos) {
        node_number(run, item);
        return;
    }
    const std::int64_t first = node_number(run.substr(0, dash), item);
    const std::int64_t last = node_number(run.substr(dash + 1), item);
    if (first > last) bad("in '" + printable_token(item) + "': the run " + run + " goes backwards");
}

}  // namespace

std::vector<PartitionSpec> parse_partitions(const std::string& text) {
    if (text.empty()) bad("none given (expected e.g. small=0-31,big=0-127*)");
    // Items start at a token holding '='; a token without one continues the
    // previous item's nodes ("small=0-3,8").
    std::vector<std::string> items;
    std::string token;
    auto flush = [&] {
        if (token.empty())
            bad("an empty item in '" + printable_token(text) +
                "' (expected e.g. small=0-31,big=0-127*)");
        if (token.find('=') != std::string::npos || items.empty())
            items.push_back(token);
        else
            items.back() += "," + token;
        token.clear();
    };
    // Blanks around an item, its name, '=' or a run are dropped
    // ("small = 0-31, big=0-127*"); one inside a name or a number is an
    // error, not a name run together.
    auto trim = [](std::string s) {
        const auto first = s.find_first_not_of(" \t");
        if (first == std::string::npos) return std::string();
        return s.substr(first, s.find_last_not_of(" \t") - first + 1);
    };
    auto end_token = [&] {
        token = trim(token);
        if (const auto eq = token.find('='); eq != std::string::npos)
            token = trim(token.substr(0, eq)) + "=" + trim(token.substr(eq + 1));
        flush();
    };
    for (char c : text) {
        if (c == ',')
            end_token();
        else
            token += c;
    }
    end_token();
    std::vector<PartitionSpec> out;
    for (const std::string& item : items) {
        const auto eq = item.find('=');
        if (eq == std::string::npos)
            bad("'" + printable_token(item) + "' is not name=nodes (e.g. small=0-31)");
        PartitionSpec p;
        p.name = item.substr(0, eq);
        p.nodes = item.substr(eq + 1);
        if (!p.nodes.empty() && p.nodes.back() == '*') {
            p.is_default = true;
            p.nodes.pop_back();
        }
        if (p.name.empty()) bad("'" + printable_token(item) + "' has no name before '='");
        for (unsigned char c : p.name)
            if (c < 0x20 || c == 0x7f || c == ' ' || c == '*')
                bad("the name '" + printable_token(p.name) +
                    "' holds a blank, a control character or '*'");
        if (p.name.size() > 255)
            bad("the name '" + printable_token(p.name) + "' is longer than 255 bytes");
        if (p.nodes.empty()) bad("'" + printable_token(item) + "' names no node after '='");
        std::string run;
        for (std::size_t k = 0; k <= p.nodes.size(); ++k) {
            if (k == p.nodes.size() || p.nodes[k] == ',') {
                if (run.empty()) bad("an empty run in '" + printable_token(item) + "'");
                check_run(run, item);
                run.clear();
            } else {
                run += p.nodes[k];
            }
        }
        for (const auto& q : out)
            if (q.name == p.name) bad("partition '" + printable_token(p.name) + "' is given twice");
        out.push_back(std::move(p));
        if (out.size() > kMaxPartitions)
            bad("more than " + std::to_string(kMaxPartitions) +
                " partitions; a machine has at most " + std::to_string(kMaxPartitions) +
                " (the engine's limit)");
    }
    return out;
}

void check_partition_nodes(const std::vector<PartitionSpec>& parts, std::int32_t procs) {
    for (const auto& p : parts) {
        std::string run;
        for (std::size_t k = 0; k <= p.nodes.size(); ++k) {
            if (k < p.nodes.size() && p.nodes[k] != ',') {
                run += p.nodes[k];
                continue;
            }
            const auto dash = run.find('-');
            const std::string last = dash == std::string::npos ? run : run.substr(dash + 1);
            if (std::stoll(last) >= procs)
                bad("partition '" + printable_token(p.name) + "': node " + last +
                    " is outside the machine's nodes 0.." + std::to_string(procs - 1));
            run.clear();
        }
    }
}

void check_partition_names(const std::vector<std::string>& names) {
    if (names.empty()) bad("no name given");
    for (std::size_t k = 0; k < names.size(); ++k) {
        const std::string& n = names[k];
        const std::string which =
            "name " + std::to_string(k + 1) + " (field 16 = " + std::to_string(k + 1) + ")";
        if (n.empty() || n.front() == ',' || n.back() == ',' || n.find(",,") != std::string::npos)
            bad(which + " is empty, or holds an empty name between commas");
        for (unsigned char c : n)
            if (c < 0x20 || c == 0x7f || c == ' ')
                bad(which + " '" + printable_token(n) + "' holds a blank or a control character");
        if (n.size() > 255) bad(which + " is longer than 255 bytes");
    }
}

std::string format_partitions(const std::vector<PartitionSpec>& parts) {
    std::string s;
    for (const auto& p : parts)
        s += (s.empty() ? "" : ",") + p.name + "=" + p.nodes + (p.is_default ? "*" : "");
    return s;
}

void check_field16(const std::vector<std::int32_t>& partition, const std::vector<TraceJob>& jobs,
                   const std::vector<std::string>& names, const std::string& names_from) {
    for (std::size_t i = 0; i < partition.size() && i < jobs.size(); ++i) {
        const std::int32_t p = partition[i];
        if (p < 0 || (p >= 1 && static_cast<std::size_t>(p) <= names.size())) continue;
        std::string have;
        for (std::size_t k = 0; k < names.size() && k < 8; ++k)
            have += (k == 0 ? "" : ", ") + std::to_string(k + 1) + " = '" +
                    printable_token(names[k]) + "'";
        if (names.size() > 8) have += ", ...";
        throw std::invalid_argument("job " + std::to_string(jobs[i].id) +
                                    ": SWF field 16 (partition number) is " + std::to_string(p) +
                                    ", which names no partition: the numbers count from 1 in " +
                                    names_from + " (" + have + ")");
    }
}

}  // namespace rota::sim
