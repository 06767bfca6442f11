#include "profile.h"

#include <algorithm>

#include "error.h"

namespace rota {

namespace {

// std::partition_point over a chunk's summaries without a branch per
// level: the searches of a deep profile cross hundreds of chunks, and
// their halvings went the unpredictable way about half the time
// (docs/benchmarks.md, "Why conservative stays slow here").
template <class Pred>
std::size_t split_point(const std::vector<std::int64_t>& a, Pred pred) {
    std::size_t len = a.size();
    if (len == 0) return 0;
    const std::int64_t* base = a.data();
    while (len > 1) {
        const std::size_t half = len / 2;
        // A mask, not a ?: that the compiler turns back into a branch.
        const std::size_t take = static_cast<std::size_t>(pred(base[half - 1]));
        base += half & (std::size_t{0} - take);
        len -= half;
    }
    return static_cast<std::size_t>(base - a.data()) + (pred(*base) ? 1 : 0);
}

}  // namespace

Profile::Profile(std::vector<std::int64_t> capacity) : k_(capacity.size()) {
    if (k_ == 0) throw Error(Errc::internal, "profile: no column");
    Chunk ch;
    ch.time = {kNoTime};
    ch.val = capacity;
    ch.add.assign(k_, 0);
    ch.lo = capacity;
    ch.hi = capacity;
    chunk_.push_back(std::move(ch));
    first_.push_back(kNoTime);
}

std::size_t Profile::steps() const {
    return steps_;
}

Profile::Pos Profile::next(Pos p) const {
    if (p.i + 1 < chunk_[p.c].time.size()) return {p.c, p.i + 1};
    return {p.c + 1, 0};
}

Profile::Pos Profile::locate(Time t) const {
    // Most searches start now, in the first step (advance() trims the
    // steps before it): that one needs no binary search.
    const std::vector<Time>& head = chunk_[0].time;
    if (t < (head.size() > 1 ? head[1] : chunk_.size() > 1 ? first_[1] : kForever)) return {0, 0};
    // The first chunk starts in the past (kNoTime), so some chunk holds t.
    const std::size_t c =
        first_.size() == 1
            ? 0
            : static_cast<std::size_t>(std::upper_bound(first_.begin(), first_.end(), t) -
                                       first_.begin()) -
                  1;
    const auto& tm = chunk_[c].time;
    const auto i =
        static_cast<std::size_t>(std::upper_bound(tm.begin(), tm.end(), t) - tm.begin()) - 1;
    return {c, i};
}

bool Profile::step_fits(const Chunk& ch, std::size_t i, const std::int64_t* d) const {
    if (k_ == 1) return ch.val[i] + ch.add[0] >= d[0];
    const std::int64_t* v = &ch.val[i * k_];
    for (std::size_t j = 0; j < k_; ++j)
        if (v[j] + ch.add[j] < d[j]) return false;
    return true;
}

bool Profile::chunk_all_fit(const Chunk& ch, const std::int64_t* d) const {
    for (std::size_t j = 0; j < k_; ++j)
        if (ch.lo[j] < d[j]) return false;
    return true;
}

bool Profile::chunk_none_fit(const Chunk& ch, const std::int64_t* d) const {
    for (std::size_t j = 0; j < k_; ++j)
        if (ch.hi[j] < d[j]) return true;
    return false;
}

// The first step at or after `p` that starts before `until` and cannot hold
// `d`; the end position if there is none.
Profile::Pos Profile::first_misfit(Pos p, const std::int64_t* d, Time until) const {
    for (std::size_t c = p.c; c < chunk_.size(); ++c) {
        const Chunk& ch = chunk_[c];
        const std::size_t from = c == p.c ? p.i : 0;
        if (ch.time[from] >= until) break;
        if (summarized() && chunk_all_fit(ch, d)) continue;
        for (std::size_t i = from; i < ch.time.size(); ++i) {
            if (ch.time[i] >= until) return {chunk_.size(), 0};
            if (!step_fits(ch, i, d)) return {c, i};
        }
    }
    return {chunk_.size(), 0};
}

// The first step at or after `p` that can hold `d`; the end if none.
Profile::Pos Profile::first_fit_step(Pos p, const std::int64_t* d) const {
    for (std::size_t c = p.c; c < chunk_.size(); ++c) {
        const Chunk& ch = chunk_[c];
        if (summarized() && chunk_none_fit(ch, d)) continue;
        for (std::size_t i = c == p.c ? p.i : 0; i < ch.time.size(); ++i)
            if (step_fits(ch, i, d)) return {c, i};
    }
    return {chunk_.size(), 0};
}

Time Profile::earliest(Time from, const std::int64_t* d, Time duration, Time latest) const {
    // Alternate two searches: the first step in the candidate window that
    // cannot hold the demand, then the first later step that can, which is
    // the next candidate start. Each skips whole chunks by their min/max.
    Time cand = from;
    if (cand > latest) return kForever;
    if (k_ == 1 && summarized()) return earliest_runs(from, d[0], duration, latest);
    Pos p = locate(from);
    for (;;) {
        const Pos bad = first_misfit(p, d, cand + duration);
        if (at_end(bad)) return cand;
        const Pos good = first_fit_step(next(bad), d);
        if (at_end(good)) {
            if (latest != kForever) return kForever;
            throw Error(Errc::internal, "profile: demand exceeds the machine");
        }
        cand = time_of(good);
        if (cand > latest) return kForever;
        p = good;
    }
}

void Profile::build_runs(const Chunk& ch) const {
    const std::size_t m = ch.time.size();
    const std::vector<std::int64_t>& v = ch.val;  // one column
    ch.pre_min.resize(m);
    ch.suf_min.resize(m);
    for (std::size_t i = 0; i < m; ++i)
        ch.pre_min[i] = i ? std::min(ch.pre_min[i - 1], v[i]) : v[i];
    for (std::size_t i = m; i-- > 0;)
        ch.suf_min[i] = i + 1 < m ? std::min(ch.suf_min[i + 1], v[i]) : v[i];
    // The maximal run around step i holding at least v[i]: from just past
    // the nearest lower step on the left to the nearest lower step on the
    // right. Runs reaching the chunk's end are the suffix's business.
    // Scratch kept by the profile: a search rebuilds runs often, and
    // fresh vectors each time cost more than the work.
    auto& left = scratch_left_;
    auto& right = scratch_right_;
    auto& stack = scratch_stack_;
    auto& runs = scratch_runs_;
    left.resize(m);
    right.resize(m);
    stack.clear();
    runs.clear();
    for (std::size_t i = 0; i < m; ++i) {
        while (!stack.empty() && v[stack.back()] >= v[i]) stack.pop_back();
        left[i] = stack.empty() ? 0 : stack.back() + 1;
        stack.push_back(i);
    }
    stack.clear();
    for (std::size_t i = m; i-- > 0;) {
        while (!stack.empty() && v[stack.back()] >= v[i]) stack.pop_back();
        right[i] = stack.empty() ? m : stack.back();
        stack.push_back(i);
    }
    for (std::size_t i = 0; i < m; ++i)
        if (right[i] < m) runs.emplace_back(v[i], ch.time[right[i]] - ch.time[left[i]]);
    std::sort(runs.begin(), runs.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });
    ch.run_val.clear();
    ch.run_len.clear();
    Time best = 0;
    for (const auto& [val, len] : runs) {
        best = std::max(best, len);
        ch.run_val.push_back(val);
        ch.run_len.push_back(best);
    }
    ch.runs_ok = true;
}

