#include "swf.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string_view>

#include "gzip_lines.h"

namespace rota::sim {

namespace {

constexpr int kFields = 18;

const char* const kFieldNames[kFields] = {
    "job number",
    "submit time",
    "wait time",
    "run time",
    "allocated processors",
    "average CPU time",
    "used memory",
    "requested processors",
    "requested time",
    "requested memory",
    "status",
    "user id",
    "group id",
    "executable",
    "queue",
    "partition",
    "preceding job",
    "think time",
};

std::string make_message(const std::string& file, std::int64_t line, int field,
                         const std::string& what) {
    std::string where = line > 0 ? fmt::format("{}:{}", file, line) : file;
    if (field > 0)
        return fmt::format("{}: field {} ({}): {}", where, field, swf_field_name(field), what);
    return fmt::format("{}: {}", where, what);
}

inline bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// Why a field failed to parse; kOk if it did not.
enum class Bad { ok, missing, not_number, out_of_range };

// Parses an optionally signed decimal integer ending at whitespace or e.
// Hand-written because this loop is the reader's hot path.
inline Bad parse_int(const char*& p, const char* e, std::int64_t& out) {
    bool neg = false;
    if (*p == '-' || *p == '+') {
        neg = *p == '-';
        ++p;
    }
    const char* digits = p;
    std::uint64_t v = 0;
    while (p != e && static_cast<unsigned char>(*p - '0') < 10) {
        v = v * 10 + static_cast<unsigned>(*p - '0');
        ++p;
    }
    if (p == digits || (p != e && !is_space(*p))) return Bad::not_number;
    // 18 digits cannot overflow; longer runs are rare enough to check slowly.
    if (p - digits > 18) {
        std::uint64_t w = 0;
        for (const char* q = digits; q != p; ++q) {
            unsigned d = static_cast<unsigned>(*q - '0');
            if (w > (std::numeric_limits<std::uint64_t>::max() - d) / 10) return Bad::out_of_range;
            w = w * 10 + d;
        }
        if (w > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            return Bad::out_of_range;
        v = w;
    }
    out = neg ? -static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v);
    return Bad::ok;
}

inline Bad parse_double(const char*& p, const char* e, double& out) {
    const char* tok = p;
    while (p != e && !is_space(*p)) ++p;
    const char* b = tok;
    if (*b == '+') ++b;  // from_chars rejects a leading '+'
    auto [ptr, ec] = std::from_chars(b, p, out);
    if (ec == std::errc::result_out_of_range) return Bad::out_of_range;
    if (ec != std::errc() || ptr != p || !std::isfinite(out)) return Bad::not_number;
    return Bad::ok;
}

std::string token_at(const char* p, const char* e) {
    const char* q = p;
    while (q != e && !is_space(*q)) ++q;
    std::string t(p, q);
    if (t.size() > 40) t = t.substr(0, 40) + "...";
    return t;
}

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
        if (x != y) return false;
    }
    return true;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

// "; MaxProcs: 338 (batch partition)" -> 338; trailing text is commentary.
void parse_header_line(std::string_view line, SwfHeader& h) {
    std::string_view body = line.substr(1);
    auto colon = body.find(':');
    if (colon == std::string_view::npos) return;
    std::string_view key = trim(body.substr(0, colon));
    std::string_view val = trim(body.substr(colon + 1));
    std::int32_t* target = nullptr;
    if (iequals(key, "MaxProcs"))
        target = &h.max_procs;
    else if (iequals(key, "MaxNodes"))
        target = &h.max_nodes;
    if (!target) return;
    std::int32_t v = 0;
    auto [ptr, ec] = std::from_chars(val.data(), val.data() + val.size(), v);
    if (ec == std::errc() && ptr != val.data()) *target = v;
}

}  // namespace

const char* swf_field_name(int field) {
    return field >= 1 && field <= kFields ? kFieldNames[field - 1] : "?";
}

