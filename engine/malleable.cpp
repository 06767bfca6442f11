// The iScheduler's schedule phase ([Weissman03] §2.2, Figure 3(a)): malleable
// jobs that run on anything from their min to their ideal processors.
//
//   3. terminations: the freed processors go first to queued jobs until
//      the degree of multiprogramming reaches M (admission comes first,
//      §2.2), then as the distribution hook says (favor running: grow
//      running jobs; favor queued: start queued ones), the rest held;
//   2. arrivals, in queue order: a job whose min fits the free processors
//      starts on min(free, ideal); else it waits if M jobs run; else the
//      harvest hook names victims to shrink so that it reaches its min,
//      within the control policy's limits; else it waits (FCFS).
//
// A job's run time on P processors follows the execution model (§4.3)
// applied to its estimate, so its walltime and the profile stay consistent
// as it is resized: the engine keeps the share of the work still to do,
// consumed at the rate of its current allocation, and an adaptation
// suspends it for its cost (§4.1).
//
// Running jobs' windows are not promised in the availability profile here
// (IScheduler::keeps_profile): Figure 3(a) asks only how many processors are
// idle and which jobs run, never about the future, and nothing else reads
// the profile under [malleable].
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "answers.h"
#include "error.h"
#include "ischeduler.h"
#include "snapshot_io.h"

namespace rota {

namespace {

// Sorts runs and merges neighbours, so a grown job's nodes stay few runs.
// The runs from `sorted_to` on were appended by a grow, and each part is
// normally in order already, so a merge of the two does (the runs are
// disjoint: the order is the same whichever way it is reached). The merge
// runs from the back, in place, with only the few appended runs copied
// aside (a buffer kept per thread: std::inplace_merge would allocate one at
// every grow), and neighbours join in one more pass.
void normalise(std::vector<NodeRun>& runs, std::size_t sorted_to) {
    const auto by_first = [](const NodeRun& a, const NodeRun& b) { return a.first < b.first; };
    const auto mid = runs.begin() + static_cast<std::ptrdiff_t>(sorted_to);
    if (!std::is_sorted(runs.begin(), mid, by_first)) std::sort(runs.begin(), mid, by_first);
    if (!std::is_sorted(mid, runs.end(), by_first)) std::sort(mid, runs.end(), by_first);
    static thread_local std::vector<NodeRun> added;
    added.assign(mid, runs.end());
    std::size_t out = runs.size(), held = sorted_to, k = added.size();
    while (k > 0) {
        if (held > 0 && runs[held - 1].first > added[k - 1].first)
            runs[--out] = runs[--held];
        else
            runs[--out] = added[--k];
    }
    if (runs.empty()) return;
    // The run being joined stays in registers: written back at each gap,
    // not through memory at every step.
    NodeRun cur = runs[0];
    std::size_t w = 0;
    for (std::size_t r = 1; r < runs.size(); ++r) {
        const NodeRun next = runs[r];
        if (cur.first + cur.count == next.first) {
            cur.count += next.count;
        } else {
            runs[w++] = cur;
            cur = next;
        }
    }
    runs[w++] = cur;
    runs.resize(w);
}

// Moves the `n` highest nodes of `runs` into `cut` (lowest first).
void cut_highest(std::vector<NodeRun>& runs, std::int32_t n, std::vector<NodeRun>& cut) {
    cut.clear();
    while (n > 0) {
        NodeRun& last = runs.back();
        const std::int32_t k = std::min(n, last.count);
        cut.push_back({last.first + last.count - k, k});
        last.count -= k;
        n -= k;
        if (last.count == 0) runs.pop_back();
    }
    std::reverse(cut.begin(), cut.end());
}

}  // namespace

double exec_factor(ExecModel m, std::int32_t p, std::int32_t ideal) {
    const double r = static_cast<double>(ideal) / static_cast<double>(p);
    if (m == ExecModel::linear) return r;  // P_ideal * RT_ideal / P
    return 0.5 * r + 0.5 / r;              // a / P + b P, over RT_ideal
}

namespace {

// A duration in microseconds, too large for an integer, as seconds.
std::string seconds_text(double us) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3g s", us / 1e6);
    return buf;
}

}  // namespace

IScheduler::IScheduler(Scheduler& core) : Discipline(core) {
    pools_.init(cfg().pools);
    mall_.names = &core.names();
    mall_.fill = [this](MalleableColumn c) { fill_malleable(c); };
}

