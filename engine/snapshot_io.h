// Reading and writing snapshot records (docs/snapshot.md): one record a
// line, a keyword then fields separated by one space, each read back only in
// the exact form the writer gives it. The core (snapshot.cpp) and each
// discipline write and read their own records with these.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "nodes.h"
#include "types.h"

namespace rota {

namespace snap {

[[noreturn]] void bad(const std::string& what);  // Errc::invalid, "snapshot: ..."

// Doubles in hexadecimal: read back bit for bit.
std::string hex(double v);

// Appends ' ' and the decimal value.
template <class T>
void num(std::string& o, T v) {
    o += ' ';
    o += std::to_string(v);
}
// Appends " n v1 v2 ...": a count, then that many values.
template <class V>
void list(std::string& o, const V& values) {
    num(o, values.size());
    for (const auto& v : values) num(o, v);
}

// Node runs (of a job, of a processor set) inside a machine of `procs`
// nodes, no node twice; returns the nodes they hold.
std::int64_t check_runs(const std::vector<NodeRun>& runs, std::int32_t procs,
                        const std::string& whose);

// The bounds of a time field: times the engine computes with (start plus
// window, now minus submit) must not overflow, so a snapshot's times stay
// in the axis a live engine uses. "No time" and "never" are the two ends
// of int64.
inline constexpr Time kTimeBound = kTimeAxisEnd;

}  // namespace snap

// One record: its keyword, then fields separated by one space. Every field
// must read back exactly as the writer writes it (no sign, no leading zero,
// no decimal double): a snapshot that is accepted is then exactly the engine
// it describes, and one written by another program is refused, not guessed.
class Record {
  public:
    explicit Record(std::string line);
    std::string word();
    std::int64_t i64();
    // An integer in [lo, hi]: fields narrower than int64 are checked before
    // they are narrowed, so that 2^32 + 2 is not read as 2.
    std::int64_t in_range(const char* what, std::int64_t lo, std::int64_t hi);
    std::int32_t i32(const char* what, std::int64_t lo = INT32_MIN, std::int64_t hi = INT32_MAX) {
        return static_cast<std::int32_t>(in_range(what, lo, hi));
    }
    // A time: none, never, or within the engine's time axis.
    Time time(const char* what);
    std::uint64_t u64();
    bool flag(const char* what) { return in_range(what, 0, 1) != 0; }
    // A double as the writer writes it (%a); finite.
    double f64();
    bool more();
    // A job's name (or a text of at most `most` bytes): "-" for none, else
    // its bytes in hex.
    std::string name(std::size_t most);
    std::string name();
    void expect(const char* w);
    // A count of at most `most`.
    std::size_t count(std::size_t most);
    // Node runs: a count, then first and count of each, inside the machine.
    std::vector<NodeRun> runs(std::int32_t procs);
    void done();

  private:
    std::istringstream in_;
    std::string line_;
};

// The lines of a snapshot, read in order; knows where it is for messages,
// and the job table's size for slot fields.
class SnapshotReader {
  public:
    using Slot = std::uint32_t;
    explicit SnapshotReader(const std::string& text);
    // The next line, which must be record `kw`.
    Record next(const char* kw);
    // The next line, whatever its record (for lists of records).
    bool next_line(std::string& line);
    std::size_t line() const { return lineno_; }
    std::size_t text_size() const { return size_; }
    const std::string& record() const { return record_; }
    void set_record(std::string r) { record_ = std::move(r); }

    // A slot of the job table (slots() long), read from `r`.
    std::size_t slots() const { return slots_; }
    void set_slots(std::size_t n) { slots_ = n; }
    Slot slot(Record& r);

  private:
    std::istringstream lines_;
    std::size_t lineno_ = 1;
    std::string record_;
    std::size_t slots_ = 0;
    std::size_t size_ = 0;
};

}  // namespace rota
