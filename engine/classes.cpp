// Job classes with lazy preemption ([Feitelson97] §4.2-4.3, the LLNL Cray T3D
// gang scheduler): with [classes] this two-pass algorithm is the schedule
// phase.
//
//   pass 1  jobs that waited past their class's maximum wait, by class
//           priority then wait: the first gets the lowest-cost processor
//           set reserved (cost: the nodes of the jobs to preempt, their
//           priority, their do-not-disturb time left); its jobs are swapped
//           out as their do-not-disturb times run out, and the job loads
//           when the set is free, or earlier wherever enough processors
//           are. One reservation at a time; a higher class past its wait
//           takes it over.
//   pass 2  the other jobs, by class priority then wait, within the
//           limits: on free processors (best fit; jobs that cannot be
//           preempted packed from the top) or on those of lower-class
//           jobs past their do-not-disturb time, swapped out.
//
// Preemption is lazy: a job is swapped out only when its processors are
// needed and its do-not-disturb time is over; its state goes to disk, and
// it waits again, to be loaded anywhere. Moving a job's state out and
// back in costs classes.swap_time per processor, half each way.
#include <algorithm>
#include <bit>
#include <functional>
#include <limits>

#include "class_passes.h"
#include "error.h"

namespace rota {

namespace {

constexpr std::int64_t kWeek = 7 * 86400;

Time sat_add(Time a, Time b) {
    return a > kForever - b ? kForever : a + b;
}

Time sat_mul(Time per, std::int64_t n) {
    if (n != 0 && per > kForever / n) return kForever;
    return per * n;
}

// A victim's cost per node for a job (victim_cost): 1 plus its priority
// relative to the job's.
double node_weight(std::int32_t victim_priority, std::int32_t job_priority) {
    const double pv = victim_priority, pj = job_priority;
    const double rel = pj > 0 ? std::max(pv, 0.0) / pj : 1.0;
    return 1.0 + rel;
}

}  // namespace

// --- The parameter set in force ---------------------------------------------

std::int32_t ClassPasses::period_at(Time t) const {
    const auto& ps = cfg().classes.periods;
    if (ps.empty()) return -1;
    const std::int64_t tow = ((t / kSecond + cfg().classes.week_origin) % kWeek + kWeek) % kWeek;
    const auto day = static_cast<int>(tow / 86400);
    const auto sec = static_cast<std::int32_t>(tow % 86400);
    for (std::size_t i = 0; i < ps.size(); ++i) {
        const ClassPeriod& p = ps[i];
        const bool today = (p.days >> day) & 1u;
        const bool yesterday = (p.days >> ((day + 6) % 7)) & 1u;
        const bool in = p.from < p.to ? today && sec >= p.from && sec < p.to
                                      : (today && sec >= p.from) || (yesterday && sec < p.to);
        if (in) return static_cast<std::int32_t>(i);
    }
    return -1;
}

// Asked for every job a pass looks at: the period is found once per time
// (class_params() is the cached answer).
const ClassParams& ClassPasses::find_class_params() const {
    const std::int32_t p = period_at(now());
    params_ =
        p < 0 ? &cfg().classes.base : &cfg().classes.periods[static_cast<std::size_t>(p)].params;
    params_at_ = now();
    return *params_;
}

Time ClassPasses::next_period_change() const {
    if (period_bounds_.empty()) return kForever;
    const Time secs = now() / kSecond;
    const std::int64_t tow = ((secs + cfg().classes.week_origin) % kWeek + kWeek) % kWeek;
    auto it = std::upper_bound(period_bounds_.begin(), period_bounds_.end(), tow);
    const std::int64_t next = it == period_bounds_.end() ? period_bounds_.front() + kWeek : *it;
    return (secs + (next - tow)) * kSecond;
}

// Counted from the load (§4.2: "the minimum processor allocation time").
// A loaded job is also kept until it has executed for as long as its load
// took (its swap-in, nodes still being written out), and for one second at
// least: two jobs that wait past their maximum wait would otherwise take
// each other's processors before either executes (or a microsecond at a
// time, with no swap cost), forever, whenever the class's do-not-disturb
// time is shorter than a swap-in. The paper asks for do-not-disturb times
// "substantially larger" than a swap, where this bound never binds.
Time ClassPasses::dnd_end_from(const Job& j, Time from) const {
    Time end = sat_add(from, sat_mul(job_class(j).dnd, j.spec.procs));
    if (j.exec_from != kNoTime) {
        const Time exec = std::max(from, j.exec_from);
        end = std::max(end, sat_add(exec, std::max<Time>(kSecond, exec - from)));
    }
    // Past the time axis (swaps of absurd length): never, as a snapshot
    // records it; a time there would not restore.
    return end > kTimeAxisEnd ? kForever : end;
}

// --- Limits ---------------------------------------------------------------

// Why a job can never be loaded under any parameter set, or "". Asked at
// every admission: the limits are compared first, and the reason is only
// put into words for a job that is refused.
std::string ClassPasses::never_loads(const Job& j) const {
    auto most = [&](const ClassParams& p, std::string* why) {
        std::int64_t m = cfg().procs;
        if (why) *why = "the machine has " + std::to_string(cfg().procs);
        auto cap = [&](std::int32_t v, auto what) {
            if (v > 0 && v < m) {
                m = v;
                if (why) *why = what() + " is " + std::to_string(v);
            }
        };
        const JobClassConfig& c = p.classes[static_cast<std::size_t>(j.cls)];
        cap(p.limits.job_procs, [] { return std::string("the job processor limit"); });
        cap(c.procs, [&] { return "class " + c.name + "'s processor limit"; });
        cap(p.limits.system_procs, [] { return std::string("the system processor limit"); });
        if (p.limits.large_job > 0 && j.spec.procs >= p.limits.large_job)
            cap(p.limits.large_procs, [] { return std::string("the large job processor limit"); });
        return m;
    };
    if (most(cfg().classes.base, nullptr) >= j.spec.procs) return "";
    for (const ClassPeriod& p : cfg().classes.periods)
        if (most(p.params, nullptr) >= j.spec.procs) return "";
    std::string why;
    most(cfg().classes.base, &why);
    return "requests " + std::to_string(j.spec.procs) + " processors; " + why;
}

// §4.2: processors of jobs loaded or swapped out stay within the system
// limit; a job whose state is already on disk is counted already.
bool ClassPasses::system_allows(const Job& j) const {
    const std::int32_t lim = class_params().limits.system_procs;
    return lim <= 0 || j.swapped || loaded_procs_ + swapped_procs_ + j.spec.procs <= lim;
}

// Pass 2's limits: job, large job and class processor limits, and the
// system limit.
bool ClassPasses::limits_allow(const Job& j) const {
    const ClassParams& p = class_params();
    const ClassLimits& l = p.limits;
    const std::int32_t n = j.spec.procs;
    if (l.job_procs > 0 && n > l.job_procs) return false;
    if (l.large_job > 0 && n >= l.large_job && l.large_procs > 0 &&
        large_loaded_ + n > l.large_procs)
        return false;
    return class_allows(j) && system_allows(j);
}

// The class's processor limit. Pass 2 checks it with the other limits;
// pass 1 compares a job past its maximum wait with the job processor limit
// only ([Feitelson97] §4.3), so that no limit starves it.
bool ClassPasses::class_allows(const Job& j) const {
    const JobClassConfig& c = job_class(j);
    return c.procs <= 0 || class_loaded_[static_cast<std::size_t>(j.cls)] + j.spec.procs <= c.procs;
}

// §4.3: never a higher class, never a debug or benchmark job (classes that
// are not preemptable). Pass 2 only takes processors of lower classes past
// their do-not-disturb time; pass 1 also of the job's own class, lazily.
bool ClassPasses::may_preempt(const Job& v, const Job& for_job, bool pass1) const {
    const JobClassConfig& vc = job_class(v);
    if (!vc.preemptable || v.start == now()) return false;
    const std::int32_t pv = vc.priority, pj = job_class(for_job).priority;
    if (pass1 ? pv > pj : (pv >= pj || v.dnd_end > now())) return false;
    return true;
}

// §4.3's cost of preempting `v` for `for_job`: its nodes, weighted by its
// priority relative to the job's, plus the seconds of do-not-disturb time
// it has left (a set is as slow as its slowest victim: candidate_sets adds
// the largest of those once per set).
double ClassPasses::victim_cost(const Job& v, const Job& for_job) const {
    return static_cast<double>(v.alloc.procs) *
           node_weight(job_class(v).priority, job_class(for_job).priority);
}

// [Feitelson97]: the class columns of the batches admit() and rekey_queue()
// build read each class's priority in the parameter set in force.
void ClassPasses::batch_columns(JobBatch& b) {
    std::vector<std::int32_t>& p = b.class_priorities;
    p.clear();
    for (const JobClassConfig& c : class_params().classes) p.push_back(c.priority);
}

// --- Loading and swapping --------------------------------------------------

void ClassPasses::load(Slot s, const std::vector<NodeRun>& runs) {
    Job& j = job(s);
    const std::int32_t n = j.spec.procs;
    // Former jobs still writing their state out: none once the last
    // swap-out anywhere is over, without a look at the nodes.
    const bool writing = node_free_max_ > now();
    Time wait_nodes = 0;
    for (const NodeRun& r : runs) {
        if (r.count <= 0) continue;
        const auto at = static_cast<std::ptrdiff_t>(r.first);
        if (writing) {
            const Time last =
                *std::max_element(node_free_at_.begin() + at, node_free_at_.begin() + at + r.count);
            wait_nodes = std::max(wait_nodes, last - now());
        }
        std::fill_n(owner_.begin() + at, r.count, s);
    }
    const bool swap_in = j.swapped;
    const Time in = swap_in ? sat_mul(cfg().classes.swap_time, n) / 2 : 0;
    const Time delay = wait_nodes + in;
    j.alloc.runs = runs;
    j.alloc.procs = n;
    j.alloc.home_row = 0;
    j.alloc.row_mask = 1;
    machine().matrix().place(0, runs, s);
    j.exec_from = now() + delay;
    j.window = delay + std::max<Time>(1, j.spec.estimate - j.used);
    j.dnd_end = dnd_end_from(j, now());
    // Its user's account holds it while it is loaded: release() gives the
    // processors back when it ends or is swapped out.
    now_running(s);
    loaded_procs_ += n;
    class_loaded_[static_cast<std::size_t>(j.cls)] += n;
    pools_.add(j, +1);
    const ClassLimits& l = class_params().limits;
    j.counted_large = l.large_job > 0 && n >= l.large_job;
    if (j.counted_large) large_loaded_ += n;
    if (swap_in) {
        swapped_procs_ -= n;
        j.swapped = false;
        ++counters().swap_ins;
    } else {
        ++counters().started;
    }
    class_index_erase(s);
    if (class_pos_stale_) refresh_class_pos();
    queue().kill(class_pos_[s]);
    // What preemption could free is as it was (preemptable_procs): a job
    // loaded now is no victim before a later time.
    victim_loaded(s);
    expiries().set({j.estimated_end(), j.seq, s});
    mark_dnd(s);
    Action a{swap_in ? ActionType::swap_in : ActionType::start, j.spec.id, now()};
    a.delay = delay;
    emit_with_runs(a, runs, n);
}

// The bookkeeping of a loaded job that leaves its processors (release()).
void ClassPasses::unload(Slot s) {
    Job& j = job(s);
    const std::int32_t n = j.alloc.procs;
    for (const NodeRun& r : j.alloc.runs) std::fill_n(owner_.begin() + r.first, r.count, kNoSlot);
    victim_unloaded(s);
    loaded_procs_ -= n;
    class_loaded_[static_cast<std::size_t>(j.cls)] -= n;
    pools_.add(j, -1);
    // Counted as it was at load: a period may have changed what is large.
    if (j.counted_large) large_loaded_ -= n;
    j.counted_large = false;
}

void ClassPasses::swap_out(Slot s, bool by_user) {
    Job& j = job(s);
    const std::int32_t n = j.alloc.procs;
    if (now() > j.exec_from) j.used = std::min(j.spec.estimate, j.used + (now() - j.exec_from));
    const Time out = sat_mul(cfg().classes.swap_time, n) / 2;
    for (const NodeRun& r : j.alloc.runs)
        std::fill_n(node_free_at_.begin() + r.first, r.count, now() + out);
    node_free_max_ = std::max(node_free_max_, now() + out);
    Action a{ActionType::swap_out, j.spec.id, now()};
    a.delay = out;
    emit_with_runs(a, j.alloc.runs, n);
    release(s);
    j.alloc.runs.clear();
    j.swapped = true;
    swapped_procs_ += n;
    j.swapping_until = now() + out;
    j.wait_from = now();
    j.exec_from = kNoTime;
    j.dnd_end = kNoTime;
    if (by_user) {
        j.state = JobState::suspended;
    } else {
        ++j.preemptions;
        ++counters().preemptions;
        j.state = JobState::queued;
        if (!policy(Hook::order)) j.order_key = static_cast<double>(now());
        requeued_.push_back(s);
    }
}

// --- Processor sets --------------------------------------------------------

// The idle processors as runs, without the reserved set's if asked (a
// node out of service is not idle): word by word against the set's bitset.
void ClassPasses::free_runs(bool outside_set, std::vector<NodeRun>& out) const {
    out.clear();
    if (!outside_set || class_set_.empty())
        machine().matrix().free_runs(0, out);
    else
        machine().matrix().free_runs_where_idle(0, set_nodes_, out);
}

// §4.3's best fit among the idle processors: the smallest run that holds
// the job, else runs from the largest down. Jobs that cannot be preempted
// are packed from the top of the machine, the others from the bottom, so
// that the former do not break up the space of large jobs.
// A job with a node list takes its nodes first, and the rest by best fit.
void ClassPasses::best_fit(const Job& j, bool outside_set, std::vector<NodeRun>& out,
                           const Fit& f) const {
    std::vector<NodeRun>& runs = fit_scratch_;
    free_runs(outside_set, runs);
    const bool top = !job_class(j).preemptable;
    std::int32_t need = j.spec.procs;
    out.clear();
    if (!f.any) {
        Fit rest = f;
        if (f.include)
            for (const NodeRun& r : *f.include) {
                out.push_back(r);
                need -= r.count;
                for (std::int32_t k = r.first; k < r.first + r.count; ++k)
                    rest.allowed[static_cast<std::size_t>(k) / 64] &=
                        ~(std::uint64_t{1} << (static_cast<std::size_t>(k) % 64));
            }
        keep_usable(rest, runs);
    }
    const NodeRun* fit = nullptr;
    for (const NodeRun& r : runs)
        if (r.count >= need && (!fit || r.count < fit->count || (top && r.count == fit->count)))
            fit = &r;
    if (fit && need > 0) {
        out.push_back({top ? fit->first + fit->count - need : fit->first, need});
        std::sort(out.begin(), out.end(),
                  [](const NodeRun& a, const NodeRun& b) { return a.first < b.first; });
        return;
    }
    std::stable_sort(runs.begin(), runs.end(),
                     [](const NodeRun& a, const NodeRun& b) { return a.count > b.count; });
    for (const NodeRun& r : runs) {
        if (need == 0) break;
        const std::int32_t k = std::min(need, r.count);
        out.push_back({top ? r.first + r.count - k : r.first, k});
        need -= k;
    }
    std::sort(out.begin(), out.end(),
              [](const NodeRun& a, const NodeRun& b) { return a.first < b.first; });
}

// Pass 1's candidate sets for job s: the idle processors plus victims
// taken greedily in four orders (cheapest per node, soonest out of their
// do-not-disturb time, widest, lowest class), until they hold the job.
// rota's nodes have no shape constraints (the T3D's had), so a set is
// known by its victims; identical sets are listed once.
void ClassPasses::candidate_sets(Slot s, const Fit& f) {
    sets_.clear();
    const Job& j = job(s);
    list_eligible(j, f);
    const Cover idle = cover_now(j, idle_for(f, false), false);
    fill_order_keys();
    const bool same_order = lowest_class_is_cheapest();
    for (std::size_t o = 0; o < (same_order ? 3 : 4); ++o) {
        Cover have = idle;
        if (!take_in_order(o, j, f, have)) continue;
        drop_needless_picks(have, j, f);
        add_candidate_set(have.procs);
    }
}

// The eligible victims with what the four orders compare and their
// cost, in the running jobs' order (the sorts are stable).
// (may_preempt and victim_cost for pass 1, by class.)
void ClassPasses::list_eligible(const Job& j, const Fit& f) {
    using Victim = CandidateVictim;
    std::vector<Victim>& eligible = eligible_;
    eligible.clear();
    const std::vector<JobClassConfig>& classes = class_params().classes;
    const std::int32_t pj = classes[static_cast<std::size_t>(j.cls)].priority;
    std::vector<double>& weight = class_weight_;
    weight.resize(classes.size());
    for (std::size_t c = 0; c < classes.size(); ++c)
        weight[c] = node_weight(classes[c].priority, pj);
    for (Slot v : running()) {
        const Job& x = job(v);
        const auto c = static_cast<std::size_t>(x.cls);
        if (!classes[c].preemptable || x.start == now() || classes[c].priority > pj) continue;
        // The processors the job may use among the victim's, and the pools
        // it holds, are what preempting it gives.
        const auto procs =
            static_cast<std::int32_t>(f.any ? x.alloc.procs : usable(f, x.alloc.runs));
        bool pools = false;
        for (std::int64_t d : x.spec.pools) pools = pools || d > 0;
        if (procs == 0 && !pools) continue;
        const double cost = static_cast<double>(x.alloc.procs) * weight[c];
        eligible.push_back({v, cost,
                            procs > 0 ? cost / procs : std::numeric_limits<double>::infinity(),
                            std::max<Time>(0, x.dnd_end - now()), procs, classes[c].priority});
    }
}

// Each order as unsigned keys, one per victim, that compare as the
// order does (a key ties where the order ties): per-node cost (a
// non-negative double, whose bits order as its value), time left,
// width (widest first), class priority (lowest first).
void ClassPasses::fill_order_keys() {
    const std::size_t n = eligible_.size();
    std::vector<std::uint64_t>& keys = order_keys_;
    keys.resize(4 * n);
    for (std::size_t i = 0; i < n; ++i) {
        const CandidateVictim& v = eligible_[i];
        keys[i] = std::bit_cast<std::uint64_t>(v.per_node);
        keys[n + i] = static_cast<std::uint64_t>(v.dnd_left);
        keys[2 * n + i] = static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max() -
                                                     static_cast<std::int64_t>(v.procs));
        keys[3 * n + i] = static_cast<std::uint64_t>(static_cast<std::int64_t>(v.priority) -
                                                     std::numeric_limits<std::int32_t>::min());
    }
}

