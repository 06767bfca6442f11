#include "machine.h"

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
      rows_(static_cast<std::size_t>(cfg.rows), Profile({cfg.procs})),
      pool_capacity_(capacities(cfg)),
      limit_(static_cast<std::size_t>(cfg.procs) + 1, 0),
      limit_stamp_(static_cast<std::size_t>(cfg.procs) + 1, 0) {
    if (!pool_capacity_.empty()) pools_ = std::make_unique<Profile>(pool_capacity_);
}

void Machine::advance(Time now) {
    for (Profile& p : rows_) p.advance(now);
    if (pools_) pools_->advance(now);
}

bool Machine::fits_at(std::int32_t row, const Demand& d, Time start) const {
    const std::int64_t p = d.procs;
    if (!rows_[static_cast<std::size_t>(row)].fits(start, &p, d.window)) return false;
    return !pools_ || pools_->fits(start, d.pools, d.window);
}

bool Machine::row_holds(std::int32_t row, std::int32_t procs, Time start, Time end) const {
    const std::int64_t p = procs;
    return start >= end || rows_[static_cast<std::size_t>(row)].fits(start, &p, end - start);
}

void Machine::move(std::int32_t from, std::int32_t to, std::int32_t procs, Time start, Time end) {
    if (start >= end) return;
    const std::int64_t p = procs;
    rows_[static_cast<std::size_t>(from)].give(start, end, &p);
    rows_[static_cast<std::size_t>(to)].take(start, end, &p);
}

std::int32_t Machine::row_for_now(const Demand& d, Time now) const {
    std::int32_t best = -1;
    for (std::int32_t r = 0; r < rows(); ++r) {
        if (matrix_.free(r) < d.procs) continue;
        if (best >= 0 && matrix_.free(r) >= matrix_.free(best)) continue;  // best fit
        if (fits_at(r, d, now)) best = r;
    }
    return best;
}

// Alternates the processors of the row and the pools until both hold the
// window: each search only moves the start later, so this ends.
Time Machine::earliest_in(std::int32_t row, const Demand& d, Time from) const {
    const std::int64_t p = d.procs;
    const Profile& prof = rows_[static_cast<std::size_t>(row)];
    Time t = from;
    for (;;) {
        t = prof.earliest(t, &p, d.window);
        if (!pools_) return t;
        const Time u = pools_->earliest(t, d.pools, d.window);
        if (u == t) return t;
        t = u;
    }
}

std::pair<Time, std::int32_t> Machine::earliest(const Demand& d, Time from,
                                                const std::vector<char>* ok) const {
    Time best = kForever;
    std::int32_t row = -1;
    for (std::int32_t r = 0; r < rows(); ++r) {
        if (ok && !(*ok)[static_cast<std::size_t>(r)]) continue;
        const Time t = earliest_in(r, d, from);
        if (row < 0 || t < best) {
            best = t;
            row = r;
        }
    }
    return {best, row};
}

void Machine::take(std::int32_t row, Time start, Time end, const Demand& d) {
    const std::int64_t p = d.procs;
    rows_[static_cast<std::size_t>(row)].take(start, end, &p);
    if (pools_) pools_->take(start, end, d.pools);
}

void Machine::give(std::int32_t row, Time start, Time end, const Demand& d) {
    const std::int64_t p = d.procs;
    rows_[static_cast<std::size_t>(row)].give(start, end, &p);
    if (pools_) pools_->give(start, end, d.pools);
}

}  // namespace rota