SwfError::SwfError(std::string file, std::int64_t line, int field, const std::string& what)
    : std::runtime_error(make_message(file, line, field, what)),
      file_(std::move(file)),
      line_(line),
      field_(field) {}

struct SwfReader::Impl {
    explicit Impl(const std::string& p) : path(p), lines(open(p)) {}

    static LineReader open(const std::string& p) {
        try {
            return LineReader(p);
        } catch (const std::runtime_error& e) {
            // LineReader's message already starts with the path.
            std::string what = e.what();
            if (what.compare(0, p.size() + 2, p + ": ") == 0) what = what.substr(p.size() + 2);
            throw SwfError(p, 0, 0, what);
        }
    }

    // Next non-blank line, or false at the end.
    bool next_line(std::string_view& line) {
        if (have_pending) {
            have_pending = false;
            line = pending;
            return true;
        }
        for (;;) {
            try {
                if (!lines.next(line)) return false;
            } catch (const std::runtime_error& e) {
                std::string what = e.what();
                if (what.compare(0, path.size() + 2, path + ": ") == 0)
                    what = what.substr(path.size() + 2);
                throw SwfError(path, 0, 0, what);
            }
            std::size_t i = 0;
            while (i < line.size() && is_space(line[i])) ++i;
            if (i == line.size()) continue;
            line.remove_prefix(i);
            return true;
        }
    }

    void read_header() {
        std::string_view line;
        while (next_line(line)) {
            if (line.front() != ';') {
                // The view stays valid: nothing reads the file before next().
                pending = line;
                have_pending = true;
                return;
            }
            header.lines.emplace_back(line);
            parse_header_line(line, header);
        }
    }

    [[noreturn]] void bad(int field, const std::string& what) const {
        throw SwfError(path, lines.line_number(), field, what);
    }

    void parse(std::string_view line, SwfRecord& r) const {
        const char* p = line.data();
        const char* e = p + line.size();
        std::int64_t ints[kFields];
        int k = 0;
        for (; k < kFields; ++k) {
            while (p != e && is_space(*p)) ++p;
            if (p == e) {
                bad(k + 1, "missing (the line has " + std::to_string(k) + " fields, " +
                               std::to_string(kFields) + " expected)");
            }
            const char* tok = p;
            Bad res;
            if (k == 5) {
                res = parse_double(p, e, r.avg_cpu);
                ints[k] = 0;
            } else {
                res = parse_int(p, e, ints[k]);
            }
            if (res == Bad::not_number) bad(k + 1, "not a number: '" + token_at(tok, e) + "'");
            if (res == Bad::out_of_range) bad(k + 1, "out of range: '" + token_at(tok, e) + "'");
        }
        auto i32 = [&](int idx) -> std::int32_t {
            std::int64_t v = ints[idx];
            if (v < std::numeric_limits<std::int32_t>::min() ||
                v > std::numeric_limits<std::int32_t>::max()) {
                bad(idx + 1, "out of range: " + std::to_string(v));
            }
            return static_cast<std::int32_t>(v);
        };
        r.id = ints[0];
        r.submit = ints[1];
        r.wait = ints[2];
        r.run_time = ints[3];
        r.alloc_procs = i32(4);
        r.used_mem = ints[6];
        r.req_procs = i32(7);
        r.req_time = ints[8];
        r.req_mem = ints[9];
        r.status = i32(10);
        r.user = i32(11);
        r.group = i32(12);
        r.executable = i32(13);
        r.queue = i32(14);
        r.partition = i32(15);
        r.preceding = ints[16];
        r.think = ints[17];
    }

    std::string path;
    LineReader lines;
    SwfHeader header;
    std::string_view pending;
    bool have_pending = false;
};

SwfReader::SwfReader(const std::string& path) : impl_(std::make_unique<Impl>(path)) {
    impl_->read_header();
}
SwfReader::~SwfReader() = default;
SwfReader::SwfReader(SwfReader&&) noexcept = default;
SwfReader& SwfReader::operator=(SwfReader&&) noexcept = default;

