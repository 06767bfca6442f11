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
#include <cctype>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <sstream>

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

// One record: its keyword, then whitespace-separated fields.
struct Record {
    std::istringstream in;
    std::string line;
    explicit Record(std::string l) : in(l), line(std::move(l)) {}
    std::int64_t i64() {
        std::string t;
        if (!(in >> t)) bad("record '" + line.substr(0, 40) + "' is short");
        char* end = nullptr;
        errno = 0;
        const long long v = std::strtoll(t.c_str(), &end, 10);
        if (*end || errno) bad("'" + t + "' is not an integer in '" + line.substr(0, 40) + "'");
        return v;
    }
    std::uint64_t u64() {
        std::string t;
        if (!(in >> t)) bad("record '" + line.substr(0, 40) + "' is short");
        char* end = nullptr;
        errno = 0;
        const unsigned long long v = std::strtoull(t.c_str(), &end, 10);
        if (*end || errno || t[0] == '-') bad("'" + t + "' is not a count");
        return v;
    }
    double f64() {
        std::string t;
        if (!(in >> t)) bad("record '" + line.substr(0, 40) + "' is short");
        char* end = nullptr;
        const double v = std::strtod(t.c_str(), &end);
        if (*end) bad("'" + t + "' is not a number");
        return v;
    }
    bool more() {
        in >> std::ws;
        return in.peek() != std::char_traits<char>::eof();
    }
    std::string word() {
        std::string t;
        if (!(in >> t)) bad("record '" + line.substr(0, 40) + "' is short");
        return t;
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
        if (word() != w) bad("record '" + line.substr(0, 40) + "' lacks '" + w + "'");
    }
    std::size_t count(std::size_t most) {
        const std::uint64_t n = u64();
        if (n > most) bad("a count of " + std::to_string(n) + " is too large");
        return static_cast<std::size_t>(n);
    }
    void done() {
        std::string t;
        if (in >> t) bad("record '" + line.substr(0, 40) + "' has extra field '" + t + "'");
    }
};

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
        version_ = r.u64();
        a = &total_;
    } else {
        const auto user = static_cast<std::int32_t>(r.i64());
        if (find(user)) bad("user " + std::to_string(user) + " has two usage records");
        a = &account(user);
    }
    a->settled = r.f64();
    a->at = r.i64();
    a->procs = static_cast<std::int32_t>(r.i64());
    a->jobs = static_cast<std::int32_t>(r.i64());
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
        o += " " + escaped(p.name);
        num(p.capacity);
    }
    num(cfg_.clusters.size());
    for (const auto& c : cfg_.clusters) {
        o += " " + escaped(c.name);
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
        // Its home row and the rows it holds (seed 000 §4: a job can be
        // replicated in every row its columns are free).
        o += " rows";
        num(runs ? j.alloc.home_row : -1);
        num(runs ? j.alloc.row_mask : 0);
        // Seed 004 (malleable) and seed 003 (classes) bookkeeping.
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
        head.word();
        const std::int64_t v = head.i64();
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
    auto next = [&](const char* kw) {
        if (!std::getline(lines, line))
            bad(std::string("truncated before the '") + kw + "' record");
        Record r(line);
        r.expect(kw);
        return r;
    };
    std::getline(lines, line);  // the magic line, checked above

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
        if (rows != cfg_.rows) mismatch("rows", std::to_string(rows), std::to_string(cfg_.rows));
        const auto backfill = r.i64();
        if ((backfill != 0) != cfg_.backfill)
            mismatch("backfill", backfill ? "on" : "off", cfg_.backfill ? "on" : "off");
        const auto depth = r.i64();
        if (depth != cfg_.reservation_depth)
            mismatch("reservation depth (mode)", std::to_string(depth),
                     std::to_string(cfg_.reservation_depth));
        std::string pools, conf;
        for (std::size_t i = 0, n = r.count(1024); i < n; ++i) {
            pools += " " + r.word();
            pools += "=" + std::to_string(r.i64());
        }
        for (const auto& p : cfg_.pools)
            conf += " " + escaped(p.name) + "=" + std::to_string(p.capacity);
        if (pools != conf)
            mismatch("pools", pools.empty() ? "none" : "{" + pools + " }",
                     conf.empty() ? "none" : "{" + conf + " }");
        std::string clusters;
        conf.clear();
        for (std::size_t i = 0, n = r.count(1 << 20); i < n; ++i) {
            clusters += " " + r.word();
            clusters += "=" + std::to_string(r.i64());
        }
        for (const auto& c : cfg_.clusters)
            conf += " " + escaped(c.name) + "=" + std::to_string(c.nodes);
        if (clusters != conf)
            mismatch("clusters", clusters.empty() ? "none" : "{" + clusters + " }",
                     conf.empty() ? "none" : "{" + conf + " }");
        const auto classes = r.i64();
        const auto have =
            cfg_.classes.enabled ? static_cast<std::int64_t>(cfg_.classes.base.classes.size()) : 0;
        if (classes != have)
            mismatch("job classes", classes ? std::to_string(classes) : "none",
                     have ? std::to_string(have) : "none");
        const auto malleable = r.i64();
        if ((malleable != 0) != cfg_.malleable.enabled)
            mismatch("[malleable]", malleable ? "on" : "off",
                     cfg_.malleable.enabled ? "on" : "off");
        const std::string packing = r.more() ? r.word() : "first_fit";
        if (packing != "first_fit" && packing != "buddy") bad("unknown packing '" + packing + "'");
        const std::string have_packing = cfg_.packing == Packing::buddy ? "buddy" : "first_fit";
        if (packing != have_packing) mismatch("gang.packing", packing, have_packing);
        r.done();
    }
    {
        Record r = next("clock");
        now_ = r.i64();
        next_seq_ = r.u64();
        r.done();
        if (now_ < 0 || now_ > kForever / 4)
            bad("clock " + std::to_string(now_) + " is outside the time axis");
    }
    std::int64_t head = -1;
    {
        Record r = next("walk");
        held_until_ = r.i64();
        next_rekey_ = r.i64();
        rescan_ = r.i64() != 0;
        scanned_ = static_cast<std::size_t>(r.u64());
        head = r.i64();
        next_reservation_ = r.i64();
        dirty_ = r.i64() != 0;
        gain_epoch_ = r.u64();
        r.done();
    }
    {
        Record r = next("slices");
        active_row_ = static_cast<std::int32_t>(r.i64());
        slice_end_ = r.i64();
        budget_slice_ = r.u64();
        migrated_in_slice_ = r.i64();
        r.done();
        if (active_row_ < 0 || active_row_ >= cfg_.rows)
            bad("active row " + std::to_string(active_row_) + " is not a row of the matrix");
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
        failing_[k] = static_cast<std::int32_t>(r.i64());
        quarantines_[k] = static_cast<std::int32_t>(r.i64());
        quarantine_end_[k] = r.i64();
        logged_failures_[k] = static_cast<std::uint32_t>(r.u64());
        st.calls = r.u64();
        st.failures = r.u64();
        st.nanoseconds = r.u64();
        st.skipped = r.u64();
        st.quarantined = r.i64() != 0;
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
    for (;;) {
        if (!std::getline(lines, line)) bad("truncated in the usage records");
        if (line.compare(0, 5, "usage") != 0) break;
        usage_.load_line(line);
    }
    {
        Record r(line);
        r.expect("nodes");
        const std::size_t n = r.count(static_cast<std::size_t>(cfg_.procs));
        if (n != 0 && n != static_cast<std::size_t>(cfg_.procs)) bad("nodes has the wrong length");
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
        slots = r.count(std::size_t{1} << 31);
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
    for (std::size_t live = slots - free_slots_.size(); live > 0; --live) {
        Record r = next("job");
        const Slot s = slot(r);
        if (used[s]++) bad("slot " + std::to_string(s) + " is listed twice");
        Job& j = jobs_[s];
        JobSpec& sp = j.spec;
        sp.id = r.i64();
        j.state = state_of(r.word());
        sp.estimate = r.i64();
        sp.procs = static_cast<std::int32_t>(r.i64());
        sp.user = static_cast<std::int32_t>(r.i64());
        sp.priority = static_cast<std::int32_t>(r.i64());
        sp.submitted = r.i64();
        sp.min_procs = static_cast<std::int32_t>(r.i64());
        sp.adapt_bytes = r.i64();
        sp.job_class = static_cast<std::int32_t>(r.i64());
        j.submit = r.i64();
        j.start = r.i64();
        j.reserved_start = r.i64();
        j.reserved_row = static_cast<std::int16_t>(r.i64());
        j.seq = r.u64();
        j.order_key = r.f64();
        j.jumps = static_cast<std::int32_t>(r.i64());
        j.window = r.i64();
        j.settled = r.u64();
        j.cls = static_cast<std::int16_t>(r.i64());
        j.wait_from = r.i64();
        r.expect("pools");
        sp.pools.resize(r.count(cfg_.pools.size()));
        for (auto& v : sp.pools) v = r.i64();
        r.expect("components");
        sp.components.resize(r.count(static_cast<std::size_t>(cfg_.procs)));
        for (auto& v : sp.components) v = static_cast<std::int32_t>(r.i64());
        r.expect("clusters");
        j.clusters.resize(r.count(cfg_.clusters.size()));
        for (auto& v : j.clusters) {
            v = static_cast<std::int16_t>(r.i64());
            if (v < 0 || v >= machine_.clusters()) bad("a cluster index is outside the machine");
        }
        r.expect("names");
        sp.account = r.name();
        sp.partition = r.name();
        sp.qos = r.name();
        for (auto [what, name] : {std::pair{"account", &sp.account},
                                  std::pair{"partition", &sp.partition}, std::pair{"qos", &sp.qos}})
            if (const std::string why = bad_name(what, *name); !why.empty())
                bad("job " + std::to_string(sp.id) + ": " + why);
        j.account = names_.intern(sp.account);
        j.partition = names_.intern(sp.partition);
        j.qos = names_.intern(sp.qos);
        r.expect("runs");
        j.alloc.runs.resize(r.count(static_cast<std::size_t>(cfg_.procs)));
        std::int64_t held = 0;
        for (NodeRun& nr : j.alloc.runs) {
            nr.first = static_cast<std::int32_t>(r.i64());
            nr.count = static_cast<std::int32_t>(r.i64());
            if (nr.count <= 0 || nr.first < 0 || nr.first > cfg_.procs - nr.count)
                bad("job " + std::to_string(sp.id) + ": a node run is outside the machine");
            held += nr.count;
        }
        r.expect("rows");
        const std::int64_t home = r.i64();
        const std::int64_t mask = r.i64();
        r.expect("progress");
        j.work_left = r.f64();
        j.resized = r.i64();
        j.paused_until = r.i64();
        j.harvests = static_cast<std::int32_t>(r.i64());
        j.waited = r.i64() != 0;
        const std::int64_t alloc_procs = r.i64();
        r.expect("class");
        j.used = r.i64();
        j.exec_from = r.i64();
        j.dnd_end = r.i64();
        j.swapping_until = r.i64();
        j.preemptions = static_cast<std::int32_t>(r.i64());
        j.swapped = r.i64() != 0;
        j.counted_large = r.i64() != 0;
        r.done();
        const std::string who = "job " + std::to_string(sp.id);
        // Under gang scheduling a window grows by a cycle each time the job
        // overruns it (extend_overrun_windows); malleable jobs are retimed as
        // they are resized, and a job of a class holds its place for the
        // rest of its work plus its swap-in. Otherwise it is the estimate.
        const bool window_ok = time_sharing() ? j.window >= sp.estimate * cfg_.rows
                               : cfg_.malleable.enabled || cfg_.classes.enabled
                                   ? j.window > 0
                                   : j.window == sp.estimate;
        if (sp.procs <= 0 || sp.procs > cfg_.procs || sp.estimate <= 0 || !window_ok ||
            sp.pools.size() != cfg_.pools.size() || j.seq >= next_seq_ ||
            !(j.work_left >= 0.0 && j.work_left <= 1.0) || j.used < 0 || j.used > sp.estimate ||
            (cfg_.classes.enabled &&
             (j.cls < 0 || static_cast<std::size_t>(j.cls) >= cfg_.classes.base.classes.size())))
            bad(who + ": its fields do not fit the machine");
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
            if (j.start > now_ || (!time_sharing() && j.estimated_end() <= now_))
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
            j.alloc.procs = static_cast<std::int32_t>(held);
            j.alloc.home_row = static_cast<std::int16_t>(home);
            j.alloc.row_mask = static_cast<std::uint32_t>(mask);
            // Only the home row's profile holds the window: replicas fill
            // cells that would otherwise be idle (seed 000 §4.3).
            if (j.estimated_end() > now_ && keeps_profile())
                machine_.take(j.alloc.home_row, now_, j.estimated_end(), demand(j));
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
            if (j.state != JobState::queued || j.reserved_row < 0 || j.reserved_row >= cfg_.rows ||
                j.reserved_start + j.window <= now_)
                bad(who + ": a reservation it cannot hold");
            // Exactly where it was: compression only ever moves it earlier,
            // and a placement from scratch could differ.
            machine_.take(j.reserved_row, j.reserved_start, j.reserved_start + j.window, demand(j));
            count_reservation(j.reserved_row, +1);
        }
    }
    for (std::size_t i = 0; i < node_state_.size(); ++i)
        if (node_state_[i] == NodeState::out) {
            if (!node_idle(static_cast<std::int32_t>(i)))
                bad("node " + std::to_string(i) + " is out but runs a job");
            machine_.node_out(static_cast<std::int32_t>(i), now_);
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
        freed_ = r.i64();
        r.done();
    }
    {
        Record r = next("classes");
        const std::int64_t reserved = r.i64();
        class_set_.resize(r.count(static_cast<std::size_t>(cfg_.procs)));
        std::int64_t set_procs = 0;
        for (NodeRun& nr : class_set_) {
            nr.first = static_cast<std::int32_t>(r.i64());
            nr.count = static_cast<std::int32_t>(r.i64());
            if (nr.count <= 0 || nr.first < 0 || nr.first > cfg_.procs - nr.count)
                bad("the class reservation's set is outside the machine");
            set_procs += nr.count;
        }
        classes_wakeup_ = r.i64();
        classes_dirty_ = r.i64() != 0;
        const std::size_t busy = r.count(static_cast<std::size_t>(cfg_.procs));
        if (busy && !cfg_.classes.enabled) bad("nodes swapping without [classes]");
        for (std::size_t k = 0; k < busy; ++k) {
            const std::int64_t n = r.i64();
            if (n < 0 || n >= cfg_.procs) bad("a swapping node is outside the machine");
            node_free_at_[static_cast<std::size_t>(n)] = r.i64();
            node_free_max_ = std::max(node_free_max_, node_free_at_[static_cast<std::size_t>(n)]);
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
    if (!std::getline(lines, line) || line.compare(0, 4, "end ") != 0)
        bad("a record where the end record belongs: '" + line.substr(0, 40) + "'");
    machine_.advance(now_);
}

}  // namespace rota
