#include "output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <utility>

namespace rota::sim {

namespace {

namespace fs = std::filesystem;

std::string reason(int err) {
    return err != 0 ? std::string(": ") + std::strerror(err) : "";
}

// The path a symbolic link leads to, link by link, even when the last
// target does not exist (weakly_canonical leaves such a link unresolved).
fs::path followed(const fs::path& path) {
    std::error_code ec;
    fs::path t = path;
    for (int hops = 0; hops < 40 && fs::is_symlink(t, ec); ++hops) {
        const fs::path next = fs::read_symlink(t, ec);
        if (ec) break;
        t = next.is_absolute() ? next : t.parent_path() / next;
    }
    return t;
}

// The mode a new file gets from open(2): 0666 less the umask.
mode_t new_file_mode() {
    const mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

}  // namespace

OutputFile::OutputFile(std::string path, std::string what)
    : path_(std::move(path)), what_(std::move(what)), target_(path_) {
    const auto cannot = [&](int err) {
        return std::runtime_error("cannot write the " + what_ + " '" + path_ + "'" + reason(err));
    };
    struct stat st {};
    const bool exists = stat(path_.c_str(), &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) throw cannot(EISDIR);
    if (exists && !S_ISREG(st.st_mode)) {  // a device or a pipe: a stream
        errno = 0;
        out_ = std::make_unique<std::ofstream>(path_);
        if (!*out_) throw cannot(errno);
        return;
    }
    // The user's own protection of the file still holds.
    if (exists && access(path_.c_str(), W_OK) != 0) throw cannot(errno);
    // Renaming onto a file with other hard links would part it from them:
    // they would keep the last run's results. Such a file is written
    // through, once the new one is complete.
    through_ = exists && st.st_nlink > 1;
    struct stat lst {};
    if (lstat(path_.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
        // A link whose target does not exist yet gets it created there,
        // not replaced by a file of its own.
        std::error_code ec;
        const fs::path c = fs::weakly_canonical(followed(path_), ec);
        if (!ec) target_ = c.string();
    }
    const fs::path target(target_);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::string name = ".";  // hidden, beside the file it replaces
    name += target.filename().string();
    name += ".rota-XXXXXX";
    std::string tmpl = (dir / name).string();
    const int fd = mkstemp(tmpl.data());
    if (fd < 0) throw cannot(errno);
    fchmod(fd, exists ? (st.st_mode & 07777) : new_file_mode());
    close(fd);
    temp_ = tmpl;
    out_ = std::make_unique<std::ofstream>(temp_, std::ios::binary | std::ios::trunc);
    if (!*out_) {
        const int err = errno;
        std::remove(temp_.c_str());
        throw cannot(err);
    }
}

OutputFile::~OutputFile() {
    if (!done_ && !temp_.empty()) {
        out_->close();
        std::remove(temp_.c_str());
    }
}

void OutputFile::commit() {
    if (done_) return;
    done_ = true;
    errno = 0;
    out_->close();
    const int err = errno;
    if (*out_ && through_) {
        write_through();
        return;
    }
    const bool failed = !*out_ || (!temp_.empty() && std::rename(temp_.c_str(), target_.c_str()));
    if (!failed) return;
    const int why = err != 0 ? err : errno;
    if (!temp_.empty()) std::remove(temp_.c_str());
    // A stream that failed before the close keeps no errno: say what is known.
    throw std::runtime_error("cannot write the " + what_ + " '" + path_ + "'" +
                             (why != 0 ? reason(why) : ": a write failed (is the disk full?)"));
}

// Copies the complete temporary into the file, whose inode (and so every
// link to it, owner and mode) stays. The copy is not atomic: if it fails
// half way, the temporary, which holds the whole output, is kept and named.
void OutputFile::write_through() {
    const auto copy = [&]() -> int {
        const int in = open(temp_.c_str(), O_RDONLY | O_CLOEXEC);
        if (in < 0) return errno;
        const int out = open(target_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
        if (out < 0) {
            const int e = errno;
            close(in);
            return e;
        }
        char buf[1 << 16];
        int e = 0;
        while (e == 0) {
            const ssize_t n = read(in, buf, sizeof buf);
            if (n == 0) break;
            if (n < 0) {
                if (errno != EINTR) e = errno;
                continue;
            }
            for (ssize_t done = 0; done < n && e == 0;) {
                const ssize_t w = write(out, buf + done, static_cast<std::size_t>(n - done));
                if (w < 0 && errno != EINTR) e = errno;
                if (w > 0) done += w;
            }
        }
        close(in);
        if (close(out) != 0 && e == 0) e = errno;
        return e;
    };
    const int err = copy();
    if (err == 0) {
        std::remove(temp_.c_str());
        return;
    }
    throw std::runtime_error("cannot write the " + what_ + " '" + path_ +
                             "' through its hard links" + reason(err) +
                             "; the complete output is in '" + temp_ + "'");
}

namespace {

// What makes two paths one file: the device and inode of a file that
// exists, else the absolute path it would be created at.
struct FileKey {
    bool exists = false;
    dev_t dev = 0;
    ino_t ino = 0;
    std::string path;
    bool operator==(const FileKey& o) const {
        return exists == o.exists && (exists ? dev == o.dev && ino == o.ino : path == o.path);
    }
};

// The key of a regular file, or of a path where one would be created;
// nothing for "-" and for devices and pipes.
std::optional<FileKey> file_key(const std::string& path) {
    if (path.empty() || path == "-") return std::nullopt;
    struct stat st {};
    if (stat(path.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode)) return std::nullopt;
        return FileKey{true, st.st_dev, st.st_ino, {}};
    }
    // Where it would be created: through a link to no file yet, the
    // link's target.
    std::error_code ec;
    const fs::path p = fs::weakly_canonical(fs::absolute(followed(path), ec), ec);
    return FileKey{false, 0, 0, ec ? path : p.lexically_normal().string()};
}

}  // namespace

void check_output_paths(const std::vector<NamedPath>& inputs,
                        const std::vector<NamedPath>& outputs) {
    std::vector<std::pair<const NamedPath*, FileKey>> seen;
    for (const auto& in : inputs)
        if (auto k = file_key(in.path); k && k->exists) seen.emplace_back(&in, *k);
    const std::size_t n_inputs = seen.size();
    for (const auto& out : outputs) {
        const auto k = file_key(out.path);
        if (!k) continue;
        for (std::size_t i = 0; i < seen.size(); ++i) {
            if (!(seen[i].second == *k)) continue;
            const NamedPath& other = *seen[i].first;
            if (i < n_inputs)
                throw std::invalid_argument("the " + out.what + " '" + out.path + "' is the " +
                                            other.what + " '" + other.path +
                                            "': writing it would destroy the input; give the " +
                                            out.what + " another path");
            throw std::invalid_argument("the " + other.what + " '" + other.path + "' and the " +
                                        out.what + " '" + out.path +
                                        "' are the same file: give each its own path");
        }
        seen.emplace_back(&out, *k);
    }
}

void flush_stdout() {
    errno = 0;
    std::cout.flush();
    const bool lost = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
    if (lost) throw std::runtime_error("cannot write the standard output" + reason(errno));
}

}  // namespace rota::sim
