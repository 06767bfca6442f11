// Which nodes of one row of the matrix are free over time: a step function
// from time to a set of nodes (docs/design.md, "Partitions and node
// constraints"). The row's profile (profile.h) says how many columns are
// free; a machine whose jobs may run only on some nodes (partitions, node
// lists, exclusions) also needs to know which, so that a reservation holds
// nodes its job may use and a backfilled job leaves them alone, the way
// Slurm's backfill plans jobs over node bitmaps.
//
// A set is a bitset over the row's nodes, one bit per node, set when the
// node is free. Each step is a time and the set free from then to the next
// step; the last lasts forever.
#pragma once

#include <cstdint>
#include <vector>

#include "nodes.h"
#include "types.h"

namespace rota {

using NodeBits = std::vector<std::uint64_t>;

// The bitset of `nodes` nodes with the nodes of `runs` set.
NodeBits node_bits(std::int32_t nodes, const std::vector<NodeRun>& runs);

// What a job asks of the nodes: `count` of them, free for `window`, all in
// one of the sets `allowed` (none: any node), none in `excluded` (may be
// null), and every node of `include` among them.
struct NodeWant {
    std::int32_t count = 0;
    Time window = 0;
    std::vector<const NodeBits*> allowed;
    const NodeBits* excluded = nullptr;
    const std::vector<NodeRun>* include = nullptr;
};

class NodeSpace {
  public:
    explicit NodeSpace(std::int32_t nodes);

    // Steps before `now` are past: the step that holds now becomes the first.
    void advance(Time now);
    // The nodes of `runs` are busy (take) or free again (give) over
    // [start, end). Taking a node that is not free is an internal error:
    // the engine's promises would overlap.
    void take(const std::vector<NodeRun>& runs, Time start, Time end);
    void give(const std::vector<NodeRun>& runs, Time start, Time end);

    // The earliest start t in [from, latest] at which `want` holds over
    // [t, t + window), kForever if none; with `pick`, the nodes it would
    // run on there: those of `include`, then the lowest others of the
    // first allowed set (in the order given) that holds it.
    Time earliest(const NodeWant& want, Time from, Time latest,
                  std::vector<NodeRun>* pick = nullptr) const;

    // Whether every node of `runs` is free throughout [start, end).
    bool free_over(const std::vector<NodeRun>& runs, Time start, Time end) const;

    std::int32_t nodes() const { return nodes_; }
    std::size_t steps() const { return steps_.size(); }

  private:
    struct Step {
        Time t;
        NodeBits free;
    };
    std::int32_t nodes_;
    std::size_t words_;
    std::vector<Step> steps_;  // by time; the first from the beginning of time
    mutable NodeBits scratch_, fit_;

    std::size_t split(Time t);       // a step begins at t; its index
    void merge_from(std::size_t i);  // equal neighbours around [i - 1, i + 1] become one
    bool holds(const NodeWant& want, const NodeBits* allowed, Time t, NodeBits& out) const;
};

}  // namespace rota
