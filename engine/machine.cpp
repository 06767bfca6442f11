#include "machine.h"

#include <algorithm>

#include "error.h"

namespace rota {

namespace {

std::vector<std::int64_t> capacities(const SchedulerConfig& cfg) {
    std::vector<std::int64_t> c;
    for (const auto& p : cfg.pools) c.push_back(p.capacity);
    return c;
}

}  // namespace

Machine::Machine(const SchedulerConfig& cfg)
    : matrix_(cfg.rows, cfg.procs),
      packing_(cfg.packing),
      rows_(static_cast<std::size_t>(cfg.rows), Profile({cfg.procs})),
      pool_capacity_(capacities(cfg)),
      limit_(static_cast<std::size_t>(cfg.procs) + 1, 0),
      limit_stamp_(static_cast<std::size_t>(cfg.procs) + 1, 0) {
    if (!pool_capacity_.empty()) pools_ = std::make_unique<Profile>(pool_capacity_);
    for (const PartitionConfig& p : cfg.partitions)
        partitions_.push_back(node_bits(cfg.procs, p.nodes));
    if (!cfg.partitions.empty()) enter_node_level(0);
    std::int32_t first = 0;
    for (const ClusterConfig& c : cfg.clusters) {
        cluster_first_.push_back(first);
        cluster_nodes_.push_back(c.nodes);
        first += c.nodes;
    }
    for (std::int32_t r = 0; r < cfg.rows && !cfg.clusters.empty(); ++r)
        for (const ClusterConfig& c : cfg.clusters)
            cluster_prof_.emplace_back(std::vector<std::int64_t>{c.nodes});
}

void Machine::enter_node_level(Time now) {
    spaces_.assign(static_cast<std::size_t>(rows()), NodeSpace(procs()));
    for (NodeSpace& s : spaces_) s.advance(now);
}

void Machine::node_take(std::int32_t row, const std::vector<NodeRun>& runs, Time from, Time to) {
    spaces_[static_cast<std::size_t>(row)].take(runs, from, to);
}

void Machine::node_take_out(std::int32_t node, Time from) {
    for (NodeSpace& s : spaces_) s.take({NodeRun{node, 1}}, from, kHorizon);
}

NodeWant Machine::want_of(const Demand& d) const {
    NodeWant w;
    w.count = d.procs;
    w.window = d.window;
    for (std::int32_t i = 0; i < d.nparts; ++i)
        w.allowed.push_back(&partitions_[static_cast<std::size_t>(d.parts[i])]);
    w.excluded = d.excluded;
    w.include = d.include;
    return w;
}

bool Machine::pick_now(std::int32_t row, const Demand& d, Time now,
                       std::vector<NodeRun>& out) const {
    return spaces_[static_cast<std::size_t>(row)].earliest(want_of(d), now, now, &out) == now;
}

void Machine::advance(Time now) {
    for (NodeSpace& s : spaces_) s.advance(now);
    for (Profile& p : rows_) p.advance(now);
    if (pools_) pools_->advance(now);
    for (Profile& p : cluster_prof_) p.advance(now);
}

std::int32_t Machine::cluster_of(std::int32_t node) const {
    const auto it = std::upper_bound(cluster_first_.begin(), cluster_first_.end(), node);
    return static_cast<std::int32_t>(it - cluster_first_.begin()) - 1;
}

bool Machine::fits_at(std::int32_t row, const Demand& d, Time start) const {
    const std::int64_t p = d.procs;
    if (!rows_[static_cast<std::size_t>(row)].fits(start, &p, d.window)) return false;
    if (pools_ && !pools_->fits(start, d.pools, d.window)) return false;
    if (node_level() &&
        spaces_[static_cast<std::size_t>(row)].earliest(want_of(d), start, start) != start)
        return false;
    if (cluster_prof_.empty()) return true;
    return d.clusters ? clusters_hold(row, d, d.clusters, start)
                      : worst_fit(row, d, start, nullptr);
}

// "From now on" ends at the horizon, past every reservation, so that the
// profile keeps a last step that lasts forever.
// Under gang scheduling the column is out of every row: taken in each row's
// profile and matrix, with no job in its cells.
void Machine::node_out(std::int32_t node, Time from) {
    const std::int64_t one = 1;
    for (std::int32_t r = 0; r < matrix_.rows(); ++r) {
        rows_[static_cast<std::size_t>(r)].take(from, kHorizon, &one);
        matrix_.place(r, {NodeRun{node, 1}}, Matrix::kEmpty);
    }
    node_take_out(node, from);
    if (!cluster_prof_.empty())
        for (std::int32_t r = 0; r < matrix_.rows(); ++r)
            cluster_prof(r, cluster_of(node)).take(from, kHorizon, &one);
}

void Machine::node_in(std::int32_t node, Time from) {
    const std::int64_t one = 1;
    for (std::int32_t r = 0; r < matrix_.rows(); ++r) {
        rows_[static_cast<std::size_t>(r)].give(from, kHorizon, &one);
        matrix_.clear(r, {NodeRun{node, 1}});
    }
    for (NodeSpace& s : spaces_) s.give({NodeRun{node, 1}}, from, kHorizon);
    if (!cluster_prof_.empty())
        for (std::int32_t r = 0; r < matrix_.rows(); ++r)
            cluster_prof(r, cluster_of(node)).give(from, kHorizon, &one);
}

bool Machine::worst_fit(std::int32_t row, const Demand& d, Time t, std::int16_t* out) const {
    const auto k = static_cast<std::size_t>(d.components);
    if (k > cluster_nodes_.size()) return false;
    room_.clear();
    for (std::int32_t c = 0; c < clusters(); ++c)
        room_.emplace_back(cluster_profile(row, c).min_free(t, t + d.window), c);
    // Most room first; on a tie the lower cluster, so placements are
    // deterministic.
    std::sort(room_.begin(), room_.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    order_.resize(k);
    for (std::size_t i = 0; i < k; ++i) order_[i] = static_cast<std::int32_t>(i);
    std::stable_sort(order_.begin(), order_.end(),
                     [&](std::int32_t a, std::int32_t b) { return d.widths[a] > d.widths[b]; });
    for (std::size_t i = 0; i < k; ++i) {
        const auto comp = static_cast<std::size_t>(order_[i]);
        if (d.widths[comp] > room_[i].first) return false;
        if (out) out[comp] = static_cast<std::int16_t>(room_[i].second);
    }
    return true;
}

bool Machine::clusters_hold(std::int32_t row, const Demand& d, const std::int16_t* clusters,
                            Time t) const {
    for (std::int32_t i = 0; i < d.components; ++i) {
        const std::int64_t w = d.widths[i];
        if (!cluster_profile(row, clusters[i]).fits(t, &w, d.window)) return false;
    }
    return true;
}

void Machine::allocate_components(std::int32_t row, const Demand& d, std::vector<NodeRun>& out,
                                  Matrix::Slot s) {
    for (std::int32_t i = 0; i < d.components; ++i) {
        const std::int32_t c = d.clusters[i];
        matrix_.allocate_in(row, cluster_first(c), cluster_first(c) + cluster_nodes(c), d.widths[i],
                            out, s);
    }
    std::sort(out.begin(), out.end(),
              [](const NodeRun& a, const NodeRun& b) { return a.first < b.first; });
}

// The earliest start at which the processors, the pools and a placement on
// distinct clusters all hold the window. The room of a cluster over a
// window starting at t grows only when t passes a step of its profile, so
// the search tries those instants in turn.
Time Machine::earliest_clustered(std::int32_t row, const Demand& d, Time from) const {
    Time t = from;
    for (;;) {
        t = earliest_in(row, d, t);
        if (t == kForever || worst_fit(row, d, t, nullptr)) return t;
        Time next = kForever;
        for (std::int32_t c = 0; c < clusters(); ++c)
            next = std::min(next, cluster_profile(row, c).next_change(t));
        if (next > kHorizon - d.window) return kForever;  // no window ends by the horizon
        t = next;
    }
}

bool Machine::row_holds(std::int32_t row, const Demand& d, Time start, Time end) const {
    if (start >= end) return true;
    const std::int64_t p = d.procs;
    if (!rows_[static_cast<std::size_t>(row)].fits(start, &p, end - start)) return false;
    if (!cluster_prof_.empty()) {
        Demand w = d;
        w.window = end - start;
        if (!clusters_hold(row, w, d.clusters, start)) return false;
    }
    return !node_level() || spaces_[static_cast<std::size_t>(row)].free_over(*d.runs, start, end);
}

void Machine::move(std::int32_t from, std::int32_t to, const Demand& d, Time start, Time end) {
    if (start >= end) return;
    const std::int64_t p = d.procs;
    rows_[static_cast<std::size_t>(from)].give(start, end, &p);
    rows_[static_cast<std::size_t>(to)].take(start, end, &p);
    if (!cluster_prof_.empty()) {
        clusters_change(from, d, start, end, -1);
        clusters_change(to, d, start, end, +1);
    }
    if (!node_level()) return;
    spaces_[static_cast<std::size_t>(from)].give(*d.runs, start, end);
    spaces_[static_cast<std::size_t>(to)].take(*d.runs, start, end);
}

void Machine::clusters_change(std::int32_t row, const Demand& d, Time start, Time end, int sign) {
    if (!d.clusters) throw Error(Errc::internal, "a job's components are not placed");
    for (std::int32_t i = 0; i < d.components; ++i) {
        const std::int64_t w = d.widths[i];
        Profile& prof = cluster_prof(row, d.clusters[i]);
        if (sign > 0)
            prof.take(start, end, &w);
        else
            prof.give(start, end, &w);
    }
}

std::int32_t Machine::row_for_now(const Demand& d, Time now) const {
    std::int32_t best = -1;
    for (std::int32_t r = 0; r < rows(); ++r) {
        if (matrix_.free(r) < d.procs) continue;
        if (best >= 0 && matrix_.free(r) >= matrix_.free(best)) continue;  // best fit
        if (buddy()) {
            NodeRun block{};
            if (!matrix_.buddy_block(r, d.procs, block)) continue;
            Demand whole = d;
            whole.procs = block.count;
            if (fits_at(r, whole, now)) best = r;
        } else if (fits_at(r, d, now)) {
            best = r;
        }
    }
    return best;
}

// Alternates the processors of the row, the pools and, at node level, the
// row's nodes until all hold the window: each search only moves the start
// later, so this ends.
Time Machine::earliest_in(std::int32_t row, const Demand& d, Time from,
                          std::vector<NodeRun>* pick) const {
    const std::int64_t p = d.procs;
    const Profile& prof = rows_[static_cast<std::size_t>(row)];
    const Time latest = kHorizon - d.window;
    const NodeWant want = node_level() ? want_of(d) : NodeWant{};
    Time t = from;
    for (;;) {
        t = prof.earliest(t, &p, d.window, latest);
        if (t == kForever) return t;
        if (pools_) {
            const Time u = pools_->earliest(t, d.pools, d.window, latest);
            if (u == kForever) return u;
            if (u != t) {
                t = u;
                continue;
            }
        }
        if (!node_level()) return t;
        const Time u = spaces_[static_cast<std::size_t>(row)].earliest(want, t, latest, pick);
        if (u == t || u == kForever) return u;
        t = u;
    }
}

std::pair<Time, std::int32_t> Machine::earliest(const Demand& d, Time from,
                                                const std::vector<char>* ok,
                                                std::vector<NodeRun>* pick) const {
    Time best = kForever;
    std::int32_t row = -1;
    for (std::int32_t r = 0; r < rows(); ++r) {
        if (ok && !(*ok)[static_cast<std::size_t>(r)]) continue;
        const Time t =
            cluster_prof_.empty() ? earliest_in(r, d, from) : earliest_clustered(r, d, from);
        if (row < 0 || t < best) {
            best = t;
            row = r;
        }
    }
    // The nodes of the row chosen (searched again: a pick per row would
    // cost a copy per row).
    if (pick && node_level() && row >= 0 && best != kForever) earliest_in(row, d, best, pick);
    return {best, row};
}

void Machine::take(std::int32_t row, Time start, Time end, const Demand& d) {
    const std::int64_t p = d.procs;
    rows_[static_cast<std::size_t>(row)].take(start, end, &p);
    if (node_level()) {
        if (!d.runs) throw Error(Errc::internal, "take: no nodes named at node level");
        spaces_[static_cast<std::size_t>(row)].take(*d.runs, start, end);
    }
    if (pools_) pools_->take(start, end, d.pools);
    if (!cluster_prof_.empty()) clusters_change(row, d, start, end, +1);
}

void Machine::give(std::int32_t row, Time start, Time end, const Demand& d) {
    const std::int64_t p = d.procs;
    rows_[static_cast<std::size_t>(row)].give(start, end, &p);
    if (node_level()) {
        if (!d.runs) throw Error(Errc::internal, "give: no nodes named at node level");
        spaces_[static_cast<std::size_t>(row)].give(*d.runs, start, end);
    }
    if (pools_) pools_->give(start, end, d.pools);
    if (!cluster_prof_.empty()) clusters_change(row, d, start, end, -1);
}

}  // namespace rota
