// Each hook's call, declared once (docs/design.md, "Policies and their
// contract"): what the hook is given (its batch and context types), what it
// answers, the Policy method that answers, how an answer is checked, what
// the engine does without a policy (`unset`) and when a call fails
// (`fallback`, as ROTA_HOOKS in vocabulary.h describes it). The core asks
// every hook the same way (Scheduler::ask): quarantine and pass budget, the
// call timed, the answer checked, the fallback on failure. Adding a hook is
// a ROTA_HOOKS row, a HookSpec here, its Policy method, and the call.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "answers.h"
#include "policy.h"

namespace rota {

template <Hook H>
struct HookSpec;

// The defaults a Policy gives for a hook it does not override are what the
// engine does without a policy (policy.cpp).
struct DefaultPolicy final : Policy {
    bool provides(Hook) const override { return true; }
};

template <Hook H>
struct UnsetIsDefault {
    static constexpr bool kUnsetReadsContext = true;
    template <class B, class C, class A>
    static void unset(const B& b, const C& c, A& a) {
        static DefaultPolicy defaults;
        (defaults.*HookSpec<H>::method)(b, c, a);
    }
};

template <>
struct HookSpec<Hook::admission> : UnsetIsDefault<Hook::admission> {
    using Batch = JobBatch;
    using Context = CommonContext;
    using Answer = std::vector<Admission>;
    static constexpr auto method = &Policy::admission;
    static std::string check(const Answer& a, const Batch& b, const Context&, const Policy&) {
        return check_admission(a, b.size());
    }
    static void fallback(const Batch& b, const Context&, Answer& a) {
        a.assign(b.size(), Admission{});
    }
};

template <>
struct HookSpec<Hook::order> : UnsetIsDefault<Hook::order> {
    using Batch = JobBatch;
    using Context = CommonContext;
    using Answer = std::vector<double>;
    static constexpr auto method = &Policy::order;
    static std::string check(const Answer& a, const Batch& b, const Context&, const Policy&) {
        return check_keys(a, b.size());
    }
    static void fallback(const Batch& b, const Context&, Answer& a) {
        a.assign(b.submit.begin(), b.submit.end());
    }
};

template <>
struct HookSpec<Hook::backfill_select> : UnsetIsDefault<Hook::backfill_select> {
    static constexpr bool kUnsetReadsContext = false;  // every candidate, in queue order
    using Batch = JobBatch;
    using Context = BackfillContext;
    using Answer = std::vector<std::int64_t>;
    static constexpr auto method = &Policy::backfill_select;
    static std::string check(const Answer& a, const Batch& b, const Context&, const Policy& p) {
        thread_local std::vector<std::uint8_t> seen;  // no call allocates
        return check_picks(a, b.size(), seen, p.first_index());
    }
    static void fallback(const Batch&, const Context&, Answer& a) { a.clear(); }
};

template <>
struct HookSpec<Hook::migration_option> : UnsetIsDefault<Hook::migration_option> {
    using Batch = MigrationBatch;
    using Context = MigrationContext;
    using Answer = std::vector<std::int64_t>;
    static constexpr auto method = &Policy::migration_option;
    static std::string check(const Answer& a, const Batch& b, const Context&, const Policy&) {
        return check_options(a, b.size());
    }
    static void fallback(const Batch& b, const Context&, Answer& a) { a.assign(b.size(), 0); }
};

// An empty answer keeps the engine's Worst Fit.
template <>
struct HookSpec<Hook::placement> {
    static constexpr bool kUnsetReadsContext = false;
    using Batch = JobBatch;
    using Context = PlacementContext;
    using Answer = std::vector<std::int64_t>;
    static constexpr auto method = &Policy::placement;
    static std::string check(const Answer& a, const Batch& b, const Context& c, const Policy&) {
        return check_placement(a, b, c.clusters);
    }
    static void fallback(const Batch&, const Context&, Answer& a) { a.clear(); }
    static void unset(const Batch&, const Context&, Answer& a) { a.clear(); }
};

template <>
struct HookSpec<Hook::harvest> : UnsetIsDefault<Hook::harvest> {
    using Batch = MalleableBatch;
    using Context = MalleableContext;
    using Answer = std::vector<std::int64_t>;
    static constexpr auto method = &Policy::harvest;
    static std::string check(const Answer& a, const Batch& b, const Context& c, const Policy&) {
        return check_harvest(a, b, c.needed);
    }
    static void fallback(const Batch&, const Context&, Answer& a) { a.clear(); }
};

template <>
struct HookSpec<Hook::distribution> : UnsetIsDefault<Hook::distribution> {
    using Batch = MalleableBatch;
    using Context = MalleableContext;
    using Answer = std::vector<std::int64_t>;
    static constexpr auto method = &Policy::distribution;
    static std::string check(const Answer& a, const Batch& b, const Context& c, const Policy&) {
        return check_distribution(a, b, c.needed);
    }
    static void fallback(const Batch& b, const Context& c, Answer& a) { favor_queued(b, c, a); }
};

template <>
struct HookSpec<Hook::preempt> : UnsetIsDefault<Hook::preempt> {
    using Batch = PreemptBatch;
    using Context = PreemptContext;
    using Answer = std::vector<std::int64_t>;
    static constexpr auto method = &Policy::preempt;
    static std::string check(const Answer& a, const Batch& b, const Context&, const Policy&) {
        return check_preempt(a, b.size());
    }
    static void fallback(const Batch& b, const Context&, Answer& a) { lowest_cost_set(b, a); }
};

// Calls f(HookSpec<H>{}) with the spec of the hook h names, for code that
// meets a hook as a value (the dry run at load, the C ABI's policies).
template <class F>
decltype(auto) with_hook_spec(Hook h, F&& f) {
    switch (h) {
#define ROTA_X(hook, id, fallback) \
    case Hook::hook:               \
        return f(HookSpec<Hook::hook>{});
        ROTA_HOOKS(ROTA_X)
#undef ROTA_X
    }
    return f(HookSpec<Hook::admission>{});
}

}  // namespace rota