// The lowest class first is the cheapest per node first when the cost
// per node is one for each priority and rises with it (as it does for
// victims of priority >= 0, unless rounding tells apart victims of one
// class): it would list the cheapest order's set again.
bool ClassPasses::lowest_class_is_cheapest() {
    bool same_order = true;
    std::vector<std::pair<std::int32_t, double>>& by_priority = priority_cost_;
    by_priority.clear();
    for (std::size_t i = 0; i < eligible_.size() && same_order; ++i) {
        const CandidateVictim& v = eligible_[i];
        auto it = std::find_if(by_priority.begin(), by_priority.end(),
                               [&](const auto& e) { return e.first == v.priority; });
        if (it == by_priority.end())
            by_priority.push_back({v.priority, v.per_node});
        else
            same_order = it->second == v.per_node;
    }
    if (same_order) {
        std::sort(by_priority.begin(), by_priority.end());
        for (std::size_t k = 1; k < by_priority.size(); ++k)
            same_order = same_order && by_priority[k - 1].second < by_priority[k].second;
    }
    return same_order;
}

// The victims of order `o` (positions in eligible_, in chosen_idx_) added
// to `have` one by one until it holds the job; false if all of them do
// not.
bool ClassPasses::take_in_order(std::size_t o, const Job& j, const Fit& f, Cover& have) {
    const std::size_t n = eligible_.size();
    left_keys_.assign(order_keys_.begin() + static_cast<std::ptrdiff_t>(o * n),
                      order_keys_.begin() + static_cast<std::ptrdiff_t>((o + 1) * n));
    chosen_idx_.clear();
    for (std::size_t k = 0; k < n && !covers(have, j); ++k) {
        const std::uint32_t pick = next_in_order(k);
        chosen_idx_.push_back(pick);
        cover_add(have, f, job(eligible_[pick].v), +1);
    }
    return covers(have, j);
}

