#include "swf.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "gzip_lines.h"
#include "huge_pages.h"
#include "simulation.h"  // kMaxSimSeconds

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
                         const std::string& field_name, const std::string& what) {
    std::string where = line > 0 ? fmt::format("{}:{}", file, line) : file;
    if (field > 0) return fmt::format("{}: field {} ({}): {}", where, field, field_name, what);
    return fmt::format("{}: {}", where, what);
}

// ' ', '\t', '\r', '\v' and '\f', by a table: the reader's loops test
// every character of a trace.
constexpr std::array<bool, 256> kSpace = [] {
    std::array<bool, 256> t{};
    for (const unsigned char c : {' ', '\t', '\r', '\v', '\f'}) t[c] = true;
    return t;
}();

inline bool is_space(char c) {
    return kSpace[static_cast<unsigned char>(c)];
}

// Skips whitespace. SWF pads its columns with runs of blanks, and skipping
// them a byte at a time was a fifth of the reader's time: eight bytes are
// compared with eight blanks at once, and the first byte that differs ends
// the run (tabs and the other blanks go through the table).
inline const char* skip_space(const char* p, const char* e) {
    if constexpr (std::endian::native == std::endian::little) {
        constexpr std::uint64_t kBlanks = 0x2020202020202020u;
        while (e - p >= 8) {
            std::uint64_t w;
            std::memcpy(&w, p, 8);
            const std::uint64_t x = w ^ kBlanks;
            if (x != 0) {
                p += std::countr_zero(x) / 8;
                break;
            }
            p += 8;
        }
    }
    while (p != e && is_space(*p)) ++p;
    return p;
}

// Why a field failed to parse; kOk if it did not.
enum class Bad { ok, missing, not_number, out_of_range };

