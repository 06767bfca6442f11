// The availability profile: free capacity as a step function of time, built
// from running jobs' windows and from reservations (ARCHITECTURE §3).
// Backfilling asks it where the earliest slot for a job is and whether a
// job fits now for its whole window without touching a reservation ([Zhang00]
// §3, [Leinberger99] §2.1).
//
// A profile has one or more columns (processors of one matrix row, or the
// machine's pools: [Leinberger99]'s K resources); a demand fits a step when every
// column has room. Steps live in chunks of at most chunk_max(), each with a
// pending add and the minimum and maximum of every column: a range update
// touches whole chunks in O(1) and the searches skip chunks that cannot
// matter. A short profile is one chunk, a sorted array; a long one (a deep
// conservative queue holds one reservation per waiting job) costs
// O(chunks + chunk_max()) per operation instead of O(steps) (docs/design.md,
// "The availability profile").
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "types.h"

namespace rota {

class Profile {
  public:
    // One capacity per column; at least one column.
    explicit Profile(std::vector<std::int64_t> capacity);

    std::size_t columns() const { return k_; }

    // Forget the past: everything before the step holding `now` goes, and
    // updates before `now` are clipped to it.
    void advance(Time now);

    // Earliest t >= from at which `d` (one value per column) fits during
    // [t, t + duration). Throws Errc::internal if it never fits. With
    // `latest`, gives up (kForever) once the start would pass it.
    Time earliest(Time from, const std::int64_t* d, Time duration, Time latest = kForever) const;
    bool fits(Time start, const std::int64_t* d, Time duration) const;

    // Take `d` from [start, end) (a job starts, a reservation is made) or
    // give it back (a job ends early, a reservation is dropped).
    void take(Time start, Time end, const std::int64_t* d);
    void give(Time start, Time end, const std::int64_t* d);
    // The first time >= from at which column 0 has less than `need` free
    // (kForever if never): a job that needs `need` of column 0 fits from
    // `from` for any duration up to limit - from.
    Time fit_limit(Time from, std::int64_t need) const;
    std::int64_t free_at(Time t, std::size_t column = 0) const;
    // The earliest t >= floor from which column 0 has at least `need` free
    // at every instant up to `before` (`before` itself if the instant just
    // before it has less): where a run of room that ends at `before` begins.
    Time run_start(Time floor, Time before, std::int64_t need) const;
    // The most column `column` has free at any instant of [from, to).
    std::int64_t max_free(Time from, Time to, std::size_t column = 0) const;
    // The least it has free at any instant of [from, to): what a job over
    // that window can hold there (a cluster's room, [Ngubiri07]).
    std::int64_t min_free(Time from, Time to, std::size_t column = 0) const;
    // The start of the first step after the one holding t (kForever if
    // that step lasts forever): the next time the profile may change.
    Time next_change(Time t) const;
    // first[w] for w in 1..first.size()-1: the first time >= from at which
    // column 0 has at least w free (kForever if never). One sweep that
    // skips every chunk holding no new maximum.
    void first_reach(Time from, std::vector<Time>& first) const;

    std::size_t steps() const;
    std::size_t chunks() const { return chunk_.size(); }
    // The step function of column `column` from `from` on: (start, free)
    // of each step, the first starting at `from`, equal neighbours merged.
    void steps_of(Time from, std::size_t column,
                  std::vector<std::pair<Time, std::int64_t>>& out) const;
    // Bumped by every change, so callers can cache answers.
    std::uint64_t version() const { return version_; }
    // Throws Errc::internal if a structural invariant is broken (tests).
    void check() const;