// The k-th victim of the stable sort by the keys of left_keys_, the k
// before it taken: a set needs a few, so they are selected one at a time
// (the first least one not taken yet); past a handful the rest is sorted
// in one go, by key then position (the stable order).
std::uint32_t ClassPasses::next_in_order(std::size_t k) {
    constexpr std::size_t kSelect = 8;
    constexpr std::uint64_t kTaken = std::numeric_limits<std::uint64_t>::max();  // above any key
    std::vector<std::uint64_t>& left = left_keys_;
    std::vector<std::pair<std::uint64_t, std::uint32_t>>& rest = rest_scratch_;
    const std::size_t n = left.size();
    if (k < kSelect) {
        std::size_t least = 0;
        for (std::size_t i = 1; i < n; ++i)
            if (left[i] < left[least]) least = i;
        left[least] = kTaken;
        return static_cast<std::uint32_t>(least);
    }
    if (k == kSelect) {
        rest.clear();
        for (std::size_t i = 0; i < n; ++i)
            if (left[i] != kTaken) rest.push_back({left[i], static_cast<std::uint32_t>(i)});
        std::sort(rest.begin(), rest.end());
    }
    return rest[k - kSelect].second;
}

// drop_needless, on positions in `eligible_`.
void ClassPasses::drop_needless_picks(Cover& have, const Job& j, const Fit& f) {
    std::vector<std::uint32_t>& chosen = chosen_idx_;
    for (std::size_t k = chosen.size(); k-- > 0;) {
        cover_add(have, f, job(eligible_[chosen[k]].v), -1);
        if (covers(have, j))
            chosen.erase(chosen.begin() + static_cast<std::ptrdiff_t>(k));
        else
            cover_add(have, f, job(eligible_[chosen[k]].v), +1);
    }
}

