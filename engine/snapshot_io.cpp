// Snapshot records (snapshot_io.h).
#include "snapshot_io.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "error.h"
#include "names.h"

namespace rota {

namespace snap {

void bad(const std::string& what) {
    throw Error(Errc::invalid, "snapshot: " + what);
}

std::string hex(double v) {
    char b[64];
    std::snprintf(b, sizeof b, "%a", v);
    return b;
}

std::int64_t check_runs(const std::vector<NodeRun>& runs, std::int32_t procs,
                        const std::string& whose) {
    std::vector<NodeRun> sorted = runs;
    std::sort(sorted.begin(), sorted.end(),
              [](const NodeRun& a, const NodeRun& b) { return a.first < b.first; });
    std::int64_t held = 0, next = 0;
    for (const NodeRun& r : sorted) {
        if (r.count <= 0 || r.first < 0 || r.first > procs - r.count)
            bad(whose + ": node run " + std::to_string(r.first) + "+" + std::to_string(r.count) +
                " is outside the machine's " + std::to_string(procs) + " nodes");
        if (r.first < next)
            bad(whose + ": node " + std::to_string(r.first) + " is in two of its runs");
        next = r.first + r.count;
        held += r.count;
    }
    return held;
}

}  // namespace snap

using snap::bad;

Record::Record(std::string l) : in_(l), line_(std::move(l)) {
    for (std::size_t i = 0; i < line_.size(); ++i) {
        const auto c = static_cast<unsigned char>(line_[i]);
        if (c < 0x21 && !(c == ' ' && i > 0 && i + 1 < line_.size() && line_[i - 1] != ' '))
            bad(c == ' ' ? "fields not separated by exactly one space"
                         : "byte " + std::to_string(c) + " at column " + std::to_string(i + 1) +
                               " (not ASCII text)");
        if (c > 0x7e)
            bad("byte " + std::to_string(c) + " at column " + std::to_string(i + 1) +
                " (not ASCII text)");
    }
}

std::string Record::word() {
    std::string t;
    if (!(in_ >> t)) bad("record '" + line_.substr(0, 40) + "' is short");
    return t;
}

std::int64_t Record::i64() {
    const std::string t = word();
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(t.c_str(), &end, 10);
    if (*end || errno || std::to_string(v) != t) bad("'" + t.substr(0, 40) + "' is not an integer");
    return v;
}

std::int64_t Record::in_range(const char* what, std::int64_t lo, std::int64_t hi) {
    const std::int64_t v = i64();
    if (v < lo || v > hi)
        bad(std::string(what) + " " + std::to_string(v) + " is outside " + std::to_string(lo) +
            ".." + std::to_string(hi));
    return v;
}

Time Record::time(const char* what) {
    const std::int64_t v = i64();
    if (v != kNoTime && v != kForever && (v < -snap::kTimeBound || v > snap::kTimeBound))
        bad(std::string(what) + " " + std::to_string(v) + " is outside the time axis");
    return v;
}

std::uint64_t Record::u64() {
    const std::string t = word();
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(t.c_str(), &end, 10);
    if (*end || errno || t[0] == '-' || std::to_string(v) != t)
        bad("'" + t.substr(0, 40) + "' is not a count");
    return v;
}

// No NaN or infinity is ever written, and one would break the orders that
// sort by it.
double Record::f64() {
    const std::string t = word();
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (*end || !std::isfinite(v) || snap::hex(v) != t)
        bad("'" + t.substr(0, 40) + "' is not a finite hexadecimal number");
    return v;
}

bool Record::more() {
    in_ >> std::ws;
    return in_.peek() != std::char_traits<char>::eof();
}

namespace {

// Built piece by piece: GCC 12 misreads `"'" + t.substr() + ...` inlined in
// the loop below as overlapping copies (-Wrestrict).
[[noreturn]] void not_a_name(const std::string& t) {
    std::string m = "'";
    m.append(t, 0, 40);
    m += "' is not a name";
    bad(m);
}

}  // namespace

std::string Record::name() {
    return name(kMaxNameBytes);
}

std::string Record::name(std::size_t most) {
    const std::string t = word();
    if (t == "-") return {};
    if (t.size() % 2 || t.size() > 2 * most) not_a_name(t);
    std::string o;
    for (std::size_t i = 0; i < t.size(); i += 2) {
        auto nib = [&](char c) {
            if (c >= '0' && c <= '9') return c - '0';
            if (c >= 'a' && c <= 'f') return c - 'a' + 10;
            not_a_name(t);
        };
        o += static_cast<char>(nib(t[i]) * 16 + nib(t[i + 1]));
    }
    return o;
}

void Record::expect(const char* w) {
    const std::string t = word();
    if (t != w) bad("'" + t.substr(0, 40) + "' where '" + w + "' belongs");
}

std::size_t Record::count(std::size_t most) {
    const std::uint64_t n = u64();
    if (n > most) bad("a count of " + std::to_string(n) + " is more than " + std::to_string(most));
    return static_cast<std::size_t>(n);
}

std::vector<NodeRun> Record::runs(std::int32_t procs) {
    std::vector<NodeRun> out(count(static_cast<std::size_t>(procs)));
    for (NodeRun& nr : out) {
        nr.first = i32("node", 0, procs - 1);
        nr.count = i32("run length", 1, procs);
    }
    return out;
}

void Record::done() {
    std::string t;
    if (in_ >> t) bad("extra field '" + t.substr(0, 40) + "'");
}

SnapshotReader::SnapshotReader(const std::string& text) : lines_(text), size_(text.size()) {
    std::string magic;
    std::getline(lines_, magic);  // checked by the caller
}

Record SnapshotReader::next(const char* kw) {
    record_ = kw;
    std::string line;
    if (!next_line(line)) bad(std::string("truncated before the '") + kw + "' record");
    Record r(line);
    r.expect(kw);
    return r;
}

bool SnapshotReader::next_line(std::string& line) {
    ++lineno_;
    return static_cast<bool>(std::getline(lines_, line));
}

SnapshotReader::Slot SnapshotReader::slot(Record& r) {
    const std::uint64_t s = r.u64();
    if (s >= slots_) bad("slot " + std::to_string(s) + " is outside the slab");
    return static_cast<Slot>(s);
}

}  // namespace rota
