// A set of nodes (matrix columns) as a bitset, one bit per node, set when
// the node is free. Jobs get the lowest-numbered free nodes, so allocations
// are deterministic, and node sets travel as runs of consecutive nodes: a
// wide job costs a few word operations, not one per node.
#pragma once

#include <cstdint>
#include <vector>

namespace rota {

struct NodeRun {
    std::int32_t first;
    std::int32_t count;
};

class NodePool {
  public:
    explicit NodePool(std::int32_t nodes = 0);

    std::int32_t size() const { return size_; }
    std::int32_t idle() const { return idle_; }
    // Appends runs covering the `count` lowest idle nodes; the caller has
    // checked idle(). lowest() only looks; allocate() also takes them.
    void lowest(std::int32_t count, std::vector<NodeRun>& out) const;
    void allocate(std::int32_t count, std::vector<NodeRun>& out);
    // The same within the nodes [first, end) (a cluster, [Ngubiri07]); the
    // runs appended never merge with runs already in `out`, so each run
    // lies in one cluster. The caller has checked idle_in().
    void allocate_in(std::int32_t first, std::int32_t end, std::int32_t count,
                     std::vector<NodeRun>& out);
    std::int32_t idle_in(std::int32_t first, std::int32_t end) const;
    // The buddy system's choice for `count` nodes (gang.packing = "buddy"):
    // the nodes form a binary tree of aligned blocks over the power of two
    // covering size(), each block clipped to the nodes that exist; of the
    // idle blocks whose parent is not idle (the buddy system's free blocks)
    // that hold `count` nodes, the smallest, the lowest on a tie, is split
    // down to its first block of bit_ceil(count) nodes, clipped. False if
    // no idle block holds `count` nodes.
    bool buddy_block(std::int32_t count, NodeRun& out) const;
    // Whether `r` is a block buddy_block() can give for `count` nodes out
    // of `size`: aligned at a multiple of bit_ceil(count), that long or
    // clipped at `size`, and at least `count` long.
    static bool is_buddy_block(const NodeRun& r, std::int32_t count, std::int32_t size);
    // Marks the nodes of `runs` busy (they must be idle) or idle again.
    void take(const std::vector<NodeRun>& runs);
    void release(const std::vector<NodeRun>& runs);
    bool all_idle(const std::vector<NodeRun>& runs) const;
    bool is_idle(std::int32_t node) const;
    std::int32_t idle_count(const std::vector<NodeRun>& runs) const;  // idle nodes among runs
    // Idle nodes that are busy in `other`, a pool of the same size: a set
    // kept as a pool (its nodes busy) is counted word by word, however
    // many runs it has.
    std::int32_t idle_where_busy(const NodePool& other) const;
    std::int32_t next_busy(std::int32_t from, std::int32_t end) const;  // in [from, end), or end
    void idle_nodes(std::vector<std::int32_t>& out) const;
    void idle_runs(std::vector<NodeRun>& out) const;  // appends the idle nodes as runs
    // Appends as runs the nodes idle here and idle in `other`, a pool of the
    // same size (those outside a set kept as a pool with its nodes busy).
    void idle_runs_where_idle(const NodePool& other, std::vector<NodeRun>& out) const;
    // The same for the nodes idle here and busy in `other` (those of the set).
    void idle_runs_where_busy(const NodePool& other, std::vector<NodeRun>& out) const;

    static void expand(const std::vector<NodeRun>& runs, std::vector<std::int32_t>& out);
    static std::int32_t count(const std::vector<NodeRun>& runs);
    // Appends to `out` the runs of the first `n` nodes of `runs` (all of
    // them if they have fewer); returns how many nodes that is.
    static std::int32_t first(const std::vector<NodeRun>& runs, std::int32_t n,
                              std::vector<NodeRun>& out);

  private:
    std::vector<std::uint64_t> bits_;  // 1 = idle
    std::int32_t size_;
    std::int32_t idle_;
    std::size_t first_word_ = 0;  // no idle node before this word
};

}  // namespace rota