// The victims of chosen_idx_ as a set of sets_, with its cost: theirs,
// plus a second for each second the last one's do-not-disturb time has
// left; unless an order before listed the same victims.
void ClassPasses::add_candidate_set(std::int64_t procs) {
    double cost = 0;
    Time ready = 0;
    for (std::uint32_t i : chosen_idx_) {
        cost += eligible_[i].cost;
        ready = std::max(ready, eligible_[i].dnd_left);
    }
    cost += static_cast<double>(ready) / static_cast<double>(kSecond);
    Victims& set = sets_.add();
    set.jobs.clear();
    for (std::uint32_t i : chosen_idx_) set.jobs.push_back(eligible_[i].v);
    std::sort(set.jobs.begin(), set.jobs.end());
    set.procs = procs;
    set.cost = cost;
    set.ready = now() + ready;
    for (std::size_t k = 0; k + 1 < sets_.size(); ++k)
        if (sets_[k].jobs == set.jobs) {
            sets_.pop();
            break;
        }
}

// Greedy choices can overshoot: a victim taken early may be needless once
// a wider one follows. Drops those, latest first, while `have` (idle plus
// the victims' processors) still covers `need`; then every victim left
// gives the job at least one of its processors.
void ClassPasses::drop_needless(std::vector<Slot>& victims, Cover& have, const Job& j,
                                const Fit& f) const {
    for (std::size_t k = victims.size(); k-- > 0;) {
        cover_add(have, f, job(victims[k]), -1);
        if (covers(have, j))
            victims.erase(victims.begin() + static_cast<std::ptrdiff_t>(k));
        else
            cover_add(have, f, job(victims[k]), +1);
    }
}

// What preemption could free for a job of priority `p`: pass 1 may take
// preemptable jobs of priority <= p, pass 2 those of priority < p past
// their do-not-disturb time and outside the reserved set, neither a job
// loaded now. Most waiting jobs are ruled out by these sums alone, without
// listing victims. They are counted from the loaded jobs when the class
// parameters, a job's class or the loaded jobs change otherwise than by
// the passes (victims_dirty_), and kept up to date in between
// (victims_at_now): a job loaded counts from the next time on (victims_fresh_),
// one whose do-not-disturb time runs out then moves to pass 2's sum
// (victims_heap_), one that leaves takes out what it added
// (victims_counted_), and a job whose processors the reserved set takes
// leaves pass 2's sum while the set is kept.
void ClassPasses::sum_victims() {
    const std::vector<ClassLevel>& levels = class_levels();  // a new parameter set counts afresh
    if (victims_dirty_ || victims_at_ != now()) victims_at_now();
    if (victims_sums_stale_) {
        victims_sums_stale_ = false;
        pre1_.assign(levels.size() + 1, 0);
        pre2_.assign(levels.size() + 1, 0);
        for (std::size_t i = levels.size(); i-- > 0;) {  // and every lower level's
            pre1_[i] = pre1_[i + 1] + victims1_[i];
            pre2_[i] = pre2_[i + 1] + victims2_[i];
        }
    }
}

// A loaded job's share of the sums: pass 1's (from the time after its
// load), pass 2's too once its do-not-disturb time is over if it is
// outside the reserved set. `k` is victims_counted_'s mark for it.
void ClassPasses::victim_add(Slot v, std::uint8_t k) {
    const Job& j = job(v);
    const std::size_t at = class_level_of_[static_cast<std::size_t>(j.cls)];
    std::uint8_t& mark = victims_counted_[v];
    if (mark < 1 && k >= 1) victims1_[at] += j.alloc.procs;
    if (mark < 2 && k >= 2) victims2_[at] += j.alloc.procs;
    mark = std::max(mark, k);
    victims_sums_stale_ = true;
}

// Pass 2's share of a counted job whose do-not-disturb time is over:
// added if it is outside the reserved set (else when the set is dropped).
void ClassPasses::victim_past_dnd(Slot v) {
    if (outside_set(job(v))) victim_add(v, 2);
}

// Brings the sums to now: counted afresh when victims_dirty_, else by the
// jobs loaded at the last time counted and the do-not-disturb times that
// ran out since.
void ClassPasses::victims_at_now() {
    if (victims_counted_.size() < jobs().size()) victims_counted_.resize(jobs().size(), 0);
    if (victims_dirty_) {
        victims_dirty_ = false;
        const std::size_t levels = class_levels_.size();
        victims1_.assign(levels, 0);
        victims2_.assign(levels, 0);
        victims_sums_stale_ = true;
        victims_fresh_.clear();
        victims_heap_.clear();
        for (Slot v : running()) victims_counted_[v] = 0;
        for (Slot v : running()) {
            const Job& j = job(v);
            if (!job_class(j).preemptable) continue;
            if (j.start == now()) {
                victims_fresh_.push_back({v, j.seq});
                continue;
            }
            victim_add(v, 1);
            if (j.dnd_end <= now())
                victim_past_dnd(v);
            else
                victims_heap_.push_back({j.dnd_end, j.start, j.seq, v});
        }
        std::make_heap(victims_heap_.begin(), victims_heap_.end(), std::greater<>{});
        victims_at_ = now();
        return;
    }
    if (victims_at_ == now()) return;
    // Loaded at the last time counted: victims from now on.
    for (const auto& [v, seq] : victims_fresh_) {
        const Job& j = job(v);
        if (j.state != JobState::running || j.seq != seq || j.start != victims_at_ ||
            victims_counted_[v] != 0)
            continue;  // left since (its slot may be another job's), or listed twice
        victim_add(v, 1);
        if (j.dnd_end <= now())
            victim_past_dnd(v);
        else {
            victims_heap_.push_back({j.dnd_end, j.start, j.seq, v});
            std::push_heap(victims_heap_.begin(), victims_heap_.end(), std::greater<>{});
        }
    }
    victims_fresh_.clear();
    while (!victims_heap_.empty() && victims_heap_.front().end <= now()) {
        const DndMark m = victims_heap_.front();
        std::pop_heap(victims_heap_.begin(), victims_heap_.end(), std::greater<>{});
        victims_heap_.pop_back();
        const Job& j = job(m.slot);
        if (j.state == JobState::running && j.seq == m.seq && j.start == m.start &&
            victims_counted_[m.slot] == 1)
            victim_past_dnd(m.slot);
    }
    victims_at_ = now();
    // Marks of jobs that left stay until their time: counted afresh (the
    // heap rebuilt from the loaded jobs) before they outnumber those jobs.
    if (victims_heap_.size() > 4 * running().size() + 64) victims_dirty_ = true;
}

// A job loaded now: a victim from the next time on.
void ClassPasses::victim_loaded(Slot v) {
    if (victims_dirty_) return;  // counted afresh when next asked
    victims_at_now();
    if (job_class(job(v)).preemptable) victims_fresh_.push_back({v, job(v).seq});
}

