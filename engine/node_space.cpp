#include "node_space.h"

#include <algorithm>
#include <bit>

#include "error.h"

namespace rota {

namespace {

constexpr std::size_t kBits = 64;

std::size_t words_for(std::int32_t nodes) {
    return (static_cast<std::size_t>(nodes) + kBits - 1) / kBits;
}

// Calls f(word index, mask) for the words a run covers.
template <class F>
void each_word(const NodeRun& r, F&& f) {
    std::size_t n = static_cast<std::size_t>(r.first);
    const std::size_t end = n + static_cast<std::size_t>(r.count);
    while (n < end) {
        const std::size_t w = n / kBits, lo = n % kBits;
        const std::size_t hi = std::min<std::size_t>(kBits, lo + (end - n));
        const std::uint64_t mask =
            (hi - lo == kBits ? ~std::uint64_t{0} : ((std::uint64_t{1} << (hi - lo)) - 1)) << lo;
        f(w, mask);
        n += hi - lo;
    }
}

std::int64_t popcount(const NodeBits& b) {
    std::int64_t n = 0;
    for (std::uint64_t w : b) n += std::popcount(w);
    return n;
}

}  // namespace

NodeBits node_bits(std::int32_t nodes, const std::vector<NodeRun>& runs) {
    NodeBits b(words_for(nodes), 0);
    for (const NodeRun& r : runs) each_word(r, [&](std::size_t w, std::uint64_t m) { b[w] |= m; });
    return b;
}

NodeSpace::NodeSpace(std::int32_t nodes) : nodes_(nodes), words_(words_for(nodes)) {
    steps_.push_back({kNoTime, node_bits(nodes, {NodeRun{0, nodes}})});
}

void NodeSpace::advance(Time now) {
    const auto it = std::upper_bound(steps_.begin(), steps_.end(), now,
                                     [](Time t, const Step& s) { return t < s.t; });
    if (it - steps_.begin() > 1) steps_.erase(steps_.begin(), it - 1);
}

std::size_t NodeSpace::split(Time t) {
    const auto it = std::upper_bound(steps_.begin(), steps_.end(), t,
                                     [](Time x, const Step& s) { return x < s.t; });
    const std::size_t i = static_cast<std::size_t>(it - steps_.begin());
    if (steps_[i - 1].t == t) return i - 1;
    steps_.insert(steps_.begin() + static_cast<std::ptrdiff_t>(i), Step{t, steps_[i - 1].free});
    return i;
}

void NodeSpace::merge_from(std::size_t i) {
    // A step equal to the one before it says nothing: drop it.
    const std::size_t from = i > 0 ? i : 1;
    std::size_t out = from;
    for (std::size_t k = from; k < steps_.size(); ++k) {
        if (steps_[k].free == steps_[out - 1].free) continue;
        if (out != k) steps_[out] = std::move(steps_[k]);
        ++out;
    }
    steps_.resize(out);
}

void NodeSpace::take(const std::vector<NodeRun>& runs, Time start, Time end) {
    if (start >= end || runs.empty()) return;
    const std::size_t a = split(start), b = split(end);
    for (std::size_t k = a; k < b; ++k)
        for (const NodeRun& r : runs)
            each_word(r, [&](std::size_t w, std::uint64_t m) {
                if ((steps_[k].free[w] & m) != m)
                    throw Error(Errc::internal, "node space: a node is promised twice");
                steps_[k].free[w] &= ~m;
            });
    merge_from(a);
}

void NodeSpace::give(const std::vector<NodeRun>& runs, Time start, Time end) {
    if (start >= end || runs.empty()) return;
    const std::size_t a = split(start), b = split(end);
    for (std::size_t k = a; k < b; ++k)
        for (const NodeRun& r : runs)
            each_word(r, [&](std::size_t w, std::uint64_t m) { steps_[k].free[w] |= m; });
    merge_from(a);
}

// The nodes free throughout [t, t + window) that `want` may use within
// `allowed` (null: any node) into `out`; whether they hold it.
bool NodeSpace::holds(const NodeWant& want, const NodeBits* allowed, Time t, NodeBits& out) const {
    if (allowed)
        out = *allowed;
    else
        out.assign(words_, ~std::uint64_t{0});  // the steps clear the bits past the last node
    if (want.excluded)
        for (std::size_t w = 0; w < words_; ++w) out[w] &= ~(*want.excluded)[w];
    auto it = std::upper_bound(steps_.begin(), steps_.end(), t,
                               [](Time x, const Step& s) { return x < s.t; }) -
              1;
    const Time end = t + want.window;
    for (; it != steps_.end() && it->t < end; ++it)
        for (std::size_t w = 0; w < words_; ++w) out[w] &= it->free[w];
    if (want.include)
        for (const NodeRun& r : *want.include) {
            bool all = true;
            each_word(r, [&](std::size_t w, std::uint64_t m) { all = all && (out[w] & m) == m; });
            if (!all) return false;
        }
    return popcount(out) >= want.count;
}

bool NodeSpace::free_over(const std::vector<NodeRun>& runs, Time start, Time end) const {
    auto it = std::upper_bound(steps_.begin(), steps_.end(), start,
                               [](Time x, const Step& s) { return x < s.t; }) -
              1;
    for (; it != steps_.end() && it->t < end; ++it)
        for (const NodeRun& r : runs) {
            bool all = true;
            each_word(r,
                      [&](std::size_t w, std::uint64_t m) { all = all && (it->free[w] & m) == m; });
            if (!all) return false;
        }
    return true;
}

Time NodeSpace::earliest(const NodeWant& want, Time from, Time latest,
                         std::vector<NodeRun>* pick) const {
    if (want.count > nodes_ || want.count <= 0) return kForever;
    static const std::vector<const NodeBits*> anywhere{nullptr};
    const auto& sets = want.allowed.empty() ? anywhere : want.allowed;
    // A window can only start to hold where the row gains a node: from
    // itself, and each later step.
    auto next = std::upper_bound(steps_.begin(), steps_.end(), from,
                                 [](Time x, const Step& s) { return x < s.t; });
    for (Time t = from; t <= latest;) {
        for (const NodeBits* allowed : sets) {
            if (!holds(want, allowed, t, fit_)) continue;
            if (pick) {
                pick->clear();
                NodeBits chosen(words_, 0);
                std::int32_t left = want.count;
                if (want.include)
                    for (const NodeRun& r : *want.include) {
                        each_word(r, [&](std::size_t w, std::uint64_t m) { chosen[w] |= m; });
                        left -= r.count;
                    }
                for (std::size_t w = 0; w < words_ && left > 0; ++w) {
                    std::uint64_t avail = fit_[w] & ~chosen[w];
                    while (avail && left > 0) {
                        chosen[w] |= avail & (~avail + 1);  // the lowest
                        avail &= avail - 1;
                        --left;
                    }
                }
                for (std::int32_t n = 0; n < nodes_; ++n) {
                    if (!((chosen[static_cast<std::size_t>(n) / kBits] >>
                           (static_cast<std::size_t>(n) % kBits)) &
                          1u))
                        continue;
                    if (!pick->empty() && pick->back().first + pick->back().count == n)
                        ++pick->back().count;
                    else
                        pick->push_back({n, 1});
                }
            }
            return t;
        }
        if (next == steps_.end()) return kForever;  // nothing changes any more
        t = next->t;
        ++next;
    }
    return kForever;
}

}  // namespace rota
