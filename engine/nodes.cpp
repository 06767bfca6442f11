#include "nodes.h"

#include <algorithm>
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

void push_run(std::vector<NodeRun>& out, std::int32_t first, std::int32_t n) {
    if (!out.empty() && out.back().first + out.back().count == first)
        out.back().count += n;
    else
        out.push_back({first, n});
}

// Calls f(word index, mask) for the bits of a run.
template <class F>
void for_each_word(const NodeRun& r, F&& f) {
    std::int32_t node = r.first;
    std::int32_t left = r.count;
    while (left > 0) {
        const std::size_t w = static_cast<std::size_t>(node) / 64;
        const int b = node % 64;
        const int take = left < 64 - b ? left : 64 - b;
        f(w, ones(b, take));
        node += take;
        left -= take;
    }
}

template <class F>
void for_each_word(const std::vector<NodeRun>& runs, F&& f) {
    for (const NodeRun& r : runs) for_each_word(r, f);
}

// The lowest `count` idle nodes of `bits` from word `w` on, appended to out
// as runs; done(w, rest) gets each word visited with those nodes cleared.
template <class Done>
void take_lowest(const std::vector<std::uint64_t>& bits, std::size_t w, std::int32_t count,
                 std::vector<NodeRun>& out, Done&& done) {
    for (; count > 0; ++w) {
        std::uint64_t word = bits[w];
        while (word != 0 && count > 0) {
            const int b = std::countr_zero(word);
            const std::uint64_t rest = word >> b;
            const int len = rest == ~std::uint64_t{0} >> b ? 64 - b : std::countr_one(rest);
            const int take = len < count ? len : count;
            word &= ~ones(b, take);
            push_run(out, static_cast<std::int32_t>(w * 64 + static_cast<std::size_t>(b)), take);
            count -= take;
        }
        done(w, word);
    }
}

}  // namespace

void NodePool::lowest(std::int32_t count, std::vector<NodeRun>& out) const {
    if (count > idle_) throw Error(Errc::internal, "node pool: not enough idle nodes");
    take_lowest(bits_, first_word_, count, out, [](std::size_t, std::uint64_t) {});
}

// One pass that clears the bits as it finds them: a start's hot path.
void NodePool::allocate(std::int32_t count, std::vector<NodeRun>& out) {
    if (count > idle_) throw Error(Errc::internal, "node pool: not enough idle nodes");
    idle_ -= count;
    take_lowest(bits_, first_word_, count, out,
                [this](std::size_t w, std::uint64_t rest) { bits_[w] = rest; });
    while (first_word_ < bits_.size() && bits_[first_word_] == 0) ++first_word_;
}

std::int32_t NodePool::idle_in(std::int32_t first, std::int32_t end) const {
    std::int32_t n = 0;
    if (first < end)
        for_each_word(NodeRun{first, end - first},
                      [&](std::size_t w, std::uint64_t m) { n += std::popcount(bits_[w] & m); });
    return n;
}

bool NodePool::buddy_block(std::int32_t count, NodeRun& out) const {
    if (count <= 0 || count > idle_) return false;
    const auto p = static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint32_t>(count)));
    const auto top = static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint32_t>(size_)));
    std::int64_t best = 0;  // the size of the chosen free block, 0: none yet
    // Depth first, lower half first: a later block of the same size is
    // never preferred. A block stops the descent when it is idle (it is a
    // free block: its parent was not idle) or has too few idle nodes.
    auto visit = [&](auto& self, std::int64_t first, std::int64_t size) -> void {
        if (best == p || first >= size_) return;  // nothing smaller than p holds it
        const auto clipped = static_cast<std::int32_t>(std::min<std::int64_t>(size, size_ - first));
        if (clipped < count) return;
        const auto lo = static_cast<std::int32_t>(first);
        const std::int32_t idle = idle_in(lo, lo + clipped);
        if (idle < count) return;
        if (idle == clipped) {
            if (best == 0 || size < best) {
                best = size;
                out = {lo, clipped};
            }
            return;
        }
        if (size == p) return;  // partly busy and no smaller block holds the job
        self(self, first, size / 2);
        self(self, first + size / 2, size / 2);
    };
    visit(visit, 0, top);
    if (best == 0) return false;
    out.count = static_cast<std::int32_t>(std::min<std::int64_t>(p, out.count));
    return true;
}

bool NodePool::is_buddy_block(const NodeRun& r, std::int32_t count, std::int32_t size) {
    if (count <= 0 || r.first < 0 || r.count < count || r.first > size - r.count) return false;
    const auto p = static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint32_t>(count)));
    return r.first % p == 0 && r.count == std::min<std::int64_t>(p, size - r.first);
}

void NodePool::allocate_in(std::int32_t first, std::int32_t end, std::int32_t count,
                           std::vector<NodeRun>& out) {
    const std::size_t from = out.size();
    std::int32_t left = count;
    if (first < end)
        for_each_word(NodeRun{first, end - first}, [&](std::size_t w, std::uint64_t m) {
            std::uint64_t word = bits_[w] & m;
            while (word != 0 && left > 0) {
                const int b = std::countr_zero(word);
                const std::uint64_t rest = word >> b;
                const int len = rest == ~std::uint64_t{0} >> b ? 64 - b : std::countr_one(rest);
                const int take = len < left ? len : left;
                word &= ~ones(b, take);
                bits_[w] &= ~ones(b, take);
                const auto node = static_cast<std::int32_t>(w * 64 + static_cast<std::size_t>(b));
                if (out.size() > from && out.back().first + out.back().count == node)
                    out.back().count += take;
                else
                    out.push_back({node, take});
                left -= take;
            }
        });
    if (left > 0) throw Error(Errc::internal, "node pool: not enough idle nodes in the range");
    idle_ -= count;
    while (first_word_ < bits_.size() && bits_[first_word_] == 0) ++first_word_;
}

