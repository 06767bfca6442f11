// Where a policy script named in the config lives on disk.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace rota::lua {

// An absolute path is taken as is; a relative one is tried against each of
// `search_path`, then against policy_dirs(), so a site can shadow a shipped
// policy by putting a file of the same name in its config directory.
// Throws rota::Error(Errc::script) naming the path and every directory
// tried when no regular file is found.
// Where shipped policies are looked for, in order: each directory of the
// ROTA_POLICY_PATH environment variable (colon-separated), the installed
// share/rota/policies beside librota.so or the rota tool, and the source
// tree's policies/ that the build was made from.
std::vector<std::string> policy_dirs();

// The most bytes of directory names a "not found" message lists; the rest
// are counted ("and 99990 more directories").
inline constexpr std::size_t kTriedMax = 1024;

std::string resolve_script_path(const std::string& path,
                                const std::vector<std::string>& search_path);

}  // namespace rota::lua
