// What a job may use under the class passes: the nodes of its partition
// and node lists, and the machine's pools (docs/design.md, "Composing the
// disciplines"). A job with no node constraint on a machine without pools
// is counted in processors only, exactly as [Feitelson97] §4.3 counts.
//
// Under the class passes a job runs in the first of its partitions that
// can hold it, and a job with a node list is loaded only where its nodes
// are idle: it preempts no job for them.
#include <bit>

#include "class_passes.h"

namespace rota {

namespace {

constexpr std::size_t kBits = 64;

bool has(const NodeBits& b, std::int32_t n) {
    return (b[static_cast<std::size_t>(n) / kBits] >> (static_cast<std::size_t>(n) % kBits)) & 1u;
}

void without_excluded(const Job& j, NodeBits& b) {
    if (j.excluded)
        for (std::size_t w = 0; w < b.size(); ++w) b[w] &= ~(*j.excluded)[w];
}

// Whether the nodes `b` can ever hold the job, its node list with it.
bool holds(const NodeBits& b, const Job& j) {
    std::int64_t n = 0;
    for (std::uint64_t w : b) n += std::popcount(w);
    if (n < j.spec.procs) return false;
    for (const NodeRun& r : j.spec.include)
        for (std::int32_t k = r.first; k < r.first + r.count; ++k)
            if (!has(b, k)) return false;
    return true;
}

}  // namespace

ClassPasses::Fit ClassPasses::fit_of(const Job& j) const {
    Fit f;
    if (j.parts.empty() && !j.excluded && j.spec.include.empty()) return f;
    f.any = false;
    if (!j.spec.include.empty()) f.include = &j.spec.include;
    if (j.parts.empty()) {
        f.allowed = node_bits(cfg().procs, {NodeRun{0, cfg().procs}});
        without_excluded(j, f.allowed);
        return f;
    }
    // A set is built in one partition: the first that can ever hold the
    // job, its exclusions taken away and its node list inside. Admission
    // passed the job because one of them can (Scheduler::nodes_reason); the
    // first named, or the first default one, may not, and a job placed
    // there would wait forever.
    for (std::int16_t p : j.parts) {
        f.allowed = machine().partition(p);
        without_excluded(j, f.allowed);
        if (holds(f.allowed, j)) break;
    }
    return f;
}

std::int64_t ClassPasses::usable(const Fit& f, const std::vector<NodeRun>& runs) const {
    std::int64_t n = 0;
    for (const NodeRun& r : runs) {
        if (f.any) {
            n += r.count;
            continue;
        }
        for (std::int32_t k = r.first; k < r.first + r.count; ++k) n += has(f.allowed, k);
    }
    return n;
}

void ClassPasses::keep_usable(const Fit& f, std::vector<NodeRun>& runs) const {
    if (f.any) return;
    std::vector<NodeRun> out;
    for (const NodeRun& r : runs)
        for (std::int32_t k = r.first; k < r.first + r.count; ++k) {
            if (!has(f.allowed, k)) continue;
            if (!out.empty() && out.back().first + out.back().count == k)
                ++out.back().count;
            else
                out.push_back({k, 1});
        }
    runs = std::move(out);
}

// Idle processors the job may use, outside the reserved set if asked.
std::int64_t ClassPasses::idle_for(const Fit& f, bool outside_set) const {
    const std::int64_t set_idle =
        outside_set && !class_set_.empty() ? machine().matrix().free_where_busy(0, set_nodes_) : 0;
    if (f.any) return machine().matrix().free(0) - set_idle;
    std::vector<NodeRun>& runs = idle_scratch_;
    free_runs(outside_set, runs);
    return usable(f, runs);
}

bool ClassPasses::includes_idle(const Fit& f, bool outside_set) const {
    if (!f.include) return true;
    std::vector<NodeRun>& runs = idle_scratch_;
    free_runs(outside_set, runs);
    const NodeBits idle = node_bits(cfg().procs, runs);
    for (const NodeRun& r : *f.include)
        for (std::int32_t k = r.first; k < r.first + r.count; ++k)
            if (!has(idle, k) || !has(f.allowed, k)) return false;
    return true;
}

ClassPasses::Cover ClassPasses::cover_now(const Job& j, std::int64_t idle,
                                          bool leave_reserved) const {
    Cover c;
    c.procs = idle;
    const Job* r = leave_reserved && class_reserved_ != kNoSlot && &job(class_reserved_) != &j
                       ? &job(class_reserved_)
                       : nullptr;
    for (std::size_t k = 0; k < cfg().pools.size(); ++k)
        c.pools.push_back(pools_.free(k) - (r ? r->spec.pools[k] : 0));
    return c;
}

void ClassPasses::cover_add(Cover& c, const Fit& f, const Job& v, int sign) const {
    c.procs += sign * usable(f, v.alloc.runs);
    for (std::size_t k = 0; k < c.pools.size(); ++k) c.pools[k] += sign * v.spec.pools[k];
}

bool ClassPasses::covers(const Cover& c, const Job& j) const {
    if (c.procs < j.spec.procs) return false;
    for (std::size_t k = 0; k < c.pools.size(); ++k)
        if (c.pools[k] < j.spec.pools[k]) return false;
    return true;
}

// Pass 1's reserved set is processors; a pool the reserved job needs may
// be held by loaded jobs off the set (a licence held by a job elsewhere,
// which candidate_sets counted in the set's cost). Once the set is free,
// such holders that the job may preempt leave, lowest class first, then
// those with the fewest processors, each once its do-not-disturb time is
// over. True when the pools hold the job now.
bool ClassPasses::take_pools_for(const Job& j) {
    Cover have = cover_now(j, j.spec.procs, false);
    if (covers(have, j)) return true;
    std::vector<Slot>& holders = chosen_scratch_;
    holders.clear();
    for (Slot v : running()) {
        const Job& x = job(v);
        bool helps = false;
        for (std::size_t k = 0; k < have.pools.size(); ++k)
            helps = helps || (x.spec.pools[k] > 0 && have.pools[k] < j.spec.pools[k]);
        if (helps && may_preempt(x, j, true)) holders.push_back(v);
    }
    std::stable_sort(holders.begin(), holders.end(), [&](Slot a, Slot b) {
        const std::int32_t pa = job_class(job(a)).priority, pb = job_class(job(b)).priority;
        return pa != pb ? pa < pb : job(a).alloc.procs < job(b).alloc.procs;
    });
    bool waiting = false;  // a holder still in its do-not-disturb time
    for (Slot v : holders) {
        if (covers(have, j)) break;
        for (std::size_t k = 0; k < have.pools.size(); ++k) have.pools[k] += job(v).spec.pools[k];
        if (job(v).dnd_end <= now())
            swap_out(v, false);
        else
            waiting = true;
    }
    return !waiting && covers(cover_now(j, j.spec.procs, false), j);
}

// Whether the job can be loaded on idle processors now.
bool ClassPasses::fits_idle(const Job& j, const Fit& f, bool outside_set,
                            bool leave_reserved) const {
    const std::int64_t idle = idle_for(f, outside_set);
    if (idle < j.spec.procs) return false;
    if (!cfg().pools.empty() && !covers(cover_now(j, idle, leave_reserved), j)) return false;
    return includes_idle(f, outside_set);
}

}  // namespace rota