// earliest() with one column and several chunks: a run of steps holding at
// least x, long enough, is looked for chunk by chunk. A chunk wholly at or
// above x extends the open run; otherwise the open run ends at its prefix,
// a run inside it is looked for step by step only when its longest inner
// run is long enough, and its suffix may open the next run.
Time Profile::earliest_runs(Time from, std::int64_t x, Time duration, Time latest) const {
    bool open = false;
    Time rs = 0;  // start of the open run
    // A run opened by a chunk's suffix: where in the suffix it starts is
    // looked up only when a run long enough depends on it, as most runs
    // end too soon; until then the chunk's first instant bounds it.
    constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    std::size_t pend = kNone;
    std::int64_t pend_x = 0;  // x relative to that chunk's pending add
    const auto soonest = [&] { return pend != kNone ? first_[pend] : rs; };
    const auto run_from = [&] {
        if (pend != kNone) {
            const Chunk& pc = chunk_[pend];
            const std::int64_t y = pend_x;
            rs = pc.time[split_point(pc.suf_min, [y](std::int64_t v) { return v < y; })];
            pend = kNone;
        }
        return rs;
    };
    // Starts only grow as the search goes on, so a start found past
    // `latest` (a run looked up late) means there is none by then.
    const auto found = [latest](Time t) { return t > latest ? kForever : t; };
    auto end_of = [&](std::size_t c, std::size_t i) {
        if (i + 1 < chunk_[c].time.size()) return chunk_[c].time[i + 1];
        return c + 1 < chunk_.size() ? first_[c + 1] : kForever;
    };
    Time result = kForever;
    // Steps one by one from step i0 of chunk c; true when decided.
    auto scan = [&](std::size_t c, std::size_t i0) {
        if (open) run_from();
        const Chunk& ch = chunk_[c];
        for (std::size_t i = i0; i < ch.time.size(); ++i) {
            if (ch.val[i] + ch.add[0] < x) {
                // A run carried in from earlier chunks ends here.
                if (open && ch.time[i] - rs >= duration) return (result = rs), true;
                open = false;
                continue;
            }
            if (!open) {
                rs = std::max(ch.time[i], from);
                if (rs > latest) return (result = kForever), true;
                open = true;
            }
            const Time e = end_of(c, i);
            if (e == kForever || e - rs >= duration) return (result = rs), true;
        }
        return false;
    };
    const Pos p = locate(from);
    if (scan(p.c, p.i)) return result;
    for (std::size_t c = p.c + 1; c < chunk_.size(); ++c) {
        const Chunk& ch = chunk_[c];
        const Time t0 = first_[c];
        const Time t_end = c + 1 < chunk_.size() ? first_[c + 1] : kForever;
        if (ch.lo[0] >= x) {
            if (!open) {
                if (t0 > latest) return kForever;
                rs = t0;
                open = true;
            }
            if (t_end == kForever) return found(run_from());
            if (t_end - soonest() >= duration && t_end - run_from() >= duration) return found(rs);
            continue;
        }
        if (!open && t0 > latest) return kForever;
        if (ch.hi[0] < x) {  // the open run ends where this chunk begins
            if (open && t0 - soonest() >= duration && t0 - run_from() >= duration) return found(rs);
            open = false;
            pend = kNone;
            continue;
        }
        if (!ch.runs_ok) {
            // Runs cost a sort to build and the next change to the chunk
            // throws them away: the first two crossings after a change
            // scan (a compression searches a reservation's slot, then
            // moves it, changing the chunks the search crossed).
            if (ch.crossed < 2) {
                ++ch.crossed;
                if (scan(c, 0)) return found(result);
                continue;
            }
            build_runs(ch);
        }
        const std::int64_t xr = x - ch.add[0];
        // It ends at the first step below x, by the chunk's last step at
        // the latest (some step is below x): no search if that is too soon.
        const Time last = ch.time.back();
        if (open && last - soonest() >= duration && last - run_from() >= duration) {
            const std::size_t k = split_point(ch.pre_min, [xr](std::int64_t v) { return v >= xr; });
            if (ch.time[k] - rs >= duration) return found(rs);
        }
        open = false;
        pend = kNone;
        // No inner run of the chunk is long enough at any width: no search.
        if (!ch.run_len.empty() && ch.run_len.back() >= duration) {
            const std::size_t r = split_point(ch.run_val, [xr](std::int64_t v) { return v >= xr; });
            if (r > 0 && ch.run_len[r - 1] >= duration) {
                if (scan(c, 0)) return found(result);
                continue;
            }
        }
        if (ch.suf_min.back() < xr) continue;  // its last step is below x
        open = true;
        pend = c;
        pend_x = xr;
        if (t_end == kForever) return found(run_from());
    }
    if (latest != kForever) return kForever;
    throw Error(Errc::internal, "profile: demand exceeds the machine");
}

