// A multi-cluster machine as the simulator describes it to the engine
// ([Ngubiri07] §2.1): clusters of nodes, one queue and one scheduler over
// them. The engine holds them as [[machine.clusters]] (docs/config.md);
// the simulator takes them from --clusters, the configuration file or a
// workload's "; Clusters:" header line, in that order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rota::sim {

struct ClusterSpec {
    std::string name;  // may be empty
    std::int32_t nodes = 0;

    bool operator==(const ClusterSpec&) const = default;
};

// The most clusters a machine may have: the engine's limit on
// [[machine.clusters]] (docs/config.md).
inline constexpr std::int64_t kMaxClusters = 256;

// "5x20" (five clusters of 20 nodes), "20,20,16", "2x20,16", or the same
// separated by spaces ("20 20 16", as the SWF header writes it). Throws
// std::invalid_argument naming the part that is wrong, and for more than
// kMaxClusters clusters.
std::vector<ClusterSpec> parse_clusters(const std::string& text);
// "20 20 16": the header form.
std::string format_clusters(const std::vector<ClusterSpec>&);
// "5x20" when all clusters have the same nodes, else "20,20,16".
std::string describe_clusters(const std::vector<ClusterSpec>&);
std::int64_t total_nodes(const std::vector<ClusterSpec>&);

}  // namespace rota::sim
