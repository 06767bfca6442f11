#include "gzip_lines.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <stdexcept>

namespace rota::sim {

namespace {

constexpr std::size_t kBlock = 1 << 20;
// No trace line comes near this (an SWF line is under 200 bytes): a longer
// one is a wrong file, refused before it fills the memory.
constexpr std::size_t kMaxLine = 4 << 20;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
    throw std::runtime_error(path + ": " + what);
}

}  // namespace

class LineReader::Source {
  public:
    virtual ~Source() = default;
    virtual std::size_t read(char* dst, std::size_t n) = 0;  // 0 at the end
    virtual bool compressed() const = 0;
};

namespace {

class PlainSource final : public LineReader::Source {
  public:
    PlainSource(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
    ~PlainSource() override { ::close(fd_); }
    std::size_t read(char* dst, std::size_t n) override {
        for (;;) {
            ssize_t got = ::read(fd_, dst, n);
            if (got >= 0) return static_cast<std::size_t>(got);
            if (errno != EINTR) fail(path_, std::string("read error: ") + std::strerror(errno));
        }
    }
    bool compressed() const override { return false; }

  private:
    int fd_;
    std::string path_;
};

class GzSource final : public LineReader::Source {
  public:
    GzSource(gzFile g, std::string path) : g_(g), path_(std::move(path)) {}
    ~GzSource() override { gzclose(g_); }
    std::size_t read(char* dst, std::size_t n) override {
        if (n > static_cast<std::size_t>(INT_MAX)) n = INT_MAX;
        int got = gzread(g_, dst, static_cast<unsigned>(n));
        int err = Z_OK;
        const char* msg = gzerror(g_, &err);
        if (got < 0 || (err != Z_OK && err != Z_BUF_ERROR)) {
            fail(path_, std::string("gzip error: ") + (msg ? msg : "unknown"));
        }
        // zlib reports a stream cut short only as Z_BUF_ERROR once the data runs out.
        if (got == 0 && err == Z_BUF_ERROR) fail(path_, "gzip error: truncated file");
        return static_cast<std::size_t>(got);
    }
    bool compressed() const override { return gzdirect(g_) == 0; }

  private:
    gzFile g_;
    std::string path_;
};

}  // namespace

LineReader::LineReader(const std::string& path) : path_(path), buf_(kBlock) {
    // Non-blocking so that a FIFO without a writer cannot hang the open;
    // reads block again once it is open (with no writer they see the end).
    // "-" is the standard input (a pipe, a file or a terminal).
    int fd = path == "-" ? ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0)
                         : ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) fail(path, std::string("cannot open: ") + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) == 0 &&
        (S_ISDIR(st.st_mode) || S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))) {
        ::close(fd);
        fail(path,
             S_ISDIR(st.st_mode) ? "is a directory, not a trace" : "is a device, not a trace");
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    if (::lseek(fd, 0, SEEK_CUR) < 0) {
        // A pipe cannot be read twice: zlib reads it from the first byte and
        // passes plain text through unchanged (its transparent mode), so a
        // compressed stream is recognised by the same magic bytes.
        gzFile g = gzdopen(fd, "rb");
        if (!g) {
            ::close(fd);
            fail(path, "cannot open: out of memory");
        }
        gzbuffer(g, 1 << 18);
        src_ = std::make_unique<GzSource>(g, path);
        return;
    }
    unsigned char magic[2] = {0, 0};
    std::size_t n = 0;
    while (n < 2) {
        ssize_t got = ::read(fd, magic + n, 2 - n);
        if (got == 0) break;
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            int err = errno;
            ::close(fd);
            fail(path, std::string("read error: ") + std::strerror(err));
        }
        n += static_cast<std::size_t>(got);
    }
    if (n == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        // zlib must see the magic bytes again (the input is seekable: above).
        if (::lseek(fd, 0, SEEK_SET) != 0) {
            int err = errno;
            ::close(fd);
            fail(path, std::string("cannot seek: ") + std::strerror(err));
        }
        gzFile g = gzdopen(fd, "rb");
        if (!g) {
            ::close(fd);
            fail(path, "cannot open: out of memory");
        }
        gzbuffer(g, 1 << 18);
        src_ = std::make_unique<GzSource>(g, path);
    } else {
        // Keep the probe bytes instead of seeking back, so pipes work too.
        std::memcpy(buf_.data(), magic, n);
        end_ = n;
        src_ = std::make_unique<PlainSource>(fd, path);
    }
}

LineReader::~LineReader() = default;
LineReader::LineReader(LineReader&&) noexcept = default;
LineReader& LineReader::operator=(LineReader&&) noexcept = default;

bool LineReader::compressed() const {
    return src_ && src_->compressed();
}

bool LineReader::fill() {
    if (eof_) return false;
    if (pos_ > 0) {
        std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
        end_ -= pos_;
        pos_ = 0;
    }
    if (end_ == buf_.size()) buf_.resize(buf_.size() * 2);  // a line longer than the buffer
    std::size_t got = src_->read(buf_.data() + end_, buf_.size() - end_);
    if (got == 0) {
        eof_ = true;
        return false;
    }
    end_ += got;
    return true;
}

bool LineReader::next(std::string_view& line) {
    std::size_t scanned = pos_;  // no newline before this offset in unconsumed data
    for (;;) {
        const char* base = buf_.data();
        const void* nl = std::memchr(base + scanned, '\n', end_ - scanned);
        if (nl) {
            const char* e = static_cast<const char*>(nl);
            const char* b = base + pos_;
            pos_ = static_cast<std::size_t>(e - base) + 1;
            if (e > b && e[-1] == '\r') --e;
            line = std::string_view(b, static_cast<std::size_t>(e - b));
            ++line_;
            return true;
        }
        if (end_ - pos_ > kMaxLine)
            fail(path_, "line " + std::to_string(line_ + 1) + " is longer than " +
                            std::to_string(kMaxLine) + " bytes: not a trace");
        std::size_t consumed = pos_;
        scanned = end_;
        if (!fill()) {
            if (pos_ == end_) return false;
            // Last line without a newline.
            const char* b = buf_.data() + pos_;
            const char* e = buf_.data() + end_;
            pos_ = end_;
            if (e > b && e[-1] == '\r') --e;
            line = std::string_view(b, static_cast<std::size_t>(e - b));
            ++line_;
            return true;
        }
        scanned -= consumed;  // fill() moved the unconsumed data to the front
    }
}

}  // namespace rota::sim
