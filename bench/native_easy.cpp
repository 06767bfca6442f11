// native_easy: a minimal EASY backfilling simulator, written directly
// against zlib and the standard library with no rota code, as the yardstick
// a competent engineer would write in an afternoon. It answers "what does
// rota's generality cost": compare its CPU time with `rota simulate
// --policy easy` on the same trace, and its mean wait to check that both
// simulate the same schedule.
//
//   native_easy TRACE [--procs N]
//
// TRACE is an SWF file, plain or gzip (zlib's gzread reads both). The
// machine has N processors, by default the header's MaxProcs, else
// MaxNodes. The only output is one line:
//
//   jobs J rejected R mean_wait W s cpu C s
//
// J jobs were kept by the mapping, R of them were wider than the machine
// (never run; rota rejects them), W is the mean wait of the others in
// seconds and C is the CPU time of the whole process (reading included).
//
// It reproduces `rota simulate --policy easy` (default mapping, "batched"
// event order) on purpose:
//
// * Mapping (rota's Mapping::standard): records with run time <= 0 or with
//   no processor count (allocated, else requested) are skipped; the
//   estimate is the requested time, else the run time; the runtime is cut
//   to the estimate (the job is killed at its walltime).
// * Same-time events: every job end of that second first, then every
//   arrival in trace order (submit times stably sorted), then one pass.
// * A pass: start jobs in FCFS order while the first one fits; the first
//   that does not gets a reservation at the shadow time (the earliest time
//   running jobs' estimated ends free enough processors); then every later
//   job, in queue order, starts if it fits now and either ends by the
//   shadow time or uses no more than the processors the reservation leaves
//   spare ("extra"). That is rota's persistent, compressed head reservation
//   with first-fit backfill_select, recomputed from scratch at every pass
//   (the two agree; see docs/design.md, "Reservations persist").
//
// Checked on 2026-11-23 against rota 0.1.0 (commits 2925fb2, a23d74d and
// bb9dbfc): on KTH-SP2, HPC2N, CTC-SP2, SDSC-SP2, LANL-CM5 and SDSC-Par
// (cleaned logs) every job starts at the same second as in `rota simulate
// --policy easy --jobs-csv`.
//
// Deliberately simpler than rota's reader: only the first nine SWF fields
// are parsed (the rest of a line is not checked), and a malformed line
// stops the program with its line number.
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

[[noreturn]] void die(const std::string& msg) {
    std::fprintf(stderr, "native_easy: %s\n", msg.c_str());
    std::exit(1);
}

// ---------------------------------------------------------------------------
// Reading SWF

struct Job {
    std::int64_t submit;    // seconds
    std::int64_t runtime;   // seconds actually run (<= estimate)
    std::int64_t estimate;  // requested time: the job is killed when it runs this long
    std::int32_t procs;
};

struct Trace {
    std::vector<Job> jobs;
    std::int32_t max_procs = -1;
    std::int32_t max_nodes = -1;
};

// Lines of a plain or gzip file, read in large blocks: gzgets would cost a
// call (and a scan) per line. A line is valid until the next call.
class LineReader {
  public:
    explicit LineReader(const char* path) : path_(path), buf_(kBlock) {
        gz_ = gzopen(path, "rb");
        if (!gz_) die(std::string(path) + ": cannot open: " + std::strerror(errno));
        gzbuffer(gz_, kBlock);
    }
    ~LineReader() { gzclose(gz_); }
    LineReader(const LineReader&) = delete;
    LineReader& operator=(const LineReader&) = delete;

    bool next(std::string_view& line) {
        for (;;) {
            if (const char* nl = static_cast<const char*>(std::memchr(pos_, '\n', end_ - pos_))) {
                line = std::string_view(pos_, nl - pos_);
                pos_ = nl + 1;
                ++number_;
                return true;
            }
            if (eof_) {
                if (pos_ == end_) return false;
                line = std::string_view(pos_, end_ - pos_);  // last line without a newline
                pos_ = end_;
                ++number_;
                return true;
            }
            refill();
        }
    }
    std::int64_t number() const { return number_; }

  private:
    static constexpr unsigned kBlock = 1 << 20;

    // Moves the unfinished line to the front and reads behind it.
    void refill() {
        std::size_t keep = end_ - pos_;
        if (keep == buf_.size()) buf_.resize(buf_.size() * 2);  // a line longer than a block
        std::memmove(buf_.data(), pos_, keep);
        int got = gzread(gz_, buf_.data() + keep, static_cast<unsigned>(buf_.size() - keep));
        int err = Z_OK;
        const char* msg = gzerror(gz_, &err);
        if (got < 0 || (err != Z_OK && err != Z_BUF_ERROR))
            die(path_ + ": gzip error: " + (msg ? msg : "unknown"));
        if (got == 0 && err == Z_BUF_ERROR) die(path_ + ": gzip error: truncated file");
        if (got == 0) eof_ = true;
        pos_ = buf_.data();
        end_ = buf_.data() + keep + got;
    }