// On its min a job runs longest (both execution models slow down as
// processors are taken) and adapts at the highest cost: both must fit in
// the time axis as the estimate does.
void IScheduler::check_spec(const JobSpec& spec) const {
    const auto who = [&spec] { return "job " + std::to_string(spec.id); };
    const std::int32_t least = spec.min_procs > 0 ? spec.min_procs : spec.procs;
    const auto limit = static_cast<double>((kTimeAxisEnd - now()) / cfg().rows);
    const double longest = static_cast<double>(spec.estimate) *
                           exec_factor(cfg().malleable.exec_model, least, spec.procs);
    if (!(longest <= limit))
        throw Error(Errc::invalid, who() + ": estimate " + std::to_string(spec.estimate) +
                                       " us runs " + seconds_text(longest) + " on its min of " +
                                       std::to_string(least) + " processors, beyond the time axis");
    const double cost = static_cast<double>(cfg().malleable.adapt_latency) +
                        cfg().malleable.adapt_per_byte * static_cast<double>(spec.adapt_bytes) /
                            static_cast<double>(least);
    if (!(cost <= limit / 1024))
        throw Error(Errc::invalid, who() + ": adapting its " + std::to_string(spec.adapt_bytes) +
                                       " bytes on its min of " + std::to_string(least) +
                                       " processors takes " + seconds_text(cost) +
                                       ", beyond the time axis");
}

Time IScheduler::run_time(const Job& j, std::int32_t p) const {
    const double t = static_cast<double>(j.spec.estimate) *
                     exec_factor(cfg().malleable.exec_model, p, j.spec.procs);
    return std::max<Time>(1, static_cast<Time>(std::ceil(t)));
}

Time IScheduler::adapt_cost(const Job& j) const {
    const MalleableConfig& m = cfg().malleable;
    const double bytes = static_cast<double>(j.spec.adapt_bytes);
    return m.adapt_latency +
           static_cast<Time>(std::llround(m.adapt_per_byte * bytes /
                                          static_cast<double>(std::max(1, j.alloc.procs))));
}

// The work done since the last resize, at the allocation it had.
void IScheduler::settle_work(Job& j) {
    const Time from = std::max(j.resized, j.paused_until);
    if (now() > from) {
        j.work_left -=
            static_cast<double>(now() - from) / static_cast<double>(run_time(j, j.alloc.procs));
        j.work_left = std::max(0.0, j.work_left);
    }
    j.resized = now();
}

double IScheduler::progress(const Job& j) const {
    if (j.state != JobState::running) return 0.0;
    double left = j.work_left;
    const Time from = std::max(j.resized, j.paused_until);
    if (now() > from)
        left -= static_cast<double>(now() - from) / static_cast<double>(run_time(j, j.alloc.procs));
    return std::clamp(1.0 - left, 0.0, 1.0);
}

// The embedder knows better than the model ([Weissman03] §3's sensing): the
// rest of the work at the current size gives the new end.
void IScheduler::progress_reported(Slot s, double done) {
    Job& j = job(s);
    j.work_left = 1.0 - done;
    j.resized = now();
    const Time from = std::max(now(), j.paused_until);
    const Time end =
        from +
        static_cast<Time>(std::ceil(j.work_left * static_cast<double>(run_time(j, j.alloc.procs))));
    retime(s, std::max(end, now() + 1));
}

// Moves a running job's expected end to `end`.
void IScheduler::retime(Slot s, Time end) {
    Job& j = job(s);
    j.window = end - j.start;
    expiries().set({end, j.seq, s});
}

void IScheduler::start_malleable(Slot s, std::int32_t p) {
    Job& j = job(s);
    queue_erase(s);
    j.work_left = 1.0;
    j.resized = now();
    j.paused_until = now();
    j.window = run_time(j, p);
    Allocation& a = j.alloc;
    a.runs.clear();
    machine().matrix().allocate(0, p, a.runs, s);
    a.procs = p;
    a.home_row = 0;
    a.row_mask = 1u;
    now_running(s);
    pools_.add(j, +1);
    ++counters().started;
    expiries().set({j.estimated_end(), j.seq, s});
    emit_with_runs(Action{ActionType::start, j.spec.id, now()}, a.runs, p);
}