bool Profile::fits(Time start, const std::int64_t* d, Time duration) const {
    return at_end(first_misfit(locate(start), d, start + duration));
}

Time Profile::fit_limit(Time from, std::int64_t need) const {
    const Pos p = locate(from);
    for (std::size_t c = p.c; c < chunk_.size(); ++c) {
        const Chunk& ch = chunk_[c];
        if (summarized() && ch.lo[0] >= need) continue;
        for (std::size_t i = c == p.c ? p.i : 0; i < ch.time.size(); ++i)
            if (value(ch, i, 0) < need) return std::max(ch.time[i], from);
    }
    return kForever;
}

std::int64_t Profile::free_at(Time t, std::size_t column) const {
    const Pos p = locate(t);
    return value(chunk_[p.c], p.i, column);
}

Time Profile::run_start(Time floor, Time before, std::int64_t need) const {
    if (before <= floor) return before;
    const Pos p = locate(before - 1);
    Time start = before;  // the run found so far is [start, before)
    for (std::size_t c = p.c + 1; c-- > 0;) {
        const Chunk& ch = chunk_[c];
        if (c != p.c && summarized() && ch.lo[0] >= need) {  // the whole chunk has room
            start = ch.time[0];
            if (start <= floor) return floor;
            continue;
        }
        for (std::size_t i = c == p.c ? p.i + 1 : ch.time.size(); i-- > 0;) {
            if (value(ch, i, 0) < need) return std::max(start, floor);
            start = ch.time[i];
            if (start <= floor) return floor;
        }
    }
    return floor;
}