// A job leaving its processors takes out what it added.
void ClassPasses::victim_unloaded(Slot v) {
    if (victims_dirty_) {  // counted afresh when next asked; its slot counts nothing
        if (v < victims_counted_.size()) victims_counted_[v] = 0;
        return;
    }
    victims_at_now();
    const Job& j = job(v);
    const std::size_t at = class_level_of_[static_cast<std::size_t>(j.cls)];
    std::uint8_t& mark = victims_counted_[v];
    if (mark >= 1) victims1_[at] -= j.alloc.procs;
    if (mark >= 2) victims2_[at] -= j.alloc.procs;
    if (mark != 0) victims_sums_stale_ = true;
    mark = 0;
}

// The reserved set was taken (`taken`) or dropped: its jobs, those on its
// processors (set_owner_nodes_), leave pass 2's sum or may come back.
void ClassPasses::victims_set_changed(bool taken) {
    if (victims_dirty_) return;
    victims_at_now();
    for (const auto& [v, node] : set_owner_nodes_) {
        std::uint8_t& mark = victims_counted_[v];
        const Job& j = job(v);
        if (owner_[static_cast<std::size_t>(node)] != v || mark == 0) continue;  // left
        const std::size_t at = class_level_of_[static_cast<std::size_t>(j.cls)];
        if (taken && mark == 2) {
            victims2_[at] -= j.alloc.procs;
            mark = 1;
            victims_sums_stale_ = true;
        } else if (!taken && mark == 1 && j.dnd_end <= now()) {
            victim_past_dnd(v);
        }
    }
}

std::size_t ClassPasses::class_level(const Job& j) {
    class_levels();
    return class_level_of_[static_cast<std::size_t>(j.cls)];
}

// The loaded jobs on the reserved set's processors, in the order of their
// first processor there. Listed once per set (a job's run at a time, past
// idle processors; pass 1 lists them as it reserves the set, from its
// victims); then those still on their first processor there.
void ClassPasses::set_owners(std::vector<Slot>& out) {
    out.clear();
    if (set_owners_known_) {
        for (const auto& [v, k] : set_owner_nodes_)
            if (owner_[static_cast<std::size_t>(k)] == v) out.push_back(v);
        return;
    }
    set_owner_nodes_.clear();
    for (const NodeRun& r : class_set_)
        for (std::int32_t k = r.first; k < r.first + r.count;) {
            k = machine().matrix().next_used(0, k, r.first + r.count);  // past idle ones
            if (k == r.first + r.count) break;
            const Slot v = owner_[static_cast<std::size_t>(k)];
            if (v == kNoSlot) {
                ++k;
                continue;
            }
            if (std::find(out.begin(), out.end(), v) == out.end()) {
                out.push_back(v);
                set_owner_nodes_.push_back({v, k});
            }
            std::int32_t next = k + 1;  // past the rest of v's run that holds k
            for (const NodeRun& q : job(v).alloc.runs)
                if (k >= q.first && k < q.first + q.count) next = q.first + q.count;
            k = next;
        }
    set_owners_known_ = true;
}

// Whether none of a loaded job's processors is in the reserved set.
bool ClassPasses::outside_set(const Job& v) const {
    return class_set_.empty() || set_nodes_.all_idle(v.alloc.runs);
}

void ClassPasses::drop_class_reservation() {
    const bool listed = set_owners_known_;  // set_owner_nodes_ are the set's jobs
    set_nodes_.release(class_set_);
    set_owners_known_ = false;
    class_set_.clear();
    class_reserved_ = kNoSlot;
    if (listed)
        victims_set_changed(false);
    else
        victims_dirty_ = true;
}

// --- The two passes ---------------------------------------------------------

// --- The waiting jobs by class ----------------------------------------------

// The passes' order is the queue's, (key, arrival), bucketed by class
// priority: each class keeps its waiting jobs in queue order
// (class_queue.h), so that a pass reaches the next job it could load, or
// the next one past its maximum wait, without walking the others.
// `pos`: where the queue took it; the entries after it moved up by one.
void ClassPasses::class_index_insert(Slot s, std::size_t pos) {
    if (class_pos_.size() < jobs().size()) class_pos_.resize(jobs().size());
    if (class_queue_pos_.size() < jobs().size()) class_queue_pos_.resize(jobs().size());
    for (std::size_t i = pos; i < queue().span(); ++i)
        if (queue()[i].live()) class_pos_[queue()[i].slot] = i;
    if (class_index_stale_) return;
    const Job& j = job(s);
    class_queues_[static_cast<std::size_t>(j.cls)].insert(
        {j.order_key, j.seq, s, j.spec.procs, j.wait_from, j.swapped}, class_queue_pos_);
}

void ClassPasses::class_index_erase(Slot s) {
    if (class_index_stale_) return;
    const Job& j = job(s);
    if (!class_queues_[static_cast<std::size_t>(j.cls)].erase(j.order_key, j.seq, s,
                                                              class_queue_pos_))
        class_index_stale_ = true;  // not where its key says: rebuilt at the next pass
}

void ClassPasses::rebuild_class_index() {
    class_queues_.assign(cfg().classes.base.classes.size(), ClassQueue{});
    if (class_pos_.size() < jobs().size()) class_pos_.resize(jobs().size());
    if (class_queue_pos_.size() < jobs().size()) class_queue_pos_.resize(jobs().size());
    for (std::size_t i = 0; i < queue().span(); ++i) {
        if (!queue()[i].live()) continue;
        const Slot s = queue()[i].slot;
        const Job& j = job(s);
        class_pos_[s] = i;
        class_queues_[static_cast<std::size_t>(j.cls)].insert(
            {j.order_key, j.seq, s, j.spec.procs, j.wait_from, j.swapped}, class_queue_pos_);
    }
    class_index_stale_ = false;
    class_pos_stale_ = false;
}

void ClassPasses::refresh_class_pos() {
    if (class_pos_.size() < jobs().size()) class_pos_.resize(jobs().size());
    for (std::size_t i = 0; i < queue().span(); ++i)
        if (queue()[i].live()) class_pos_[queue()[i].slot] = i;
    class_pos_stale_ = false;
}

const std::vector<ClassPasses::ClassLevel>& ClassPasses::find_class_levels() {
    const ClassParams& p = class_params();
    if (class_levels_for_ == &p) return class_levels_;
    class_levels_.clear();
    for (std::size_t c = 0; c < p.classes.size(); ++c) {
        const std::int32_t pr = p.classes[c].priority;
        auto it = std::find_if(class_levels_.begin(), class_levels_.end(),
                               [&](const ClassLevel& l) { return l.priority == pr; });
        if (it == class_levels_.end())
            class_levels_.push_back({pr, {static_cast<std::int32_t>(c)}});
        else
            it->classes.push_back(static_cast<std::int32_t>(c));
    }
    std::sort(class_levels_.begin(), class_levels_.end(),
              [](const ClassLevel& a, const ClassLevel& b) { return a.priority > b.priority; });
    class_level_of_.assign(p.classes.size(), 0);
    for (std::size_t i = 0; i < class_levels_.size(); ++i)
        for (std::int32_t c : class_levels_[i].classes)
            class_level_of_[static_cast<std::size_t>(c)] = i;
    class_levels_for_ = &p;
    victims_dirty_ = true;  // preemptable_procs sums by level
    return class_levels_;
}

