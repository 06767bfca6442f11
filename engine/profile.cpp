#include "profile.h"

#include <algorithm>
#include <cassert>

#include "error.h"

namespace rota {

Profile::Profile(std::int32_t procs, std::vector<std::int64_t> pool_capacity)
    : stride_(1 + pool_capacity.size()) {
    time_.push_back(kNoTime);
    free_.push_back(procs);
    free_.insert(free_.end(), pool_capacity.begin(), pool_capacity.end());
}

std::size_t Profile::step_at(Time t) const {
    // Profiles stay short (one step per distinct estimated end), and most
    // queries are about the first steps, so a linear probe from the front
    // beats a binary search in practice; fall back to one for long profiles.
    if (time_.size() > 32) {
        auto it = std::upper_bound(time_.begin(), time_.end(), t);
        return static_cast<std::size_t>(it - time_.begin()) - 1;
    }
    std::size_t i = 0;
    while (i + 1 < time_.size() && time_[i + 1] <= t) ++i;
    return i;
}

std::size_t Profile::split_at(Time t) {
    std::size_t i = step_at(t);
    if (time_[i] == t) return i;
    time_.insert(time_.begin() + static_cast<std::ptrdiff_t>(i + 1), t);
    auto src = free_.begin() + static_cast<std::ptrdiff_t>(i * stride_);
    std::vector<std::int64_t> copy(src, src + static_cast<std::ptrdiff_t>(stride_));
    free_.insert(free_.begin() + static_cast<std::ptrdiff_t>((i + 1) * stride_), copy.begin(),
                 copy.end());
    return i + 1;
}

void Profile::advance(Time now) {
    std::size_t i = step_at(now);
    if (i == 0) return;
    ++version_;
    time_.erase(time_.begin(), time_.begin() + static_cast<std::ptrdiff_t>(i));
    free_.erase(free_.begin(), free_.begin() + static_cast<std::ptrdiff_t>(i * stride_));
}

bool Profile::step_fits(std::size_t i, const Demand& d) const {
    const std::int64_t* f = &free_[i * stride_];
    if (f[0] < d.procs) return false;
    if (d.pools) {
        for (std::size_t k = 1; k < stride_; ++k)
            if (f[k] < d.pools[k - 1]) return false;
    }
    return true;
}

bool Profile::fits(Time start, const Demand& d, Time duration) const {
    const Time end = start + duration;
    for (std::size_t i = step_at(start); i < time_.size() && time_[i] < end; ++i)
        if (!step_fits(i, d)) return false;
    return true;
}

Time Profile::earliest(Time from, const Demand& d, Time duration) const {
    Time candidate = from;
    // Walk forward from the step holding `from`: a step that cannot hold the
    // job pushes the candidate start to the next step boundary. The last
    // step extends forever, so reaching the end means the candidate holds.
    for (std::size_t j = step_at(from); j < time_.size(); ++j) {
        if (time_[j] >= candidate + duration) break;
        if (!step_fits(j, d)) {
            if (j + 1 == time_.size())
                throw Error(Errc::internal, "profile: demand exceeds the machine");
            candidate = time_[j + 1];
        }
    }
    return candidate;
}

void Profile::apply(Time start, Time end, const Demand& d, std::int64_t sign) {
    // The profile starts at its first step: anything before is the past.
    start = std::max(start, time_[0]);
    if (start >= end) return;
    ++version_;
    std::size_t a = split_at(start);
    std::size_t b = split_at(end);
    for (std::size_t i = a; i < b; ++i) {
        std::int64_t* f = &free_[i * stride_];
        f[0] += sign * d.procs;
        if (d.pools)
            for (std::size_t k = 1; k < stride_; ++k) f[k] += sign * d.pools[k - 1];
    }
    // Merge steps equal to their predecessor so the profile stays as short
    // as the number of distinct free levels.
    auto same = [&](std::size_t i) {
        for (std::size_t k = 0; k < stride_; ++k)
            if (free_[i * stride_ + k] != free_[(i - 1) * stride_ + k]) return false;
        return true;
    };
    for (std::size_t i : {b, a}) {
        if (i > 0 && i < time_.size() && same(i)) {
            time_.erase(time_.begin() + static_cast<std::ptrdiff_t>(i));
            free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(i * stride_),
                        free_.begin() + static_cast<std::ptrdiff_t>((i + 1) * stride_));
        }
    }
}

void Profile::take(Time start, Time end, const Demand& d) {
    apply(start, end, d, -1);
}
void Profile::give(Time start, Time end, const Demand& d) {
    apply(start, end, d, +1);
}

Time Profile::fit_limit(Time from, std::int32_t procs) const {
    for (std::size_t i = step_at(from); i < time_.size(); ++i)
        if (free_[i * stride_] < procs) return std::max(time_[i], from);
    return kForever;
}

std::int32_t Profile::free_procs_at(Time t) const {
    return static_cast<std::int32_t>(free_[step_at(t) * stride_]);
}

std::int64_t Profile::free_pool_at(Time t, std::size_t pool) const {
    return free_[step_at(t) * stride_ + 1 + pool];
}

}  // namespace rota