void Profile::steps_of(Time from, std::size_t column,
                       std::vector<std::pair<Time, std::int64_t>>& out) const {
    out.clear();
    const Pos p = locate(from);
    for (std::size_t c = p.c; c < chunk_.size(); ++c) {
        const Chunk& ch = chunk_[c];
        for (std::size_t i = c == p.c ? p.i : 0; i < ch.time.size(); ++i) {
            const std::int64_t v = value(ch, i, column);
            if (!out.empty() && out.back().second == v) continue;
            out.emplace_back(out.empty() ? from : ch.time[i], v);
        }
    }
}

std::int64_t Profile::max_free(Time from, Time to, std::size_t column) const {
    const Pos p = locate(from);
    std::int64_t best = value(chunk_[p.c], p.i, column);
    for (std::size_t c = p.c; c < chunk_.size(); ++c) {
        const Chunk& ch = chunk_[c];
        const std::size_t start = c == p.c ? p.i : 0;
        if (ch.time[start] >= to) break;
        if (summarized() && start == 0 && ch.time.back() < to) {  // every step counts
            best = std::max(best, ch.hi[column]);
            continue;
        }
        if (summarized() && ch.hi[column] <= best) continue;
        for (std::size_t i = start; i < ch.time.size() && ch.time[i] < to; ++i)
            best = std::max(best, value(ch, i, column));
    }
    return best;
}

std::int64_t Profile::min_free(Time from, Time to, std::size_t column) const {
    const Pos p = locate(from);
    std::int64_t least = value(chunk_[p.c], p.i, column);
    for (std::size_t c = p.c; c < chunk_.size(); ++c) {
        const Chunk& ch = chunk_[c];
        const std::size_t start = c == p.c ? p.i : 0;
        if (ch.time[start] >= to) break;
        if (summarized() && start == 0 && ch.time.back() < to) {  // every step counts
            least = std::min(least, ch.lo[column]);
            continue;
        }
        if (summarized() && ch.lo[column] >= least) continue;
        for (std::size_t i = start; i < ch.time.size() && ch.time[i] < to; ++i)
            least = std::min(least, value(ch, i, column));
    }
    return least;
}

Time Profile::next_change(Time t) const {
    const Pos p = next(locate(t));
    return at_end(p) ? kForever : time_of(p);
}

void Profile::first_reach(Time from, std::vector<Time>& first) const {
    std::fill(first.begin(), first.end(), kForever);
    if (first.size() < 2) return;
    const auto top = static_cast<std::int64_t>(first.size() - 1);
    std::int64_t reached = 0;  // widths 1..reached have their time
    const Pos p = locate(from);
    for (std::size_t c = p.c; c < chunk_.size(); ++c) {
        const Chunk& ch = chunk_[c];
        if (summarized() && ch.hi[0] <= reached) continue;
        for (std::size_t i = c == p.c ? p.i : 0; i < ch.time.size(); ++i) {
            const std::int64_t v = std::min(value(ch, i, 0), top);
            if (v <= reached) continue;
            const Time t = std::max(ch.time[i], from);
            for (std::int64_t w = reached + 1; w <= v; ++w) first[static_cast<std::size_t>(w)] = t;
            reached = v;
            if (reached == top) return;
        }
    }
}