// The next waiting job in the passes' order after the one returned last
// that passes what the pass tests first, with the limits and the loaded
// jobs as they are now: pass 1, waited past its class's maximum wait,
// within the job processor and system limits and what idle processors and
// preemptable jobs of no higher class could give; pass 2, within
// limits_allow and what idle processors and the jobs pass 2 may preempt
// could give. The jobs passed over would be passed over by these tests in
// the pass itself, which makes them again on the job returned (kNoSlot at
// the end). Each call starts after the job returned last, so a job loaded
// or passed over is not seen again and the others are tested under the
// limits as the pass left them.
ClassPasses::Slot ClassPasses::walk_next(ClassWalk& w, bool pass1) {
    const ClassParams& p = class_params();
    const ClassLimits& l = p.limits;
    const std::vector<ClassLevel>& levels = class_levels();
    constexpr std::int64_t kAny = std::numeric_limits<std::int64_t>::max();
    const std::int64_t free = machine().matrix().free(0);
    const std::int64_t job_cap = l.job_procs > 0 ? l.job_procs : kAny;
    const std::int64_t sys_cap =
        l.system_procs > 0 ? l.system_procs - loaded_procs_ - swapped_procs_ : kAny;
    const std::int64_t large_cap =
        l.large_job > 0 && l.large_procs > 0
            ? std::max<std::int64_t>(l.large_procs - large_loaded_, l.large_job - 1)
            : kAny;
    for (; w.level < levels.size(); ++w.level, w.fresh = true) {
        const ClassLevel& level = levels[w.level];
        // A level with no job the pass could take is passed over before
        // its cap is asked for (the cap only shrinks down the levels, so
        // one below 1 here would be below 1 at the next level too).
        bool any = false;
        for (std::int32_t c : level.classes)
            any = any || (class_queues_[static_cast<std::size_t>(c)].size() > 0 &&
                          (!pass1 || p.classes[static_cast<std::size_t>(c)].max_wait != kForever));
        if (!any) continue;
        const std::int64_t cap = pass1 ? free + preemptable_procs(w.level, true)
                                       : free - w.set_idle + preemptable_procs(w.level, false);
        // What preemption could add only shrinks down the levels: no job
        // here or below could be loaded.
        if (cap < 1) {
            w.level = levels.size();
            break;
        }
        if (w.fresh) {
            w.cursor.assign(level.classes.size(), 0);
            w.fresh = false;
        } else {
            // After the job returned last: in its class, the next entry
            // (entries keep their places during a pass: a job that leaves
            // the queue leaves a tombstone); in the others, found again.
            for (std::size_t k = 0; k < level.classes.size(); ++k) {
                const ClassQueue& q = class_queues_[static_cast<std::size_t>(level.classes[k])];
                if (k == w.last_k)
                    w.cursor[k] = w.last_i + 1;
                else if (q.size() > 0)
                    w.cursor[k] = q.upper_bound(w.key, w.seq);
            }
        }
        const ClassQueue::Entry* best = nullptr;
        std::size_t best_k = 0;
        for (std::size_t k = 0; k < level.classes.size(); ++k) {
            const auto c = static_cast<std::size_t>(level.classes[k]);
            const ClassQueue& q = class_queues_[c];
            if (q.size() == 0) continue;
            std::int64_t most[2];   // the most processors a job may ask: [swapped]
            Time waited = kNoTime;  // pass 1: the wait start a job must be at or before
            if (pass1) {
                const Time mw = p.classes[c].max_wait;
                if (mw == kForever) continue;
                waited = now() - mw;
                most[1] = std::min(job_cap, cap);
            } else {
                const JobClassConfig& jc = p.classes[c];
                const std::int64_t class_cap = jc.procs > 0 ? jc.procs - class_loaded_[c] : kAny;
                most[1] = std::min({job_cap, cap, class_cap, large_cap});
            }
            most[0] = std::min(most[1], sys_cap);
            auto block_ok = [&](const ClassQueue::Block& b) {
                return (b.min_procs[0] <= most[0] || b.min_procs[1] <= most[1]) &&
                       (!pass1 || b.min_wait <= waited);
            };
            if (!block_ok(q.summary())) {  // no job of the class would pass
                w.cursor[k] = q.span();
                continue;
            }
            const std::size_t i = q.find(w.cursor[k], block_ok, [&](const ClassQueue::Entry& e) {
                return e.procs <= most[e.swapped ? 1 : 0] && (!pass1 || e.wait_from <= waited) &&
                       e.slot != w.skip &&
                       job(e.slot).state == JobState::queued;  // (always: a safeguard)
            });
            w.cursor[k] = i;
            if (i < q.span() && (!best || q[i].before(best->key, best->seq))) {
                best = &q[i];
                best_k = k;
            }
        }
        if (best) {
            w.key = best->key;
            w.seq = best->seq;
            w.last_k = best_k;
            w.last_i = w.cursor[best_k];
            return best->slot;
        }
    }
    return kNoSlot;
}

// --- The two passes ---------------------------------------------------------

void ClassPasses::schedule() {
    if (begins_.pop_due(now())) classes_dirty_ = true;  // a job's begin time came
    // Nothing happened since the last pass and no threshold was crossed (a
    // maximum wait, a do-not-disturb time, a period, a begin time): the
    // passes would decide as they did.
    if (!classes_dirty_ && now() < classes_wakeup_) return;
    classes_dirty_ = false;
    // The waiting jobs by class priority, then by the order policy's key or
    // (without one) the time they have waited to be loaded; ties in arrival
    // order: the class queues, in the queue's own order.
    if (queue().maybe_compact()) class_pos_stale_ = true;
    if (class_index_stale_) rebuild_class_index();
    for (ClassQueue& q : class_queues_) q.maybe_compact(class_queue_pos_);
    requeued_.clear();
    pass1();
    pass2();
    // Preempted jobs wait again; inserted last, as inserting moves positions.
    for (Slot s : requeued_) queue_insert(s);
    find_classes_wakeup();
}

void ClassPasses::pass1() {
    const ClassParams& p = class_params();
    // A higher class past its wait takes the reservation over.
    if (class_reserved_ != kNoSlot) {
        const std::int32_t held = job_class(job(class_reserved_)).priority;
        bool higher = false;
        for (const ClassLevel& level : class_levels()) {
            if (level.priority <= held) break;  // sorted: none higher follows
            for (std::int32_t c : level.classes) {
                const ClassQueue& q = class_queues_[static_cast<std::size_t>(c)];
                const Time w = p.classes[static_cast<std::size_t>(c)].max_wait;
                higher = higher || (w != kForever && q.size() > 0 && now() - q.min_wait() >= w);
            }
        }
        if (higher) drop_class_reservation();
    }
    if (class_reserved_ == kNoSlot) pass1_reserve(p);
    if (class_reserved_ != kNoSlot) pass1_serve();
}

// The first job past its class's maximum wait that idle processors hold is
// loaded; the first that needs preemption gets a processor set reserved.
void ClassPasses::pass1_reserve(const ClassParams& p) {
    auto urgent = [&](const Job& j) {
        const Time w = job_class(j).max_wait;
        return w != kForever && now() - j.wait_from >= w;
    };
    ClassWalk& walk = walk_;
    walk.level = 0;
    walk.fresh = true;
    walk.skip = kNoSlot;
    for (Slot s; (s = walk_next(walk, true)) != kNoSlot;) {
        const Job& j = job(s);
        if (!urgent(j) || j.spec.begin > now()) continue;
        if (p.limits.job_procs > 0 && j.spec.procs > p.limits.job_procs) continue;
        if (!system_allows(j)) continue;
        const Fit f = fit_of(j);
        if (fits_idle(j, f, false, false)) {  // no preemption needed
            std::vector<NodeRun> runs;
            best_fit(j, false, runs, f);
            load(s, runs);
            continue;
        }
        if (machine().matrix().free(0) + preemptable_procs(class_level(j), true) < j.spec.procs)
            continue;             // no set exists: deferred (§4.3)
        if (f.include) continue;  // it preempts no job for its nodes (classes_fit.cpp)
        candidate_sets(s, f);
        if (sets_.empty()) continue;
        const std::ptrdiff_t chosen = choose_set(s);
        if (chosen < 0) continue;  // the policy declined: the next job may have it
        class_reserved_ = s;
        reserved_fit_ = f;
        ++counters().class_reservations;
        build_set(j, sets_[static_cast<std::size_t>(chosen)], f);
        return;
    }
}

