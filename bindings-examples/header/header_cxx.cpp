// header_cxx.cpp: rota.h compiles as C++ (-pedantic -Werror) with no other
// include before it, declares its functions extern "C", and links against
// librota. The struct checks are compile-time.
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "rota.h"

static_assert(std::is_standard_layout_v<rota_job> && std::is_trivial_v<rota_job>);
static_assert(std::is_standard_layout_v<rota_action> && std::is_trivial_v<rota_action>);
static_assert(std::is_standard_layout_v<rota_job_info>);
static_assert(std::is_standard_layout_v<rota_reservation>);
static_assert(std::is_standard_layout_v<rota_machine_info>);
static_assert(std::is_standard_layout_v<rota_counters>);
static_assert(std::is_standard_layout_v<rota_batch>);
static_assert(std::is_standard_layout_v<rota_backfill_context>);
static_assert(std::is_standard_layout_v<rota_hook_stats>);
// The versioning convention: every struct passed in or out starts with its size.
static_assert(offsetof(rota_job, size) == 0 && offsetof(rota_action, size) == 0 &&
              offsetof(rota_job_info, size) == 0 && offsetof(rota_reservation, size) == 0 &&
              offsetof(rota_machine_info, size) == 0 && offsetof(rota_counters, size) == 0 &&
              offsetof(rota_batch, size) == 0 && offsetof(rota_backfill_context, size) == 0 &&
              offsetof(rota_hook_stats, size) == 0);
static_assert(std::is_same_v<rota_time, int64_t>);
static_assert(ROTA_HOOK_COUNT == 8);

// A native policy written in C++ has the callback's exact type.
static int pick_none(void*, const rota_batch*, const rota_backfill_context*, uint32_t*) {
    return 0;
}
static_assert(std::is_same_v<decltype(&pick_none), rota_backfill_select_fn>);

int main() {
    if (std::strcmp(rota_version(), ROTA_VERSION) != 0 || rota_abi_version() != ROTA_ABI_VERSION)
        return 1;
    rota_engine* e = nullptr;
    int rc = rota_engine_new("[machine]\nprocs = 4\n", nullptr, &e);
    if (rc == ROTA_OK) rc = rota_set_backfill_select(e, pick_none, nullptr, ROTA_STREAM);
    if (rc != ROTA_OK) std::printf("%s: %s\n", rota_status_name(rc), rota_errmsg(e));
    rota_engine_free(e);
    if (rc == ROTA_OK) std::printf("rota.h compiles as C++%ld\n", __cplusplus / 100 % 100);
    return rc == ROTA_OK ? 0 : 1;
}
