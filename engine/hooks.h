// Each hook's call, declared once (docs/design.md, "Policies and their
// contract"): what the hook is given (its batch and context types), what it
// answers, the Policy method that answers, how an answer is checked, what
// the engine does without a policy (`unset`) and when a call fails
// (`fallback`, as ROTA_HOOKS in vocabulary.h describes it). The core asks
// every hook the same way (Scheduler::ask): quarantine and pass budget, the
// call timed, the answer checked, the fallback on failure. Adding a hook is
// a ROTA_HOOKS row, a HookSpec here, the call, and its ROTA_HOOK_* number in
// rota.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "answers.h"
#include "policy.h"

namespace rota {

// How a script writes an answer (docs/lua-api.md; lua/answer.h reads each):
// decisions, one per job (admission); keys, a number per job (order);
// picks, 1-based indices or the batch itself for all (backfill_select);
// options, an integer per row, nil for 0 (migration_option); clusters, an
// array of 1-based cluster numbers per job (placement); amounts, an
// integer per row or a plan of rota.waterfill that takes processors
// (harvest) or gives them (distribution); one_index, one 1-based index or
// nil (preempt). A new hook picks the form its answer has.
enum class AnswerForm : std::uint8_t {
    decisions,
    keys,
    picks,
    options,
    clusters,
    taken_amounts,
    given_amounts,
    one_index
};

// Per hook, besides its signature (HookSignature, from ROTA_HOOKS): `form`,
// its answer's form in a script; `check(answer, batch, ctx, policy)`, "" or
// what is wrong; `unset`, what the engine does without a policy (Policy's
// default method too); `fallback`, what it does when a call fails;
// kUnsetReadsContext, whether `unset` reads the context (else the engine
// does not build one).
template <Hook H>
struct HookSpec;

template <>
struct HookSpec<Hook::admission> : HookSignature<Hook::admission> {
    static constexpr AnswerForm form = AnswerForm::decisions;
    static constexpr bool kUnsetReadsContext = false;
    static std::string check(const Answer& a, const Batch& b, const Context&, const Policy&) {
        return check_admission(a, b.size());
    }
    static void unset(const Batch& b, const Context&, Answer& a) {
        a.assign(b.size(), Admission{});
    }
    static void fallback(const Batch& b, const Context& c, Answer& a) { unset(b, c, a); }
};

template <>
struct HookSpec<Hook::order> : HookSignature<Hook::order> {
    static constexpr AnswerForm form = AnswerForm::keys;
    static constexpr bool kUnsetReadsContext = false;
    static std::string check(const Answer& a, const Batch& b, const Context&, const Policy&) {
        return check_keys(a, b.size());
    }
    static void unset(const Batch& b, const Context&, Answer& a) {
        a.assign(b.submit.begin(), b.submit.end());
    }
    static void fallback(const Batch& b, const Context& c, Answer& a) { unset(b, c, a); }
};

template <>
struct HookSpec<Hook::backfill_select> : HookSignature<Hook::backfill_select> {
    static constexpr AnswerForm form = AnswerForm::picks;
    static constexpr bool kUnsetReadsContext = false;
    static std::string check(const Answer& a, const Batch& b, const Context&, const Policy& p) {
        thread_local std::vector<std::uint8_t> seen;  // no call allocates
        return check_picks(a, b.size(), seen, p.first_index());
    }
    // Every candidate, in queue order.
    static void unset(const Batch& b, const Context&, Answer& a) {
        a.clear();
        for (std::size_t i = 0; i < b.size(); ++i) a.push_back(static_cast<std::int64_t>(i));
    }
    static void fallback(const Batch&, const Context&, Answer& a) { a.clear(); }
};

template <>
struct HookSpec<Hook::migration_option> : HookSignature<Hook::migration_option> {
    static constexpr AnswerForm form = AnswerForm::options;
    static constexpr bool kUnsetReadsContext = true;
    static std::string check(const Answer& a, const Batch& b, const Context&, const Policy&) {
        return check_options(a, b.size());
    }
    static void unset(const Batch& b, const Context& c, Answer& a) { min_cost_options(b, c, a); }
    static void fallback(const Batch& b, const Context&, Answer& a) { a.assign(b.size(), 0); }
};

// An empty answer keeps the engine's Worst Fit.
template <>
struct HookSpec<Hook::placement> : HookSignature<Hook::placement> {
    static constexpr AnswerForm form = AnswerForm::clusters;
    static constexpr bool kUnsetReadsContext = false;
    static std::string check(const Answer& a, const Batch& b, const Context& c, const Policy&) {
        return check_placement(a, b, c.clusters);
    }
    static void unset(const Batch&, const Context&, Answer& a) { a.clear(); }
    static void fallback(const Batch&, const Context&, Answer& a) { a.clear(); }
};

template <>
struct HookSpec<Hook::harvest> : HookSignature<Hook::harvest> {
    static constexpr AnswerForm form = AnswerForm::taken_amounts;
    static constexpr bool kUnsetReadsContext = false;
    static std::string check(const Answer& a, const Batch& b, const Context& c, const Policy&) {
        return check_harvest(a, b, c.needed);
    }
    static void unset(const Batch&, const Context&, Answer& a) { a.clear(); }  // never harvest
    static void fallback(const Batch&, const Context&, Answer& a) { a.clear(); }
};

template <>
struct HookSpec<Hook::distribution> : HookSignature<Hook::distribution> {
    static constexpr AnswerForm form = AnswerForm::given_amounts;
    static constexpr bool kUnsetReadsContext = true;
    static std::string check(const Answer& a, const Batch& b, const Context& c, const Policy&) {
        return check_distribution(a, b, c.needed);
    }
    static void unset(const Batch& b, const Context& c, Answer& a) { favor_queued(b, c, a); }
    static void fallback(const Batch& b, const Context& c, Answer& a) { favor_queued(b, c, a); }
};

template <>
struct HookSpec<Hook::preempt> : HookSignature<Hook::preempt> {
    static constexpr AnswerForm form = AnswerForm::one_index;
    static constexpr bool kUnsetReadsContext = false;
    static std::string check(const Answer& a, const Batch& b, const Context&, const Policy&) {
        return check_preempt(a, b.size());
    }
    static void unset(const Batch& b, const Context&, Answer& a) { lowest_cost_set(b, a); }
    static void fallback(const Batch& b, const Context&, Answer& a) { lowest_cost_set(b, a); }
};

// Calls f(HookSpec<H>{}) with the spec of the hook h names, for code that
// meets a hook as a value (the dry run at load, the C ABI's policies).
template <class F>
decltype(auto) with_hook_spec(Hook h, F&& f) {
    switch (h) {
#define ROTA_X(hook, id, B, C, A, fallback) \
    case Hook::hook:                        \
        return f(HookSpec<Hook::hook>{});
        ROTA_HOOKS(ROTA_X)
#undef ROTA_X
    }
    return f(HookSpec<Hook::admission>{});
}

}  // namespace rota