Profile::Pos Profile::split_at(Time t) {
    const Pos p = locate(t);
    Chunk& ch = chunk_[p.c];
    if (ch.time[p.i] == t) return p;
    const std::size_t at = p.i + 1;
    ch.runs_ok = false, ch.crossed = 0;
    ch.time.insert(ch.time.begin() + static_cast<std::ptrdiff_t>(at), t);
    ++steps_;
    // The new step repeats its predecessor, relative to the same add.
    const auto src = static_cast<std::ptrdiff_t>(p.i * k_);
    ch.val.insert(ch.val.begin() + static_cast<std::ptrdiff_t>(at * k_), k_, 0);
    std::copy_n(ch.val.begin() + src, k_, ch.val.begin() + static_cast<std::ptrdiff_t>(at * k_));
    return {p.c, at};
}

void Profile::refresh(Chunk& ch) {
    for (std::size_t j = 0; j < k_; ++j) {
        std::int64_t lo = ch.val[j], hi = ch.val[j];
        for (std::size_t i = 1; i < ch.time.size(); ++i) {
            const std::int64_t v = ch.val[i * k_ + j];
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        ch.lo[j] = lo + ch.add[j];
        ch.hi[j] = hi + ch.add[j];
    }
}

void Profile::add_range(Chunk& ch, std::size_t from, std::size_t to, const std::int64_t* d,
                        std::int64_t sign) {
    if (from >= to) return;
    if (!(from == 0 && to == ch.time.size()))
        ch.runs_ok = false, ch.crossed = 0;  // a whole chunk: add only
    if (!summarized()) {  // one chunk: nothing to skip, so no min and max to keep
        for (std::size_t i = from; i < to; ++i)
            for (std::size_t j = 0; j < k_; ++j) ch.val[i * k_ + j] += sign * d[j];
        return;
    }
    if (from == 0 && to == ch.time.size()) {  // the whole chunk: O(1)
        for (std::size_t j = 0; j < k_; ++j) {
            ch.add[j] += sign * d[j];
            ch.lo[j] += sign * d[j];
            ch.hi[j] += sign * d[j];
        }
        return;
    }
    // The chunk's min and max follow from the range alone unless the range
    // held the extreme that moved away from it (a take lowers the range: the
    // max may have been there; a give raises it: the min may have been).
    bool rescan = false;
    for (std::size_t j = 0; j < k_; ++j) {
        const std::int64_t delta = sign * d[j];
        if (delta == 0) continue;
        std::int64_t rmin = ch.val[from * k_ + j], rmax = rmin;
        for (std::size_t i = from; i < to; ++i) {
            std::int64_t& v = ch.val[i * k_ + j];
            rmin = std::min(rmin, v);
            rmax = std::max(rmax, v);
            v += delta;
        }
        const std::int64_t a = ch.add[j];
        if (delta < 0) {
            ch.lo[j] = std::min(ch.lo[j], rmin + a + delta);
            rescan = rescan || rmax + a == ch.hi[j];
        } else {
            ch.hi[j] = std::max(ch.hi[j], rmax + a + delta);
            rescan = rescan || rmin + a == ch.lo[j];
        }
    }
    if (rescan) refresh(ch);
}

bool Profile::same_as_previous(Pos p) const {
    if (p.c == 0 && p.i == 0) return false;
    const Chunk& ch = chunk_[p.c];
    const Pos q = p.i > 0 ? Pos{p.c, p.i - 1} : Pos{p.c - 1, chunk_[p.c - 1].time.size() - 1};
    const Chunk& qh = chunk_[q.c];
    for (std::size_t j = 0; j < k_; ++j)
        if (value(ch, p.i, j) != value(qh, q.i, j)) return false;
    return true;
}

void Profile::erase_step(Pos p) {
    Chunk& ch = chunk_[p.c];
    ch.runs_ok = false, ch.crossed = 0;
    ch.time.erase(ch.time.begin() + static_cast<std::ptrdiff_t>(p.i));
    --steps_;
    const auto at = static_cast<std::ptrdiff_t>(p.i * k_);
    ch.val.erase(ch.val.begin() + at, ch.val.begin() + at + static_cast<std::ptrdiff_t>(k_));
    if (ch.time.empty()) {
        chunk_.erase(chunk_.begin() + static_cast<std::ptrdiff_t>(p.c));
        first_.erase(first_.begin() + static_cast<std::ptrdiff_t>(p.c));
        return;
    }
    first_[p.c] = ch.time[0];
    // A step equal to its predecessor in the same chunk leaves the chunk's
    // min and max as they were; the first step's predecessor is elsewhere.
    if (p.i == 0 && summarized()) refresh(ch);
}

void Profile::normalize(Chunk& ch) {
    ch.runs_ok = false, ch.crossed = 0;
    for (std::size_t i = 0; i < ch.time.size(); ++i)
        for (std::size_t j = 0; j < k_; ++j) ch.val[i * k_ + j] += ch.add[j];
    std::fill(ch.add.begin(), ch.add.end(), 0);
}

// Keeps chunk sizes within [chunk_max() / 4, chunk_max()] where it can: splits an
// oversized chunk in two, merges a small one with a neighbour.
void Profile::rebalance(std::size_t c) {
    if (c >= chunk_.size()) return;
    const std::size_t most = chunk_max(), least = most / 4;
    if (chunk_[c].time.size() > most) {
        Chunk& ch = chunk_[c];
        const std::size_t half = ch.time.size() / 2;
        Chunk upper;
        upper.time.assign(ch.time.begin() + static_cast<std::ptrdiff_t>(half), ch.time.end());
        upper.val.assign(ch.val.begin() + static_cast<std::ptrdiff_t>(half * k_), ch.val.end());
        upper.add = ch.add;
        upper.lo.resize(k_);
        upper.hi.resize(k_);
        ch.time.resize(half);
        ch.val.resize(half * k_);
        ch.runs_ok = false, ch.crossed = 0;
        refresh(ch);
        refresh(upper);
        const Time f = upper.time[0];
        chunk_.insert(chunk_.begin() + static_cast<std::ptrdiff_t>(c + 1), std::move(upper));
        first_.insert(first_.begin() + static_cast<std::ptrdiff_t>(c + 1), f);
        return;
    }
    if (chunk_[c].time.size() >= least || chunk_.size() == 1) return;
    std::size_t a = c, b = c + 1;  // merge b into a
    if (b >= chunk_.size() || chunk_[a].time.size() + chunk_[b].time.size() > most) {
        if (c == 0) return;
        a = c - 1;
        b = c;
        if (chunk_[a].time.size() + chunk_[b].time.size() > most) return;
    }
    Chunk& x = chunk_[a];
    Chunk& y = chunk_[b];
    normalize(x);
    normalize(y);
    x.time.insert(x.time.end(), y.time.begin(), y.time.end());
    x.val.insert(x.val.end(), y.val.begin(), y.val.end());
    refresh(x);
    chunk_.erase(chunk_.begin() + static_cast<std::ptrdiff_t>(b));
    first_.erase(first_.begin() + static_cast<std::ptrdiff_t>(b));
}

void Profile::add_between(Pos a, Pos b, const std::int64_t* d, std::int64_t sign) {
    if (a.c == b.c) {
        add_range(chunk_[a.c], a.i, b.i, d, sign);
        return;
    }
    add_range(chunk_[a.c], a.i, chunk_[a.c].time.size(), d, sign);
    for (std::size_t c = a.c + 1; c < b.c; ++c)
        add_range(chunk_[c], 0, chunk_[c].time.size(), d, sign);
    add_range(chunk_[b.c], 0, b.i, d, sign);
}

void Profile::trim_head() {
    // A boundary at the origin leaves a first step wholly in the past.
    Chunk& head = chunk_[0];
    if (head.time.size() > 1 && head.time[1] <= origin_) {
        head.runs_ok = false, head.crossed = 0;
        head.time.erase(head.time.begin());
        --steps_;
        head.val.erase(head.val.begin(), head.val.begin() + static_cast<std::ptrdiff_t>(k_));
        head.time[0] = kNoTime;
        if (summarized()) refresh(head);
    }
}

void Profile::apply(Time start, Time end, const std::int64_t* d, std::int64_t sign) {
    start = std::max(start, origin_);  // the past is gone
    if (start >= end) return;
    ++version_;
    // From the origin, the range starts with the first step, which reaches
    // back into the past: splitting it at the origin and trimming its past
    // half off again would move the whole first chunk twice.
    const Pos a = start == origin_ ? Pos{0, 0} : split_at(start);
    const Pos b = split_at(end);  // later than a: inserting it does not move a
    add_between(a, b, d, sign);
    // Merge steps equal to their predecessor, so the profile has one step
    // per distinct free level; only the two boundaries can have become so.
    if (same_as_previous(b)) erase_step(b);
    if (same_as_previous(a)) erase_step(a);
    trim_head();
    rebalance(std::min(b.c, chunk_.size() - 1));
    rebalance(std::min(a.c, chunk_.size() - 1));
}

void Profile::take(Time start, Time end, const std::int64_t* d) {
    apply(start, end, d, -1);
}

void Profile::give(Time start, Time end, const std::int64_t* d) {
    apply(start, end, d, +1);
}

void Profile::advance(Time now) {
    if (now <= origin_) return;
    origin_ = now;
    const Pos p = locate(now);
    if (p.c == 0 && p.i == 0) return;
    ++version_;
    for (std::size_t c = 0; c < p.c; ++c) steps_ -= chunk_[c].time.size();
    steps_ -= p.i;
    chunk_.erase(chunk_.begin(), chunk_.begin() + static_cast<std::ptrdiff_t>(p.c));
    first_.erase(first_.begin(), first_.begin() + static_cast<std::ptrdiff_t>(p.c));
    Chunk& ch = chunk_[0];
    ch.runs_ok = false, ch.crossed = 0;
    ch.time.erase(ch.time.begin(), ch.time.begin() + static_cast<std::ptrdiff_t>(p.i));
    ch.val.erase(ch.val.begin(), ch.val.begin() + static_cast<std::ptrdiff_t>(p.i * k_));
    ch.time[0] = kNoTime;  // the step holding now reaches back into the past
    first_[0] = kNoTime;
    if (summarized()) refresh(ch);
    rebalance(0);
}

void Profile::check() const {
    auto fail = [](const char* what) {
        throw Error(Errc::internal, std::string("profile: ") + what);
    };
    if (chunk_.empty() || chunk_.size() != first_.size()) fail("chunk index out of step");
    if (chunk_[0].time[0] != kNoTime) fail("the first step does not reach into the past");
    std::size_t counted = 0;
    for (const Chunk& ch : chunk_) counted += ch.time.size();
    if (counted != steps_) fail("step count out of step");
    Time last = kNoTime;
    bool any = false;
    std::vector<std::int64_t> prev(k_);
    for (std::size_t c = 0; c < chunk_.size(); ++c) {
        const Chunk& ch = chunk_[c];
        if (ch.time.empty() || ch.val.size() != ch.time.size() * k_) fail("malformed chunk");
        if (ch.time.size() > 2 * kChunkMaxLong) fail("oversized chunk");
        if (first_[c] != ch.time[0]) fail("stale chunk index");
        for (std::size_t j = 0; j < k_; ++j) {
            std::int64_t lo = value(ch, 0, j), hi = lo;
            for (std::size_t i = 0; i < ch.time.size(); ++i) {
                lo = std::min(lo, value(ch, i, j));
                hi = std::max(hi, value(ch, i, j));
            }
            if (summarized() && (lo != ch.lo[j] || hi != ch.hi[j])) fail("stale chunk min or max");
        }
        if (ch.runs_ok) {  // what a search would read must be what the chunk holds
            const auto pre = ch.pre_min, suf = ch.suf_min, val = ch.run_val;
            const auto len = ch.run_len;
            build_runs(ch);
            if (pre != ch.pre_min || suf != ch.suf_min || val != ch.run_val || len != ch.run_len)
                fail("stale chunk runs");
        }
        for (std::size_t i = 0; i < ch.time.size(); ++i) {
            if (any && ch.time[i] <= last) fail("steps out of order");
            bool same = any;
            for (std::size_t j = 0; j < k_; ++j) {
                same = same && value(ch, i, j) == prev[j];
                prev[j] = value(ch, i, j);
            }
            if (same) fail("two adjacent steps are equal");
            last = ch.time[i];
            any = true;
        }
    }
}

}  // namespace rota
