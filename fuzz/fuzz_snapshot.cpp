// rota_restore on arbitrary snapshot text: every input makes an engine or
// fails with a status and a message; nothing crashes, leaks or hangs.
//
// The checksum would refuse almost every mutation before the records are
// read, so each input is restored twice: as it is, and sealed again with a
// correct end record (what a hand edit that recomputes it, or a buggy
// writer, gives). An engine that is accepted must be the one the text
// describes: what it writes back restores to the same, and it keeps running (passes,
// time, ends) with no broken invariant (ROTA_EINTERNAL).
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "rota.h"

namespace {

// The machines of the seed corpus (fuzz/corpus/snapshot): an input is
// restored against the configuration whose machine record it carries, or
// the first one (a mismatch to refuse).
const char* const kConfigs[] = {
    "[machine]\nprocs = 16\n[scheduler]\npreset = \"easy\"\n",
    ("[machine]\nprocs = 16\n[[machine.pools]]\nname = \"gpu\"\ncapacity = 4\n"
     "[scheduler]\npreset = \"conservative\"\n"),
    "[machine]\nprocs = 16\n[scheduler]\npreset = \"bgs\"\n[gang]\nmpl = 3\nslice = 5\n",
    "[machine]\nprocs = 16\n[classes]\npreset = \"llnl-t3d\"\n",
    "[machine]\nprocs = 16\n[malleable]\n",
};
constexpr std::size_t kModes = sizeof kConfigs / sizeof *kConfigs;

int append(void* ud, const void* data, size_t len) {
    static_cast<std::string*>(ud)->append(static_cast<const char*>(data), len);
    return 0;
}

std::string line_of(const std::string& text, const char* keyword) {
    const std::string key = std::string("\n") + keyword + " ";
    const auto at = text.find(key);
    if (at == std::string::npos) return {};
    return text.substr(at + 1, text.find('\n', at + 1) - at - 1);
}

// Each configuration's machine record, from a snapshot of its empty engine.
const std::vector<std::string>& machines() {
    static const std::vector<std::string> lines = [] {
        std::vector<std::string> out;
        for (const char* cfg : kConfigs) {
            rota_engine* e = nullptr;
            if (rota_engine_new(cfg, "/nonexistent", &e) != ROTA_OK) std::abort();
            std::string s;
            if (rota_snapshot(e, append, &s) != ROTA_OK) std::abort();
            out.push_back(line_of(s, "machine"));
            rota_engine_free(e);
        }
        return out;
    }();
    return lines;
}

// The text without its end record, sealed with the right one.
std::string sealed(const std::string& text) {
    std::string body = text;
    const auto end = body.rfind("\nend ");
    if (end != std::string::npos) body.erase(end + 1);
    if (!body.empty() && body.back() != '\n') body += '\n';
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a 64 (docs/snapshot.md)
    for (const char c : body) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ull;
    }
    char b[32];
    std::snprintf(b, sizeof b, "end %016" PRIx64 "\n", h);
    return body + b;
}

void check(int rc) {
    if (rc == ROTA_EINTERNAL) std::abort();
}

// A snapshot of an ABI 7 library (22 counters) is read with the 23rd as 0
// and written back with it: the one accepted difference.
bool legacy_counters(const std::string& text) {
    return line_of(text, "counters").compare(0, 12, "counters 22 ") == 0;
}

void restore(const char* cfg, const std::string& text) {
    rota_engine* e = nullptr;
    const int rc = rota_restore(cfg, "/nonexistent", nullptr, text.data(), text.size(), &e);
    if (!e) std::abort();
    if (rc != ROTA_OK) {
        if (rc == ROTA_EINTERNAL || rota_errmsg(e)[0] == '\0') std::abort();  // an error says why
        rota_engine_free(e);
        return;
    }
    rota_set_log(e, nullptr, nullptr);
    std::string again;
    if (rota_snapshot(e, append, &again) != ROTA_OK) std::abort();
    // What it writes back restores to itself (a few fields a job's state
    // does not use are written back as their defaults).
    if (again != text && !legacy_counters(text)) {
        rota_engine* b = nullptr;
        if (rota_restore(cfg, "/nonexistent", nullptr, again.data(), again.size(), &b) != ROTA_OK)
            std::abort();
        std::string third;
        if (rota_snapshot(b, append, &third) != ROTA_OK || third != again) std::abort();
        rota_engine_free(b);
    }
    for (int step = 0; step < 4; ++step) {
        check(rota_schedule(e));
        rota_action a{};
        a.size = sizeof a;
        while (rota_next_action(e, &a) == ROTA_OK) {
        }
        size_t n = 0;
        check(rota_running(e, nullptr, 0, &n));
        std::vector<std::int64_t> ids(n);
        if (n > 0 && rota_running(e, ids.data(), n, &n) == ROTA_OK && n > 0)
            check(rota_job_end(e, ids[0]));
        check(rota_advance(e, rota_now(e) + 1'000'000));
    }
    rota_engine_free(e);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const std::string machine = line_of(text, "machine");
    std::size_t mode = 0;
    for (std::size_t i = 0; i < kModes; ++i)
        if (machines()[i] == machine) mode = i;
    restore(kConfigs[mode], text);
    const std::string resealed = sealed(text);
    if (resealed != text) restore(kConfigs[mode], resealed);
    return 0;
}