const SwfHeader& SwfReader::header() const {
    return impl_->header;
}
std::int64_t SwfReader::line_number() const {
    return impl_->lines.line_number();
}
const std::string& SwfReader::path() const {
    return impl_->path;
}

bool SwfReader::next(SwfRecord& out) {
    std::string_view line;
    while (impl_->next_line(line)) {
        if (line.front() == ';') continue;  // comments after the header carry no fields
        impl_->parse(line, out);
        return true;
    }
    return false;
}

// ---------------------------------------------------------------------------
// Mappings

const char* skip_reason_name(SkipReason r) {
    switch (r) {
        case SkipReason::runtime_not_positive:
            return "runtime_not_positive";
        case SkipReason::procs_not_positive:
            return "procs_not_positive";
    }
    return "?";
}

std::int64_t MappingStats::skipped_total() const {
    std::int64_t n = 0;
    for (const auto& [reason, count] : skipped) n += count;
    return n;
}

namespace {

constexpr std::size_t kSkippedSample = 20;

std::optional<TraceJob> skip(const SwfRecord& r, SkipReason why, MappingStats& st) {
    ++st.skipped[skip_reason_name(why)];
    if (st.skipped_ids_sample.size() < kSkippedSample) st.skipped_ids_sample.push_back(r.id);
    return std::nullopt;
}

}  // namespace

std::optional<TraceJob> map_default(const SwfRecord& r, MappingStats& st) {
    ++st.records;
    if (r.run_time <= 0) return skip(r, SkipReason::runtime_not_positive, st);
    std::int32_t procs = r.alloc_procs > 0 ? r.alloc_procs : r.req_procs;
    if (procs <= 0) return skip(r, SkipReason::procs_not_positive, st);
    TraceJob j{r.id, r.submit, r.run_time, r.req_time, procs, r.user};
    if (j.estimate <= 0) {
        j.estimate = j.runtime;
        ++st.estimate_from_runtime;
    }
    if (j.runtime > j.estimate) {
        // The job ran past its requested time in the log; a simulated batch
        // system kills it at the walltime.
        j.runtime = j.estimate;
        ++st.runtime_cut_to_estimate;
    }
    ++st.kept;
    return j;
}

std::optional<TraceJob> map_pyss(const SwfRecord& r, std::int32_t machine_procs, MappingStats& st) {
    ++st.records;
    ++st.kept;
    if (r.run_time <= 0 || r.alloc_procs <= 0 || r.submit < 0) {
        ++st.substituted;
        return TraceJob{r.id, std::max<std::int64_t>(r.submit, 1),      1,
                        1,    std::max<std::int32_t>(1, r.alloc_procs), r.user};
    }
    std::int64_t estimate = std::max({r.req_time, r.run_time, std::int64_t{1}});
    std::int64_t runtime = std::max(std::min(r.req_time, r.run_time), std::int64_t{1});
    std::int32_t procs = std::max(std::min(r.alloc_procs, machine_procs), 1);
    if (r.req_time < r.run_time) ++st.estimate_from_runtime;
    if (runtime < r.run_time) ++st.runtime_cut_to_estimate;
    return TraceJob{r.id, r.submit, runtime, estimate, procs, r.user};
}

Trace load_trace(const std::string& path, Mapping m, std::int32_t machine_procs) {
    SwfReader reader(path);
    Trace t;
    t.header = reader.header();
    if (m == Mapping::pyss && machine_procs <= 0) {
        machine_procs = t.header.max_procs;
        if (machine_procs <= 0) {
            throw std::invalid_argument(path +
                                        ": the pyss mapping needs the machine size and the "
                                        "trace has no MaxProcs header");
        }
    }
    SwfRecord rec;
    while (reader.next(rec)) {
        auto j =
            m == Mapping::pyss ? map_pyss(rec, machine_procs, t.stats) : map_default(rec, t.stats);
        if (j) t.jobs.push_back(*j);
    }
    t.jobs.shrink_to_fit();
    return t;
}

}  // namespace rota::sim
