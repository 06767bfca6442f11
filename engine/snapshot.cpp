// Snapshots: the engine's state as text, and the engine rebuilt from it
// (docs/snapshot.md has the format, record by record).
//
// Only what decides future actions is written: the clock, every job the
// engine holds with its slot, the queue as it stands (tombstones included,
// so that positions the incremental walk remembers stay valid), the
// reservations where they are, node states, usage accounts, counters and
// the circuit breaker. The profiles, the job index and the expiry heap are
// derived and rebuilt. Slots are kept because the matrix records them and
// the order of a slab scan (jobs_on_node) follows them.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "error.h"
#include "scheduler.h"

namespace rota {

namespace {

constexpr const char* kMagic = "rota-snapshot";
constexpr int kFormat = 1;

std::uint64_t fnv1a(const char* p, std::size_t n) {
    std::uint64_t h = 1469598103934665603ull;
    for (std::size_t i = 0; i < n; ++i) {
        h ^= static_cast<unsigned char>(p[i]);
        h *= 1099511628211ull;
    }
    return h;
}

// Doubles in hexadecimal: read back bit for bit.
std::string hex(double v) {
    char b[64];
    std::snprintf(b, sizeof b, "%a", v);
    return b;
}

[[noreturn]] void bad(const std::string& what) {
    throw Error(Errc::invalid, "snapshot: " + what);
}

// Names (of pools, clusters) as one field: bytes other than letters,
// digits, '_', '.' and '-' as %XX, the empty name as a lone '%'.
std::string escaped(const std::string& name) {
    if (name.empty()) return "%";
    std::string o;
    for (unsigned char c : name) {
        if (std::isalnum(c) || c == '_' || c == '.' || c == '-') {
            o += static_cast<char>(c);
        } else {
            char b[4];
            std::snprintf(b, sizeof b, "%%%02X", c);
            o += b;
        }
    }
    return o;
}

// A job's name (account, partition, QOS) as one field: "-" for none, else
// its bytes in hex, so that spaces and any other byte survive the split.
std::string name_field(const std::string& s) {
    if (s.empty()) return "-";
    static const char* digits = "0123456789abcdef";
    std::string o;
    for (unsigned char c : s) {
        o += digits[c >> 4];
        o += digits[c & 15];
    }
    return o;
}

// The bounds of a time field: times the engine computes with (start plus
// window, now minus submit) must not overflow, so a snapshot's times stay
// in the axis a live engine uses (submits refuse estimates past a quarter
// of it). "No time" and "never" are the two ends of int64.
constexpr Time kTimeBound = kTimeAxisEnd;

// One record: its keyword, then fields separated by one space. Every field
// must read back exactly as the writer writes it (no sign, no leading zero,
// no decimal double): a snapshot that is accepted is then exactly the engine
// it describes, and one written by another program is refused, not guessed.
struct Record {
    std::istringstream in;
    std::string line;
    explicit Record(std::string l) : in(l), line(std::move(l)) {
        for (std::size_t i = 0; i < line.size(); ++i) {
            const auto c = static_cast<unsigned char>(line[i]);
            if (c < 0x21 && !(c == ' ' && i > 0 && i + 1 < line.size() && line[i - 1] != ' '))
                bad(c == ' ' ? "fields not separated by exactly one space"
                             : "byte " + std::to_string(c) + " at column " + std::to_string(i + 1) +
                                   " (not ASCII text)");
            if (c > 0x7e)
                bad("byte " + std::to_string(c) + " at column " + std::to_string(i + 1) +
                    " (not ASCII text)");
        }
    }
    std::string word() {
        std::string t;
        if (!(in >> t)) bad("record '" + line.substr(0, 40) + "' is short");
        return t;
    }
    std::int64_t i64() {
        const std::string t = word();
        char* end = nullptr;
        errno = 0;
        const long long v = std::strtoll(t.c_str(), &end, 10);
        if (*end || errno || std::to_string(v) != t)
            bad("'" + t.substr(0, 40) + "' is not an integer");
        return v;
    }
    // An integer in [lo, hi]: fields narrower than int64 are checked before
    // they are narrowed, so that 2^32 + 2 is not read as 2.
    std::int64_t in_range(const char* what, std::int64_t lo, std::int64_t hi) {
        const std::int64_t v = i64();
        if (v < lo || v > hi)
            bad(std::string(what) + " " + std::to_string(v) + " is outside " + std::to_string(lo) +
                ".." + std::to_string(hi));
        return v;
    }
    std::int32_t i32(const char* what, std::int64_t lo = INT32_MIN, std::int64_t hi = INT32_MAX) {
        return static_cast<std::int32_t>(in_range(what, lo, hi));
    }
    // A time: none, never, or within the engine's time axis.
    Time time(const char* what) {
        const std::int64_t v = i64();
        if (v != kNoTime && v != kForever && (v < -kTimeBound || v > kTimeBound))
            bad(std::string(what) + " " + std::to_string(v) + " is outside the time axis");
        return v;
    }
    std::uint64_t u64() {
        const std::string t = word();
        char* end = nullptr;
        errno = 0;
        const unsigned long long v = std::strtoull(t.c_str(), &end, 10);
        if (*end || errno || t[0] == '-' || std::to_string(v) != t)
            bad("'" + t.substr(0, 40) + "' is not a count");
        return v;
    }
    bool flag(const char* what) { return in_range(what, 0, 1) != 0; }
    // A double as the writer writes it (%a); finite: no NaN or infinity is
    // ever written, and one would break the orders that sort by it.
    double f64() {
        const std::string t = word();
        char* end = nullptr;
        const double v = std::strtod(t.c_str(), &end);
        if (*end || !std::isfinite(v) || hex(v) != t)
            bad("'" + t.substr(0, 40) + "' is not a finite hexadecimal number");
        return v;
    }
    bool more() {
        in >> std::ws;
        return in.peek() != std::char_traits<char>::eof();
    }
    std::string name() {
        const std::string t = word();
        if (t == "-") return {};
        if (t.size() % 2 || t.size() > 2 * kMaxNameBytes)
            bad("'" + t.substr(0, 40) + "' is not a name");
        std::string o;
        for (std::size_t i = 0; i < t.size(); i += 2) {
            auto nib = [&](char c) {
                if (c >= '0' && c <= '9') return c - '0';
                if (c >= 'a' && c <= 'f') return c - 'a' + 10;
                bad("'" + t.substr(0, 40) + "' is not a name");
            };
            o += static_cast<char>(nib(t[i]) * 16 + nib(t[i + 1]));
        }
        return o;
    }
    void expect(const char* w) {
        const std::string t = word();
        if (t != w) bad("'" + t.substr(0, 40) + "' where '" + w + "' belongs");
    }
    std::size_t count(std::size_t most) {
        const std::uint64_t n = u64();
        if (n > most)
            bad("a count of " + std::to_string(n) + " is more than " + std::to_string(most));
        return static_cast<std::size_t>(n);
    }
    void done() {
        std::string t;
        if (in >> t) bad("extra field '" + t.substr(0, 40) + "'");
    }
};

// Node runs (of a job, of the class reservation's set) inside a machine of
// `procs` nodes, no node twice.
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

const char* state_word(JobState s) {
    return job_state_name(s);
}

JobState state_of(const std::string& w) {
    for (JobState s : {JobState::pending, JobState::held, JobState::queued, JobState::running,
                       JobState::suspended})
        if (w == job_state_name(s)) return s;
    bad("job state '" + w + "' cannot be in a snapshot");
}

}  // namespace

void UsageBook::save(std::string& out) const {
    auto line = [&](const char* kw, const std::string& who, const Account& a) {
        // Appended piece by piece: GCC 12 warns (-Wrestrict, wrongly) on
        // `const char* + std::string` at -O3.
        out += kw;
        out += ' ';
        out += who;
        out += ' ';
        out += hex(a.settled);
        out += ' ';
        out += std::to_string(a.at);
        out += ' ';
        out += std::to_string(a.procs);
        out += ' ';
        out += std::to_string(a.jobs);
        out += '\n';
    };
    line("usage-total", std::to_string(version_), total_);
    for (std::size_t i = 0; i < ids_.size(); ++i)
        line("usage", std::to_string(ids_[i]), accounts_[i]);
}

void UsageBook::load_line(const std::string& text) {
    Record r(text);
    const std::string kw = r.word();
    Account* a;
    if (kw == "usage-total") {
        if (!ids_.empty()) bad("usage-total after a user's usage record");
        version_ = r.u64();
        a = &total_;
    } else {
        if (kw != "usage") bad("'" + kw.substr(0, 40) + "' where 'usage' belongs");
        const auto user = r.i32("user");
        if (find(user)) bad("user " + std::to_string(user) + " has two usage records");
        a = &account(user);
    }
    a->settled = r.f64();
    a->at = r.in_range("settled at", 0, kTimeBound);
    // Checked against the running jobs once they are read (restore).
    a->procs = r.i32("processors");
    a->jobs = r.i32("jobs");
    r.done();
}

std::string Scheduler::snapshot() const {
    if (action_head_ < actions_.size())
        throw Error(Errc::state, std::to_string(actions_.size() - action_head_) +
                                     " action(s) not yet taken: pull the actions first "
                                     "(rota_next_action until ROTA_DONE)");
    std::string o;
    o.reserve(256 + jobs_.size() * 160);
    auto num = [&](auto v) {
        o += ' ';
        o += std::to_string(v);
    };
    o += std::string(kMagic) + " " + std::to_string(kFormat) + "\n";
    o += "machine";
    num(cfg_.procs);
    num(cfg_.rows);
    num(cfg_.backfill ? 1 : 0);
    num(cfg_.reservation_depth);
    num(cfg_.pools.size());
    for (const auto& p : cfg_.pools) {
        o += ' ';
        o += escaped(p.name);
        num(p.capacity);
    }
    num(cfg_.clusters.size());
    for (const auto& c : cfg_.clusters) {
        o += ' ';
        o += escaped(c.name);
        num(c.nodes);
    }
    num(cfg_.classes.enabled ? cfg_.classes.base.classes.size() : 0);
    num(cfg_.malleable.enabled ? 1 : 0);
    if (cfg_.packing == Packing::buddy) o += " buddy";  // absent: first fit (format 1 as before)
    o += "\nclock";
    num(now_);
    num(next_seq_);
    o += "\nwalk";
    num(held_until_);
    num(next_rekey_);
    num(rescan_ ? 1 : 0);
    num(scanned_);
    num(head_ == kNoSlot ? std::int64_t{-1} : std::int64_t{head_});
    num(next_reservation_);
    num(dirty_ ? 1 : 0);
    num(gain_epoch_);
    o += "\nslices";
    num(active_row_);
    num(slice_end_);
    num(budget_slice_);
    num(migrated_in_slice_);
    o += "\nrowgain";
    num(row_gain_.size());
    for (auto g : row_gain_) num(g);
    o += "\n";
    for (int h = 0; h < kHookCount; ++h) {
        const HookStats& st = counters_.hooks[static_cast<std::size_t>(h)];
        o += std::string("hook ") + hook_name(static_cast<Hook>(h));
        num(failing_[static_cast<std::size_t>(h)]);
        num(quarantines_[static_cast<std::size_t>(h)]);
        num(quarantine_end_[static_cast<std::size_t>(h)]);
        num(logged_failures_[static_cast<std::size_t>(h)]);
        num(st.calls);
        num(st.failures);
        num(st.nanoseconds);
        num(st.skipped);
        num(st.quarantined ? 1 : 0);
        o += "\n";
    }
    const Counters& c = counters_;
    const std::uint64_t cs[] = {
        c.passes,     c.submitted,        c.started,           c.backfilled,
        c.finished,   c.killed,           c.rejected,          c.cancelled,
        c.migrations, c.migrated_tasks,   c.window_extensions, c.requeued,
        c.adopted,    c.harvest_attempts, c.harvests,          c.grows,
        c.shrinks,    c.preemptions,      c.swap_ins,          c.class_reservations,
        c.rekeys,     c.resorts,          c.reservations_moved};
    o += "counters";
    num(std::size(cs));
    for (auto v : cs) num(v);
    o += "\n";
    usage_.save(o);
    o += "nodes";
    num(node_state_.size());
    if (!node_state_.empty()) {
        o += ' ';
        for (NodeState s : node_state_)
            o += s == NodeState::up ? 'u' : s == NodeState::draining ? 'd' : 'o';
    }
    o += "\nslots";
    num(jobs_.size());
    o += "\nfree";
    num(free_slots_.size());
    for (Slot s : free_slots_) num(s);
    o += "\n";
    std::vector<char> dead(jobs_.size(), 0);
    for (Slot s : free_slots_) dead[s] = 1;
    for (Slot s = 0; s < jobs_.size(); ++s) {
        if (dead[s]) continue;
        const Job& j = jobs_[s];
        const JobSpec& sp = j.spec;
        o += "job";
        num(s);
        num(sp.id);
        o += ' ';
        o += state_word(j.state);
        num(sp.estimate);
        num(sp.procs);
        num(sp.user);
        num(sp.priority);
        num(sp.submitted);
        num(sp.min_procs);
        num(sp.adapt_bytes);
        num(sp.job_class);
        num(j.submit);
        num(j.start);
        num(j.reserved_start);
        num(j.reserved_row);
        num(j.seq);
        o += " " + hex(j.order_key);
        num(j.jumps);
        num(j.window);
        num(j.settled);
        num(j.cls);
        num(j.wait_from);
        o += " pools";
        num(sp.pools.size());
        for (auto v : sp.pools) num(v);
        o += " components";
        num(sp.components.size());
        for (auto v : sp.components) num(v);
        o += " clusters";
        num(j.clusters.size());
        for (auto v : j.clusters) num(v);
        o += " names ";
        o += name_field(sp.account) + ' ' + name_field(sp.partition) + ' ' + name_field(sp.qos);
        o += " runs";
        const bool runs = j.state == JobState::running;
        num(runs ? j.alloc.runs.size() : 0);
        if (runs)
            for (const NodeRun& r : j.alloc.runs) {
                num(r.first);
                num(r.count);
            }
        // Its home row and the rows it holds ([Zhang00] §4: a job can be
        // replicated in every row its columns are free).
        o += " rows";
        num(runs ? j.alloc.home_row : -1);
        num(runs ? j.alloc.row_mask : 0);
        // [Weissman03] (malleable) and [Feitelson97] (classes) bookkeeping.
        o += " progress " + hex(j.work_left);
        num(j.resized);
        num(j.paused_until);
        num(j.harvests);
        num(j.waited ? 1 : 0);
        num(runs ? j.alloc.procs : 0);
        o += " class";
        num(j.used);
        num(j.exec_from);
        num(j.dnd_end);
        num(j.swapping_until);
        num(j.preemptions);
        num(j.swapped ? 1 : 0);
        num(j.counted_large ? 1 : 0);
        o += "\n";
    }
    o += "pending";
    num(pending_.size());
    for (Slot s : pending_) num(s);
    o += "\nheld";
    num(held_.size());
    for (Slot s : held_) num(s);
    o += "\nqueue";
    num(queue_.span());
    for (std::size_t i = 0; i < queue_.span(); ++i) {
        if (queue_[i].live())
            num(queue_[i].slot);
        else
            o += " -";
    }
    // Running jobs in start order, and those executing in the active row:
    // the order in which the matrix phases visit them.
    o += "\nrunning";
    num(running_.size());
    for (Slot s : running_) num(s);
    o += "\nexecuting";
    num(executing_.size());
    for (Slot s : executing_) num(s);
    o += "\nunannounced";
    num(unannounced_.size());
    for (Slot s : unannounced_) num(s);
    // The iScheduler: processors freed since the last pass.
    o += "\nmalleable";
    num(freed_);
    // Classes: pass 1's reservation and its processor set, when the passes
    // must run again, and the nodes whose last job is still writing its
    // state out.
    o += "\nclasses";
    num(class_reserved_ == kNoSlot ? std::int64_t{-1} : std::int64_t{class_reserved_});
    num(class_set_.size());
    for (const NodeRun& r : class_set_) {
        num(r.first);
        num(r.count);
    }
    num(classes_wakeup_);
    num(classes_dirty_ ? 1 : 0);
    std::size_t busy = 0;
    for (Time t : node_free_at_) busy += t > now_;
    num(busy);
    for (std::size_t n = 0; n < node_free_at_.size(); ++n)
        if (node_free_at_[n] > now_) {
            num(n);
            num(node_free_at_[n]);
        }
    o += "\n";
    char end[64];
    std::snprintf(end, sizeof end, "end %016" PRIx64 "\n", fnv1a(o.data(), o.size()));
    o += end;
    return o;
}

void Scheduler::restore(const std::string& text) {
    if (now_ != 0 || !jobs_.empty() || counters_.passes != 0)
        throw Error(Errc::state, "restore needs a Scheduler that has seen no event");
    // The end record first: a truncated or altered snapshot is refused
    // before any of it is believed.
    {
        const std::size_t m = std::strlen(kMagic);
        if (text.compare(0, m, kMagic) != 0)
            bad("it does not begin with '" + std::string(kMagic) + "' (not a rota snapshot)");
        Record head(text.substr(0, text.find('\n')));
        if (head.word() != kMagic)
            bad("it does not begin with '" + std::string(kMagic) + "' (not a rota snapshot)");
        const std::int64_t v = head.i64();
        head.done();
        if (v != kFormat)
            bad("format version " + std::to_string(v) + "; this library reads version " +
                std::to_string(kFormat) + (v > kFormat ? " (written by a newer rota)" : ""));
        if (text.empty() || text.back() != '\n') bad("truncated (no end record)");
        const std::size_t at = text.rfind("\nend ", text.size() - 1);
        if (at == std::string::npos) bad("truncated (no end record)");
        const std::string want = text.substr(at + 5, text.size() - at - 6);
        char got[32];
        std::snprintf(got, sizeof got, "%016" PRIx64, fnv1a(text.data(), at + 1));
        if (want != got)
            bad("checksum mismatch (" + want + " recorded, " + got +
                " computed): the snapshot was altered or truncated");
    }
    std::istringstream lines(text);
    std::string line;
    // Where the reader is, for the message of any error.
    std::size_t lineno = 1;
    std::string record = kMagic;
    auto next = [&](const char* kw) {
        record = kw;
        ++lineno;
        if (!std::getline(lines, line))
            bad(std::string("truncated before the '") + kw + "' record");
        Record r(line);
        r.expect(kw);
        return r;
    };
    std::getline(lines, line);  // the magic line, checked above
    try {
        {
            Record r = next("machine");
            auto mismatch = [&](const std::string& what, const std::string& snap,
                                const std::string& conf) {
                throw Error(Errc::config, "snapshot: its " + what + " is " + snap +
                                              ", the configuration's " + conf +
                                              ": a snapshot restores only onto the same machine "
                                              "and mode");
            };
            const auto procs = r.i64();
            if (procs != cfg_.procs)
                mismatch("node count", std::to_string(procs), std::to_string(cfg_.procs));
            const auto rows = r.i64();
            if (rows != cfg_.rows)
                mismatch("rows", std::to_string(rows), std::to_string(cfg_.rows));
            const auto backfill = r.flag("backfill");
            if ((backfill != 0) != cfg_.backfill)
                mismatch("backfill", backfill ? "on" : "off", cfg_.backfill ? "on" : "off");
            const auto depth = r.i64();
            if (depth != cfg_.reservation_depth)
                mismatch("reservation depth (mode)", std::to_string(depth),
                         std::to_string(cfg_.reservation_depth));
            // The pools, then the clusters: name=size each, as configured.
            const auto same_list = [&](const char* what, std::size_t most, const auto& items,
                                       auto size_of) {
                std::string text, conf;
                for (std::size_t i = 0, n = r.count(most); i < n; ++i) {
                    text += ' ';
                    text += r.word();
                    text += '=';
                    text += std::to_string(r.i64());
                }
                for (const auto& x : items)
                    conf.append(" ")
                        .append(escaped(x.name))
                        .append("=")
                        .append(std::to_string(size_of(x)));
                if (text != conf)
                    mismatch(what, text.empty() ? "none" : "{" + text + " }",
                             conf.empty() ? "none" : "{" + conf + " }");
            };
            same_list("pools", 1024, cfg_.pools, [](const auto& p) { return p.capacity; });
            same_list("clusters", std::size_t{1} << 20, cfg_.clusters,
                      [](const auto& c) { return c.nodes; });
            const auto classes = r.i64();
            const auto have = cfg_.classes.enabled
                                  ? static_cast<std::int64_t>(cfg_.classes.base.classes.size())
                                  : 0;
            if (classes != have)
                mismatch("job classes", classes ? std::to_string(classes) : "none",
                         have ? std::to_string(have) : "none");
            const auto malleable = r.flag("malleable");
            if ((malleable != 0) != cfg_.malleable.enabled)
                mismatch("[malleable]", malleable ? "on" : "off",
                         cfg_.malleable.enabled ? "on" : "off");
            const std::string packing = r.more() ? r.word() : "first_fit";
            if (packing != "first_fit" && packing != "buddy")
                bad("unknown packing '" + packing + "'");
            const std::string have_packing = cfg_.packing == Packing::buddy ? "buddy" : "first_fit";
            if (packing != have_packing) mismatch("gang.packing", packing, have_packing);
            r.done();
        }
        {
            Record r = next("clock");
            now_ = r.in_range("clock", 0, kTimeBound);
            next_seq_ = r.u64();
            r.done();
        }
        std::int64_t head = -1;
        {
            Record r = next("walk");
            held_until_ = r.time("held_until");
            next_rekey_ = r.time("next_rekey");
            rescan_ = r.flag("rescan");
            scanned_ = r.count(std::size_t{1} << 40);
            head = r.in_range("head", -1, INT32_MAX);
            next_reservation_ = r.time("next_reservation");
            dirty_ = r.flag("dirty");
            gain_epoch_ = r.u64();
            r.done();
        }
        {
            Record r = next("slices");
            active_row_ = r.i32("active row", 0, cfg_.rows - 1);
            slice_end_ = r.time("slice end");
            budget_slice_ = r.u64();
            migrated_in_slice_ = r.in_range("migrated", 0, INT32_MAX);
            r.done();
        }
        {
            Record r = next("rowgain");
            const std::size_t n = r.count(1024);
            if (n != row_gain_.size()) bad("rowgain has " + std::to_string(n) + " rows");
            for (auto& g : row_gain_) g = r.u64();
            r.done();
        }
        for (int h = 0; h < kHookCount; ++h) {
            Record r = next("hook");
            const auto k = static_cast<std::size_t>(h);
            const std::string name = r.word();
            if (name != hook_name(static_cast<Hook>(h)))
                bad("hook record '" + name + "' where '" + hook_name(static_cast<Hook>(h)) +
                    "' belongs");
            HookStats& st = counters_.hooks[k];
            failing_[k] = r.i32("failures in a row", 0);
            quarantines_[k] = r.i32("quarantines", 0);
            quarantine_end_[k] = r.time("quarantine end");
            logged_failures_[k] = static_cast<std::uint32_t>(r.in_range("logged", 0, UINT32_MAX));
            st.calls = r.u64();
            st.failures = r.u64();
            st.nanoseconds = r.u64();
            st.skipped = r.u64();
            st.quarantined = r.flag("quarantined");
            r.done();
        }
        {
            Record r = next("counters");
            Counters& c = counters_;
            std::uint64_t* cs[] = {
                &c.passes,     &c.submitted,        &c.started,           &c.backfilled,
                &c.finished,   &c.killed,           &c.rejected,          &c.cancelled,
                &c.migrations, &c.migrated_tasks,   &c.window_extensions, &c.requeued,
                &c.adopted,    &c.harvest_attempts, &c.harvests,          &c.grows,
                &c.shrinks,    &c.preemptions,      &c.swap_ins,          &c.class_reservations,
                &c.rekeys,     &c.resorts,          &c.reservations_moved};
            // 22 counters before reservations_moved was added: it reads as 0.
            const std::size_t n = r.count(1024);
            if (n != std::size(cs) && n != std::size(cs) - 1)
                bad("the counters record has the wrong length");
            c.reservations_moved = 0;
            for (std::size_t i = 0; i < n; ++i) *cs[i] = r.u64();
            r.done();
        }
        // Usage records, then the node states.
        for (record = "usage";;) {
            if (!std::getline(lines, line)) bad("truncated in the usage records");
            ++lineno;
            if (line.compare(0, 5, "usage") != 0) break;
            usage_.load_line(line);
        }
        record = "nodes";
        {
            Record r(line);
            r.expect("nodes");
            const std::size_t n = r.count(static_cast<std::size_t>(cfg_.procs));
            if (n != 0 && n != static_cast<std::size_t>(cfg_.procs))
                bad("nodes has the wrong length");
            if (n) {
                const std::string st = r.word();
                if (st.size() != n) bad("nodes has the wrong length");
                node_state_.resize(n);
                for (std::size_t i = 0; i < n; ++i) {
                    if (st[i] != 'u' && st[i] != 'd' && st[i] != 'o')
                        bad("node state '" + st.substr(i, 1) + "'");
                    node_state_[i] = st[i] == 'u'   ? NodeState::up
                                     : st[i] == 'd' ? NodeState::draining
                                                    : NodeState::out;
                }
            }
            r.done();
        }
        std::size_t slots = 0;
        {
            Record r = next("slots");
            // Each slot takes at least two bytes of the text (a free entry or a
            // job record): a larger count is an edit, not a table to allocate.
            slots = r.count(std::min(std::size_t{1} << 31, text.size() / 2));
            r.done();
        }
        auto slot = [&](Record& r) {
            const std::uint64_t s = r.u64();
            if (s >= slots) bad("slot " + std::to_string(s) + " is outside the slab");
            return static_cast<Slot>(s);
        };
        jobs_.assign(slots, Job{});
        std::vector<char> used(slots, 0);
        {
            Record r = next("free");
            free_slots_.resize(r.count(slots));
            for (Slot& s : free_slots_) {
                s = slot(r);
                if (used[s]) bad("slot " + std::to_string(s) + " is listed twice");
                used[s] = 3;  // free: no job, in no list
            }
            r.done();
        }
        Matrix& m = machine_.matrix();
        std::unordered_set<std::uint64_t> seqs;  // arrival order: no two jobs tie
        for (std::size_t live = slots - free_slots_.size(); live > 0; --live) {
            Record r = next("job");
            const Slot s = slot(r);
            if (used[s]++) bad("slot " + std::to_string(s) + " is listed twice");
            Job& j = jobs_[s];
            JobSpec& sp = j.spec;
            sp.id = r.in_range("id", 0, INT64_MAX);
            record = "job " + std::to_string(sp.id);
            j.state = state_of(r.word());
            sp.estimate = r.in_range("estimate", 1, kTimeBound / cfg_.rows);
            sp.procs = r.i32("procs", 1, cfg_.procs);
            sp.user = r.i32("user");
            sp.priority = r.i32("priority");
            sp.submitted = r.in_range("submitted", 0, now_);
            sp.min_procs = r.i32("min_procs", 0, sp.procs);
            sp.adapt_bytes = r.in_range("adapt_bytes", 0, INT64_MAX);
            sp.job_class =
                cfg_.classes.enabled
                    ? r.i32("job_class", -1,
                            static_cast<std::int64_t>(cfg_.classes.base.classes.size()) - 1)
                    : r.i32("job_class", -1, -1);
            j.submit = r.in_range("submit", 0, now_);
            j.start = r.time("start");
            j.reserved_start = r.time("reserved_start");
            j.reserved_row = static_cast<std::int16_t>(r.i32("reserved_row", -1, cfg_.rows - 1));
            j.seq = r.u64();
            j.order_key = r.f64();
            j.jumps = r.i32("jumps", 0);
            j.window = r.in_range("window", 1, kTimeBound);
            j.settled = r.u64();
            j.cls = static_cast<std::int16_t>(r.i32("class", 0, INT16_MAX));
            j.wait_from = r.time("wait_from");
            r.expect("pools");
            sp.pools.resize(r.count(cfg_.pools.size()));
            for (auto& v : sp.pools) v = r.in_range("pool amount", 0, INT64_MAX);
            r.expect("components");
            // As a submit leaves them: one width per cluster the job spans,
            // adding up to procs, and none on a machine without clusters.
            sp.components.resize(r.count(cfg_.clusters.size()));
            std::int64_t widths = 0;
            for (auto& v : sp.components) widths += v = r.i32("component width", 1, sp.procs);
            if (clustered() ? widths != sp.procs : !sp.components.empty())
                bad("its components add up to " + std::to_string(widths) +
                    " nodes, not procs = " + std::to_string(sp.procs));
            r.expect("clusters");
            j.clusters.resize(r.count(cfg_.clusters.size()));
            for (auto& v : j.clusters)
                v = static_cast<std::int16_t>(r.i32("cluster", 0, machine_.clusters() - 1));
            // The profiles read one cluster per component.
            if (!j.clusters.empty() && j.clusters.size() != sp.components.size())
                bad("it is placed on " + std::to_string(j.clusters.size()) + " clusters for " +
                    std::to_string(sp.components.size()) + " components");
            r.expect("names");
            sp.account = r.name();
            sp.partition = r.name();
            sp.qos = r.name();
            for (auto [what, name] :
                 {std::pair{"account", &sp.account}, std::pair{"partition", &sp.partition},
                  std::pair{"qos", &sp.qos}})
                if (const std::string why = bad_name(what, *name); !why.empty())
                    bad("job " + std::to_string(sp.id) + ": " + why);
            j.account = names_.intern(sp.account);
            j.partition = names_.intern(sp.partition);
            j.qos = names_.intern(sp.qos);
            r.expect("runs");
            j.alloc.runs.resize(r.count(static_cast<std::size_t>(cfg_.procs)));
            for (NodeRun& nr : j.alloc.runs) {
                nr.first = r.i32("node", 0, cfg_.procs - 1);
                nr.count = r.i32("run length", 1, cfg_.procs);
            }
            const std::int64_t held = check_runs(j.alloc.runs, cfg_.procs, "its runs");
            r.expect("rows");
            const std::int64_t home = r.in_range("home row", -1, cfg_.rows - 1);
            const std::int64_t mask = r.in_range("row mask", 0, (std::int64_t{1} << cfg_.rows) - 1);
            r.expect("progress");
            j.work_left = r.f64();
            j.resized = r.time("resized");
            j.paused_until = r.time("paused_until");
            j.harvests = r.i32("harvests", 0);
            j.waited = r.flag("waited");
            const std::int64_t alloc_procs = r.in_range("processors", 0, cfg_.procs);
            r.expect("class");
            j.used = r.in_range("used", 0, sp.estimate);
            j.exec_from = r.time("exec_from");
            j.dnd_end = r.time("dnd_end");
            j.swapping_until = r.time("swapping_until");
            j.preemptions = r.i32("preemptions", 0);
            j.swapped = r.flag("swapped");
            j.counted_large = r.flag("large");
            r.done();
            if (!seqs.insert(j.seq).second)
                bad("arrival number " + std::to_string(j.seq) + " twice");
            const std::string who = "job " + std::to_string(sp.id);
            // Under gang scheduling a window grows by a cycle each time the job
            // overruns it (extend_overrun_windows); malleable jobs are retimed as
            // they are resized, and a job of a class holds its place for the
            // rest of its work plus its swap-in. Otherwise it is the estimate.
            const bool window_ok = time_sharing() ? j.window >= sp.estimate * cfg_.rows
                                   : cfg_.malleable.enabled || cfg_.classes.enabled
                                       ? j.window > 0
                                       : j.window == sp.estimate;
            if (!window_ok)
                bad(who + ": window " + std::to_string(j.window) + " does not fit estimate " +
                    std::to_string(sp.estimate) + " on " + std::to_string(cfg_.rows) + " rows");
            if (sp.pools.size() != cfg_.pools.size())
                bad(who + ": " + std::to_string(sp.pools.size()) +
                    " pool amounts; the machine has " + std::to_string(cfg_.pools.size()) +
                    " pools");
            if (j.seq >= next_seq_)
                bad(who + ": arrival number " + std::to_string(j.seq) +
                    " is not below the clock's " + std::to_string(next_seq_));
            if (!(j.work_left >= 0.0 && j.work_left <= 1.0))
                bad(who + ": the share of work left is outside 0..1");
            if (cfg_.classes.enabled &&
                (j.cls < 0 || static_cast<std::size_t>(j.cls) >= cfg_.classes.base.classes.size()))
                bad(who + ": class " + std::to_string(j.cls) +
                    " is not one of the configuration's");
            if (cfg_.malleable.enabled) {
                // As a submit checks: its run on its min, and an adaptation,
                // stay inside the time axis.
                const auto limit = static_cast<double>(kTimeBound / cfg_.rows);
                const double longest =
                    static_cast<double>(sp.estimate) *
                    exec_factor(cfg_.malleable.exec_model, j.min_procs(), sp.procs);
                const double cost = static_cast<double>(cfg_.malleable.adapt_latency) +
                                    cfg_.malleable.adapt_per_byte *
                                        static_cast<double>(sp.adapt_bytes) /
                                        static_cast<double>(j.min_procs());
                if (!(longest <= limit) || !(cost <= limit / 1024))
                    bad(who + ": its run or adaptation on its min of " +
                        std::to_string(j.min_procs()) + " processors passes the time axis");
            }
            if (clustered() && (j.state == JobState::running || j.reserved()) &&
                j.clusters.size() != sp.components.size())
                bad(who + ": " + job_state_name(j.state) +
                    " but its components are on no clusters");
            if (j.state == JobState::suspended && !cfg_.classes.enabled)
                bad(who + ": suspended without [classes]");
            if (index_.find(sp.id) != JobIndex::kNone) bad(who + " is listed twice");
            index_.insert(sp.id, s);
            if (j.state == JobState::running) {
                // A malleable job runs on anything from its min to its ideal;
                // under buddy packing one the engine placed holds its block.
                const bool block = machine_.buddy() && j.alloc.runs.size() == 1 &&
                                   NodePool::is_buddy_block(j.alloc.runs[0], sp.procs, cfg_.procs);
                const bool size_ok =
                    cfg_.malleable.enabled
                        ? held == alloc_procs && held >= j.min_procs() && held <= sp.procs
                        : (held == sp.procs || block) && alloc_procs == held;
                if (!size_ok || j.reserved())
                    bad(who + ": running on " + std::to_string(held) + " nodes for " +
                        std::to_string(sp.procs));
                // A gang-scheduled job may have overrun its window since the
                // last pass; the next pass extends it.
                if (j.start < 0 || j.start > now_ || (!time_sharing() && j.estimated_end() <= now_))
                    bad(who + ": its run does not cover the snapshot's clock");
                if (home < 0 || home >= cfg_.rows || mask <= 0 ||
                    mask >= (std::int64_t{1} << cfg_.rows) || !(mask & (std::int64_t{1} << home)))
                    bad(who + ": its rows (home " + std::to_string(home) + ", mask " +
                        std::to_string(mask) + ") are not rows of the matrix");
                for (std::int32_t row = 0; row < cfg_.rows; ++row) {
                    if (!(mask & (std::int64_t{1} << row))) continue;
                    if (!m.columns_free(row, j.alloc.runs))
                        bad(who + ": a cell it runs on is taken twice");
                    m.place(row, j.alloc.runs, s);
                }
                // Each component's nodes on the cluster it is placed on, and
                // none elsewhere: the clusters' profiles and idle counts read
                // them so.
                if (clustered()) {
                    std::vector<std::int64_t> on(static_cast<std::size_t>(machine_.clusters())),
                        want(on.size());
                    for (const NodeRun& nr : j.alloc.runs)
                        for (std::int32_t node = nr.first, end = nr.first + nr.count; node < end;) {
                            const std::int32_t c = machine_.cluster_of(node);
                            const std::int32_t stop = std::min(
                                end, machine_.cluster_first(c) + machine_.cluster_nodes(c));
                            on[static_cast<std::size_t>(c)] += stop - node;
                            node = stop;
                        }
                    for (std::size_t k = 0; k < j.clusters.size(); ++k)
                        want[static_cast<std::size_t>(j.clusters[k])] += sp.components[k];
                    if (on != want)
                        bad(who +
                            ": its nodes are not on the clusters its components are placed "
                            "on");
                }
                j.alloc.procs = static_cast<std::int32_t>(held);
                j.alloc.home_row = static_cast<std::int16_t>(home);
                j.alloc.row_mask = static_cast<std::uint32_t>(mask);
                // Only the home row's profile holds the window: replicas fill
                // cells that would otherwise be idle ([Zhang00] §4.3).
                if (j.estimated_end() > now_ && keeps_profile()) {
                    Demand d = demand(j);
                    d.window = j.estimated_end() - now_;
                    if (!machine_.fits_at(j.alloc.home_row, d, now_))
                        bad(who +
                            ": its run needs more than the machine has left (processors, "
                            "pools or clusters held by the jobs before it)");
                    machine_.take(j.alloc.home_row, now_, j.estimated_end(), d);
                }
                if (!time_sharing()) expiries_.set({j.estimated_end(), j.seq, s});
                ++running_count_;
                if (cfg_.classes.enabled) {  // loaded: owner of its nodes
                    for (const NodeRun& nr : j.alloc.runs)
                        std::fill_n(owner_.begin() + nr.first, nr.count, s);
                    loaded_procs_ += held;
                    class_loaded_[static_cast<std::size_t>(j.cls)] += held;
                    if (j.counted_large) large_loaded_ += held;
                }
            } else if (held != 0 || home != -1 || mask != 0) {
                bad(who + ": holds nodes but is " + job_state_name(j.state));
            }
            if (j.reserved()) {
                if (j.state != JobState::queued || j.reserved_row < 0 || j.reserved_start < 0 ||
                    j.reserved_start + j.window <= now_)
                    bad(who + ": a reservation it cannot hold");
                // Exactly where it was: compression only ever moves it earlier,
                // and a placement from scratch could differ. Never beyond what
                // the machine has: the passes plan on the profile never going
                // below zero.
                if (!machine_.fits_at(j.reserved_row, demand(j), j.reserved_start))
                    bad(who + ": its reservation at " + std::to_string(j.reserved_start) +
                        " needs more than the machine has left (processors, pools or "
                        "clusters held by the jobs before it)");
                machine_.take(j.reserved_row, j.reserved_start, j.reserved_start + j.window,
                              demand(j));
                count_reservation(j.reserved_row, +1);
            }
        }
        if (!cfg_.classes.enabled) {
            // The accounts count the processors and jobs running now: a restored
            // engine gives them back as its jobs end, and must not go below zero.
            // (Under [classes] they count loaded jobs too, but snapshots of
            // rota 0.2.0 and before did not count loads, only unloads: their
            // accounts are not checked, so that they still restore.)
            std::unordered_map<std::int32_t, std::pair<std::int64_t, std::int64_t>> running;
            for (Slot s = 0; s < slots; ++s)
                if (used[s] == 1 && jobs_[s].state == JobState::running) {
                    auto& [procs, jobs] = running[jobs_[s].spec.user];
                    procs += jobs_[s].alloc.procs;
                    ++jobs;
                }
            for (std::int32_t user : usage_.ids()) {
                const auto it = running.find(user);
                const auto [procs, jobs] =
                    it == running.end() ? std::pair<std::int64_t, std::int64_t>{} : it->second;
                if (usage_.procs(user) != procs || usage_.running(user) != jobs)
                    bad("user " + std::to_string(user) + "'s usage counts " +
                        std::to_string(usage_.running(user)) + " running jobs on " +
                        std::to_string(usage_.procs(user)) + " processors; the job records " +
                        std::to_string(jobs) + " on " + std::to_string(procs));
            }
            for (const auto& entry : running)
                if (!usage_.known(entry.first))
                    bad("user " + std::to_string(entry.first) +
                        " runs jobs but has no usage record");
        }
        bool any_out = false;
        for (std::size_t i = 0; i < node_state_.size(); ++i)
            if (node_state_[i] == NodeState::out) {
                if (!node_idle(static_cast<std::int32_t>(i)))
                    bad("node " + std::to_string(i) + " is out but runs a job");
                machine_.node_out(static_cast<std::int32_t>(i), now_);
                any_out = true;
            }
        // The reservations were placed on the nodes in service: with the
        // ones out taken away, no instant may need more than is left.
        if (any_out && keeps_profile()) {
            bool over = false;
            for (std::int32_t row = 0; row < cfg_.rows; ++row)
                over = over || machine_.profile(row).min_free(now_, Machine::kHorizon) < 0;
            for (std::int32_t c = 0; c < machine_.clusters(); ++c)
                over = over || machine_.cluster_profile(c).min_free(now_, Machine::kHorizon) < 0;
            if (over)
                bad("the reservations need more processors than the nodes in service have "
                    "(nodes out of service counted)");
        }
        auto slots_of = [&](const char* kw, JobState st, std::vector<Slot>& out) {
            Record r = next(kw);
            out.resize(r.count(slots));
            for (Slot& s : out) {
                s = slot(r);
                if (used[s] != 1 || jobs_[s].state != st)
                    bad(std::string(kw) + " lists slot " + std::to_string(s) + ", not a " +
                        job_state_name(st) + " job");
                used[s] = 2;
            }
            r.done();
        };
        slots_of("pending", JobState::pending, pending_);
        slots_of("held", JobState::held, held_);
        {
            Record r = next("queue");
            const std::size_t n = r.count(slots * 8 + 4096);
            for (std::size_t i = 0; i < n; ++i) {
                const std::string t = r.word();
                if (t == "-") {
                    // A tombstone: positions after it stay where the walk left them.
                    queue_.push_back({0, 1, kForever});
                    queue_.kill(queue_.span() - 1);
                    continue;
                }
                Record one(t);
                const Slot s = slot(one);
                if (used[s] != 1 || jobs_[s].state != JobState::queued)
                    bad("queue lists slot " + t + ", not a queued job");
                used[s] = 2;
                queue_.push_back({s, jobs_[s].spec.procs, jobs_[s].window});
            }
            r.done();
        }
        // Lists of running jobs (each job at most once per list; a job may be
        // in several lists).
        auto running_list = [&](const char* kw, std::vector<Slot>& out) {
            Record r = next(kw);
            out.resize(r.count(slots));
            for (Slot& s : out) {
                s = slot(r);
                if (used[s] != 1 || jobs_[s].state != JobState::running)
                    bad(std::string(kw) + " lists slot " + std::to_string(s) +
                        ", not a running job once");
                used[s] = 4;
            }
            r.done();
            for (Slot s : out) used[s] = 1;
        };
        running_list("running", running_);
        // The matrix phases keep every running job in this list; with one row
        // (and no [classes] or [malleable]) it is not kept.
        const bool kept = time_sharing() || cfg_.malleable.enabled || cfg_.classes.enabled;
        if (!kept && !running_.empty()) bad("running lists jobs in a mode that keeps no list");
        if (kept && running_.size() != running_count_)
            bad("running lists " + std::to_string(running_.size()) + " of " +
                std::to_string(running_count_) + " running jobs");
        running_list("executing", executing_);
        running_list("unannounced", unannounced_);
        {
            Record r = next("malleable");
            freed_ = r.in_range("freed processors", 0, INT32_MAX);
            r.done();
        }
        {
            Record r = next("classes");
            const std::int64_t reserved = r.in_range("reserved slot", -1, INT32_MAX);
            class_set_.resize(r.count(static_cast<std::size_t>(cfg_.procs)));
            for (NodeRun& nr : class_set_) {
                nr.first = r.i32("node", 0, cfg_.procs - 1);
                nr.count = r.i32("run length", 1, cfg_.procs);
            }
            const std::int64_t set_procs =
                check_runs(class_set_, cfg_.procs, "the class reservation's set");
            classes_wakeup_ = r.time("wakeup");
            classes_dirty_ = r.flag("dirty");
            const std::size_t busy = r.count(static_cast<std::size_t>(cfg_.procs));
            if (busy && !cfg_.classes.enabled) bad("nodes swapping without [classes]");
            // As written: in node order, each still writing after now.
            for (std::int64_t k = 0, last = -1; k < static_cast<std::int64_t>(busy); ++k) {
                const std::int64_t n = r.in_range("swapping node", last + 1, cfg_.procs - 1);
                const Time until = r.in_range("swapping until", now_ + 1, kTimeBound);
                node_free_at_[static_cast<std::size_t>(n)] = until;
                node_free_max_ = std::max(node_free_max_, until);
                last = n;
            }
            r.done();
            if (reserved >= 0) {
                const auto u = static_cast<std::size_t>(reserved);
                if (!cfg_.classes.enabled || u >= slots || used[u] == 0 ||
                    jobs_[u].state != JobState::queued || set_procs != jobs_[u].spec.procs)
                    bad("the class reservation is not a queued job's, on its processors");
                class_reserved_ = static_cast<Slot>(u);
                set_nodes_ = NodePool(cfg_.procs);
                set_nodes_.take(class_set_);
            } else if (!class_set_.empty()) {
                bad("a class reservation's set without its job");
            }
        }
        if (cfg_.classes.enabled) {
            // Derived from the jobs, or rebuilt when the passes next need them.
            for (Slot s = 0; s < slots; ++s)
                if (used[s] != 0 && used[s] != 3 && jobs_[s].swapped &&
                    jobs_[s].state != JobState::running)
                    swapped_procs_ += jobs_[s].spec.procs;
            class_index_stale_ = true;
            class_pos_stale_ = true;
            victims_dirty_ = true;
            set_owners_known_ = false;
            dnd_marks_stale_ = true;
        }
        for (Slot s = 0; s < slots; ++s)
            if (used[s] == 1 && jobs_[s].state != JobState::running &&
                jobs_[s].state != JobState::suspended)
                bad("job " + std::to_string(jobs_[s].spec.id) + " is " +
                    job_state_name(jobs_[s].state) + " but in no list");
        if (head >= 0 && (static_cast<std::size_t>(head) >= slots || used[head] == 0 ||
                          jobs_[static_cast<std::size_t>(head)].state != JobState::queued))
            bad("the walk's head is not a queued job");
        head_ = head < 0 ? kNoSlot : static_cast<Slot>(head);
        if (scanned_ > queue_.span()) bad("the walk's position is past the queue");
        record = "end";
        ++lineno;
        if (!std::getline(lines, line) || line.compare(0, 4, "end ") != 0)
            bad("a record where the end record belongs: '" + line.substr(0, 40) + "'");
    } catch (const Error& x) {
        std::string why = x.what();
        if (why.compare(0, 10, "snapshot: ") == 0) why.erase(0, 10);
        throw Error(x.code(), "snapshot line " + std::to_string(lineno) + " ('" + record +
                                  "' record): " + why);
    }
    machine_.advance(now_);
}

}  // namespace rota
