// The machine model (docs/design.md, "The machine model"): what is held now,
// the Ousterhout matrix, and what is promised over time, an availability
// profile per row for its columns plus one profile for the pooled
// resources, which a job holds in every row alike ([Leinberger99]'s K resources).
// Space sharing is one row; the scheduling pass asks the same questions in
// every mode: does a demand fit now, and in which row; where is the
// earliest slot for it.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "config.h"
#include "matrix.h"
#include "node_space.h"
#include "profile.h"

namespace rota {

// What a job asks of the machine for its window.
struct Demand {
    std::int32_t procs = 0;
    const std::int64_t* pools = nullptr;  // one per pool, or null when there are none
    Time window = 0;
    // On a multi-cluster machine: the widths of the components and, once
    // placed, the cluster of each (null while unplaced).
    std::int32_t components = 0;
    const std::int32_t* widths = nullptr;
    const std::int16_t* clusters = nullptr;
    // On a machine that keeps which nodes are free (Machine::node_level()):
    // the partitions the job may run in (none: any node), the nodes it must
    // avoid and must include, and the nodes it holds (running) or its
    // reservation holds (null while it has none).
    const std::int16_t* parts = nullptr;
    std::int32_t nparts = 0;
    const NodeBits* excluded = nullptr;
    const std::vector<NodeRun>* include = nullptr;
    const std::vector<NodeRun>* runs = nullptr;
};

class Machine {
  public:
    // The end of the time axis for promises: no reservation ends past it,
    // so start + window never overflows however long the queue of long
    // jobs, and a node out of service is out until then (node_out).
    static constexpr Time kHorizon = kForever / 2;

    explicit Machine(const SchedulerConfig& cfg);

    std::int32_t rows() const { return matrix_.rows(); }
    // Partitions and node lists (docs/design.md, "Partitions and node
    // constraints"): the machine keeps which nodes of each row are free over
    // time (node_space.h) besides how many. From the start with partitions;
    // an engine enters it when a job first names nodes (enter_node_level,
    // then node_take for what runs and node_take_out for what is out).
    bool node_level() const { return !spaces_.empty(); }
    const NodeBits& partition(std::int32_t p) const {
        return partitions_[static_cast<std::size_t>(p)];
    }
    void enter_node_level(Time now);
    void node_take(std::int32_t row, const std::vector<NodeRun>& runs, Time from, Time to);
    void node_take_out(std::int32_t node, Time from);
    // At node level: the nodes `d` would run on from now in `row` (false if
    // none hold it): those it must include, then the lowest it may use.
    bool pick_now(std::int32_t row, const Demand& d, Time now, std::vector<NodeRun>& out) const;
    std::int32_t procs() const { return matrix_.cols(); }
    bool has_pools() const { return pools_ != nullptr; }
    // [Ngubiri07]'s clusters: cluster c holds the columns [cluster_first(c),
    // cluster_first(c + 1)). 0 clusters: one machine.
    std::int32_t clusters() const { return static_cast<std::int32_t>(cluster_nodes_.size()); }
    std::int32_t cluster_first(std::int32_t c) const {
        return cluster_first_[static_cast<std::size_t>(c)];
    }
    std::int32_t cluster_nodes(std::int32_t c) const {
        return cluster_nodes_[static_cast<std::size_t>(c)];
    }
    std::int32_t cluster_of(std::int32_t node) const;
    // A cluster's idle nodes and its profile in `row` (each row of the
    // matrix has its own: a job's components hold their clusters in the
    // job's home row).
    std::int32_t cluster_idle(std::int32_t row, std::int32_t c) const {
        return matrix_.free_in(row, cluster_first(c), cluster_first(c) + cluster_nodes(c));
    }
    const Profile& cluster_profile(std::int32_t row, std::int32_t c) const {
        return cluster_prof_[static_cast<std::size_t>(row) * cluster_nodes_.size() +
                             static_cast<std::size_t>(c)];
    }
    // Worst Fit (WFit, [Ngubiri07] §3) for a job over [t, t + window): the
    // widest component to the cluster with the most room, the next widest
    // to the next, and so on; room being what the cluster has free over
    // the whole window. Writes the cluster of each component into `out`
    // (d.components entries) if not null. False if no placement on
    // distinct clusters holds every component: then none does, since
    // pairing widest with roomiest is the test of whether one exists.
    bool worst_fit(std::int32_t row, const Demand& d, Time t, std::int16_t* out) const;
    // Whether component widths `d` fit clusters `clusters` over the window.
    bool clusters_hold(std::int32_t row, const Demand& d, const std::int16_t* clusters,
                       Time t) const;
    // A node leaves (down, drained) or comes back: one column less or more
    // from `from` on, in the row and in its cluster. The caller has freed
    // it in the matrix.
    void node_out(std::int32_t node, Time from);
    void node_in(std::int32_t node, Time from);
    // Places the nodes of a job started now in `row` on its clusters
    // (d.clusters), its cells given to `s`.
    void allocate_components(std::int32_t row, const Demand& d, std::vector<NodeRun>& out,
                             Matrix::Slot s);
    const std::vector<std::int64_t>& pool_capacity() const { return pool_capacity_; }

    Matrix& matrix() { return matrix_; }
    const Matrix& matrix() const { return matrix_; }
    const Profile& profile(std::int32_t row) const { return rows_[static_cast<std::size_t>(row)]; }

