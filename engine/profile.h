// The availability profile: free capacity as a step function of time, built
// from running jobs' estimated ends and from reservations (ARCHITECTURE §3).
// Backfilling asks it two questions: where is the earliest slot for a job,
// and does a job fit now for its whole estimate without touching a
// reservation (seed 000 §3, seed 002 §2.1).
#pragma once

#include <cstdint>
#include <vector>

#include "types.h"

namespace rota {

// What a job takes from the machine: processors and, when the machine has
// pooled resources (seed 002's K resources), an amount of each pool.
struct Demand {
    std::int32_t procs = 0;
    const std::int64_t* pools = nullptr;  // `pool_count` values, or null for none
};

class Profile {
  public:
    Profile(std::int32_t procs, std::vector<std::int64_t> pool_capacity);

    // Forget the past: merge every step that ends at or before `now`.
    void advance(Time now);

    // Earliest t >= from at which `d` fits during [t, t + duration).
    Time earliest(Time from, const Demand& d, Time duration) const;
    bool fits(Time start, const Demand& d, Time duration) const;

    // Take `d` from [start, end) (a job starts or a reservation is made) or
    // give it back (a job ends early, a reservation is dropped).
    void take(Time start, Time end, const Demand& d);
    void give(Time start, Time end, const Demand& d);

    // The first time >= from at which fewer than `procs` processors are
    // free (kForever if never): a job of that width fits from `from` for
    // any duration up to limit - from. Ignores pools.
    Time fit_limit(Time from, std::int32_t procs) const;
    // Bumped by every change, so callers can cache answers.
    std::uint64_t version() const { return version_; }

    std::int32_t free_procs_at(Time t) const;
    std::int64_t free_pool_at(Time t, std::size_t pool) const;
    std::size_t steps() const { return time_.size(); }
    std::size_t pool_count() const { return stride_ - 1; }

  private:
    // Step i covers [time_[i], time_[i+1]) (the last one extends forever)
    // and holds `stride_` free amounts: processors, then each pool.
    std::vector<Time> time_;
    std::vector<std::int64_t> free_;
    std::size_t stride_;
    std::uint64_t version_ = 0;

    std::size_t step_at(Time t) const;  // index of the step containing t
    std::size_t split_at(Time t);       // make t a step boundary; its index
    void apply(Time start, Time end, const Demand& d, std::int64_t sign);
    bool step_fits(std::size_t i, const Demand& d) const;
};

}  // namespace rota