// The set: its victims' processors the job may use, then idle ones; each
// victim listed as set_owners would list it now, at its first processor
// in the set.
void ClassPasses::build_set(const Job& j, const Victims& set, const Fit& f) {
    class_set_.clear();
    set_owner_nodes_.clear();
    std::int32_t need = j.spec.procs;
    std::vector<NodeRun> runs;
    for (Slot v : set.jobs) {
        runs = job(v).alloc.runs;
        keep_usable(f, runs);
        bool listed = false;
        for (const NodeRun& r : runs) {
            const std::int32_t k = std::min(need, r.count);
            if (k > 0) {
                class_set_.push_back({r.first, k});
                if (!listed) set_owner_nodes_.push_back({v, r.first});
                listed = true;
            }
            need -= k;
        }
    }
    if (need > 0) {
        std::vector<NodeRun>& idle = idle_scratch_;
        free_runs(false, idle);
        keep_usable(f, idle);
        for (const NodeRun& r : idle) {
            if (need == 0) break;
            const std::int32_t k = std::min(need, r.count);
            class_set_.push_back({r.first, k});
            need -= k;
        }
    }
    if (set_nodes_.size() != cfg().procs) set_nodes_ = NodePool(cfg().procs);
    set_nodes_.take(class_set_);
    set_owners_known_ = true;
    victims_set_changed(true);
}

// The reserved job is loaded elsewhere if enough processors are free now
// (§4.3); otherwise its set's jobs leave lazily, each when its
// do-not-disturb time is over, and it is loaded on the set once it is free.
void ClassPasses::pass1_serve() {
    const Slot u = class_reserved_;
    Job& j = job(u);
    if (!system_allows(j)) return;
    const Fit& f = reserved_fit_;
    if (fits_idle(j, f, false, false)) {
        std::vector<NodeRun> runs;
        // The set's idle processors first: they are free of other claims;
        // the lowest of each kind, a run continuing the last one taken
        // joining it.
        std::int32_t need = j.spec.procs;
        std::vector<NodeRun>& idle = idle_scratch_;
        for (int in_set = 1; in_set >= 0 && need > 0; --in_set) {
            idle.clear();
            if (in_set)
                machine().matrix().free_runs_where_busy(0, set_nodes_, idle);
            else
                machine().matrix().free_runs_where_idle(0, set_nodes_, idle);
            keep_usable(f, idle);
            for (const NodeRun& r : idle) {
                if (need == 0) break;
                const std::int32_t k = std::min(need, r.count);
                if (!runs.empty() && runs.back().first + runs.back().count == r.first)
                    runs.back().count += k;
                else
                    runs.push_back({r.first, k});
                need -= k;
            }
        }
        std::sort(runs.begin(), runs.end(),
                  [](const NodeRun& a, const NodeRun& b) { return a.first < b.first; });
        drop_class_reservation();
        load(u, runs);
        return;
    }
    // Lazily: the set's jobs whose do-not-disturb time is over leave now.
    std::vector<Slot>& on_set = victims_scratch_;
    set_owners(on_set);
    for (Slot v : on_set)
        if (!may_preempt(job(v), j, true)) {  // its class changed: choose again next pass
            drop_class_reservation();
            return;
        }
    bool gone = true;  // every job of the set has left it
    for (Slot v : on_set) {
        if (job(v).dnd_end <= now())
            swap_out(v, false);
        else
            gone = false;
    }
    // A job still there holds a processor of the set; else the set is free
    // when all its processors are idle, counted word by word (and the pools
    // hold the job, their holders off the set gone too).
    if (gone &&
        machine().matrix().free_where_busy(0, set_nodes_) ==
            set_nodes_.size() - set_nodes_.idle() &&
        (cfg().pools.empty() || take_pools_for(j))) {
        const std::vector<NodeRun> set = class_set_;
        drop_class_reservation();
        load(u, set);
    }
}

void ClassPasses::pass2() {
    // Victims for pass 2, by class: processors of preemptable jobs past
    // their do-not-disturb time, outside the reserved set.
    const std::int64_t set_idle =
        class_set_.empty() ? 0 : machine().matrix().free_where_busy(0, set_nodes_);
    std::vector<NodeRun> runs;
    ClassWalk& walk = walk_;
    walk.level = 0;
    walk.fresh = true;
    walk.set_idle = set_idle;
    walk.skip = class_reserved_;  // passed over below
    // With a backfill_select policy, the jobs that fit the idle processors
    // are offered to it at the end of the pass, instead of loaded in turn.
    const bool offer = policy(Hook::backfill_select) != nullptr;
    cand_slots_.clear();
    for (Slot s; (s = walk_next(walk, false)) != kNoSlot;) {
        if (s == class_reserved_) continue;
        const Job& j = job(s);
        if (j.state != JobState::queued || j.spec.begin > now() || !limits_allow(j)) continue;
        if (offer && fits_idle(j, fit_of(j), true, true))
            cand_slots_.push_back(s);
        else
            pass2_job(s, set_idle, runs);
    }
    if (!cand_slots_.empty()) offer_candidates(runs);
}

// backfill_select chooses among the jobs that fit the idle processors, in
// the passes' order, which to load and in what order; each pick is loaded
// if it still fits, and its class's limits allow it. The head is pass 1's
// reserved job, if any.
void ClassPasses::offer_candidates(std::vector<NodeRun>& runs) {
    cand_batch_.clear();
    for (Slot s : cand_slots_) cand_batch_.push(job(s));
    const auto context = [&] {
        BackfillContext c;
        static_cast<CommonContext&>(c) = common_context();
        set_head(c, class_reserved_ == kNoSlot ? nullptr : &job(class_reserved_));
        const auto& inv = cand_batch_.inv_capacity;
        c.resources = static_cast<std::int32_t>(inv.size());
        c.capacity.push_back(cfg().procs);
        c.usage.push_back(static_cast<double>(cfg().procs - c.free_procs) * inv[0]);
        for (std::size_t k = 0; k < cfg().pools.size(); ++k) {
            c.capacity.push_back(cfg().pools[k].capacity);
            c.usage.push_back(static_cast<double>(pools_.used(k)) * inv[k + 1]);
        }
        return c;
    };
    ask<Hook::backfill_select>(cand_batch_, context, cand_picks_);
    for (std::int64_t i : cand_picks_) {
        const Slot s = cand_slots_[static_cast<std::size_t>(i)];
        const Job& j = job(s);
        const Fit f = fit_of(j);
        if (j.state != JobState::queued || !limits_allow(j) || !fits_idle(j, f, true, true))
            continue;
        best_fit(j, true, runs, f);
        load(s, runs);
        if (class_reserved_ != kNoSlot) ++counters().backfilled;
    }
}

