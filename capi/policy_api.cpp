// Policies in C for every hook (rota.h, rota_set_policy): a Policy that calls
// a C function with a view of the hook's batch and context, by column and
// field name as the vocabulary declares them (engine/vocabulary.h), and
// reads its answer back. What it answers is checked by the engine as a
// script's answer is (engine/hooks.h).
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/combinations.h"
#include "engine/hooks.h"
#include "handle.h"

using namespace rota;

namespace rota::capi {

// What a C policy reads during a call: the batch's columns and the
// context's fields, whatever the hook.
class CallView {
  public:
    virtual ~CallView() = default;
    virtual std::size_t rows() const = 0;
    virtual const void* column(const char* name, int* type) = 0;
    // ROTA_OK with *i or *d set (both for an integer), ROTA_ENOTFOUND, or
    // ROTA_EINVAL for a field that is not a number.
    virtual int number(const char* name, std::int64_t* i, double* d) const = 0;
    virtual const char* string(const char* name) = 0;
    virtual const void* array(const char* name, int* type, std::size_t* n) = 0;
    virtual int user(const char* name, std::int32_t user, double* out) const = 0;
};

}  // namespace rota::capi

struct rota_call {
    Hook hook;
    capi::CallView* view;
    std::vector<std::int64_t>* ints = nullptr;
    std::vector<double>* keys = nullptr;
    std::vector<Admission>* admissions = nullptr;
};

