// The SWF reader on arbitrary bytes: every input either reads or throws an
// error naming the file; nothing crashes, hangs or overflows.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "swf.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const int fd = memfd_create("fuzz.swf", 0);
    if (fd < 0) return 0;
    if (size > 0 && write(fd, data, size) != static_cast<ssize_t>(size)) {
        close(fd);
        return 0;
    }
    const std::string path = "/proc/self/fd/" + std::to_string(fd);
    try {
        rota::sim::load_trace(path, rota::sim::Mapping::standard, 64);
    } catch (const std::exception&) {
        // A clear error is the right answer to a malformed trace.
    }
    try {
        rota::sim::SwfReader r(path);
        rota::sim::SwfRecord rec;
        while (r.next(rec)) {
        }
    } catch (const std::exception&) {
    }
    close(fd);
    return 0;
}
