// rota_engine_new on arbitrary TOML: every input makes an engine or fails
// with a status and a message; nothing crashes.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "rota.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    rota_engine* e = nullptr;
    const int rc = rota_engine_new(text.c_str(), "/nonexistent", &e);
    if (rc != ROTA_OK && (!e || rota_errmsg(e)[0] == '\0')) std::abort();  // an error says why
    if (rc == ROTA_OK) {
        rota_set_log(e, nullptr, nullptr);
        rota_schedule(e);
    }
    rota_engine_free(e);
    return 0;
}