// Grows (delta > 0) or shrinks a running job now; it pays its adaptation.
void IScheduler::resize(Slot s, std::int32_t delta) {
    Job& j = job(s);
    const Time cost = adapt_cost(j);
    settle_work(j);
    Allocation& a = j.alloc;
    moved_.clear();
    if (delta > 0) {
        machine().matrix().allocate(0, delta, moved_, s);
        const std::size_t held = a.runs.size();
        a.runs.insert(a.runs.end(), moved_.begin(), moved_.end());
        normalise(a.runs, held);
        ++counters().grows;
    } else {
        cut_highest(a.runs, -delta, moved_);
        machine().matrix().clear(0, moved_);
        ++counters().shrinks;
    }
    a.procs += delta;
    usage().resized(j.spec.user, delta, now());
    j.paused_until = std::max(now(), j.paused_until) + cost;
    const Time end =
        j.paused_until +
        static_cast<Time>(std::ceil(j.work_left * static_cast<double>(run_time(j, a.procs))));
    j.window = end - j.start;
    expiries().set({end, j.seq, s});
    Action act{delta > 0 ? ActionType::grow : ActionType::shrink, j.spec.id, now()};
    act.delay = cost;
    emit_with_runs(act, moved_, std::abs(delta));
}

// Sizes the batch for up to n jobs, with nothing but its always-filled
// columns: put_malleable() writes row k, end_malleable_batch(k) keeps the
// first k. Rows written by index, not appended: a distribution lists
// every queued job, and appending to five columns chains each row's stores
// through the vectors' ends.
void IScheduler::begin_malleable_batch(std::size_t n) {
    mall_.clear();
    mall_.filled = MalleableBatch::kAlwaysFilled;
    end_malleable_batch(n);
}

void IScheduler::end_malleable_batch(std::size_t k) {
    MalleableBatch& b = mall_;
    b.id.resize(k);
    b.procs.resize(k);
    b.min.resize(k);
    b.ideal.resize(k);
    b.queued.resize(k);
    mall_slots_.resize(k);
}

// The columns every reader needs; the rest wait for fill_malleable().
void IScheduler::put_malleable(std::size_t k, Slot s) {
    const Job& j = job(s);
    MalleableBatch& b = mall_;
    const bool queued = j.state != JobState::running;
    b.id[k] = j.spec.id;
    b.procs[k] = queued ? 0 : j.alloc.procs;
    b.min[k] = j.min_procs();
    b.ideal[k] = j.spec.procs;
    b.queued[k] = queued ? 1 : 0;
    mall_slots_[k] = s;
}

// One column of the batch being asked, for every job, as things stand now:
// a hook reads it during its call, before the engine changes anything.
void IScheduler::fill_malleable(MalleableColumn c) {
    MalleableBatch& b = mall_;
    const auto each = [&](auto& column, auto value) {
        column.resize(mall_slots_.size());
        for (std::size_t i = 0; i < mall_slots_.size(); ++i) {
            const Job& j = job(mall_slots_[i]);
            column[i] = value(j, j.state != JobState::running);
        }
    };
    switch (c) {
        case MalleableColumn::age:
            return each(b.age, [&](const Job& j, bool q) {
                return q ? now() - j.submit : now() - j.start;
            });
        case MalleableColumn::time_left:
            return each(b.time_left, [&](const Job& j, bool q) {
                return q ? j.spec.estimate : std::max<Time>(0, j.estimated_end() - now());
            });
        case MalleableColumn::harvests:
            return each(b.harvests, [](const Job& j, bool) { return j.harvests; });
        case MalleableColumn::cost:
            return each(b.cost, [&](const Job& j, bool q) {
                return q ? 0.0 : static_cast<double>(adapt_cost(j)) / 1e6;
            });
        case MalleableColumn::progress:
            return each(b.progress, [&](const Job& j, bool) { return progress(j); });
        case MalleableColumn::user:
            return each(b.user, [](const Job& j, bool) { return j.spec.user; });
#define ROTA_X(field, type, value, doc) \
    case MalleableColumn::field:        \
        return each(b.field, [](const Job& j, bool) { return j.field; });
            ROTA_JOB_COLUMNS_NAMES(ROTA_X)
#undef ROTA_X
        default:  // filled by put_malleable
            return;
    }
}

MalleableContext IScheduler::malleable_context(std::int32_t needed) const {
    MalleableContext c;
    static_cast<CommonContext&>(c) = common_context();
    c.needed = needed;
    c.job_id = -1;
    c.job_user = -1;
    c.mpl = static_cast<std::int32_t>(running_count());
    c.mpl_limit = cfg().malleable.mpl_limit;
    c.max_harvests = cfg().malleable.max_harvests;
    return c;
}

bool IScheduler::mpl_reached() const {
    const std::int32_t m = cfg().malleable.mpl_limit;
    return m > 0 && static_cast<std::int32_t>(running_count()) >= m;
}

