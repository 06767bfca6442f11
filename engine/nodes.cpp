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

namespace {

std::uint64_t ones(int from, int n) {  // bits [from, from + n) of a word
    return (n >= 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << n) - 1)) << from;
}

}  // namespace

void NodePool::allocate(std::int32_t count, std::vector<NodeRun>& out) {
    if (count > idle_) throw Error(Errc::internal, "node pool: not enough idle nodes");
    idle_ -= count;
    for (std::size_t w = first_word_; count > 0; ++w) {
        std::uint64_t word = bits_[w];
        while (word != 0 && count > 0) {
            const int b = std::countr_zero(word);
            const std::uint64_t rest = word >> b;
            const int len = rest == ~std::uint64_t{0} >> b ? 64 - b : std::countr_one(rest);
            const int take = len < count ? len : count;
            word &= ~ones(b, take);
            const auto first = static_cast<std::int32_t>(w * 64 + static_cast<std::size_t>(b));
            if (!out.empty() && out.back().first + out.back().count == first)
                out.back().count += take;
            else
                out.push_back({first, take});
            count -= take;
        }
        bits_[w] = word;
        if (word == 0 && w == first_word_) ++first_word_;
    }
}

void NodePool::release(const std::vector<NodeRun>& runs) {
    for (const NodeRun& r : runs) {
        std::int32_t node = r.first;
        std::int32_t left = r.count;
        const std::size_t w0 = static_cast<std::size_t>(node) / 64;
        if (w0 < first_word_) first_word_ = w0;
        while (left > 0) {
            const std::size_t w = static_cast<std::size_t>(node) / 64;
            const int b = node % 64;
            const int take = left < 64 - b ? left : 64 - b;
            bits_[w] |= ones(b, take);
            node += take;
            left -= take;
        }
        idle_ += r.count;
    }
}

bool NodePool::is_idle(std::int32_t node) const {
    return (bits_[static_cast<std::size_t>(node) / 64] >> (node % 64)) & 1u;
}

void NodePool::idle_nodes(std::vector<std::int32_t>& out) const {
    for (std::int32_t n = 0; n < size_; ++n)
        if (is_idle(n)) out.push_back(n);
}

void NodePool::expand(const std::vector<NodeRun>& runs, std::vector<std::int32_t>& out) {
    for (const NodeRun& r : runs)
        for (std::int32_t k = 0; k < r.count; ++k) out.push_back(r.first + k);
}

}  // namespace rota
