#include "script_path.h"

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

}  // namespace

std::string resolve_script_path(const std::string& path,
                                const std::vector<std::string>& search_path) {
    if (path.empty()) throw Error(Errc::script, "empty policy script path");
    const fs::path p(path);
    if (p.is_absolute()) {
        if (is_file(p)) return p.lexically_normal().string();
        throw Error(Errc::script, "policy script '" + path + "' not found");
    }
    std::vector<std::string> dirs = search_path;
    dirs.emplace_back(ROTA_POLICY_DIR);
    std::string tried;
    for (const std::string& dir : dirs) {
        const fs::path candidate = (fs::path(dir) / p).lexically_normal();
        if (is_file(candidate)) return candidate.string();
        if (!tried.empty()) tried += ", ";
        tried += dir.empty() ? std::string(".") : dir;
    }
    throw Error(Errc::script, "policy script '" + path + "' not found (looked in: " + tried + ")");
}

}  // namespace rota::lua