    std::string path_;
    gzFile gz_;
    std::vector<char> buf_;
    const char* pos_ = nullptr;
    const char* end_ = nullptr;
    bool eof_ = false;
    std::int64_t number_ = 0;
};

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// "; MaxProcs: 338 (batch partition)" -> 338; text after the number is
// commentary. Keys are matched regardless of case, as rota does.
void parse_header(std::string_view line, Trace& t) {
    line.remove_prefix(1);
    auto colon = line.find(':');
    if (colon == std::string_view::npos) return;
    std::string_view key = line.substr(0, colon), val = line.substr(colon + 1);
    while (!key.empty() && is_space(key.front())) key.remove_prefix(1);
    while (!key.empty() && is_space(key.back())) key.remove_suffix(1);
    while (!val.empty() && is_space(val.front())) val.remove_prefix(1);
    auto same = [](std::string_view a, const char* b) {
        if (a.size() != std::strlen(b)) return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (std::tolower(static_cast<unsigned char>(a[i])) != b[i]) return false;
        return true;
    };
    std::int32_t* target = same(key, "maxprocs")   ? &t.max_procs
                           : same(key, "maxnodes") ? &t.max_nodes
                                                   : nullptr;
    std::int32_t v = 0;
    auto [ptr, ec] = std::from_chars(val.data(), val.data() + val.size(), v);
    if (target && ec == std::errc() && ptr != val.data()) *target = v;
}

// The first nine fields of a record; field 6 (average CPU time) may be a
// decimal number and is skipped unread.
bool parse_record(std::string_view line, std::int64_t f[9]) {
    const char* p = line.data();
    const char* e = p + line.size();
    for (int k = 0; k < 9; ++k) {
        while (p != e && is_space(*p)) ++p;
        if (p == e) return false;
        if (k == 5) {
            while (p != e && !is_space(*p)) ++p;
            continue;
        }
        bool neg = *p == '-';
        if (*p == '-' || *p == '+') ++p;
        const char* digits = p;
        std::int64_t v = 0;
        while (p != e && *p >= '0' && *p <= '9') v = v * 10 + (*p++ - '0');
        if (p == digits || (p != e && !is_space(*p))) return false;
        f[k] = neg ? -v : v;
    }
    return true;
}

// rota's default mapping (docs/workloads.md, "rota's default mapping").
void map_record(const std::int64_t f[9], std::vector<Job>& out) {
    const std::int64_t submit = f[1], run = f[3], alloc = f[4], req_procs = f[7], req_time = f[8];
    if (run <= 0) return;  // never ran
    const std::int64_t procs = alloc > 0 ? alloc : req_procs;
    if (procs <= 0) return;
    const std::int64_t estimate = req_time > 0 ? req_time : run;
    out.push_back({submit, std::min(run, estimate), estimate, static_cast<std::int32_t>(procs)});
}

Trace read_trace(const char* path) {
    Trace t;
    LineReader in(path);
    std::string_view line;
    bool header = true;  // header keys count only before the first record, as in rota
    std::int64_t f[9];
    while (in.next(line)) {
        std::size_t i = 0;
        while (i < line.size() && is_space(line[i])) ++i;
        line.remove_prefix(i);
        if (line.empty()) continue;
        if (line.front() == ';') {
            if (header) parse_header(line, t);
            continue;
        }
        header = false;
        if (!parse_record(line, f))
            die(std::string(path) + ":" + std::to_string(in.number()) + ": malformed record");
        map_record(f, t.jobs);
    }
    return t;
}

// ---------------------------------------------------------------------------
// EASY backfilling

struct Result {
    std::int64_t rejected = 0;
    std::int64_t started = 0;
    std::int64_t wait_sum = 0;  // seconds; exact, so the mean matches rota's to the last digit
};

class Easy {
  public:
    Easy(const std::vector<Job>& jobs, std::int32_t procs)
        : jobs_(jobs), procs_(procs), free_(procs), start_(jobs.size(), -1) {
        arrivals_.resize(jobs.size());
        for (std::uint32_t i = 0; i < jobs.size(); ++i) arrivals_[i] = i;
        // Trace order among jobs submitted in the same second.
        std::stable_sort(arrivals_.begin(), arrivals_.end(), [&](std::uint32_t a, std::uint32_t b) {
            return jobs_[a].submit < jobs_[b].submit;
        });
    }

    Result run() {
        std::size_t next = 0;
        while (next < arrivals_.size() || !ends_.empty()) {
            std::int64_t now = INT64_MAX;
            if (next < arrivals_.size()) now = jobs_[arrivals_[next]].submit;
            if (!ends_.empty()) now = std::min(now, ends_.front().first);
            while (!ends_.empty() && ends_.front().first == now) end_first();
            for (; next < arrivals_.size() && jobs_[arrivals_[next]].submit == now; ++next)
                arrive(arrivals_[next]);
            pass(now);
        }
        return result_;
    }

  private:
    using End = std::pair<std::int64_t, std::uint32_t>;  // (time, job)

