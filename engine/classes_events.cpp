// The class passes' part of the core's events: the class queues as jobs
// enter and leave the queue, the loaded processors as jobs end, and when
// the passes must run again.
#include <algorithm>

#include "class_passes.h"
#include "snapshot_io.h"

namespace rota {

ClassPasses::ClassPasses(Scheduler& core) : Discipline(core) {
    const ClassesConfig& c = cfg().classes;
    class_loaded_.assign(c.base.classes.size(), 0);
    pools_.init(cfg().pools);
    cand_batch_.inv_capacity.push_back(1.0 / static_cast<double>(cfg().procs));
    for (const PoolConfig& p : cfg().pools)
        cand_batch_.inv_capacity.push_back(1.0 / static_cast<double>(p.capacity));
    cand_batch_.names = &core.names();
    dnd_fixed_ = true;
    for (const ClassPeriod& p : c.periods)
        for (std::size_t k = 0; k < p.params.classes.size(); ++k)
            dnd_fixed_ = dnd_fixed_ && k < c.base.classes.size() &&
                         p.params.classes[k].preemptable == c.base.classes[k].preemptable;
    const auto n = static_cast<std::size_t>(cfg().procs);
    owner_.assign(n, kNoSlot);
    node_free_at_.assign(n, 0);
    // Where in the week each period starts and ends.
    for (const ClassPeriod& p : c.periods)
        for (int d = 0; d < 7; ++d) {
            if (!((p.days >> d) & 1u)) continue;
            const std::int32_t day = d * 86400;
            period_bounds_.push_back(day + p.from);
            period_bounds_.push_back((day + (p.from < p.to ? 0 : 86400) + p.to) % (7 * 86400));
        }
    std::sort(period_bounds_.begin(), period_bounds_.end());
    period_bounds_.erase(std::unique(period_bounds_.begin(), period_bounds_.end()),
                         period_bounds_.end());
}

std::optional<Time> ClassPasses::next_wakeup() const {
    if (classes_wakeup_ > now() && classes_wakeup_ != kForever) return classes_wakeup_;
    return std::nullopt;
}

void ClassPasses::queued(Slot s, std::size_t pos, bool) {
    classes_dirty_ = true;
    class_index_insert(s, pos);
    if (const Job& j = job(s); j.spec.begin > now()) begins_.add(j.spec.begin, j.seq, s);
}

void ClassPasses::dequeued(Slot s) {
    class_index_erase(s);
    classes_dirty_ = true;
}

void ClassPasses::cancelled(Slot s) {
    const Job& j = job(s);
    if (s == class_reserved_) drop_class_reservation();
    if (j.swapped) swapped_procs_ -= j.spec.procs;
}

void ClassPasses::released(Slot s, bool) {
    classes_dirty_ = true;
    unload(s);
}

// Loaded since its start, as if by the two passes.
void ClassPasses::adopted(Slot s, std::int32_t) {
    Job& j = job(s);
    for (const NodeRun& r : j.alloc.runs)
        for (std::int32_t k = r.first; k < r.first + r.count; ++k)
            owner_[static_cast<std::size_t>(k)] = s;
    const std::int32_t procs = j.spec.procs;
    loaded_procs_ += procs;
    class_loaded_[static_cast<std::size_t>(j.cls)] += procs;
    pools_.add(j, +1);
    const ClassLimits& l = class_params().limits;
    j.counted_large = l.large_job > 0 && procs >= l.large_job;
    if (j.counted_large) large_loaded_ += procs;
    j.exec_from = j.start;
    j.dnd_end = dnd_end_from(j, j.start);
    set_owners_known_ = false;  // it may be on the reserved set's processors
    dnd_marks_stale_ = true;
    victims_dirty_ = true;
}

void ClassPasses::rekeyed(bool resorted) {
    class_index_stale_ = true;  // the keys the class queues are sorted by changed
    if (resorted) classes_dirty_ = true;
}

// Snapshots: pass 1's reservation and its processor set, when the passes
// must run again, and the nodes whose last job is still writing its state
// out. What derives from the jobs (the loaded counts, the owners, the class
// queues, the victims' sums) is rebuilt.
void ClassPasses::save_records(std::string& o) const {
    using snap::num;
    o += "classes";
    num(o, class_reserved_ == kNoSlot ? std::int64_t{-1} : std::int64_t{class_reserved_});
    num(o, class_set_.size());
    for (const NodeRun& r : class_set_) {
        num(o, r.first);
        num(o, r.count);
    }
    num(o, classes_wakeup_);
    num(o, classes_dirty_ ? 1 : 0);
    std::size_t busy = 0;
    for (Time t : node_free_at_) busy += t > now();
    num(o, busy);
    for (std::size_t n = 0; n < node_free_at_.size(); ++n)
        if (node_free_at_[n] > now()) {
            num(o, n);
            num(o, node_free_at_[n]);
        }
    o += "\n";
}

void ClassPasses::load_records(SnapshotReader& in) {
    Record r = in.next("classes");
    const std::int64_t reserved = r.in_range("reserved slot", -1, INT32_MAX);
    class_set_ = r.runs(cfg().procs);
    const std::int64_t set_procs =
        snap::check_runs(class_set_, cfg().procs, "the class reservation's set");
    classes_wakeup_ = r.time("wakeup");
    classes_dirty_ = r.flag("dirty");
    const std::size_t busy = r.count(static_cast<std::size_t>(cfg().procs));
    // As written: in node order, each still writing after now.
    for (std::int64_t k = 0, last = -1; k < static_cast<std::int64_t>(busy); ++k) {
        const std::int64_t n = r.in_range("swapping node", last + 1, cfg().procs - 1);
        const Time until = r.in_range("swapping until", now() + 1, snap::kTimeBound);
        node_free_at_[static_cast<std::size_t>(n)] = until;
        node_free_max_ = std::max(node_free_max_, until);
        last = n;
    }
    r.done();
    if (reserved >= 0) {
        const auto u = static_cast<std::size_t>(reserved);
        if (u >= jobs().size() || job(static_cast<Slot>(u)).state != JobState::queued ||
            set_procs != job(static_cast<Slot>(u)).spec.procs)
            snap::bad("the class reservation is not a queued job's, on its processors");
        class_reserved_ = static_cast<Slot>(u);
        reserved_fit_ = fit_of(job(class_reserved_));
        set_nodes_ = NodePool(cfg().procs);
        set_nodes_.take(class_set_);
    } else if (!class_set_.empty()) {
        snap::bad("a class reservation's set without its job");
    }
}

void ClassPasses::check_job(const Job& j, const std::string& who) const {
    if (j.cls < 0 || static_cast<std::size_t>(j.cls) >= cfg().classes.base.classes.size())
        snap::bad(who + ": class " + std::to_string(j.cls) + " is not one of the configuration's");
    if (j.state == JobState::running && j.alloc.procs != j.spec.procs)
        snap::bad(who + ": running on " + std::to_string(j.alloc.procs) + " nodes for " +
                  std::to_string(j.spec.procs));
}

void ClassPasses::restored() {
    begins_.rebuild(queue(), now(), [&](Slot s) -> const Job& { return job(s); });
    for (Slot s = 0; s < jobs().size(); ++s) {
        const Job& j = job(s);
        if (j.state == JobState::running) {  // loaded: owner of its nodes
            for (const NodeRun& nr : j.alloc.runs)
                std::fill_n(owner_.begin() + nr.first, nr.count, s);
            loaded_procs_ += j.alloc.procs;
            class_loaded_[static_cast<std::size_t>(j.cls)] += j.alloc.procs;
            if (j.counted_large) large_loaded_ += j.alloc.procs;
            pools_.add(j, +1);
        } else if (j.swapped && (j.state == JobState::queued || j.state == JobState::suspended)) {
            swapped_procs_ += j.spec.procs;
        }
    }
    class_index_stale_ = true;
    class_pos_stale_ = true;
    victims_dirty_ = true;
    set_owners_known_ = false;
    dnd_marks_stale_ = true;
}

}  // namespace rota