    void advance(Time now);

    // The best-fit row (fewest free columns) in which `d` can start now:
    // enough free columns, and its row's profile and the pools hold it for
    // the whole window, so that no reservation is touched. -1 if none.
    // Under buddy packing the row needs a free block for the job
    // (buddy_block), and its profile must hold the whole block.
    std::int32_t row_for_now(const Demand& d, Time now) const;
    // Buddy packing: the block of `row` a job of `procs` would hold now.
    bool buddy() const { return packing_ == Packing::buddy; }
    bool buddy_block(std::int32_t row, std::int32_t procs, NodeRun& out) const {
        return matrix_.buddy_block(row, procs, out);
    }
    // The earliest start at or after `from` over the rows `ok` accepts
    // (nullptr: all), ties to the lowest row. {kForever, -1} if no row is
    // accepted; {kForever, row} if no window ends by kHorizon.
    // At node level, `pick` gets the nodes there.
    std::pair<Time, std::int32_t> earliest(const Demand& d, Time from,
                                           const std::vector<char>* ok = nullptr,
                                           std::vector<NodeRun>* pick = nullptr) const;
    bool fits_at(std::int32_t row, const Demand& d, Time start) const;
    // Whether a running job's columns (`d`: its processors, its clusters'
    // widths, its nodes) are promised to nobody in `row` during
    // [start, end): it may move into that row (its pools stay).
    bool row_holds(std::int32_t row, const Demand& d, Time start, Time end) const;
    // Moves a running job's promise from one row to another.
    void move(std::int32_t from, std::int32_t to, const Demand& d, Time start, Time end);

    // Whether no pool is promised beyond its capacity during
    // [start, start + duration) (true without pools).
    bool pools_fit(Time start, Time duration) const {
        if (!pools_) return true;
        const std::vector<std::int64_t> none(pool_capacity_.size(), 0);
        return pools_->fits(start, none.data(), duration);
    }
    // What pool `k` has free at `t`, running jobs and reservations deducted.
    std::int64_t pool_free_at(Time t, std::size_t k) const { return pools_->free_at(t, k); }
    const Profile* pool_profile() const { return pools_.get(); }
    // Promise (take) or give back the window [start, end) of `d` in `row`.
    void take(std::int32_t row, Time start, Time end, const Demand& d);
    void give(std::int32_t row, Time start, Time end, const Demand& d);

    // Space sharing's hot question, from the queue entry alone: can a job
    // of `procs` columns and this window start now? Answers are cached per
    // width for as long as the profile and the time do not change: a queue
    // holds many jobs of the same few widths. Row 0, no pools.
    bool fits_now_fast(std::int32_t procs, Time window, Time now) const {
        if (procs > matrix_.free(0)) return false;
        prepare_fit_limits(now);
        return window <= fit_limit(procs) - now;
    }
    // The same in a loop: prepare once, then ask fit_limit per width (a job
    // of that width fits from now for any window up to limit - now).
    void prepare_fit_limits(Time now) const {
        if (limit_version_ != rows_[0].version() || limit_now_ != now) {
            ++limit_gen_;
            limit_version_ = rows_[0].version();
            limit_now_ = now;
        }
    }
    // The least row 0 has free at any time from `now` on: what jobs that run
    // past every drop of the profile share among themselves.
    std::int64_t free_throughout(Time now) const { return rows_[0].min_free(now, kForever); }
    Time fit_limit(std::int32_t procs) const {
        const auto w = static_cast<std::size_t>(procs);
        if (limit_stamp_[w] != limit_gen_) {
            limit_[w] = rows_[0].fit_limit(limit_now_, procs);
            limit_stamp_[w] = limit_gen_;
        }
        return limit_[w];
    }

  private:
    Matrix matrix_;
    Packing packing_;
    std::vector<std::int32_t> cluster_first_, cluster_nodes_;
    std::vector<Profile> cluster_prof_;  // row after row, a profile per cluster
    mutable std::vector<std::pair<std::int64_t, std::int32_t>> room_;  // worst_fit's scratch
    mutable std::vector<std::int32_t> order_;
    Time earliest_clustered(std::int32_t row, const Demand& d, Time from) const;
    Profile& cluster_prof(std::int32_t row, std::int32_t c) {
        return cluster_prof_[static_cast<std::size_t>(row) * cluster_nodes_.size() +
                             static_cast<std::size_t>(c)];
    }
    // Takes (sign 1) or gives back (-1) the components' widths in their
    // clusters' profiles of `row`.
    void clusters_change(std::int32_t row, const Demand& d, Time start, Time end, int sign);
    std::vector<Profile> rows_;
    std::vector<std::int64_t> pool_capacity_;
    std::unique_ptr<Profile> pools_;

    mutable std::vector<Time> limit_;
    mutable std::vector<std::uint64_t> limit_stamp_;
    mutable std::uint64_t limit_gen_ = 0;
    mutable std::uint64_t limit_version_ = ~std::uint64_t{0};
    mutable Time limit_now_ = kNoTime;

    Time earliest_in(std::int32_t row, const Demand& d, Time from,
                     std::vector<NodeRun>* pick = nullptr) const;
    std::vector<NodeSpace> spaces_;     // per row, at node level
    std::vector<NodeBits> partitions_;  // per configured partition
    NodeWant want_of(const Demand& d) const;
};

}  // namespace rota