// Parses an optionally signed decimal integer ending at whitespace or e.
// Hand-written because this loop is the reader's hot path.
inline Bad parse_int(const char*& pos, const char* e, std::int64_t& out) {
    const char* p = pos;  // a local: the digit loop keeps it in a register
    bool neg = false;
    if (*p == '-' || *p == '+') {
        neg = *p == '-';
        ++p;
    }
    const char* digits = p;
    std::uint64_t v = 0;
    for (; p != e; ++p) {
        const unsigned d = static_cast<unsigned char>(*p) - unsigned{'0'};
        if (d > 9) break;
        v = v * 10 + d;
    }
    pos = p;
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
    return printable_token(std::string_view(p, static_cast<std::size_t>(q - p)));
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

// "; Pools: r2=1000000 memory=33554432": the pools fields 19.. give.
// Returns an error message, or "".
std::string parse_pools(std::string_view val, SwfHeader& h) {
    if (!h.pools.empty()) return "the header declares Pools twice";
    while (!val.empty()) {
        std::size_t n = 0;
        while (n < val.size() && !is_space(val[n])) ++n;
        std::string tok(val.substr(0, n));
        val = trim(val.substr(n));
        try {
            PoolSpec p = parse_pool_spec(tok);
            // Each record then carries a field per pool: a line of a
            // million pools would be checked name against name for hours.
            if (h.pools.size() == kMaxHeaderPools)
                return "Pools: more than " + std::to_string(kMaxHeaderPools) + " pools";
            for (const auto& q : h.pools)
                if (q.name == p.name)
                    return "Pools: pool '" + printable_token(p.name) + "' is declared twice";
            h.pools.push_back(std::move(p));
        } catch (const std::invalid_argument& e) {
            return std::string("Pools: ") + e.what();
        }
    }
    if (h.pools.empty()) return "Pools: no pool declared (expected name=capacity ...)";
    return {};
}

// "; AdaptBytes: 1=262144 2=1048576": executable (field 14) = bytes.
// Returns an error message, or "".
std::string parse_adapt_bytes(std::string_view val, SwfHeader& h) {
    if (!h.adapt_bytes.empty()) return "the header declares AdaptBytes twice";
    while (!val.empty()) {
        std::size_t n = 0;
        while (n < val.size() && !is_space(val[n])) ++n;
        const std::string_view tok = val.substr(0, n);
        val = trim(val.substr(n));
        const auto eq = tok.find('=');
        std::int32_t exe = 0;
        std::int64_t bytes = 0;
        const auto [p1, e1] =
            std::from_chars(tok.data(), tok.data() + std::min(eq, tok.size()), exe);
        const bool ok1 = eq != std::string_view::npos && e1 == std::errc() && p1 == tok.data() + eq;
        const auto [p2, e2] =
            ok1 ? std::from_chars(tok.data() + eq + 1, tok.data() + tok.size(), bytes)
                : std::from_chars_result{tok.data(), std::errc::invalid_argument};
        if (!ok1 || e2 != std::errc() || p2 != tok.data() + tok.size() || eq + 1 == tok.size())
            return "AdaptBytes: expected executable=bytes (integers), not '" +
                   printable_token(tok) + "'";
        if (exe < 0 || bytes < 0)
            return "AdaptBytes: '" + printable_token(tok) + "': executable and bytes must be >= 0";
        h.adapt_bytes.emplace_back(exe, bytes);
    }
    if (h.adapt_bytes.empty()) return "AdaptBytes: no entry (expected executable=bytes ...)";
    // Sorted, then neighbours compared: a line of a million entries is
    // checked in a moment, not pair by pair.
    std::sort(h.adapt_bytes.begin(), h.adapt_bytes.end());
    for (std::size_t i = 1; i < h.adapt_bytes.size(); ++i)
        if (h.adapt_bytes[i].first == h.adapt_bytes[i - 1].first)
            return "AdaptBytes: executable " + std::to_string(h.adapt_bytes[i].first) +
                   " is declared twice";
    return {};
}

// "; MaxProcs: 338 (batch partition)" -> 338; trailing text is commentary.
// Returns an error message for a malformed Pools line, else "".
std::string parse_header_line(std::string_view line, SwfHeader& h) {
    std::string_view body = line.substr(1);
    auto colon = body.find(':');
    if (colon == std::string_view::npos) return {};
    std::string_view key = trim(body.substr(0, colon));
    std::string_view val = trim(body.substr(colon + 1));
    if (iequals(key, "Pools")) return parse_pools(val, h);
    if (iequals(key, "Components")) {
        if (h.components) return "the header declares Components twice";
        if (!iequals(val, "widths"))
            return "Components: expected 'widths' (each record then gives its component widths "
                   "joined by '+' after field 18 and the pool demands), not '" +
                   printable_token(val) + "'";
        h.components = true;
        return {};
    }
    if (iequals(key, "Clusters")) {
        if (!h.clusters.empty()) return "the header declares Clusters twice";
        try {
            h.clusters = parse_clusters(std::string(val));
        } catch (const std::invalid_argument& e) {
            return std::string("Clusters: ") + e.what();
        }
        return {};
    }
    if (iequals(key, "TimeUnit")) {
        double v = 0;
        std::string_view num = val.substr(0, std::min(val.find(' '), val.size()));
        auto [ptr, ec] = std::from_chars(num.data(), num.data() + num.size(), v);
        if (ec != std::errc() || ptr != num.data() + num.size() || !(v > 0) || !std::isfinite(v))
            return "TimeUnit: expected a positive number of seconds, not '" + printable_token(val) +
                   "'";
        h.time_unit = v;
        return {};
    }
    if (iequals(key, "AdaptBytes")) return parse_adapt_bytes(val, h);
    if (iequals(key, "UnixStartTime") || iequals(key, "TimeZone")) {
        std::int64_t v = 0;
        auto [ptr, ec] = std::from_chars(val.data(), val.data() + val.size(), v);
        if (ec == std::errc() && ptr != val.data())
            (iequals(key, "TimeZone") ? h.time_zone : h.unix_start_time) = v;
        return {};
    }
    const char* const machine_key = iequals(key, "MaxProcs")   ? "MaxProcs"
                                    : iequals(key, "MaxNodes") ? "MaxNodes"
                                                               : nullptr;
    if (machine_key) {
        // The number, then commentary: "; MaxNodes: 338 (batch partition)".
        const std::string_view num = val.substr(0, val.find_first_of(" \t"));
        std::int64_t v = 0;
        auto [ptr, ec] = std::from_chars(num.data(), num.data() + num.size(), v);
        if (ec != std::errc() || ptr != num.data() + num.size() || num.empty() || v < 1 ||
            v > std::numeric_limits<std::int32_t>::max())
            return std::string(machine_key) +
                   ": expected a whole number of processors >= 1, not '" + printable_token(num) +
                   "'";
        (std::string_view(machine_key) == "MaxProcs" ? h.max_procs : h.max_nodes) =
            static_cast<std::int32_t>(v);
        return {};
    }
    if (iequals(key, "MaxRecords")) {
        std::int64_t v = 0;
        auto [ptr, ec] = std::from_chars(val.data(), val.data() + val.size(), v);
        if (ec == std::errc() && ptr != val.data()) h.max_records = v;
        return {};
    }
    return {};
}

}  // namespace

