#include "small_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace rota::sim {

std::optional<std::string> read_small_file(const std::string& path, std::string_view what,
                                           std::int64_t max_bytes, bool missing_ok) {
    // Non-blocking, so that a FIFO without a writer cannot hang the open.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        // A name too long once suffixed, or a file where a directory is
        // expected, is as absent as a missing file.
        if (missing_ok && (errno == ENOENT || errno == ENAMETOOLONG || errno == ENOTDIR))
            return std::nullopt;
        throw std::runtime_error(
            fmt::format("cannot open the {} '{}': {}", what, path, std::strerror(errno)));
    }
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        throw std::runtime_error(
            fmt::format("cannot read the {} '{}': {}", what, path, std::strerror(errno)));
    if (!S_ISREG(st.st_mode))
        throw std::runtime_error(fmt::format("'{}' is {}, not a {}", path,
                                             S_ISDIR(st.st_mode)    ? "a directory"
                                             : S_ISFIFO(st.st_mode) ? "a pipe"
                                                                    : "a device",
                                             what));
    if (st.st_size > max_bytes)
        throw std::runtime_error(fmt::format("'{}' holds {} bytes: a {} is at most {} MiB", path,
                                             st.st_size, what, max_bytes >> 20));
    std::string text(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t got = 0;
    while (got < text.size()) {
        const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0)
            throw std::runtime_error(
                fmt::format("cannot read the {} '{}': {}", what, path, std::strerror(errno)));
        if (n == 0) break;  // shortened since fstat
        got += static_cast<std::size_t>(n);
    }
    text.resize(got);
    return text;
}

}  // namespace rota::sim
