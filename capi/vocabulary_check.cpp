// rota.h is written by hand so that it stays a readable reference (STYLE:
// "the header is the reference"), but what it says about hooks, batch
// columns and context fields must match engine/vocabulary.h, the one
// declaration. These checks make the build fail when they drift: a hook
// without its ROTA_HOOK_* number, a column missing from rota_batch or in
// another order, a context field of another type.
#include <cstddef>
#include <type_traits>

#include "capi/include/rota.h"
#include "engine/vocabulary.h"

namespace rota::capi {

namespace {

// The C type a vocabulary type is exposed as.
template <class T>
struct c_type {
    using type = T;
};
template <>
struct c_type<MaybeTime> {
    using type = rota_time;
};
template <>
struct c_type<Name> {
    using type = const char*;
};
template <class T>
struct c_type<std::vector<T>> {
    using type = const T*;
};
template <class T>
using c_type_t = typename c_type<T>::type;

#define ROTA_X(hook, id, B, C, A, fallback)                       \
    static_assert(ROTA_HOOK_##id == static_cast<int>(Hook::hook), \
                  "ROTA_HOOK_" #id " in rota.h is not the hook's number");
ROTA_HOOKS(ROTA_X)
#undef ROTA_X
static_assert(ROTA_HOOK_COUNT == kHookCount, "rota.h's ROTA_HOOK_COUNT is out of date");

// rota_batch: size, n, then every job column in declaration order.
#define ROTA_X(name, ty, value, doc)                                               \
    static_assert(std::is_same_v<decltype(rota_batch::name), const c_type_t<ty>*>, \
                  "rota_batch." #name " has the wrong type");
ROTA_JOB_COLUMNS(ROTA_X)
#undef ROTA_X
constexpr std::size_t kBatchOffsets[] = {
#define ROTA_X(name, type, value, doc) offsetof(rota_batch, name),
    ROTA_JOB_COLUMNS(ROTA_X)
#undef ROTA_X
};

// rota_backfill_context: size, the common fields, the backfill fields.
#define ROTA_X(name, ty, doc)                                                          \
    static_assert(std::is_same_v<decltype(rota_backfill_context::name), c_type_t<ty>>, \
                  "rota_backfill_context." #name " has the wrong type");
ROTA_CONTEXT_COMMON(ROTA_X)
ROTA_CONTEXT_BACKFILL(ROTA_X)
#undef ROTA_X
constexpr std::size_t kContextOffsets[] = {
#define ROTA_X(name, type, doc) offsetof(rota_backfill_context, name),
    ROTA_CONTEXT_COMMON(ROTA_X) ROTA_CONTEXT_BACKFILL(ROTA_X)
#undef ROTA_X
};

template <std::size_t N>
constexpr bool in_order(const std::size_t (&off)[N], std::size_t first, std::size_t total) {
    if (off[0] != first) return false;
    for (std::size_t i = 1; i < N; ++i)
        if (off[i] <= off[i - 1]) return false;
    return off[N - 1] < total;
}

// Then the demand matrix R ([Leinberger99]), which is not a column of n values.
static_assert(in_order(kBatchOffsets, offsetof(rota_batch, n) + sizeof(size_t),
                       sizeof(rota_batch)) &&
                  offsetof(rota_batch, resources) ==
                      kBatchOffsets[std::size(kBatchOffsets) - 1] + sizeof(void*),
              "rota_batch's columns are not the job columns in declaration order");
static_assert(std::is_same_v<decltype(rota_batch::R), const double*>,
              "rota_batch.R has the wrong type");
// Then the class columns (ABI 6), to the end.
#define ROTA_X(name, ty, value, doc)                                               \
    static_assert(std::is_same_v<decltype(rota_batch::name), const c_type_t<ty>*>, \
                  "rota_batch." #name " has the wrong type");
ROTA_JOB_COLUMNS_CLASSES(ROTA_X)
#undef ROTA_X
constexpr std::size_t kClassOffsets[] = {
#define ROTA_X(name, type, value, doc) offsetof(rota_batch, name),
    ROTA_JOB_COLUMNS_CLASSES(ROTA_X)
#undef ROTA_X
};
static_assert(kClassOffsets[0] == offsetof(rota_batch, R) + sizeof(void*) &&
                  in_order(kClassOffsets, kClassOffsets[0], sizeof(rota_batch)),
              "rota_batch has R, then the class columns in declaration order");
// Then the name columns (ABI 7), to the end.
#define ROTA_X(name, ty, value, doc)                                               \
    static_assert(std::is_same_v<decltype(rota_batch::name), const c_type_t<ty>*>, \
                  "rota_batch." #name " has the wrong type");
ROTA_JOB_COLUMNS_NAMES(ROTA_X)
#undef ROTA_X
constexpr std::size_t kNameOffsets[] = {
#define ROTA_X(name, type, value, doc) offsetof(rota_batch, name),
    ROTA_JOB_COLUMNS_NAMES(ROTA_X)
#undef ROTA_X
};
static_assert(kNameOffsets[0] == kClassOffsets[std::size(kClassOffsets) - 1] + sizeof(void*) &&
                  in_order(kNameOffsets, kNameOffsets[0], sizeof(rota_batch)) &&
                  sizeof(rota_batch) == kNameOffsets[std::size(kNameOffsets) - 1] + sizeof(void*),
              "rota_batch ends with the class columns, then the name columns in declaration "
              "order");
static_assert(in_order(kContextOffsets, offsetof(rota_backfill_context, now),
                       sizeof(rota_backfill_context)),
              "rota_backfill_context's fields are not the declared ones in order");

// Then the usage records (ABI 6): the scalars of ROTA_CONTEXT_USERS, and
// each per-user figure as an array over the users, after their ids.
static_assert(
    std::is_same_v<decltype(rota_backfill_context::users), std::int32_t> &&
        std::is_same_v<decltype(rota_backfill_context::total_usage), double> &&
        std::is_same_v<decltype(rota_backfill_context::user_ids), const std::int32_t*> &&
        std::is_same_v<decltype(rota_backfill_context::user_usage), const double*> &&
        std::is_same_v<decltype(rota_backfill_context::user_procs), const std::int32_t*> &&
        std::is_same_v<decltype(rota_backfill_context::user_running), const std::int32_t*>,
    "rota_backfill_context's usage fields have the wrong types");
constexpr std::size_t kUserOffsets[] = {
#define ROTA_X(name, type, doc) offsetof(rota_backfill_context, name),
    ROTA_CONTEXT_USERS(ROTA_X)
#undef ROTA_X
};
static_assert(kUserOffsets[0] > kContextOffsets[std::size(kContextOffsets) - 1] &&
                  offsetof(rota_backfill_context, user_ids) > kUserOffsets[1] &&
                  offsetof(rota_backfill_context, user_ids) < kUserOffsets[2] &&
                  in_order(kUserOffsets, kUserOffsets[0], sizeof(rota_backfill_context)),
              "rota_backfill_context's usage fields are not ROTA_CONTEXT_USERS in order, after "
              "the backfill fields");

// Then who the head is (ABI 7), to the end.
static_assert(std::is_same_v<decltype(rota_backfill_context::head_user), std::int32_t>,
              "rota_backfill_context.head_user has the wrong type");
#define ROTA_X(field, type, value, doc)                                                       \
    static_assert(std::is_same_v<decltype(rota_backfill_context::head_##field), const char*>, \
                  "rota_backfill_context.head_" #field " has the wrong type");
ROTA_JOB_COLUMNS_NAMES(ROTA_X)
#undef ROTA_X
constexpr std::size_t kHeadOffsets[] = {
#define ROTA_X(name, type, doc) offsetof(rota_backfill_context, name),
    ROTA_CONTEXT_BACKFILL_HEAD(ROTA_X)
#undef ROTA_X
};
static_assert(kHeadOffsets[0] > offsetof(rota_backfill_context, user_running) &&
                  in_order(kHeadOffsets, kHeadOffsets[0], sizeof(rota_backfill_context)) &&
                  sizeof(rota_backfill_context) ==
                      kHeadOffsets[std::size(kHeadOffsets) - 1] + sizeof(void*),
              "rota_backfill_context ends with ROTA_CONTEXT_BACKFILL_HEAD in order");

}  // namespace

}  // namespace rota::capi