std::int32_t header_procs(const SwfHeader& h, const std::string& file) {
    const bool procs = h.max_procs > 0;
    const std::int32_t v = procs ? h.max_procs : std::max(h.max_nodes, 0);
    if (v > kMaxMachineProcs)
        throw SwfError(file, procs ? h.max_procs_line : h.max_nodes_line, 0,
                       fmt::format("{}: {} is more than the {} processors a machine may have "
                                   "(--procs sets a smaller machine)",
                                   procs ? "MaxProcs" : "MaxNodes", v, kMaxMachineProcs));
    return v;
}

std::string printable_token(std::string_view t) {
    constexpr std::size_t kMost = 40;
    std::string out;
    for (std::size_t i = 0; i < t.size() && i < kMost; ++i) {
        const auto c = static_cast<unsigned char>(t[i]);
        if (c >= 0x20 && c < 0x7f && c != '\\')
            out.push_back(static_cast<char>(c));
        else
            out += fmt::format("\\x{:02X}", c);
    }
    if (t.size() > kMost) out += "...";
    return out;
}

const char* swf_field_name(int field) {
    return field >= 1 && field <= kFields ? kFieldNames[field - 1] : "?";
}

SwfError::SwfError(std::string file, std::int64_t line, int field, const std::string& what)
    : std::runtime_error(make_message(file, line, field, swf_field_name(field), what)),
      file_(std::move(file)),
      line_(line),
      field_(field) {}

