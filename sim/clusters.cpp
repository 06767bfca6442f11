#include "clusters.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <charconv>
#include <limits>
#include <stdexcept>

#include "swf.h"  // kMaxMachineProcs

namespace rota::sim {

namespace {

std::int64_t positive(const std::string& part, const std::string& what, std::int64_t max) {
    std::int64_t v = 0;
    auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (ec != std::errc() || ptr != part.data() + part.size() || part.empty())
        throw std::invalid_argument("clusters: " + what + " '" + printable_token(part) +
                                    "' is not a number");
    if (v < 1 || v > max)
        throw std::invalid_argument("clusters: " + what + " must be between 1 and " +
                                    std::to_string(max) + ", not " + part);
    return v;
}

}  // namespace

std::vector<ClusterSpec> parse_clusters(const std::string& text) {
    // Blanks separate too ("20, 20"), but a comma with nothing before or
    // after it is a slip, not a cluster fewer.
    std::string squeezed;
    for (char c : text)
        if (c != ' ' && c != '\t') squeezed += c;
    if (!squeezed.empty() && (squeezed.front() == ',' || squeezed.back() == ',' ||
                              squeezed.find(",,") != std::string::npos))
        throw std::invalid_argument("clusters: an empty item in '" + printable_token(text) + "'");
    std::vector<ClusterSpec> out;
    std::string part;
    auto flush = [&] {
        if (part.empty()) return;
        const auto x = part.find_first_of("xX");
        std::int64_t count = 1, nodes = 0;
        if (x == std::string::npos) {
            nodes = positive(part, "nodes", kMaxMachineProcs);
        } else {
            count = positive(part.substr(0, x), "a cluster count", kMaxClusters);
            nodes = positive(part.substr(x + 1), "nodes", kMaxMachineProcs);
        }
        // The engine's bound, said here in the clusters' terms.
        if (static_cast<std::int64_t>(out.size()) + count > kMaxClusters)
            throw std::invalid_argument("clusters: more than " + std::to_string(kMaxClusters) +
                                        " clusters; a machine has at most " +
                                        std::to_string(kMaxClusters) + " (the engine's limit)");
        for (std::int64_t i = 0; i < count; ++i)
            out.push_back({"", static_cast<std::int32_t>(nodes)});
        part.clear();
    };
    for (char c : text) {
        if (c == ',' || c == ' ' || c == '\t')
            flush();
        else
            part += c;
    }
    flush();
    if (out.empty())
        throw std::invalid_argument("clusters: none given (expected e.g. 5x20 or 20,20,16)");
    // The engine's largest machine: said here, in the clusters' terms, not
    // later as the machine's size.
    if (total_nodes(out) > kMaxMachineProcs)
        throw std::invalid_argument("clusters: " + std::to_string(total_nodes(out)) +
                                    " nodes in all; a machine has at most " +
                                    std::to_string(kMaxMachineProcs));
    return out;
}

std::string format_clusters(const std::vector<ClusterSpec>& cs) {
    std::vector<std::int32_t> n;
    for (const auto& c : cs) n.push_back(c.nodes);
    return fmt::format("{}", fmt::join(n, " "));
}

std::string describe_clusters(const std::vector<ClusterSpec>& cs) {
    bool same = !cs.empty();
    for (const auto& c : cs) same = same && c.nodes == cs.front().nodes;
    if (same) return fmt::format("{}x{}", cs.size(), cs.front().nodes);
    std::vector<std::int32_t> n;
    for (const auto& c : cs) n.push_back(c.nodes);
    return fmt::format("{}", fmt::join(n, ","));
}

std::int64_t total_nodes(const std::vector<ClusterSpec>& cs) {
    std::int64_t n = 0;
    for (const auto& c : cs) n += c.nodes;
    return n;
}

}  // namespace rota::sim
