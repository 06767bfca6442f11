// Reading a small side file whole: a configuration, a sweep, a trace's
// .machines description. Such paths come from users and from beside a
// trace, so a pipe, a device or a directory must be refused, not read
// (a FIFO without a writer hangs the reader, /dev/zero fills memory).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rota::sim {

// The bytes of the regular file `path`, of at most max_bytes. `what` names
// the kind of file in messages ("configuration file"). With missing_ok, a
// path that does not exist (or cannot: a name too long, a file as a
// directory) gives std::nullopt; one that cannot be read is an error. Throws std::runtime_error
// naming the path for a directory, a pipe, a device, a larger file or a
// read error.
std::optional<std::string> read_small_file(const std::string& path, std::string_view what,
                                           std::int64_t max_bytes, bool missing_ok = false);

}  // namespace rota::sim