SwfError::SwfError(std::string file, std::int64_t line, int field, const std::string& field_name,
                   const std::string& what)
    : std::runtime_error(make_message(file, line, field, field_name, what)),
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
            // A UTF-8 byte order mark, as some editors write, is not text.
            constexpr std::string_view kBom = "\xEF\xBB\xBF";
            if (lines.line_number() == 1 && line.substr(0, kBom.size()) == kBom) i = kBom.size();
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
            if (header.lines_dropped == 0 && header.lines.size() < SwfHeader::kHeaderLinesKept &&
                header.line_bytes + line.size() <= SwfHeader::kHeaderBytesKept) {
                header.lines.emplace_back(line);
                header.line_bytes += line.size();
            } else {
                ++header.lines_dropped;
            }
            const std::int32_t procs = header.max_procs, nodes = header.max_nodes;
            std::string err = parse_header_line(line, header);
            if (!err.empty()) throw SwfError(path, lines.line_number(), 0, err);
            // A machine size given twice, differently: neither is read.
            for (const auto& [key, before, now, at] :
                 {std::tuple{"MaxProcs", procs, header.max_procs, header.max_procs_line},
                  std::tuple{"MaxNodes", nodes, header.max_nodes, header.max_nodes_line}})
                if (before > 0 && now != before)
                    throw SwfError(path, lines.line_number(), 0,
                                   fmt::format("{}: {} contradicts {}: {} at line {}", key, now,
                                               key, before, at));
            if (header.max_procs != procs) header.max_procs_line = lines.line_number();
            if (header.max_nodes != nodes) header.max_nodes_line = lines.line_number();
        }
    }

    [[noreturn]] void bad(int field, const std::string& what) const {
        throw SwfError(path, lines.line_number(), field, what);
    }

    // The messages of parse(), kept out of its loop: building them there
    // made the hot path spill and its helpers too big to inline.
    [[noreturn]] [[gnu::cold]] [[gnu::noinline]] void bad_missing(int k) const {
        bad(k + 1, "missing (the line has " + std::to_string(k) + " fields, " +
                       std::to_string(kFields) + " expected)");
    }
    [[noreturn]] [[gnu::cold]] [[gnu::noinline]] void bad_token(int k, Bad res, const char* tok,
                                                                const char* e) const {
        bad(k + 1, (res == Bad::not_number ? "not a number: '" : "out of range: '") +
                       token_at(tok, e) + "'");
    }
    [[noreturn]] [[gnu::cold]] [[gnu::noinline]] void bad_int32(int idx, std::int64_t v) const {
        bad(idx + 1, "out of range: " + std::to_string(v));
    }
    [[noreturn]] [[gnu::cold]] [[gnu::noinline]] void bad_time(int idx, std::int64_t v) const {
        bad(idx + 1, "past the time axis: " + std::to_string(v) + " s (at most " +
                         std::to_string(kMaxSimSeconds) + " s)");
    }

    void parse(std::string_view line, SwfRecord& r) const {
        const char* p = line.data();
        const char* e = p + line.size();
        std::int64_t ints[kFields];
        int k = 0;
        for (; k < kFields; ++k) {
            p = skip_space(p, e);
            if (p == e) [[unlikely]]
                bad_missing(k);
            const char* tok = p;
            Bad res;
            if (k == 5) {
                res = parse_double(p, e, r.avg_cpu);
                ints[k] = 0;
            } else {
                res = parse_int(p, e, ints[k]);
            }
            if (res == Bad::not_number || res == Bad::out_of_range) [[unlikely]]
                bad_token(k, res, tok, e);
        }
        auto i32 = [&](int idx) -> std::int32_t {
            std::int64_t v = ints[idx];
            if (v < std::numeric_limits<std::int32_t>::min() ||
                v > std::numeric_limits<std::int32_t>::max()) [[unlikely]]
                bad_int32(idx, v);
            return static_cast<std::int32_t>(v);
        };
        // Times past the simulator's time axis cannot be converted to the
        // engine's microseconds: said here, where the line is known.
        for (const int idx : {1, 2, 3, 8, 17})
            if (ints[idx] > kMaxSimSeconds) [[unlikely]]
                bad_time(idx, ints[idx]);
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
        r.pools.resize(header.pools.size());
        for (std::size_t k = 0; k < header.pools.size(); ++k) {
            const int field = kFields + 1 + static_cast<int>(k);
            auto bad_pool = [&](const std::string& what) {
                throw SwfError(path, lines.line_number(), field,
                               "demand on pool '" + header.pools[k].name + "'", what);
            };
            while (p != e && is_space(*p)) ++p;
            if (p == e)
                bad_pool("missing (the header declares " + std::to_string(header.pools.size()) +
                         " pools: " + std::to_string(kFields + header.pools.size()) +
                         " fields expected)");
            const char* tok = p;
            Bad res = parse_int(p, e, r.pools[k]);
            if (res == Bad::not_number) bad_pool("not a number: '" + token_at(tok, e) + "'");
            if (res == Bad::out_of_range) bad_pool("out of range: '" + token_at(tok, e) + "'");
            if (r.pools[k] < 0) bad_pool("negative: " + std::to_string(r.pools[k]));
        }
        r.components.clear();
        if (header.components) {
            // A copy: p's address taken would keep it in memory in the loops above.
            const char* rest = p;
            parse_components(rest, e, r);
        }
    }

    // The widths "6+6+5" of a job, which must add up to its processors
    // (field 5, else field 8, as the default mapping takes them).
    void parse_components(const char*& p, const char* e, SwfRecord& r) const {
        const int field = kFields + 1 + static_cast<int>(header.pools.size());
        auto bad_comp = [&](const std::string& what) {
            throw SwfError(path, lines.line_number(), field, "components", what);
        };
        while (p != e && is_space(*p)) ++p;
        if (p == e)
            bad_comp("missing (the header declares components: " + std::to_string(field) +
                     " fields expected)");
        const char* tok = p;
        while (p != e && !is_space(*p)) ++p;
        const std::string_view text(tok, static_cast<std::size_t>(p - tok));
        if (text == "-1") return;  // one component of all its processors
        try {
            r.components = parse_widths(text);
        } catch (const std::invalid_argument& ex) {
            bad_comp(std::string(ex.what()) + " in '" + token_at(tok, e) + "'");
        }
        std::int64_t sum = 0;
        for (auto w : r.components) sum += w;
        const std::int32_t procs = r.alloc_procs > 0 ? r.alloc_procs : r.req_procs;
        if (sum != procs)
            bad_comp("the widths " + token_at(tok, e) + " add up to " + std::to_string(sum) +
                     ", the job has " +
                     (procs > 0 ? std::to_string(procs) + " processors (field " +
                                      (r.alloc_procs > 0 ? "5" : "8") + ")"
                                : std::string("no processors (fields 5 and 8)")));
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
        case SkipReason::cpu_or_memory_unused:
            return "cpu_or_memory_unused";
        case SkipReason::submit_negative:
            return "submit_negative";
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
    // -1 is SWF's "unknown": a job with no submit time has no place in the
    // simulated time (pyss's mapping substitutes one instead).
    if (r.submit < 0) return skip(r, SkipReason::submit_negative, st);
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

const char* memory_source_name(MemorySource s) {
    switch (s) {
        case MemorySource::none:
            return "none";
        case MemorySource::requested:
            return "requested";
        case MemorySource::used:
            return "used";
        case MemorySource::automatic:
            return "auto";
    }
    return "?";
}

const char* memory_units_name(MemoryUnits u) {
    return u == MemoryUnits::bytes_per_job ? "bytes-per-job" : "kb-per-processor";
}

MemorySource parse_memory_source(const std::string& s) {
    for (auto m :
         {MemorySource::none, MemorySource::requested, MemorySource::used, MemorySource::automatic})
        if (s == memory_source_name(m)) return m;
    throw std::invalid_argument("unknown memory source '" + s +
                                "' (expected none, requested, used or auto)");
}

MemoryUnits parse_memory_units(const std::string& s) {
    for (auto u : {MemoryUnits::kb_per_processor, MemoryUnits::bytes_per_job})
        if (s == memory_units_name(u)) return u;
    throw std::invalid_argument("unknown memory units '" + s +
                                "' (expected kb-per-processor or bytes-per-job)");
}

std::int64_t memory_demand(const SwfRecord& r, std::int32_t procs, MemorySource src,
                           MemoryUnits units, MappingStats& st) {
    std::int64_t v = -1;
    if ((src == MemorySource::requested || src == MemorySource::automatic) && r.req_mem > 0) {
        v = r.req_mem;
        ++st.memory_requested;
    } else if ((src == MemorySource::used || src == MemorySource::automatic) && r.used_mem > 0) {
        v = r.used_mem;
        ++st.memory_used;
    } else {
        ++st.memory_missing;
        if (st.memory_missing_ids_sample.size() < kSkippedSample)
            st.memory_missing_ids_sample.push_back(r.id);
        return -1;
    }
    if (units == MemoryUnits::bytes_per_job) return v / 1024 + (v % 1024 != 0);
    std::int64_t kb = 0;
    // Beyond any capacity either way: the engine rejects the job.
    if (__builtin_mul_overflow(v, static_cast<std::int64_t>(std::max(procs, 1)), &kb))
        return std::numeric_limits<std::int64_t>::max();
    return kb;
}

void Dependencies::add(std::size_t job, std::size_t jobs, std::int32_t after_job,
                       std::int64_t think_s) {
    if (after.empty()) {
        after.assign(jobs, -1);
        think.assign(jobs, 0);
    }
    if (after.size() < jobs) {
        after.resize(jobs, -1);
        think.resize(jobs, 0);
    }
    after[job] = after_job;
    think[job] = think_s;
}

std::size_t Dependencies::count() const {
    return static_cast<std::size_t>(
        std::count_if(after.begin(), after.end(), [](std::int32_t a) { return a >= 0; }));
}

const char* dependency_mode_name(DependencyMode m) {
    switch (m) {
        case DependencyMode::follow:
            return "follow";
        case DependencyMode::ignore:
            return "ignore";
        case DependencyMode::automatic:
            return "auto";
    }
    return "?";
}

DependencyMode parse_dependency_mode(const std::string& s) {
    for (auto m : {DependencyMode::follow, DependencyMode::ignore, DependencyMode::automatic})
        if (s == dependency_mode_name(m)) return m;
    throw std::invalid_argument("unknown dependency mode '" + s +
                                "' (expected follow, ignore or auto)");
}

Trace load_trace(const std::string& path, Mapping m, std::int32_t machine_procs) {
    LoadOptions o;
    o.mapping = m;
    o.machine_procs = machine_procs;
    return load_trace(path, o);
}

namespace {

// The job ids of the records read so far: whether an id was given, and
// which job a kept record became. SWF job numbers nearly always increase,
// so the ids are kept as a sorted array searched by bisection (12 bytes a
// record); the first id that does not increase moves them to a hash map.
// A million-record trace then costs 12 MB here, not the 50 MB of two hash
// maps.
class IdIndex {
  public:
    bool contains(std::int64_t id) const {
        if (!map_.empty()) return map_.count(id) > 0;
        // The common case, an id above every one so far, without a search.
        if (ids_.empty() || id > ids_.back()) return false;
        return std::binary_search(ids_.begin(), ids_.end(), id);
    }
    void reserve(std::size_t records) {
        ids_.reserve(records);
        kept_.reserve(records);
    }
    // Records an id not seen before, as a record the mapping may skip.
    void add(std::int64_t id) {
        if (map_.empty() && (ids_.empty() || id > ids_.back())) {
            ids_.push_back(id);
            kept_.push_back(-1);
            return;
        }
        if (map_.empty()) {
            map_.reserve(ids_.size() * 2);
            for (std::size_t i = 0; i < ids_.size(); ++i) map_.emplace(ids_[i], kept_[i]);
            ids_ = {};
            kept_ = {};
        }
        last_ = map_.emplace(id, -1).first;
    }
    // The record added last became job `index` of the trace.
    void keep(std::int32_t index) {
        if (map_.empty())
            kept_.back() = index;
        else
            last_->second = index;
    }
    // The job the record with this id became; -1 if it was skipped or unknown.
    std::int32_t kept(std::int64_t id) const {
        if (!map_.empty()) {
            const auto it = map_.find(id);
            return it == map_.end() ? -1 : it->second;
        }
        const auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
        return it != ids_.end() && *it == id ? kept_[static_cast<std::size_t>(it - ids_.begin())]
                                             : -1;
    }

  private:
    std::vector<std::int64_t> ids_;
    std::vector<std::int32_t> kept_;
    std::unordered_map<std::int64_t, std::int32_t> map_;
    std::unordered_map<std::int64_t, std::int32_t>::iterator last_;
};

// " at line N", N the line of the first record with this id, read again:
// only an error message needs it. "" when the file cannot be read twice
// (standard input).
std::string first_line_of(const std::string& path, std::int64_t id) {
    if (path == "-") return "";
    try {
        SwfReader r(path);
        SwfRecord rec;
        while (r.next(rec))
            if (rec.id == id) return " at line " + std::to_string(r.line_number());
    } catch (const std::exception&) {
    }
    return "";
}

// One reading of a trace into `t`: the options, the reader, and the ids
// of the records read so far.
struct TraceLoad {
    const std::string& path;
    const LoadOptions& o;
    SwfReader& reader;
    Trace& t;
    std::int32_t machine_procs;
    // Job ids name jobs in the engine, the CSV and the actions: two jobs
    // with one id would be one job to every reader of the results.
    IdIndex ids;

    TraceLoad(const std::string& file, const LoadOptions& options, SwfReader& r, Trace& into)
        : path(file), o(options), reader(r), t(into), machine_procs(options.machine_procs) {}

    void add_memory_pool() {
        for (const auto& p : t.pools.pools)
            if (p.name == kMemoryPool)
                throw std::invalid_argument(path +
                                            ": the header already declares a pool 'memory'; "
                                            "memory from fields 7 and 10 would be a second one");
        std::int64_t cap = o.memory_capacity;
        if (cap <= 0 && t.machines) cap = t.machines->memory_kb;
        if (cap <= 0)
            throw std::invalid_argument(
                "memory as a pool needs its capacity in KB: give --memory-capacity (e.g. 32G) "
                "or put a .machines file beside the trace (" +
                path + ".machines)");
        t.pools.pools.push_back({kMemoryPool, cap});
    }

    // The pyss mapping caps jobs at the machine's size: the header's,
    // unless given.
    void find_machine_size() {
        machine_procs = t.header.max_procs > 0 ? header_procs(t.header, path) : 0;
        if (machine_procs <= 0) {
            throw std::invalid_argument(path +
                                        ": the pyss mapping needs the machine size and the "
                                        "trace has no MaxProcs header");
        }
    }

    // The header's record count, when it gives one, sizes the job array
    // and the ids once instead of by doubling; a header's word is trusted up to 4
    // million jobs (160 MiB), past which the array grows as it is read.
    // (Grown by doubling, the arrays touch twice their memory, and on a
    // virtual machine each page is a costly fault the first time.)
    void reserve() {
        if (t.header.max_records <= 0) return;
        const auto records =
            static_cast<std::size_t>(std::min<std::int64_t>(t.header.max_records, 1 << 22));
        reserve_huge(t.jobs, records);
        ids.reserve(records);
    }

    void add_record(const SwfRecord& rec) {
        if (ids.contains(rec.id))
            // A fault of the trace, as a malformed field is (exit status 1).
            throw SwfError(path, reader.line_number(), 0,
                           "job id " + std::to_string(rec.id) + " was already given" +
                               first_line_of(path, rec.id));
        ids.add(rec.id);
        auto j = o.mapping == Mapping::pyss ? map_pyss(rec, machine_procs, t.stats)
                                            : map_default(rec, t.stats);
        if (!j) return;
        if (o.positive_use && !(rec.avg_cpu > 0 && rec.used_mem > 0)) {
            --t.stats.kept;
            skip(rec, SkipReason::cpu_or_memory_unused, t.stats);
            return;
        }
        // Job numbers start at 1: 0 and -1 (missing) name no job.
        if (t.deps_followed && rec.preceding > 0) add_dependency(rec);
        ids.keep(static_cast<std::int32_t>(t.jobs.size()));
        t.jobs.push_back(*j);
        t.partitions.push_back(rec.partition < 0 ? -1 : rec.partition);
        if (!t.header.adapt_bytes.empty()) add_adapt_bytes(rec);
        if (t.header.components) add_components(rec, *j);
        if (t.pools.empty()) return;
        add_pool_demands(rec, *j);
    }

    // Fields 17 and 18: the job about to be added follows an earlier one.
    void add_dependency(const SwfRecord& rec) {
        auto bad = [&](const std::string& what) {
            throw SwfError(path, reader.line_number(), 17,
                           what +
                               " (--dependencies ignore reads the trace without "
                               "dependencies)");
        };
        if (rec.preceding == rec.id) bad("job " + std::to_string(rec.id) + " cannot follow itself");
        if (!ids.contains(rec.preceding))
            bad("job " + std::to_string(rec.preceding) +
                " is not an earlier job of the trace (a job can only follow one before "
                "it)");
        if (rec.think < -1)
            throw SwfError(
                path, reader.line_number(), 18,
                "negative: " + std::to_string(rec.think) + " (-1, missing, counts as 0)");
        if (const std::int32_t k = ids.kept(rec.preceding); k >= 0) {
            t.deps.add(t.jobs.size(), t.jobs.size() + 1, k, std::max<std::int64_t>(rec.think, 0));
            ++t.stats.dependent;
        } else {
            ++t.stats.dependencies_dropped;  // it was skipped: its own submit time
        }
    }

    void add_adapt_bytes(const SwfRecord& rec) {
        const auto& table = t.header.adapt_bytes;
        const auto it = std::lower_bound(table.begin(), table.end(),
                                         std::pair<std::int32_t, std::int64_t>{rec.executable, 0});
        t.adapt_bytes.push_back(it != table.end() && it->first == rec.executable ? it->second : 0);
    }

    void add_components(const SwfRecord& rec, const TraceJob& j) {
        if (rec.components.empty()) {
            t.components.push(&j.procs, 1);
            return;
        }
        std::int64_t sum = 0;
        for (auto w : rec.components) sum += w;
        // The pyss mapping may cap or replace the processors.
        if (sum != j.procs)
            throw std::invalid_argument(
                path + ": job " + std::to_string(j.id) + " has " + std::to_string(j.procs) +
                " processors after the " + (o.mapping == Mapping::pyss ? "pyss" : "default") +
                " mapping and components " +
                format_widths(rec.components.data(), rec.components.size()));
        t.components.push(rec.components);
    }

    void add_pool_demands(const SwfRecord& rec, const TraceJob& j) {
        for (std::size_t k = 0; k < t.header.pools.size(); ++k)
            t.pools.demand.push_back(rec.pools[k]);
        if (o.memory != MemorySource::none) {
            std::int64_t kb = memory_demand(rec, j.procs, o.memory, o.memory_units, t.stats);
            t.pools.demand.push_back(std::max<std::int64_t>(kb, 0));
        }
    }

    void finish() {
        // Given back only when much of it is unused: shrinking copies every job
        // into memory touched for the first time.
        if (t.jobs.capacity() - t.jobs.size() > t.jobs.size() / 4) t.jobs.shrink_to_fit();
        if (std::all_of(t.partitions.begin(), t.partitions.end(), [](auto p) { return p < 0; }))
            t.partitions = {};
        t.partitions.shrink_to_fit();
        t.pools.demand.shrink_to_fit();
        if (!t.deps.empty()) {
            t.deps.after.resize(t.jobs.size(), -1);
            t.deps.think.resize(t.jobs.size(), 0);
        }
        if (t.header.components && t.jobs.empty()) t.components.offset = {0};
    }
};

}  // namespace

Trace load_trace(const std::string& path, const LoadOptions& o) {
    SwfReader reader(path);
    Trace t;
    t.header = reader.header();
    TraceLoad load(path, o, reader, t);
    t.machines = read_machines_file(path);
    t.pools.pools = t.header.pools;
    if (o.memory != MemorySource::none) load.add_memory_pool();
    if (o.mapping == Mapping::pyss && o.machine_procs <= 0) load.find_machine_size();
    load.reserve();
    // Fields 17 and 18: the Alea simulator's extended SWF (the one that
    // comes with a .machines file) uses them for something else.
    t.deps_followed = o.dependencies == DependencyMode::follow ||
                      (o.dependencies == DependencyMode::automatic && !t.machines);
    for (SwfRecord rec; reader.next(rec);) load.add_record(rec);
    load.finish();
    return t;
}

}  // namespace rota::sim
