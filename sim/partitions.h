// Partitions as the simulator describes them to the engine: named sets of
// the machine's nodes ([[machine.partitions]], docs/config.md), from the
// configuration file or --partitions, and SWF field 16 (partition number)
// read as one of them (docs/workloads.md, "Partitions: field 16").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "swf.h"

namespace rota::sim {

struct PartitionSpec {
    std::string name;
    std::string nodes;  // "0-31,40": runs of node numbers, as the engine reads them
    bool is_default = false;

    bool operator==(const PartitionSpec&) const = default;
};

// The most partitions a machine may have: the engine's limit on
// [[machine.partitions]].
inline constexpr std::size_t kMaxPartitions = 1024;

// --partitions: "small=0-31,big=0-127*": name=nodes items separated by
// commas, where the nodes are a node or a run first-last, several
// separated by commas ("small=0-3,8,big=4-7"); a '*' at the end of an item
// makes the partition a default one (a job of no partition runs there).
// Throws std::invalid_argument naming the item that is wrong: an empty or
// repeated name, a name with a blank, a control character, '=' or '*', a
// run that is not first-last with first <= last, more than kMaxPartitions.
std::vector<PartitionSpec> parse_partitions(const std::string& text);
// Throws std::invalid_argument naming the partition and the node when one
// of its nodes is not on a machine of `procs` nodes (0..procs - 1).
void check_partition_nodes(const std::vector<PartitionSpec>& parts, std::int32_t procs);
// The names SWF field 16's numbers stand for (--partition-names,
// simulator.partition_names): each a partition's name, or several
// separated by commas (a job that may run in any of them, as
// rota_job.partition has it). Throws std::invalid_argument for an empty
// one, a blank or a control character, or more than 255 bytes.
void check_partition_names(const std::vector<std::string>& names);
// "small=0-31,big=0-127*": the flag's form.
std::string format_partitions(const std::vector<PartitionSpec>& parts);

// The partition each job names as SWF field 16 (partition number) names
// it: number p >= 1 is names[p - 1]; -1 (missing) is none. Throws
// std::invalid_argument naming the first job whose number has no name (0,
// or more than there are names); `names_from` says where the names come
// from, for the message.
void check_field16(const std::vector<std::int32_t>& partition, const std::vector<TraceJob>& jobs,
                   const std::vector<std::string>& names, const std::string& names_from);

}  // namespace rota::sim
