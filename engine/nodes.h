// Which nodes (matrix columns) are idle. Jobs get the lowest-numbered idle
// nodes, so allocations are deterministic.
#pragma once

#include <cstdint>
#include <vector>

namespace rota {

class NodePool {
public:
    explicit NodePool(std::int32_t nodes);

    std::int32_t size() const { return size_; }
    std::int32_t idle() const { return idle_; }
    // Appends `count` idle node numbers to `out`; the caller has checked idle().
    void allocate(std::int32_t count, std::vector<std::int32_t>& out);
    void release(const std::vector<std::int32_t>& nodes);
    bool is_idle(std::int32_t node) const;
    void idle_nodes(std::vector<std::int32_t>& out) const;

private:
    std::vector<std::uint64_t> bits_;  // 1 = idle
    std::int32_t size_;
    std::int32_t idle_;
    std::size_t first_word_ = 0;  // no idle node before this word
};

}  // namespace rota