void IScheduler::schedule() {
    // A job whose begin time came arrives now: the queue is walked for it.
    if (begins_.pop_due(now())) entered_known_ = false;
    // Queue order, taken before anything starts (starting edits the queue).
    // Only jobs that have not been through the arrival step arrive: with at
    // most one queued since the last pass, only that one (every other went
    // through it then), and the queue is walked for a distribution alone.
    const bool one_new = entered_known_ && entered_ <= 1;
    const bool one_entered = one_new && entered_ == 1;
    waiting_.clear();
    if (freed_ > 0 || !one_new) {
        // The distribution reads each queued job's first two cache lines
        // (job.h); asked for here, in a loop that does little else, they
        // arrive together rather than one miss after another there.
        queue().for_each_live([&](const JobQueue::Entry& q) {
            waiting_.push_back(q.slot);
            const char* at = reinterpret_cast<const char*>(&job(q.slot));
            __builtin_prefetch(at);
            __builtin_prefetch(at + 64);
        });
        if (freed_ > 0) distribute();
    }
    freed_ = 0;
    entered_ = 0;
    entered_known_ = true;
    const auto arrive_new = [&](Slot s) {
        const Job& j = job(s);
        if (!j.waited && j.state == JobState::queued && j.spec.begin <= now()) arrive(s);
    };
    if (!one_new)
        for (Slot s : waiting_) arrive_new(s);
    else if (one_entered)
        arrive_new(entered_last_);
    // The walk, which compacts the queue otherwise, does not run here:
    // without this the tombstones of every job ever started pile up and
    // each pass and each start walks them all.
    queue().maybe_compact();
}

void IScheduler::queued(Slot s, std::size_t, bool) {
    ++entered_;
    entered_last_ = s;
    if (const Job& j = job(s); j.spec.begin > now()) begins_.add(j.spec.begin, j.seq, s);
}

void IScheduler::released(Slot s, bool) {
    freed_ += job(s).alloc.procs;
    pools_.add(job(s), -1);
}

// Figure 3(a), step 2.
void IScheduler::arrive(Slot s) {
    Job& j = job(s);
    const std::int32_t avail = machine().matrix().free(0);
    const std::int32_t min = j.min_procs();
    const bool pools = pools_.fits(j);
    if (min <= avail && pools) {
        start_malleable(s, std::min(avail, j.spec.procs));
        return;
    }
    j.waited = true;                      // from here on only a distribution starts it
    if (mpl_reached() || !pools) return;  // a harvest gives processors, not pools
    harvest_for(s, min - avail);
}

// Figure 3(a), step 2c: take `needed` processors from running jobs so that
// job `s` starts on its min.
bool IScheduler::harvest_for(Slot s, std::int32_t needed) {
    Job& j = job(s);
    const MalleableConfig& m = cfg().malleable;
    ++counters().harvest_attempts;
    begin_malleable_batch(running().size());
    std::int64_t room = 0;
    std::size_t k = 0;
    for (Slot r : running()) {
        const Job& v = job(r);
        if (v.alloc.procs <= v.min_procs()) continue;
        if (now() - v.start < m.protect_age) continue;
        if (m.max_harvests > 0 && v.harvests >= m.max_harvests) continue;
        room += v.alloc.procs - v.min_procs();
        put_malleable(k++, r);
    }
    end_malleable_batch(k);
    if (room < needed) return false;  // no answer could hold: the hook is not asked

    const auto context = [&] {
        MalleableContext ctx = malleable_context(needed);
        ctx.job_id = j.spec.id;
        ctx.job_min = j.min_procs();
        ctx.job_ideal = j.spec.procs;
        ctx.job_user = j.spec.user;
#define ROTA_X(field, type, value, doc) ctx.job_##field = j.field;
        ROTA_JOB_COLUMNS_NAMES(ROTA_X)
#undef ROTA_X
        return ctx;
    };
    // Never harvest: the default, and the fallback of a failed call.
    if (!ask<Hook::harvest>(mall_, context, take_) || take_.empty()) return false;

    if (m.cost_benefit && harvest_costs_more(j, needed)) return false;
    for (std::size_t i = 0; i < take_.size(); ++i) {
        if (take_[i] == 0) continue;
        Job& v = job(mall_slots_[i]);
        ++v.harvests;
        resize(mall_slots_[i], -static_cast<std::int32_t>(take_[i]));
    }
    ++counters().harvests;
    start_malleable(s, j.min_procs());
    return true;
}

