// The names production gives a job besides its user: account, partition
// and QOS (docs/design.md, "Accounts, partitions and QOS"). The engine
// interns them, a number per distinct name, so that a job and a batch hold
// a number and scans over them compare integers.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace rota {

// An interned name: its number in the engine's NameTable, 0 for none.
struct Name {
    std::int32_t id = 0;
    bool operator==(const Name&) const = default;
};

// The longest name, in bytes: room for any batch system's names, and a
// bound on what a script's string comparisons cost.
inline constexpr std::size_t kMaxNameBytes = 255;

// Why `s` cannot be a name (what it names: "account"), "" if it can:
// longer than kMaxNameBytes, or holding a control character, which would
// corrupt the lines of logs and traces that print it.
std::string bad_name(std::string_view what, std::string_view s);

// Whether `s` can be a name: bad_name(what, s) is "" exactly when this is
// true. Every submission checks its three names; the message is built only
// for one that fails.
inline bool good_name(std::string_view s) {
    if (s.size() > kMaxNameBytes) return false;
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == 0x7f) return false;
    }
    return true;
}

// Append-only: a name keeps its number and its characters (c_str) for the
// table's life, which the C ABI promises for rota_job_info's strings.
class NameTable {
  public:
    NameTable();
    NameTable(const NameTable&) = delete;
    NameTable& operator=(const NameTable&) = delete;

    // The name's number, a new one for a name not seen before. Most jobs
    // give no name or the one the job before gave: both are answered
    // without a lookup.
    Name intern(std::string_view s) {
        if (s.empty()) return {};
        if (s == last_) return {last_id_};
        return intern_new(s);
    }
    const std::string& operator[](Name n) const { return names_[static_cast<std::size_t>(n.id)]; }
    const char* c_str(Name n) const { return (*this)[n].c_str(); }
    // Names numbered 0 .. size() - 1, 0 being "".
    std::int32_t size() const { return static_cast<std::int32_t>(names_.size()); }
    // Unique to this table in the process (from 1): what a cache of its
    // names keys on, where an address could be reused by the next table.
    std::uint64_t serial() const { return serial_; }

  private:
    std::uint64_t serial_;
    std::deque<std::string> names_;  // a deque never moves its elements: c_str() stays valid
    std::unordered_map<std::string_view, std::int32_t> ids_;  // views into names_
    std::string_view last_;  // the name interned last (a view into names_), and its number
    std::int32_t last_id_ = 0;

    Name intern_new(std::string_view s);
};

}  // namespace rota
