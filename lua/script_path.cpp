#include "script_path.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "engine/error.h"

#ifndef ROTA_POLICY_DIR
#error "ROTA_POLICY_DIR must be defined by the build"
#endif

namespace rota::lua {

namespace fs = std::filesystem;

namespace {

bool is_file(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}

// What a path that exists but is no regular file is ("a directory", "a
// pipe", ...), for the message; nullptr when nothing is there. Such a
// path is never opened: a FIFO would hang the load, a device fill memory.
const char* not_a_file(const fs::path& p) {
    std::error_code ec;
    const fs::file_status st = fs::status(p, ec);
    if (ec || !fs::exists(st) || fs::is_regular_file(st)) return nullptr;
    if (fs::is_directory(st)) return "a directory";
    if (fs::is_fifo(st)) return "a pipe";
    if (fs::is_socket(st)) return "a socket";
    return "a device";
}

// The shipped policies of an installed rota: share/rota/policies beside
// the file this code was loaded from (librota.so, or the rota tool), so
// that an installed tree can be moved or packaged without rebuilding.
std::vector<std::string> installed_dirs() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&installed_dirs), &info) == 0 || !info.dli_fname) return {};
    std::error_code ec;
    const fs::path self = fs::canonical(info.dli_fname, ec);
    if (ec) return {};
    std::vector<std::string> dirs;
    for (const char* rel : {ROTA_POLICIES_FROM_LIB, ROTA_POLICIES_FROM_BIN}) {
        const fs::path d = (self.parent_path() / rel).lexically_normal();
        if (fs::is_directory(d, ec)) dirs.push_back(d.string());
    }
    return dirs;
}

// A path as a message names it: cut after kTriedMax bytes.
std::string shown(const std::string& path) {
    if (path.size() <= kTriedMax) return path;
    return path.substr(0, kTriedMax) + "... (" + std::to_string(path.size()) + " bytes)";
}

}  // namespace

std::vector<std::string> policy_dirs() {
    std::vector<std::string> dirs;
    if (const char* env = std::getenv("ROTA_POLICY_PATH")) {
        std::string list = env;
        for (std::size_t at = 0; at <= list.size();) {
            const std::size_t colon = std::min(list.find(':', at), list.size());
            if (colon > at) dirs.push_back(list.substr(at, colon - at));
            at = colon + 1;
        }
    }
    for (auto& d : installed_dirs()) dirs.push_back(std::move(d));
    dirs.emplace_back(ROTA_POLICY_DIR);
    return dirs;
}

std::string resolve_script_path(const std::string& path,
                                const std::vector<std::string>& search_path) {
    if (path.empty()) throw Error(Errc::script, "empty policy script path");
    const fs::path p(path);
    if (p.is_absolute()) {
        if (is_file(p)) return p.lexically_normal().string();
        if (const char* what = not_a_file(p))
            throw Error(Errc::script,
                        "policy script '" + shown(path) + "' is " + what + ", not a file");
        throw Error(Errc::script, "policy script '" + shown(path) + "' not found");
    }
    std::vector<std::string> dirs = search_path;
    for (auto& d : policy_dirs()) dirs.push_back(std::move(d));
    // The message names the directories tried up to kTriedMax bytes, then
    // counts the rest: a search path of a hundred thousand entries must not
    // make a message of megabytes.
    std::string tried;
    std::size_t untold = 0;
    for (const std::string& dir : dirs) {
        const fs::path candidate = (fs::path(dir) / p).lexically_normal();
        if (is_file(candidate)) return candidate.string();
        if (const char* what = not_a_file(candidate))
            throw Error(Errc::script, "policy script '" + shown(path) + "' is " + what + " (" +
                                          shown(candidate.string()) + "), not a file");
        const std::string name = dir.empty() ? std::string(".") : dir;
        if (untold > 0 || tried.size() + name.size() > kTriedMax) {
            ++untold;
            continue;
        }
        if (!tried.empty()) tried += ", ";
        tried += name;
    }
    if (untold > 0)
        tried += (tried.empty() ? "" : ", ") + std::string("and ") + std::to_string(untold) +
                 " more director" + (untold == 1 ? "y" : "ies");
    throw Error(Errc::script,
                "policy script '" + shown(path) + "' not found (looked in: " + tried + ")");
}

}  // namespace rota::lua