void NodePool::take(const std::vector<NodeRun>& runs) {
    for_each_word(runs, [&](std::size_t w, std::uint64_t m) {
        if ((bits_[w] & m) != m) throw Error(Errc::internal, "node pool: a node is taken twice");
        bits_[w] &= ~m;
    });
    idle_ -= count(runs);
    while (first_word_ < bits_.size() && bits_[first_word_] == 0) ++first_word_;
}

void NodePool::release(const std::vector<NodeRun>& runs) {
    for_each_word(runs, [&](std::size_t w, std::uint64_t m) {
        if ((bits_[w] & m) != 0) throw Error(Errc::internal, "node pool: a node is freed twice");
        bits_[w] |= m;
        if (w < first_word_) first_word_ = w;
    });
    idle_ += count(runs);
}

bool NodePool::all_idle(const std::vector<NodeRun>& runs) const {
    bool ok = true;
    for_each_word(runs, [&](std::size_t w, std::uint64_t m) { ok = ok && (bits_[w] & m) == m; });
    return ok;
}

bool NodePool::is_idle(std::int32_t node) const {
    return (bits_[static_cast<std::size_t>(node) / 64] >> (node % 64)) & 1u;
}

std::int32_t NodePool::idle_count(const std::vector<NodeRun>& runs) const {
    std::int32_t n = 0;
    for_each_word(runs, [&](std::size_t w, std::uint64_t m) { n += std::popcount(bits_[w] & m); });
    return n;
}

std::int32_t NodePool::idle_where_busy(const NodePool& other) const {
    std::int32_t n = 0;
    for (std::size_t w = first_word_; w < bits_.size(); ++w)
        if (const std::uint64_t m = bits_[w] & ~other.bits_[w]) n += std::popcount(m);
    return n;
}

std::int32_t NodePool::next_busy(std::int32_t from, std::int32_t end) const {
    while (from < end) {
        const std::size_t w = static_cast<std::size_t>(from) / 64;
        const int b = from % 64;
        const std::uint64_t busy = ~bits_[w] >> b;
        if (busy != 0) return std::min(end, from + std::countr_zero(busy));
        from += 64 - b;
    }
    return end;
}

void NodePool::idle_runs(std::vector<NodeRun>& out) const {
    for (std::size_t w = first_word_; w < bits_.size(); ++w) {
        std::uint64_t word = bits_[w];
        while (word != 0) {
            const int b = std::countr_zero(word);
            const std::uint64_t rest = word >> b;
            const int len = rest == ~std::uint64_t{0} >> b ? 64 - b : std::countr_one(rest);
            push_run(out, static_cast<std::int32_t>(w * 64 + static_cast<std::size_t>(b)), len);
            word &= ~ones(b, len);
        }
    }
}

namespace {

// Appends the set bits of the words f(w), w from `from` on, as runs.
template <class F>
void runs_of(std::size_t from, std::size_t words, F f, std::vector<NodeRun>& out) {
    for (std::size_t w = from; w < words; ++w) {
        std::uint64_t word = f(w);
        while (word != 0) {
            const int b = std::countr_zero(word);
            const std::uint64_t rest = word >> b;
            const int len = rest == ~std::uint64_t{0} >> b ? 64 - b : std::countr_one(rest);
            push_run(out, static_cast<std::int32_t>(w * 64 + static_cast<std::size_t>(b)), len);
            word &= ~ones(b, len);
        }
    }
}

}  // namespace

void NodePool::idle_runs_where_idle(const NodePool& other, std::vector<NodeRun>& out) const {
    runs_of(
        first_word_, bits_.size(), [&](std::size_t w) { return bits_[w] & other.bits_[w]; }, out);
}

void NodePool::idle_runs_where_busy(const NodePool& other, std::vector<NodeRun>& out) const {
    runs_of(
        first_word_, bits_.size(), [&](std::size_t w) { return bits_[w] & ~other.bits_[w]; }, out);
}

void NodePool::idle_nodes(std::vector<std::int32_t>& out) const {
    for (std::size_t w = first_word_; w < bits_.size(); ++w) {
        std::uint64_t word = bits_[w];
        while (word != 0) {
            const int b = std::countr_zero(word);
            out.push_back(static_cast<std::int32_t>(w * 64 + static_cast<std::size_t>(b)));
            word &= word - 1;
        }
    }
}

void NodePool::expand(const std::vector<NodeRun>& runs, std::vector<std::int32_t>& out) {
    for (const NodeRun& r : runs)
        for (std::int32_t k = 0; k < r.count; ++k) out.push_back(r.first + k);
}

std::int32_t NodePool::first(const std::vector<NodeRun>& runs, std::int32_t n,
                             std::vector<NodeRun>& out) {
    std::int32_t left = n;
    for (const NodeRun& r : runs) {
        if (left <= 0) break;
        out.push_back({r.first, std::min(r.count, left)});
        left -= out.back().count;
    }
    return n - std::max(left, 0);
}

std::int32_t NodePool::count(const std::vector<NodeRun>& runs) {
    std::int32_t n = 0;
    for (const NodeRun& r : runs) n += r.count;
    return n;
}

}  // namespace rota
