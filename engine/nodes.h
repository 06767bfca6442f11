// Which nodes (matrix columns) are idle. Jobs get the lowest-numbered idle
// nodes, so allocations are deterministic. Allocations are kept as runs of
// consecutive nodes: a wide job costs a few word operations, not one per
// node.
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
    explicit NodePool(std::int32_t nodes);

    std::int32_t size() const { return size_; }
    std::int32_t idle() const { return idle_; }
    // Appends runs covering the `count` lowest idle nodes; the caller has
    // checked idle().
    void allocate(std::int32_t count, std::vector<NodeRun>& out);
    void release(const std::vector<NodeRun>& runs);
    bool is_idle(std::int32_t node) const;
    void idle_nodes(std::vector<std::int32_t>& out) const;

    static void expand(const std::vector<NodeRun>& runs, std::vector<std::int32_t>& out);

  private:
    std::vector<std::uint64_t> bits_;  // 1 = idle
    std::int32_t size_;
    std::int32_t idle_;
    std::size_t first_word_ = 0;  // no idle node before this word
};

}  // namespace rota