    const std::vector<Job>& jobs_;
    const std::int32_t procs_;
    std::int32_t free_;
    std::vector<std::int64_t> start_;
    std::vector<std::uint32_t> arrivals_;
    // Waiting jobs in FCFS order from queue_[head_]. Started jobs leave
    // tombstones (kGone; `gone_` of them past head_) and the vector is
    // compacted only now and then, so a start costs O(1), not a shift of
    // the rest of a long queue.
    static constexpr std::uint32_t kGone = UINT32_MAX;
    std::vector<std::uint32_t> queue_;
    std::size_t head_ = 0;
    std::size_t gone_ = 0;
    std::vector<End> ends_;  // min-heap of actual ends
    // Running jobs by estimated end, what the shadow time is computed from.
    std::set<End> by_estimate_;
    Result result_;

    void arrive(std::uint32_t i) {
        if (jobs_[i].procs > procs_) {
            ++result_.rejected;  // can never run here
            return;
        }
        queue_.push_back(i);
    }

    void start(std::uint32_t i, std::int64_t now) {
        const Job& j = jobs_[i];
        start_[i] = now;
        free_ -= j.procs;
        ++result_.started;
        result_.wait_sum += now - j.submit;
        ends_.emplace_back(now + j.runtime, i);
        std::push_heap(ends_.begin(), ends_.end(), std::greater<>());
        by_estimate_.emplace(now + j.estimate, i);
    }

    void end_first() {
        std::pop_heap(ends_.begin(), ends_.end(), std::greater<>());
        const std::uint32_t i = ends_.back().second;
        ends_.pop_back();
        free_ += jobs_[i].procs;
        by_estimate_.erase({start_[i] + jobs_[i].estimate, i});
    }

    // The head's reservation: the first estimated end at which enough
    // processors are free, and how many of them the head leaves spare. Jobs
    // ending at that same time all count.
    std::pair<std::int64_t, std::int32_t> shadow(std::int32_t need) const {
        std::int32_t avail = free_;
        for (auto it = by_estimate_.begin(); it != by_estimate_.end(); ++it) {
            avail += jobs_[it->second].procs;
            auto nx = std::next(it);
            if (avail >= need && (nx == by_estimate_.end() || nx->first != it->first))
                return {it->first, avail - need};
        }
        die("internal: the head does not fit the empty machine");
    }

    void pass(std::int64_t now) {
        // FCFS: start from the head while it fits.
        for (; head_ < queue_.size(); ++head_) {
            const std::uint32_t i = queue_[head_];
            if (i == kGone) {
                --gone_;
            } else if (jobs_[i].procs <= free_) {
                start(i, now);
            } else {
                break;
            }
        }
        if (head_ == queue_.size()) {
            queue_.clear();
            head_ = gone_ = 0;
            return;
        }
        if (free_ > 0) {  // else nothing can backfill
            auto [shadow_time, extra] = shadow(jobs_[queue_[head_]].procs);
            backfill(now, shadow_time, extra);
        }
        if (head_ + gone_ > 4096 && 2 * (head_ + gone_) > queue_.size()) compact();
    }

    // First fit behind the blocked head.
    void backfill(std::int64_t now, std::int64_t shadow_time, std::int32_t extra) {
        for (std::size_t r = head_ + 1; r < queue_.size() && free_ > 0; ++r) {
            const std::uint32_t i = queue_[r];
            if (i == kGone) continue;
            const Job& j = jobs_[i];
            const bool before_shadow = now + j.estimate <= shadow_time;
            if (j.procs <= free_ && (before_shadow || j.procs <= extra)) {
                if (!before_shadow) extra -= j.procs;
                start(i, now);
                queue_[r] = kGone;
                ++gone_;
            }
        }
    }

    void compact() {
        auto live =
            std::remove(queue_.begin() + static_cast<std::ptrdiff_t>(head_), queue_.end(), kGone);
        queue_.erase(live, queue_.end());
        queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(head_));
        head_ = gone_ = 0;
    }
};

double process_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
    const char* path = nullptr;
    long procs = 0;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--procs") && i + 1 < argc) {
            procs = std::strtol(argv[++i], nullptr, 10);
            if (procs <= 0 || procs > INT32_MAX) die("--procs wants a positive integer");
        } else if (argv[i][0] != '-' && !path) {
            path = argv[i];
        } else {
            die(std::string("unexpected argument '") + argv[i] +
                "'\nusage: native_easy TRACE [--procs N]");
        }
    }
    if (!path) die("usage: native_easy TRACE [--procs N]");

    Trace t = read_trace(path);
    if (procs == 0) procs = t.max_procs > 0 ? t.max_procs : t.max_nodes;
    if (procs <= 0) die("the trace header gives neither MaxProcs nor MaxNodes: use --procs");

    Result r = Easy(t.jobs, static_cast<std::int32_t>(procs)).run();
    const double mean = r.started ? static_cast<double>(r.wait_sum) / r.started : 0.0;
    std::printf("jobs %zu rejected %lld mean_wait %.6f s cpu %.3f s\n", t.jobs.size(),
                static_cast<long long>(r.rejected), mean, process_cpu_seconds());
    return 0;
}