// Loads job s on idle processors outside the reserved set, or on those
// of lower classes past their do-not-disturb time, lowest class first,
// widest first within it (fewest victims).
void ClassPasses::pass2_job(Slot s, std::int64_t set_idle, std::vector<NodeRun>& runs) {
    const Job& j = job(s);
    const Fit f = fit_of(j);
    if (fits_idle(j, f, true, true)) {
        best_fit(j, true, runs, f);
        load(s, runs);
        return;
    }
    if (machine().matrix().free(0) - set_idle + preemptable_procs(class_level(j), false) <
            j.spec.procs ||
        f.include)
        return;
    std::vector<Slot>& victims = victims_scratch_;
    victims.clear();
    Cover can = cover_now(j, idle_for(f, true), true);
    for (Slot v : running())
        if (may_preempt(job(v), j, false) && outside_set(job(v))) victims.push_back(v);
    for (Slot v : victims) cover_add(can, f, job(v), +1);
    if (!covers(can, j)) return;
    std::stable_sort(victims.begin(), victims.end(), [&](Slot a, Slot b) {
        const std::int32_t pa = job_class(job(a)).priority, pb = job_class(job(b)).priority;
        return pa != pb ? pa < pb : job(a).alloc.procs > job(b).alloc.procs;
    });
    Cover have = cover_now(j, idle_for(f, true), true);
    std::vector<Slot>& chosen = chosen_scratch_;
    chosen.clear();
    for (Slot v : victims) {
        if (covers(have, j)) break;
        cover_add(have, f, job(v), +1);
        chosen.push_back(v);
    }
    drop_needless(chosen, have, j, f);
    for (Slot v : chosen) swap_out(v, false);
    best_fit(j, true, runs, f);
    load(s, runs);
}

// The next time the two passes could decide differently with nothing else
// happening: a waiting job reaches its maximum wait, a loaded job's
// do-not-disturb time ends, the parameter set changes.
void ClassPasses::find_classes_wakeup() {
    classes_wakeup_ = kForever;
    if (queue().empty()) return;
    classes_wakeup_ = next_period_change();
    if (class_index_stale_) rebuild_class_index();
    // Per class, the earliest wait start whose maximum wait is still to
    // run out.
    const ClassParams& p = class_params();
    for (std::size_t c = 0; c < class_queues_.size(); ++c) {
        const Time w = p.classes[c].max_wait;
        if (w == kForever) continue;
        const Time from = class_queues_[c].min_wait_after(now() - w);
        if (from == kForever) continue;
        const Time at = sat_add(from, w);
        if (at > now()) classes_wakeup_ = std::min(classes_wakeup_, at);
    }
    classes_wakeup_ = std::min({classes_wakeup_, next_dnd_wakeup(), begins_.next()});
}

// The loaded jobs' do-not-disturb times, for find_classes_wakeup: a heap of
// marks, pushed at each load and checked against the job when they reach
// the top (a job swapped out, ended or of another class since has left
// them behind), instead of a walk over the running jobs at every pass.
// Whether a class is preemptable must not depend on the period for that;
// otherwise, and after changes made outside load() (adoption, a class
// change, a restore), the running jobs are walked as before.
bool ClassPasses::dnd_mark_valid(const DndMark& m) const {
    const Job& j = job(m.slot);
    return j.state == JobState::running && j.seq == m.seq && j.start == m.start &&
           j.dnd_end == m.end && job_class(j).preemptable;
}

void ClassPasses::mark_dnd(Slot s) {
    if (dnd_marks_stale_) return;
    const Job& j = job(s);
    if (!job_class(j).preemptable) return;
    if (j.dnd_end > now()) {
        dnd_marks_.push_back({j.dnd_end, j.start, j.seq, s});
        std::push_heap(dnd_marks_.begin(), dnd_marks_.end(), std::greater<>{});
    } else {
        if (fresh_at_ != now()) fresh_.clear();
        fresh_at_ = now();
        fresh_.push_back(s);
    }
}

Time ClassPasses::next_dnd_wakeup() {
    if (dnd_marks_stale_ && dnd_fixed_) {
        // Rebuilt from the running jobs, as they are now.
        dnd_marks_stale_ = false;
        dnd_marks_.clear();
        fresh_.clear();
        fresh_at_ = kNoTime;
        for (Slot v : running())
            if (job(v).start == now() || job(v).dnd_end > now()) mark_dnd(v);
    }
    Time wake = kForever;
    if (dnd_marks_stale_) {
        for (Slot v : running()) {
            const Job& j = job(v);
            if (!job_class(j).preemptable) continue;
            if (j.dnd_end > now())
                wake = std::min(wake, j.dnd_end);
            else if (j.start == now())  // loaded now: a victim from the next instant on
                wake = std::min(wake, now() + 1);
        }
        return wake;
    }
    while (!dnd_marks_.empty() &&
           (dnd_marks_.front().end <= now() || !dnd_mark_valid(dnd_marks_.front()))) {
        std::pop_heap(dnd_marks_.begin(), dnd_marks_.end(), std::greater<>{});
        dnd_marks_.pop_back();
    }
    if (!dnd_marks_.empty()) wake = dnd_marks_.front().end;
    // Loaded now with no do-not-disturb time: a victim from the next instant on.
    if (fresh_at_ == now())
        for (Slot v : fresh_) {
            const Job& j = job(v);
            if (j.state == JobState::running && j.start == now() && j.dnd_end <= now() &&
                job_class(j).preemptable) {
                wake = std::min(wake, now() + 1);
                break;
            }
        }
    return wake;
}

// --- User controls (§4.5) --------------------------------------------------

void ClassPasses::suspend(Slot s) {
    Job& j = job(s);
    switch (j.state) {
        case JobState::running:
            swap_out(s, true);
            break;
        case JobState::queued:
            if (s == class_reserved_) drop_class_reservation();
            queue_erase(s);
            j.state = JobState::suspended;
            break;
        default:
            throw Error(Errc::state, "job " + std::to_string(j.spec.id) + " is " +
                                         job_state_name(j.state) + "; only a loaded or waiting " +
                                         "job can be suspended");
    }
}

void ClassPasses::resume(Slot s) {
    Job& j = job(s);
    if (j.state != JobState::suspended)
        throw Error(Errc::state, "job " + std::to_string(j.spec.id) + " is " +
                                     job_state_name(j.state) + ", not suspended");
    j.wait_from = now();
    if (!policy(Hook::order)) j.order_key = static_cast<double>(now());
    queue_insert(s);
    classes_dirty_ = true;
}

void ClassPasses::set_class(Slot s, std::int32_t cls) {
    Job& j = job(s);
    const auto count = static_cast<std::int32_t>(cfg().classes.base.classes.size());
    if (cls < 0 || cls >= count)
        throw Error(Errc::invalid,
                    "class " + std::to_string(cls) + " is outside 0.." + std::to_string(count - 1));
    if (j.state == JobState::running) {
        class_loaded_[static_cast<std::size_t>(j.cls)] -= j.alloc.procs;
        class_loaded_[static_cast<std::size_t>(cls)] += j.alloc.procs;
        // Its do-not-disturb time is the new class's, from when it loaded.
        j.cls = static_cast<std::int16_t>(cls);
        j.dnd_end = dnd_end_from(j, j.start);
        dnd_marks_stale_ = true;
    } else {
        j.cls = static_cast<std::int16_t>(cls);
        class_index_stale_ = true;  // a waiting job: it moves to the other class's queue
    }
    classes_dirty_ = true;
    victims_dirty_ = true;
}

}  // namespace rota
