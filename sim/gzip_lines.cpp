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

// Small enough that the buffer's pages are few (each is a page fault, a
// few microseconds on a virtual machine, the first time it is touched),
// large enough that reads are few.
constexpr std::size_t kBlock = 1 << 18;
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

// Gzip members one after another, as gzip -d reads them (a compressed
// trace may be several members: `cat a.gz b.gz`). zlib's gzread would
// silently drop whatever follows the last member, so lines of plain text
// appended to a compressed trace would be lost: here they are an error.
// Zero bytes after the last member (the padding of some archivers) carry
// no data and are accepted.
class InflateSource final : public LineReader::Source {
  public:
    // `head`: the bytes already read from fd to recognise the magic number.
    InflateSource(int fd, std::string path, const unsigned char* head, std::size_t n)
        : fd_(fd), path_(std::move(path)), in_(kIn) {
        if (inflateInit2(&z_, 16 + MAX_WBITS) != Z_OK) {
            ::close(fd_);
            fail(path_, "cannot open: out of memory");
        }
        std::memcpy(in_.data(), head, n);
        z_.next_in = in_.data();
        z_.avail_in = static_cast<uInt>(n);
        read_ = n;
    }
    ~InflateSource() override {
        inflateEnd(&z_);
        ::close(fd_);
    }

    std::size_t read(char* dst, std::size_t n) override {
        if (done_) return 0;
        if (n > UINT_MAX) n = UINT_MAX;
        z_.next_out = reinterpret_cast<Bytef*>(dst);
        z_.avail_out = static_cast<uInt>(n);
        while (z_.avail_out == n) {
            if (!in_member_) {
                if (!next_member()) {
                    done_ = true;
                    break;
                }
            } else if (z_.avail_in == 0 && !refill()) {
                fail(path_, "gzip error: truncated file");
            }
            const int rc = inflate(&z_, Z_NO_FLUSH);
            if (rc == Z_STREAM_END) {
                in_member_ = false;
            } else if (rc != Z_OK) {
                fail(path_, std::string("gzip error: ") + (z_.msg ? z_.msg : zError(rc)));
            }
        }
        return n - z_.avail_out;
    }
    bool compressed() const override { return true; }

  private:
    static constexpr std::size_t kIn = 1 << 18;

    // More compressed input after what is left; false at the end of the file.
    bool refill() {
        if (z_.avail_in > 0) std::memmove(in_.data(), z_.next_in, z_.avail_in);
        for (;;) {
            const ssize_t got = ::read(fd_, in_.data() + z_.avail_in, kIn - z_.avail_in);
            if (got < 0 && errno == EINTR) continue;
            if (got < 0) fail(path_, std::string("read error: ") + std::strerror(errno));
            z_.next_in = in_.data();
            z_.avail_in += static_cast<uInt>(got);
            read_ += static_cast<std::uint64_t>(got);
            return got > 0;
        }
    }

    // After a member: false at the end of the file, true if another member
    // starts; anything else is refused at its first byte.
    bool next_member() {
        while (z_.avail_in < 2 && refill()) {
        }
        if (z_.avail_in == 0) return false;
        if (z_.next_in[0] == 0x1f && (z_.avail_in == 1 || z_.next_in[1] == 0x8b)) {
            if (z_.avail_in == 1) fail(path_, "gzip error: truncated file");
            if (inflateReset(&z_) != Z_OK) fail(path_, "gzip error: cannot read the next member");
            in_member_ = true;
            return true;
        }
        const std::uint64_t end = offset();
        for (;;) {  // zero bytes may pad the file to its end
            while (z_.avail_in > 0 && z_.next_in[0] == 0) {
                ++z_.next_in;
                --z_.avail_in;
            }
            if (z_.avail_in > 0) break;
            if (!refill()) return false;
        }
        const std::uint64_t zeros = offset() - end;
        if (zeros == 0)
            fail(path_, "the gzip data ends after " + std::to_string(end) +
                            " bytes and the file goes on with data that is not gzip (text "
                            "appended to a compressed trace?)");
        fail(path_, "the gzip data ends after " + std::to_string(end) + " bytes, and after " +
                        std::to_string(zeros) +
                        " zero bytes the file goes on with data that would not be read");
    }

    // The offset in the file of the next compressed byte.
    std::uint64_t offset() const { return read_ - z_.avail_in; }

    int fd_;
    std::string path_;
    std::vector<unsigned char> in_;
    z_stream z_{};
    std::uint64_t read_ = 0;  // bytes read from the file so far
    bool in_member_ = true;   // the first member starts at the magic number
    bool done_ = false;
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
    // The first two bytes say whether the input is compressed. They are kept
    // rather than read again, so that pipes work too.
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
        src_ = std::make_unique<InflateSource>(fd, path, magic, n);
    } else {
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

void LineReader::too_long() const {
    fail(path_, "line " + std::to_string(line_ + 1) + " is longer than " +
                    std::to_string(kMaxLine) + " bytes: not a trace");
}

bool LineReader::next(std::string_view& line) {
    std::size_t scanned = pos_;  // no newline before this offset in unconsumed data
    for (;;) {
        const char* base = buf_.data();
        const void* nl = std::memchr(base + scanned, '\n', end_ - scanned);
        if (nl) {
            const char* e = static_cast<const char*>(nl);
            const char* b = base + pos_;
            // The same limit whatever the reads delivered at once (a pipe
            // gives 64 KiB at a time, a file fills the whole buffer).
            if (static_cast<std::size_t>(e - b) > kMaxLine) too_long();
            pos_ = static_cast<std::size_t>(e - base) + 1;
            if (e > b && e[-1] == '\r') --e;
            line = std::string_view(b, static_cast<std::size_t>(e - b));
            ++line_;
            return true;
        }
        if (end_ - pos_ > kMaxLine) too_long();
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
