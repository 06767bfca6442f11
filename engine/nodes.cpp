#include "nodes.h"

#include <bit>

#include "error.h"

namespace rota {

NodePool::NodePool(std::int32_t nodes)
    : bits_((static_cast<std::size_t>(nodes) + 63) / 64, ~std::uint64_t{0}),
      size_(nodes),
      idle_(nodes) {
    if (nodes % 64 != 0 && !bits_.empty()) bits_.back() = (std::uint64_t{1} << (nodes % 64)) - 1;
}

void NodePool::allocate(std::int32_t count, std::vector<std::int32_t>& out) {
    if (count > idle_) throw Error(Errc::internal, "node pool: not enough idle nodes");
    idle_ -= count;
    for (std::size_t w = first_word_; count > 0; ++w) {
        std::uint64_t word = bits_[w];
        while (word != 0 && count > 0) {
            int b = std::countr_zero(word);
            word &= word - 1;
            out.push_back(static_cast<std::int32_t>(w * 64 + static_cast<std::size_t>(b)));
            --count;
        }
        bits_[w] = word;
        if (word == 0 && w == first_word_) ++first_word_;
    }
}

void NodePool::release(const std::vector<std::int32_t>& nodes) {
    for (std::int32_t n : nodes) {
        std::size_t w = static_cast<std::size_t>(n) / 64;
        bits_[w] |= std::uint64_t{1} << (n % 64);
        if (w < first_word_) first_word_ = w;
    }
    idle_ += static_cast<std::int32_t>(nodes.size());
}

bool NodePool::is_idle(std::int32_t node) const {
    return (bits_[static_cast<std::size_t>(node) / 64] >> (node % 64)) & 1u;
}

void NodePool::idle_nodes(std::vector<std::int32_t>& out) const {
    for (std::int32_t n = 0; n < size_; ++n)
        if (is_idle(n)) out.push_back(n);
}

}  // namespace rota