// The control policy's cost/benefit test (§2.2): the processor-seconds the
// victims stand idle adapting, against those the arriving job gains by
// starting now rather than when enough running jobs are expected to end.
bool IScheduler::harvest_costs_more(const Job& j, std::int32_t needed) const {
    double cost = 0.0;
    for (std::size_t i = 0; i < take_.size(); ++i)
        if (take_[i] > 0) {
            const Job& v = job(mall_slots_[i]);
            cost +=
                static_cast<double>(adapt_cost(v)) * static_cast<double>(v.alloc.procs - take_[i]);
        }
    std::vector<std::pair<Time, std::int32_t>> ends;
    for (Slot r : running()) ends.push_back({job(r).estimated_end(), job(r).alloc.procs});
    std::sort(ends.begin(), ends.end());
    std::int64_t freed = 0;
    Time at = now();
    for (const auto& [end, procs] : ends) {
        freed += procs;
        at = end;
        if (freed >= needed) break;
    }
    const double benefit =
        static_cast<double>(std::max<Time>(0, at - now())) * static_cast<double>(j.min_procs());
    return cost > benefit;
}

// Figure 3(a), step 3.
void IScheduler::distribute() {
    std::int32_t avail = machine().matrix().free(0);
    // All distribution first satisfies admission (§2.2): queued jobs, FCFS,
    // until M run.
    // With no limit that is every queued job that fits, which makes
    // favor running the same as favor queued (§4.4, Figure 10).
    for (Slot s : waiting_) {
        Job& j = job(s);
        if (!j.waited || j.state != JobState::queued || j.spec.begin > now()) continue;
        if (mpl_reached() || j.min_procs() > avail || !pools_.fits(j)) break;
        start_malleable(s, std::min(avail, j.spec.procs));
        avail = machine().matrix().free(0);
    }
    if (avail == 0) return;

    begin_malleable_batch(running().size() + waiting_.size());
    bool can_change = false;
    std::size_t k = 0;
    for (Slot r : running())
        if (job(r).alloc.procs < job(r).spec.procs) {
            put_malleable(k++, r);
            can_change = true;
        }
    for (Slot s : waiting_) {
        const Job& j = job(s);
        // A queued job whose pools are held elsewhere cannot take processors.
        if (j.waited && j.state == JobState::queued && j.spec.begin <= now() && pools_.fits(j)) {
            put_malleable(k++, s);
            can_change = can_change || j.min_procs() <= avail;
        }
    }
    end_malleable_batch(k);
    // No running job below its ideal and no queued min that fits: the only
    // answer check_distribution accepts gives nothing, so the hook is not
    // asked (most terminations once the machine is full).
    if (!can_change) return;
    ask<Hook::distribution>(
        mall_, [&] { return malleable_context(avail); }, give_);
    for (std::size_t i = 0; i < give_.size(); ++i) {
        if (give_[i] == 0) continue;
        const auto g = static_cast<std::int32_t>(give_[i]);
        if (!mall_.queued[i])
            resize(mall_slots_[i], g);
        else if (pools_.fits(job(mall_slots_[i])))  // another start may have taken them
            start_malleable(mall_slots_[i], g);
    }
}

// Snapshots: the processors freed by ends since the last pass (Figure
// 3(a)'s termination step); a job's allocation and work are in its record.
void IScheduler::save_records(std::string& o) const {
    o += "malleable";
    snap::num(o, freed_);
    o += "\n";
}

void IScheduler::load_records(SnapshotReader& in) {
    Record r = in.next("malleable");
    freed_ = r.in_range("freed processors", 0, INT32_MAX);
    r.done();
}

// A window holds the rest of its work at its size; it runs on anything
// from its min to its ideal, and its run and an adaptation on its min stay
// inside the time axis, as a submit checks.
void IScheduler::check_job(const Job& j, const std::string& who) const {
    const JobSpec& sp = j.spec;
    const auto limit = static_cast<double>(snap::kTimeBound / cfg().rows);
    const double longest = static_cast<double>(sp.estimate) *
                           exec_factor(cfg().malleable.exec_model, j.min_procs(), sp.procs);
    const double cost = static_cast<double>(cfg().malleable.adapt_latency) +
                        cfg().malleable.adapt_per_byte * static_cast<double>(sp.adapt_bytes) /
                            static_cast<double>(j.min_procs());
    if (!(longest <= limit) || !(cost <= limit / 1024))
        snap::bad(who + ": its run or adaptation on its min of " + std::to_string(j.min_procs()) +
                  " processors passes the time axis");
    if (j.state == JobState::suspended) snap::bad(who + ": suspended without [classes]");
    if (j.state == JobState::running && (j.alloc.procs < j.min_procs() || j.alloc.procs > sp.procs))
        snap::bad(who + ": running on " + std::to_string(j.alloc.procs) + " nodes for " +
                  std::to_string(sp.procs));
}

void IScheduler::restored() {
    begins_.rebuild(queue(), now(), [&](Slot s) -> const Job& { return job(s); });
    for (Slot s : running()) pools_.add(job(s), +1);
}

}  // namespace rota
