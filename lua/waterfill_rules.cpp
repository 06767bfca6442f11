#include "waterfill_rules.h"

#include <algorithm>

namespace rota::lua {

void Plan::reset(const MalleableBatch& b, std::int64_t needed) {
    batch = &b;
    amount.assign(b.size(), 0);
    left = needed;
}

namespace {

// Hands out p.left one processor at a time to each of `order` in turn, job
// j taking at most caps[j], without a step per processor: after L whole
// rounds job j holds min(cap_j, L) more, and the last, partial round goes
// to the first in `order` with room left. Jobs with no room are skipped.
void in_turn(Plan& p) {
    if (p.left <= 0) return;
    p.sorted.clear();
    for (std::size_t j : p.order)
        if (p.caps[j] > 0) p.sorted.push_back(p.caps[j]);
    std::sort(p.sorted.begin(), p.sorted.end());
    std::int64_t level = 0, avail = p.left;
    const std::size_t m = p.sorted.size();
    std::size_t k = 0;
    while (k < m) {
        const std::int64_t step = p.sorted[k] - level;
        const auto count = static_cast<std::int64_t>(m - k);
        if (step * count > avail) {
            const std::int64_t rounds = avail / count;
            level += rounds;
            avail -= rounds * count;
            break;
        }
        level = p.sorted[k];
        avail -= step * count;
        while (k < m && p.sorted[k] == level) ++k;
    }
    for (std::size_t j : p.order) {
        const std::int64_t room = p.caps[j];
        if (room <= 0) continue;
        std::int64_t g = std::min(room, level);
        if (room > level && avail > 0) {
            ++g;
            --avail;
        }
        p.amount[j] += g;
    }
    p.left = avail;
}

// The victims that c visits, in its order, into p.order.
void candidates(Plan& p, Candidates c, double T) {
    const MalleableBatch& b = *p.batch;
    const std::size_t n = b.size();
    p.order.clear();
    if (c == Candidates::all) {
        for (std::size_t j = 0; j < n; ++j) p.order.push_back(j);
        return;
    }
    if (c == Candidates::fair) {
        b.need(MalleableColumn::harvests);
        std::int64_t sum = 0;
        for (std::size_t j = 0; j < n; ++j) sum += b.harvests[j];
        const double avg = n > 0 ? static_cast<double>(sum) / static_cast<double>(n) : 0.0;
        bool any = false;
        for (std::size_t j = 0; j < n; ++j) any = any || b.harvests[j] < avg;
        for (std::size_t j = 0; j < n; ++j)
            if (!any || b.harvests[j] < avg) p.order.push_back(j);
        return;
    }
    b.need(c == Candidates::longest ? MalleableColumn::age : MalleableColumn::time_left);
    const std::vector<Time>& x = c == Candidates::longest ? b.age : b.time_left;
    // A negative T asks for the average, and a victim exactly at it counts.
    const bool average = T < 0;
    if (average) {
        std::int64_t sum = 0;
        for (std::size_t j = 0; j < n; ++j) sum += x[j];
        T = n > 0 ? static_cast<double>(sum) / static_cast<double>(n) : 0.0;
    }
    for (std::size_t j = 0; j < n; ++j) {
        const auto v = static_cast<double>(x[j]);
        if (v > T || (average && v == T)) p.order.push_back(j);
    }
    std::sort(p.order.begin(), p.order.end(),
              [&](std::size_t a, std::size_t z) { return x[a] != x[z] ? x[a] > x[z] : a < z; });
}

// A binary heap of job positions, 1-based in p.heap[1..n], on (key,
// position): `first(ka, a, kb, b)` says whether a comes out before b. Only
// the top's key changes, and for the worse, so it sinks.
template <class First>
void sink(Plan& p, std::size_t n, std::size_t k, First first) {
    const std::size_t i = p.heap[k];
    const double ki = p.key[i];
    while (true) {
        std::size_t l = 2 * k;
        if (l > n) break;
        std::size_t c = p.heap[l];
        double kc = p.key[c];
        if (l < n) {
            const std::size_t r = p.heap[l + 1];
            const double kr = p.key[r];
            if (first(kr, r, kc, c)) {
                c = r;
                kc = kr;
                l = l + 1;
            }
        }
        if (first(ki, i, kc, c)) break;
        p.heap[k] = c;
        k = l;
    }
    p.heap[k] = i;
}

// Moves p.left one processor at a time, each to or from the job the heap
// puts first: key(j) is job j's share for its next processor, or -1 once
// it can move no more (shares are never negative). The jobs are those the
// bulk step gathered (p.order, ascending), the only ones that could move
// before it: a distribution's batch is mostly queued jobs.
template <class First, class Key>
void by_share(Plan& p, First first, Key key) {
    const MalleableBatch& b = *p.batch;
    p.heap.assign(1, 0);
    p.key.resize(b.size());
    for (const std::size_t j : p.order) {
        const double k = key(j);
        if (k < 0) continue;
        p.heap.push_back(j);
        p.key[j] = k;
    }
    std::size_t n = p.heap.size() - 1;
    for (std::size_t k = n / 2; k >= 1; --k) sink(p, n, k, first);
    while (p.left > 0 && n > 0) {
        const std::size_t j = p.heap[1];
        ++p.amount[j];
        --p.left;
        const double k = key(j);
        if (k < 0)
            p.heap[1] = p.heap[n--];
        else
            p.key[j] = k;
        if (n > 0) sink(p, n, 1, first);
    }
}

// Most of a large amount in one step, before the heap moves the rest one
// processor at a time. A job's successive processors have shares k / ideal
// for consecutive k, so the heap hands them out in order of (share, job)
// over every job at once. All those with share at most a level tau (give;
// at least tau, take) are a prefix of that order; the level is the last
// a / kDen that keeps the prefix within p.left, found by bisection with
// integer arithmetic, so the shares are compared exactly. Distinct shares
// of ideals up to 2^20 differ by far more than a double's rounding, so the
// heap's order on doubles is this one too.
constexpr std::int64_t kDen = std::int64_t{1} << 20;

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// first[j] .. first[j] + cap[j] - 1: the numerators of job j's shares in
// the order the heap reaches them (ascending to give, descending to take).
template <class Count>
std::int64_t bulk_level(Plan& p, std::int64_t lo, std::int64_t hi, Count count) {
    // count(level) is monotone; the answer is the level whose count is the
    // largest not above p.left: lo's count is within it, hi's beyond.
    while (hi - lo > 1) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        if (count(mid) <= p.left)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

// The bulk steps count over the jobs that can still move, gathered first
// (a distribution's batch also lists the queued jobs, most of it).
void give_bulk(Plan& p) {
    const MalleableBatch& b = *p.batch;
    p.order.clear(), p.base.clear(), p.ideal.clear();
    std::int64_t total = 0;
    for (std::size_t j = 0; j < b.size(); ++j) {
        const std::int64_t held = b.procs[j] + p.amount[j];
        if (b.queued[j] == 0 && held < b.ideal[j]) {
            p.order.push_back(j);
            p.base.push_back(held);
            p.ideal.push_back(b.ideal[j]);
            total += b.ideal[j] - held;
        }
    }
    const std::size_t m = p.order.size();
    if (p.left <= static_cast<std::int64_t>(2 * m)) return;  // few enough for the heap
    // Job k's share before its next processor i is (held + i) / ideal.
    const auto units = [&](std::size_t k, std::int64_t level) {
        const std::int64_t upto = floor_div(level * p.ideal[k], kDen);  // held + i <= upto
        return std::clamp<std::int64_t>(upto - p.base[k] + 1, 0, p.ideal[k] - p.base[k]);
    };
    const auto count = [&](std::int64_t level) {
        std::int64_t n = 0;
        for (std::size_t k = 0; k < m; ++k) n += units(k, level);
        return n;
    };
    std::int64_t level = kDen;  // every share is below 1
    if (total > p.left) {
        if (count(0) > p.left) return;
        level = bulk_level(p, 0, kDen, count);
    }
    for (std::size_t k = 0; k < m; ++k) {
        const std::int64_t g = units(k, level);
        p.amount[p.order[k]] += g;
        p.left -= g;
    }
}

void take_bulk(Plan& p) {
    const MalleableBatch& b = *p.batch;
    p.order.clear(), p.base.clear(), p.ideal.clear(), p.floor.clear();
    std::int64_t total = 0;
    for (std::size_t j = 0; j < b.size(); ++j) {
        const std::int64_t base = b.procs[j] - p.amount[j];
        if (base > b.min[j]) {
            p.order.push_back(j);
            p.base.push_back(base);
            p.ideal.push_back(b.ideal[j]);
            p.floor.push_back(b.min[j]);
            total += base - b.min[j];
        }
    }
    const std::size_t m = p.order.size();
    if (p.left <= static_cast<std::int64_t>(2 * m)) return;
    // Job k keeps (base - 1 - i) / ideal after its next processor i, at
    // least its min; the largest kept share goes first.
    const auto units = [&](std::size_t k, std::int64_t level) {
        // kept >= level * ideal / kDen, kept = base - 1 - i
        const std::int64_t least = -floor_div(-level * p.ideal[k], kDen);  // ceil
        return std::clamp<std::int64_t>(p.base[k] - least, 0, p.base[k] - p.floor[k]);
    };
    const auto count = [&](std::int64_t level) {
        std::int64_t n = 0;
        for (std::size_t k = 0; k < m; ++k) n += units(k, level);
        return n;
    };
    // Units at or above level kDen + 1: none; at or above 0: all of them.
    std::int64_t level = 0;
    if (total > p.left) {
        // Descending: bisect on the negated level so that count grows with it.
        const auto rising = [&](std::int64_t x) { return count(kDen + 1 - x); };
        level = kDen + 1 - bulk_level(p, 0, kDen + 1, rising);
    }
    for (std::size_t k = 0; k < m; ++k) {
        const std::int64_t g = units(k, level);
        p.amount[p.order[k]] += g;
        p.left -= g;
    }
}

}  // namespace

void take_in_turn(Plan& p, Candidates c, double T) {
    const MalleableBatch& b = *p.batch;
    candidates(p, c, T);
    p.caps.resize(b.size());
    for (std::size_t j = 0; j < b.size(); ++j)
        p.caps[j] = std::int64_t{b.procs[j]} - p.amount[j] - b.min[j];
    in_turn(p);
}

void take_by_share(Plan& p) {
    const MalleableBatch& b = *p.batch;
    take_bulk(p);
    // The largest share kept first; among equal shares, the earlier job.
    // A victim gives up its next processor while it keeps at least its min.
    by_share(
        p,
        [](double ka, std::size_t a, double kb, std::size_t z) {
            return ka > kb || (ka == kb && a < z);
        },
        [&](std::size_t j) {
            const std::int64_t kept = b.procs[j] - p.amount[j] - 1;
            return kept >= b.min[j] ? static_cast<double>(kept) / static_cast<double>(b.ideal[j])
                                    : -1.0;
        });
}

void admit(Plan& p) {
    const MalleableBatch& b = *p.batch;
    for (std::size_t j = 0; j < b.size(); ++j) {
        if (b.queued[j] != 1 || p.amount[j] != 0) continue;
        if (b.min[j] > p.left) break;
        p.amount[j] = std::min<std::int64_t>(p.left, b.ideal[j]);
        p.left -= p.amount[j];
    }
}

void give_in_turn(Plan& p) {
    const MalleableBatch& b = *p.batch;
    p.order.clear();
    p.caps.resize(b.size());
    for (std::size_t j = 0; j < b.size(); ++j) {
        if (b.queued[j] != 0) continue;
        p.order.push_back(j);
        p.caps[j] = std::int64_t{b.ideal[j]} - b.procs[j] - p.amount[j];
    }
    in_turn(p);
}

void give_by_share(Plan& p) {
    const MalleableBatch& b = *p.batch;
    give_bulk(p);
    // The smallest share held first; among equal shares, the earlier job.
    // A running job takes processors until it holds its ideal.
    by_share(
        p,
        [](double ka, std::size_t a, double kb, std::size_t z) {
            return ka < kb || (ka == kb && a < z);
        },
        [&](std::size_t j) {
            const std::int64_t held = b.procs[j] + p.amount[j];
            return b.queued[j] == 0 && held < b.ideal[j]
                       ? static_cast<double>(held) / static_cast<double>(b.ideal[j])
                       : -1.0;
        });
}

void give_most_harvested(Plan& p) {
    const MalleableBatch& b = *p.batch;
    b.need(MalleableColumn::harvests);
    const auto before = [&](std::size_t i, std::size_t j) {
        if (b.harvests[i] != b.harvests[j]) return b.harvests[i] > b.harvests[j];
        if (p.amount[i] != p.amount[j]) return p.amount[i] < p.amount[j];
        return i < j;
    };
    std::vector<std::size_t>& h = p.heap;
    h.assign(1, 0);
    for (std::size_t j = 0; j < b.size(); ++j) {
        if (b.queued[j] != 0 || b.procs[j] + p.amount[j] >= b.ideal[j]) continue;
        h.push_back(j);
        for (std::size_t k = h.size() - 1; k > 1 && before(h[k], h[k / 2]); k /= 2)
            std::swap(h[k], h[k / 2]);
    }
    std::size_t n = h.size() - 1;
    while (p.left > 0 && n > 0) {
        const std::size_t j = h[1];
        ++p.amount[j];
        --p.left;
        if (b.procs[j] + p.amount[j] >= b.ideal[j]) h[1] = h[n--];
        // The top was given one more, so it can only come later now: it sinks.
        for (std::size_t k = 1;;) {
            const std::size_t l = 2 * k;
            if (l > n) break;
            const std::size_t c = l < n && before(h[l + 1], h[l]) ? l + 1 : l;
            if (!before(h[c], h[k])) break;
            std::swap(h[c], h[k]);
            k = c;
        }
    }
}

}  // namespace rota::lua
