// rota_snapshot and rota_restore: the ABI side of engine/snapshot.cpp.
#include <string>

#include "handle.h"

using namespace rota;

extern "C" {

int rota_snapshot(const rota_engine* e, rota_writer_fn w, void* ud) {
    return capi::guard(e, [&] {
        if (!w) throw Error(Errc::invalid, "rota_snapshot: the writer is NULL");
        const std::string text = e->sched->snapshot();
        // In pieces, so that a writer with a small buffer is not handed
        // the whole engine at once.
        constexpr std::size_t kPiece = 64 * 1024;
        for (std::size_t at = 0; at < text.size(); at += kPiece) {
            const std::size_t n = std::min(kPiece, text.size() - at);
            if (w(ud, text.data() + at, n) != 0) {
                e->err = "rota_snapshot: the writer returned nonzero after " + std::to_string(at) +
                         " of " + std::to_string(text.size()) +
                         " bytes; the snapshot is incomplete";
                return ROTA_EABORT;
            }
        }
        return ROTA_OK;
    });
}

int rota_restore(const char* config_toml, const char* base_dir, const rota_engine_options* options,
                 const void* data, size_t len, rota_engine** out) {
    if (!out) return ROTA_EINVAL;
    if (!config_toml) return capi::failed_handle("rota_restore: config_toml is NULL", out);
    int rc = capi::create(config_toml, "<config>", base_dir ? base_dir : ".", options, out);
    rota_engine* e = *out;
    if (rc != ROTA_OK) return rc;
    if (!data && len > 0) {
        e->sched.reset();
        e->err = "rota_restore: data is NULL";
        return ROTA_EINVAL;
    }
    try {
        e->sched->restore(std::string(static_cast<const char*>(data), len));
        return ROTA_OK;
    } catch (const Error& x) {
        e->err = x.what();
        rc = capi::status_of(x.code());
    } catch (const std::bad_alloc&) {
        e->err = "out of memory";
        rc = ROTA_ENOMEM;
    } catch (const std::exception& x) {
        e->err = std::string("internal error: ") + x.what();
        rc = ROTA_EINTERNAL;
    }
    // Half restored is not an engine: the handle only carries the error.
    e->sched.reset();
    return rc;
}

}  // extern "C"