namespace rota::capi {
namespace {

template <class T>
constexpr int type_code() {
    if constexpr (std::is_same_v<T, std::int32_t>) return ROTA_TYPE_INT32;
    if constexpr (std::is_same_v<T, std::int64_t>) return ROTA_TYPE_INT64;
    if constexpr (std::is_same_v<T, double>) return ROTA_TYPE_DOUBLE;
    return ROTA_TYPE_STRING;  // Name
}

// Names as the strings C reads: the interned names' own characters.
const char* const* spelled(const std::vector<Name>& ids, const NameTable* names,
                           std::vector<std::vector<const char*>>& store) {
    std::vector<const char*>& out = store.emplace_back();
    for (const Name n : ids) out.push_back(names ? names->c_str(n) : "");
    return out.data();
}

template <class T>
const void* column_of(const std::vector<T>& v, const NameTable* names, int* type,
                      std::vector<std::vector<const char*>>& store) {
    *type = type_code<T>();
    if constexpr (std::is_same_v<T, Name>)
        return spelled(v, names, store);
    else
        return v.data();
}

const void* batch_column(const JobBatch& b, const char* name, int* type,
                         std::vector<std::vector<const char*>>& store) {
#define ROTA_X(col, t, value, doc) \
    if (std::strcmp(name, #col) == 0) return column_of(b.col, b.names, type, store);
    ROTA_JOB_COLUMNS_ALL(ROTA_X)
#undef ROTA_X
    if (std::strcmp(name, "R") == 0) return column_of(b.R, b.names, type, store);
    if (b.with_components && std::strcmp(name, "component_first") == 0)
        return column_of(b.first, b.names, type, store);
    if (b.with_components && std::strcmp(name, "component_width") == 0)
        return column_of(b.width, b.names, type, store);
    return nullptr;
}

const void* batch_column(const MigrationBatch& b, const char* name, int* type,
                         std::vector<std::vector<const char*>>& store) {
#define ROTA_X(col, t, doc) \
    if (std::strcmp(name, #col) == 0) return column_of(b.col, b.names, type, store);
    ROTA_MIGRATION_COLUMNS(ROTA_X)
#undef ROTA_X
    return nullptr;
}

// A malleable batch fills a column when a reader first needs it.
const void* batch_column(const MalleableBatch& b, const char* name, int* type,
                         std::vector<std::vector<const char*>>& store) {
#define ROTA_X(col, t, doc)                            \
    if (std::strcmp(name, #col) == 0) {                \
        if (b.fill) b.need(MalleableColumn::col);      \
        return column_of(b.col, b.names, type, store); \
    }
    ROTA_MALLEABLE_COLUMNS(ROTA_X)
#undef ROTA_X
    return nullptr;
}

const void* batch_column(const PreemptBatch& b, const char* name, int* type,
                         std::vector<std::vector<const char*>>& store) {
#define ROTA_X(col, t, doc) \
    if (std::strcmp(name, #col) == 0) return column_of(b.col, nullptr, type, store);
    ROTA_PREEMPT_COLUMNS(ROTA_X)
#undef ROTA_X
    return nullptr;
}

template <class B, class C>
class View final : public CallView {
  public:
    View(const B& b, const C& c) : b_(b), c_(c) {}
    std::size_t rows() const override { return b_.size(); }
    const void* column(const char* name, int* type) override {
        *type = 0;
        return batch_column(b_, name, type, store_);
    }
    int number(const char* name, std::int64_t* i, double* d) const override {
        int rc = ROTA_ENOTFOUND;
        visit_fields(c_, [&](const char* field, const auto& v) {
            if (rc != ROTA_ENOTFOUND || std::strcmp(field, name) != 0) return;
            using T = std::decay_t<decltype(v)>;
            rc = ROTA_OK;
            if constexpr (std::is_arithmetic_v<T>) {
                *i = static_cast<std::int64_t>(v);
                *d = static_cast<double>(v);
            } else if constexpr (std::is_same_v<T, MaybeTime>) {
                *i = v.t == kNoTime ? -1 : v.t;
                *d = static_cast<double>(*i);
            } else {
                rc = ROTA_EINVAL;
            }
        });
        return rc;
    }
    const char* string(const char* name) override {
        const char* out = nullptr;
        visit_fields(c_, [&](const char* field, const auto& v) {
            if constexpr (std::is_same_v<std::decay_t<decltype(v)>, Name>)
                if (std::strcmp(field, name) == 0) out = c_.names ? c_.names->c_str(v) : "";
        });
        return out;
    }
    const void* array(const char* name, int* type, std::size_t* n) override {
        const void* out = nullptr;
        *type = 0;
        *n = 0;
        visit_fields(c_, [&](const char* field, const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, Amounts> || std::is_same_v<T, Shares> ||
                          std::is_same_v<T, Names>)
                if (std::strcmp(field, name) == 0) {
                    *n = v.size();
                    out = v.empty() ? nullptr : column_of(v, c_.names, type, store_);
                    *type = type_code<typename T::value_type>();
                }
        });
        return out;
    }
    int user(const char* name, std::int32_t u, double* out) const override {
        int rc = ROTA_ENOTFOUND;
        visit_fields(c_, [&](const char* field, const auto& v) {
            if constexpr (std::is_base_of_v<UserFigures, std::decay_t<decltype(v)>>)
                if (std::strcmp(field, name) == 0) {
                    *out = v.value(u);
                    rc = ROTA_OK;
                }
        });
        return rc;
    }

  private:
    const B& b_;
    const C& c_;
    std::vector<std::vector<const char*>> store_;  // name columns spelled for this call
};

// The Policy of one hook, calling a C function.
class NativePolicy final : public Policy {
  public:
    NativePolicy(Hook h, rota_policy_fn fn, void* ud, bool streams)
        : hook_(h), fn_(fn), ud_(ud), streams_(streams) {}
    bool provides(Hook h) const override { return h == hook_; }
    bool streams(Hook h) const override { return streams_ && h == hook_; }
    std::string source(Hook h) const override {
        return std::string("the C policy for ") + hook_name(h);
    }
#define ROTA_X(hook, id, Batch, Context, Answer, fallback)                   \
    HookOutcome hook(const Batch& b, const Context& c, Answer& a) override { \
        return run(Hook::hook, b, c, a);                                     \
    }
    ROTA_HOOKS(ROTA_X)
#undef ROTA_X

  private:
    // Where the C function writes its answer (rota_answer_*).
    template <class B>
    static void bind(rota_call& call, const B& b, Admissions& out) {
        out.assign(b.size(), Admission{});  // every job accepted unless the function says
        call.admissions = &out;
    }
    template <class B>
    static void bind(rota_call& call, const B&, Keys& keys) {
        call.keys = &keys;
    }
    template <class B>
    static void bind(rota_call& call, const B&, Indices& out) {
        out.clear();
        call.ints = &out;
    }
    template <class B, class C, class A>
    HookOutcome run(Hook h, const B& b, const C& c, A& answer) {
        rota_call call{h, nullptr};
        bind(call, b, answer);
        View<B, C> view(b, c);
        call.view = &view;
        const int rc = fn_(ud_, &call);
        if (rc != 0)
            return HookOutcome::failure(std::string(hook_name(hook_)) + ": " + source(hook_) +
                                        " returned " + std::to_string(rc));
        return {};
    }

    Hook hook_;
    rota_policy_fn fn_;
    void* ud_;
    bool streams_;
};

// Why this engine never calls hook h, or "".
std::string never_called(const rota_engine* e, Hook h) {
    const SchedulerConfig& s = e->config.scheduler;
    switch (h) {
        case Hook::backfill_select:
            if (calls_backfill_select(s)) return {};
            return s.malleable.enabled
                       ? std::string("[malleable]: ") + kNeverBackfills
                       : "scheduler.backfill is false" +
                             (e->config.preset.empty() ? std::string()
                                                       : ", preset '" + e->config.preset + "'");
        case Hook::migration_option:
            return s.migration ? "" : "gang.migration is false";
        case Hook::placement:
            return s.clusters.empty() ? "the machine has no [[machine.clusters]]" : "";
        case Hook::harvest:
        case Hook::distribution:
            return s.malleable.enabled ? "" : "there is no [malleable] table";
        case Hook::preempt:
            return s.classes.enabled ? "" : "there is no [classes] table";
        default:
            return {};
    }
}

}  // namespace
}  // namespace rota::capi

extern "C" {

int rota_set_policy(rota_engine* e, int hook, rota_policy_fn fn, void* ud, int flags) {
    return capi::guard(e, [&] {
        if (hook < 0 || hook >= kHookCount)
            throw Error(Errc::invalid, "rota_set_policy: no hook " + std::to_string(hook));
        const auto h = static_cast<Hook>(hook);
        if (flags & ~ROTA_STREAM || (flags && h != Hook::backfill_select))
            throw Error(Errc::invalid, "rota_set_policy: flags " + std::to_string(flags) +
                                           " for hook " + hook_name(h));
        if (const std::string why = capi::never_called(e, h); fn && !why.empty())
            throw Error(Errc::invalid, std::string("rota_set_policy: this engine never calls ") +
                                           hook_name(h) + " (" + why + ")");
        e->native[static_cast<std::size_t>(hook)] =
            fn ? std::make_shared<capi::NativePolicy>(h, fn, ud, (flags & ROTA_STREAM) != 0)
               : nullptr;
        e->install_policies();
        return ROTA_OK;
    });
}

int rota_call_hook(const rota_call* c) {
    return c ? static_cast<int>(c->hook) : -1;
}

size_t rota_call_rows(const rota_call* c) {
    return c ? c->view->rows() : 0;
}

const void* rota_call_column(rota_call* c, const char* name, int* type) {
    int ignored = 0;
    if (!type) type = &ignored;
    *type = 0;
    return c && name ? c->view->column(name, type) : nullptr;
}

int rota_call_int(const rota_call* c, const char* name, int64_t* out) {
    if (!c || !name || !out) return ROTA_EINVAL;
    double d = 0;
    return c->view->number(name, out, &d);
}

int rota_call_double(const rota_call* c, const char* name, double* out) {
    if (!c || !name || !out) return ROTA_EINVAL;
    std::int64_t i = 0;
    return c->view->number(name, &i, out);
}

const char* rota_call_string(rota_call* c, const char* name) {
    return c && name ? c->view->string(name) : nullptr;
}

const void* rota_call_array(rota_call* c, const char* name, int* type, size_t* n) {
    int t = 0;
    size_t k = 0;
    const void* p = c && name ? c->view->array(name, &t, &k) : nullptr;
    if (type) *type = t;
    if (n) *n = k;
    return p;
}

int rota_call_user(const rota_call* c, const char* name, int32_t user, double* out) {
    if (!c || !name || !out) return ROTA_EINVAL;
    return c->view->user(name, user, out);
}

int rota_call_answer(rota_call* c, const int64_t* values, size_t n) {
    if (!c || !c->ints || (n > 0 && !values)) return ROTA_EINVAL;
    c->ints->assign(values, values + n);
    return ROTA_OK;
}

int rota_call_answer_keys(rota_call* c, const double* keys, size_t n) {
    if (!c || !c->keys || (n > 0 && !keys)) return ROTA_EINVAL;
    c->keys->assign(keys, keys + n);
    return ROTA_OK;
}

int rota_call_answer_admission(rota_call* c, size_t i, int decision, const char* reason,
                               rota_time until) {
    if (!c || !c->admissions || i >= c->admissions->size()) return ROTA_EINVAL;
    Admission& a = (*c->admissions)[i];
    switch (decision) {
        case ROTA_ACCEPT:
            a = Admission{};
            return ROTA_OK;
        case ROTA_HOLD:
            a = Admission{AdmissionKind::hold, {}, until >= 0 ? until : kForever};
            return ROTA_OK;
        case ROTA_REJECT:
            a = Admission{AdmissionKind::reject,
                          reason ? std::string(reason, strnlen(reason, 4096)) : std::string(),
                          kForever};
            return ROTA_OK;
        default:
            return ROTA_EINVAL;
    }
}

}  // extern "C"
