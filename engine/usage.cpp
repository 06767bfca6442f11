#include "usage.h"

#include <atomic>
#include <cmath>

namespace rota {

UsageBook::UsageBook(Time half_life)
    : lambda_(half_life > 0 ? std::log(2.0) / static_cast<double>(half_life) : 0.0) {
    static std::atomic<std::uint64_t> next{1};
    serial_ = next.fetch_add(1, std::memory_order_relaxed);
}

const UsageBook::Account* UsageBook::find(std::int32_t user) const {
    if (user >= -1 && user < kDense - 1) {
        const auto u = static_cast<std::size_t>(user + 1);
        return u < dense_.size() && dense_[u] != 0 ? &accounts_[dense_[u] - 1] : nullptr;
    }
    auto it = index_.find(user);
    return it == index_.end() ? nullptr : &accounts_[it->second];
}

UsageBook::Account& UsageBook::account(std::int32_t user) {
    const auto next = static_cast<std::uint32_t>(accounts_.size());
    std::uint32_t at;
    if (user >= -1 && user < kDense - 1) {
        const auto u = static_cast<std::size_t>(user + 1);
        if (u >= dense_.size()) dense_.resize(u + 1, 0);
        if (dense_[u] == 0) dense_[u] = next + 1;
        at = dense_[u] - 1;
    } else {
        at = index_.try_emplace(user, next).first->second;
    }
    if (at == next) {
        ids_.push_back(user);
        accounts_.emplace_back();
    }
    return accounts_[at];
}

// held, value and settle are inlined into every caller here (none is
// called from another file): a start, an end and a resize each settle two
// accounts.

// Held over [now - dt, now): procs x dt without decay; with decay rate l,
// procs x the integral of exp(-l s) over [0, dt) = procs (1 - exp(-l dt)) / l.
[[gnu::always_inline]] inline double UsageBook::held(std::int32_t procs, Time dt) const {
    if (procs == 0 || dt <= 0) return 0.0;
    const double p = static_cast<double>(procs);
    const double us = lambda_ > 0 ? -std::expm1(-lambda_ * static_cast<double>(dt)) / lambda_
                                  : static_cast<double>(dt);
    return p * us / static_cast<double>(kSecond);
}

[[gnu::always_inline]] inline double UsageBook::value(const Account& a, Time now) const {
    const Time dt = now - a.at;
    const double kept = lambda_ > 0 && dt > 0
                            ? a.settled * std::exp(-lambda_ * static_cast<double>(dt))
                            : a.settled;
    return kept + held(a.procs, dt);
}

[[gnu::always_inline]] inline void UsageBook::settle(Account& a, Time now) const {
    if (now <= a.at) return;
    a.settled = value(a, now);
    a.at = now;
}

void UsageBook::started(std::int32_t user, std::int32_t procs, Time since, Time now) {
    ++version_;
    for (Account* a : {&account(user), &total_}) {
        settle(*a, now);
        a->settled += held(procs, now - since);
        a->procs += procs;
        ++a->jobs;
    }
}

void UsageBook::resized(std::int32_t user, std::int32_t delta, Time now) {
    ++version_;
    for (Account* a : {&account(user), &total_}) {
        settle(*a, now);
        a->procs += delta;
    }
}

void UsageBook::stopped(std::int32_t user, std::int32_t procs, Time now) {
    ++version_;
    for (Account* a : {&account(user), &total_}) {
        settle(*a, now);
        a->procs -= procs;
        --a->jobs;
    }
}

double UsageBook::usage(std::int32_t user, Time now) const {
    const Account* a = find(user);
    return a ? value(*a, now) : 0.0;
}

std::int32_t UsageBook::procs(std::int32_t user) const {
    const Account* a = find(user);
    return a ? a->procs : 0;
}

std::int32_t UsageBook::running(std::int32_t user) const {
    const Account* a = find(user);
    return a ? a->jobs : 0;
}

void UsageBook::figures(const std::vector<std::uint32_t>& positions, Time now, double* usage,
                        std::int32_t* procs, std::int32_t* running) const {
    for (std::size_t k = 0; k < positions.size(); ++k) {
        const Account& a = accounts_[positions[k]];
        usage[k] = value(a, now);
        procs[k] = a.procs;
        running[k] = a.jobs;
    }
}

double UsageBook::total(Time now) const {
    return value(total_, now);
}

}  // namespace rota