  private:
    // A chunk's most steps grows with the profile: a search crosses every
    // chunk on its way and an edit rewrites one chunk, so the best size
    // grows about as the root of the length (docs/benchmarks.md, "Chunk
    // size"). Chunks made under one bound stay until an edit rebalances
    // them; the least is a quarter of the most.
    static constexpr std::size_t kChunkMaxShort = 32, kChunkMaxLong = 128;
    static constexpr std::size_t kShortSteps = 6144, kLongSteps = 24576;
    std::size_t chunk_max() const {
        return steps_ < kShortSteps  ? kChunkMaxShort
               : steps_ < kLongSteps ? 2 * kChunkMaxShort
                                     : kChunkMaxLong;
    }

    // Steps [time[i], time[i+1]) (the last step of the last chunk extends
    // forever; the first step of the first chunk back to the past). Values
    // are stored relative to `add`: the free amount of column j at step i
    // is val[i * k + j] + add[j].
    struct Chunk {
        std::vector<Time> time;
        std::vector<std::int64_t> val;
        std::vector<std::int64_t> add, lo, hi;  // k each; lo/hi include add
        // One column only, built by a search when it needs them (values
        // relative to add, so adding to the whole chunk keeps them):
        // pre_min[i] / suf_min[i], the least value of steps 0..i / i..end;
        // run_len[r], the longest run of steps that does not reach the
        // chunk's end and holds at least run_val[r] everywhere (run_val
        // descending). A search crosses a chunk by binary searches in these.
        mutable bool runs_ok = false;
        // Crossings by a search since the last change (runs not built):
        // the runs are built at the third (docs/design.md).
        mutable std::uint8_t crossed = 0;
        mutable std::vector<std::int64_t> pre_min, suf_min, run_val;
        mutable std::vector<Time> run_len;
    };
    struct Pos {
        std::size_t c, i;
    };

    std::size_t k_;
    std::size_t steps_ = 1;  // over all chunks
    std::vector<Chunk> chunk_;
    std::vector<Time> first_;  // first_[c] == chunk_[c].time[0], for the search
    Time origin_ = kNoTime;    // updates before this are clipped
    std::uint64_t version_ = 0;

    // Chunks carry their min and max (and searches use them) only when
    // there is more than one: a short profile is a plain sorted array.
    bool summarized() const { return chunk_.size() > 1; }
    std::int64_t value(const Chunk& ch, std::size_t i, std::size_t j) const {
        return ch.val[i * k_ + j] + ch.add[j];
    }
    Time time_of(Pos p) const { return chunk_[p.c].time[p.i]; }
    bool at_end(Pos p) const { return p.c == chunk_.size(); }
    Pos next(Pos p) const;
    Pos locate(Time t) const;  // the step holding t
    Pos split_at(Time t);      // make t a step boundary; its position
    bool step_fits(const Chunk& ch, std::size_t i, const std::int64_t* d) const;
    bool chunk_all_fit(const Chunk& ch, const std::int64_t* d) const;
    bool chunk_none_fit(const Chunk& ch, const std::int64_t* d) const;
    Pos first_misfit(Pos from, const std::int64_t* d, Time until) const;
    Pos first_fit_step(Pos from, const std::int64_t* d) const;
    void build_runs(const Chunk& ch) const;
    mutable std::vector<std::size_t> scratch_left_, scratch_right_, scratch_stack_;
    mutable std::vector<std::pair<std::int64_t, Time>> scratch_runs_;
    Time earliest_runs(Time from, std::int64_t x, Time duration, Time latest) const;
    void apply(Time start, Time end, const std::int64_t* d, std::int64_t sign);
    // Adds sign * d to the steps from a up to, not including, b.
    void add_between(Pos a, Pos b, const std::int64_t* d, std::int64_t sign);
    // After a change at the boundaries: the first step wholly in the past goes.
    void trim_head();
    void add_range(Chunk& ch, std::size_t from, std::size_t to, const std::int64_t* d,
                   std::int64_t sign);
    void refresh(Chunk& ch);
    bool same_as_previous(Pos p) const;
    void erase_step(Pos p);
    void normalize(Chunk& ch);
    void rebalance(std::size_t c);
};

}  // namespace rota
