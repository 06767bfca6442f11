// Snapshots: the engine's state as text, and the engine rebuilt from it
// (docs/snapshot.md has the format, record by record).
//
// Only what decides future actions is written: the clock, every job the
// engine holds with its slot, the queue as it stands (tombstones included,
// so that positions the incremental walk remembers stay valid), node
// states, usage accounts, counters and the circuit breaker; then the
// discipline's own records (its reservations, slices, class reservation,
// ...). The profiles, the job index and the expiry heap are derived and
// rebuilt. Slots are kept because the matrix records them and the order of
// a slab scan (jobs_on_node) follows them.
#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <unordered_map>
#include <unordered_set>

#include "discipline.h"
#include "error.h"
#include "snapshot_io.h"

namespace rota {

using snap::bad;
using snap::kTimeBound;
using snap::num;

namespace {

constexpr const char* kMagic = "rota-snapshot";
constexpr int kFormat = 3;

std::uint64_t fnv1a(const char* p, std::size_t n) {
    std::uint64_t h = 1469598103934665603ull;
    for (std::size_t i = 0; i < n; ++i) {
        h ^= static_cast<unsigned char>(p[i]);
        h *= 1099511628211ull;
    }
    return h;
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

// A partition as one field: name:first+count,first+count...[:default].
std::string partition_text(const PartitionConfig& p) {
    std::string o = escaped(p.name) + ":";
    for (std::size_t i = 0; i < p.nodes.size(); ++i) {
        if (i > 0) o += ',';
        o += std::to_string(p.nodes[i].first);
        o += '+';
        o += std::to_string(p.nodes[i].count);
    }
    return p.is_default ? o + ":default" : o;
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

const char* state_word(JobState s) {
    return job_state_name(s);
}

JobState state_of(const std::string& w) {
    for (JobState s : {JobState::pending, JobState::held, JobState::waiting, JobState::queued,
                       JobState::running, JobState::suspended})
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
        out += snap::hex(a.settled);
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
    a->at = r.in_range("settled at", 0, snap::kTimeBound);
    // Checked against the running jobs once they are read (restore).
    a->procs = r.i32("processors");
    a->jobs = r.i32("jobs");
    r.done();
}

namespace {

// A counter's place in the counters record, as rota_counters lists them.
template <class C, class F>
void each_counter(C& c, F&& f) {
    f(c.passes), f(c.submitted), f(c.started), f(c.backfilled), f(c.finished), f(c.killed),
        f(c.rejected), f(c.cancelled), f(c.migrations), f(c.migrated_tasks), f(c.window_extensions),
        f(c.requeued), f(c.adopted), f(c.harvest_attempts), f(c.harvests), f(c.grows), f(c.shrinks),
        f(c.preemptions), f(c.swap_ins), f(c.class_reservations), f(c.rekeys), f(c.resorts),
        f(c.reservations_moved);
}
constexpr std::size_t kCounters = 23;

}  // namespace

std::string Scheduler::snapshot() const {
    if (action_head_ < actions_.size())
        throw Error(Errc::state, std::to_string(actions_.size() - action_head_) +
                                     " action(s) not yet taken: pull the actions first "
                                     "(rota_next_action until ROTA_DONE)");
    std::string o;
    o.reserve(256 + jobs_.size() * 160);
    o += std::string(kMagic) + " " + std::to_string(kFormat) + "\n";
    save_machine(o);
    o += "clock";
    num(o, now_);
    num(o, next_seq_);
    num(o, held_until_);
    num(o, next_rekey_);
    num(o, active_row_);
    num(o, machine_.node_level() ? 1 : 0);
    o += "\n";
    for (int h = 0; h < kHookCount; ++h) {
        const auto k = static_cast<std::size_t>(h);
        const HookStats& st = counters_.hooks[k];
        o += std::string("hook ") + hook_name(static_cast<Hook>(h));
        num(o, failing_[k]);
        num(o, quarantines_[k]);
        num(o, quarantine_end_[k]);
        num(o, logged_failures_[k]);
        num(o, st.calls);
        num(o, st.failures);
        num(o, st.nanoseconds);
        num(o, st.skipped);
        num(o, st.quarantined ? 1 : 0);
        o += "\n";
    }
    o += "counters";
    num(o, kCounters);
    each_counter(counters_, [&](std::uint64_t v) { num(o, v); });
    o += "\n";
    usage_.save(o);
    o += "nodes";
    num(o, node_state_.size());
    if (!node_state_.empty()) {
        o += ' ';
        for (NodeState s : node_state_)
            o += s == NodeState::up ? 'u' : s == NodeState::draining ? 'd' : 'o';
    }
    o += "\nslots";
    num(o, jobs_.size());
    o += "\nfree";
    snap::list(o, free_slots_);
    o += "\n";
    std::vector<char> dead(jobs_.size(), 0);
    for (Slot s : free_slots_) dead[s] = 1;
    for (Slot s = 0; s < jobs_.size(); ++s)
        if (!dead[s]) save_job(o, s);
    o += "pending";
    snap::list(o, pending_);
    o += "\nheld";
    snap::list(o, held_);
    o += "\nwaiting";
    snap::list(o, waiting_);
    o += "\nended";
    num(o, ended_order_.size());
    for (const auto& [at, id] : ended_order_) {
        num(o, id);
        num(o, at);
        num(o, ended_.at(id).ok ? 1 : 0);
    }
    o += "\nqueue";
    num(o, queue_.span());
    for (std::size_t i = 0; i < queue_.span(); ++i) {
        if (queue_[i].live())
            num(o, queue_[i].slot);
        else
            o += " -";
    }
    // Running jobs in start order: the order in which the matrix phases,
    // the iScheduler and the class passes visit them.
    o += "\nrunning";
    snap::list(o, running_);
    o += "\n";
    discipline_->save_records(o);
    char end[64];
    std::snprintf(end, sizeof end, "end %016" PRIx64 "\n", fnv1a(o.data(), o.size()));
    o += end;
    return o;
}

void Scheduler::save_machine(std::string& o) const {
    o += "machine";
    num(o, cfg_.procs);
    num(o, cfg_.rows);
    num(o, cfg_.backfill ? 1 : 0);
    num(o, cfg_.reservation_depth);
    num(o, cfg_.pools.size());
    for (const auto& p : cfg_.pools) {
        o += ' ';
        o += escaped(p.name);
        num(o, p.capacity);
    }
    num(o, cfg_.clusters.size());
    for (const auto& c : cfg_.clusters) {
        o += ' ';
        o += escaped(c.name);
        num(o, c.nodes);
    }
    num(o, cfg_.classes.enabled ? cfg_.classes.base.classes.size() : 0);
    num(o, cfg_.malleable.enabled ? 1 : 0);
    o += cfg_.packing == Packing::buddy ? " buddy" : " first_fit";
    num(o, cfg_.partitions.size());
    for (const PartitionConfig& p : cfg_.partitions) {
        o += ' ';
        o += partition_text(p);
    }
    o += "\n";
}

void Scheduler::save_job(std::string& o, Slot s) const {
    const Job& j = jobs_[s];
    const JobSpec& sp = j.spec;
    o += "job";
    num(o, s);
    num(o, sp.id);
    o += ' ';
    o += state_word(j.state);
    for (std::int64_t v :
         {sp.estimate, std::int64_t{sp.procs}, std::int64_t{sp.user}, std::int64_t{sp.priority},
          sp.submitted, std::int64_t{sp.min_procs}, sp.adapt_bytes, std::int64_t{sp.job_class},
          j.submit, j.start, j.reserved_start, std::int64_t{j.reserved_row}})
        num(o, v);
    num(o, j.seq);
    o += " " + snap::hex(j.order_key);
    num(o, j.jumps);
    num(o, j.window);
    num(o, j.settled);
    num(o, j.cls);
    num(o, j.wait_from);
    o += " pools";
    snap::list(o, sp.pools);
    o += " components";
    snap::list(o, sp.components);
    o += " clusters";
    snap::list(o, j.clusters);
    // Each name by its key (format 3), so that a name added later reads as
    // "" from an older snapshot and needs no new format.
    o += " names";
#define ROTA_X(field, type, value, doc) +1
    num(o, 0 ROTA_JOB_COLUMNS_NAMES(ROTA_X));
#undef ROTA_X
#define ROTA_X(field, type, value, doc) \
    o += " " #field " ";                \
    o += name_field(sp.field);
    ROTA_JOB_COLUMNS_NAMES(ROTA_X)
#undef ROTA_X
    o += " runs";
    const bool runs = j.state == JobState::running;
    num(o, runs ? j.alloc.runs.size() : 0);
    if (runs)
        for (const NodeRun& r : j.alloc.runs) {
            num(o, r.first);
            num(o, r.count);
        }
    // Its home row and the rows it holds ([Zhang00] §4: a job can be
    // replicated in every row its columns are free).
    o += " rows";
    num(o, runs ? j.alloc.home_row : -1);
    num(o, runs ? j.alloc.row_mask : 0);
    // [Weissman03] (malleable) and [Feitelson97] (classes) bookkeeping.
    o += " progress " + snap::hex(j.work_left);
    num(o, j.resized);
    num(o, j.paused_until);
    num(o, j.harvests);
    num(o, j.waited ? 1 : 0);
    num(o, runs ? j.alloc.procs : 0);
    o += " class";
    for (std::int64_t v :
         {j.used, j.exec_from, j.dnd_end, j.swapping_until, std::int64_t{j.preemptions},
          std::int64_t{j.swapped ? 1 : 0}, std::int64_t{j.counted_large ? 1 : 0}})
        num(o, v);
    // Constraints (docs/design.md, "Constraints").
    o += " constraints";
    num(o, sp.begin);
    for (const auto* runs : {&sp.include, &sp.exclude, &j.reserved_runs}) {
        num(o, runs->size());
        for (const NodeRun& r : *runs) {
            num(o, r.first);
            num(o, r.count);
        }
    }
    num(o, sp.after.size());
    for (const Dependency& d : sp.after) {
        num(o, d.job);
        num(o, d.kind == DependencyKind::after_ok ? 1 : 0);
        num(o, d.delay);
    }
    num(o, j.eligible);
    o += ' ';
    o += name_field(j.reason);
    o += "\n";
}

namespace {

// The magic line's format version, once the end record's checksum holds:
// a truncated or altered snapshot is refused before any of it is believed.
int verified_format(const std::string& text) {
    const std::size_t m = std::strlen(kMagic);
    if (text.compare(0, m, kMagic) != 0)
        bad("it does not begin with '" + std::string(kMagic) + "' (not a rota snapshot)");
    Record head(text.substr(0, text.find('\n')));
    if (head.word() != kMagic)
        bad("it does not begin with '" + std::string(kMagic) + "' (not a rota snapshot)");
    const std::int64_t v = head.i64();
    head.done();
    if (v < 1 || v > kFormat)
        bad("format version " + std::to_string(v) + "; this library reads versions 1 to " +
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
    return static_cast<int>(v);
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::size_t from = 0;
    for (std::size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1)
        out.push_back(text.substr(from, nl - from));
    return out;
}

bool is_record(const std::string& line, const char* kw) {
    const std::size_t n = std::strlen(kw);
    return line.compare(0, n, kw) == 0 && (line.size() == n || line[n] == ' ');
}

// Format 1 held the walk's and the slices' state among the core's records
// and every mode's records in every snapshot; format 2 has the core's
// records, then the discipline's. The upgrade moves the fields, keeps the
// discipline's records only, and seals the result with a new end record;
// the format 2 reader then checks every field as usual.
std::string upgrade_format1(const std::string& text, const char* discipline) {
    const std::vector<std::string> l = lines_of(text);
    // magic machine clock walk slices rowgain ... running executing
    // unannounced malleable classes end
    if (l.size() < 13) bad("format 1: too few records");
    const char* head[] = {"machine", "clock", "walk", "slices", "rowgain"};
    for (std::size_t i = 0; i < std::size(head); ++i)
        if (!is_record(l[i + 1], head[i]))
            bad(std::string("format 1: no '") + head[i] + "' record where it belongs");
    const std::size_t n = l.size();
    const char* tail[] = {"running", "executing", "unannounced", "malleable", "classes", "end"};
    for (std::size_t i = 0; i < std::size(tail); ++i)
        if (!is_record(l[n - 6 + i], tail[i]))
            bad(std::string("format 1: no '") + tail[i] + "' record where it belongs");
    auto fields = [](const std::string& line) {
        std::vector<std::string> f;
        std::istringstream in(line);
        for (std::string w; in >> w;) f.push_back(w);
        return f;
    };
    const auto walk = fields(l[3]), slices = fields(l[4]);
    if (walk.size() != 9 || slices.size() != 5) bad("format 1: the walk or slices record is short");
    // Format 1 wrote the packing only for buddy, and had no partitions, node
    // level, constraints, waiting jobs or ended jobs.
    const bool buddy = l[1].size() > 6 && l[1].compare(l[1].size() - 6, 6, " buddy") == 0;
    std::string o = std::string(kMagic) + " 2\n" + l[1] + (buddy ? " 0\n" : " first_fit 0\n") +
                    l[2] + " " + walk[1] + " " + walk[2] + " " + slices[1] + " 0\n";
    const std::string none = " constraints 0 0 0 0 0 " + std::to_string(kNoTime) + " -";
    for (std::size_t i = 6; i < n - 5; ++i) {  // hooks .. running
        o += l[i];
        if (is_record(l[i], "job")) o += none;
        o += "\n";
        if (is_record(l[i], "held")) o += "waiting 0\nended 0\n";
    }
    if (std::strcmp(discipline, "walk") == 0) {
        o += "walk";
        for (std::size_t i = 3; i < 9; ++i) o += " " + walk[i];
        o += "\nslices " + slices[2] + " " + slices[3] + " " + slices[4] + "\n";
        o += l[5] + "\n" + l[n - 5] + "\n" + l[n - 4] + "\n";
    } else if (std::strcmp(discipline, "malleable") == 0) {
        o += l[n - 3] + "\n";
    } else {
        o += l[n - 2] + "\n";
    }
    char end[64];
    std::snprintf(end, sizeof end, "end %016" PRIx64 "\n", fnv1a(o.data(), o.size()));
    return o + end;
}

}  // namespace

void Scheduler::restore(const std::string& text) {
    if (now_ != 0 || !jobs_.empty() || counters_.passes != 0)
        throw Error(Errc::state, "restore needs a Scheduler that has seen no event");
    const int format = verified_format(text);
    const std::string upgraded =
        format == 1 ? upgrade_format1(text, discipline_->snapshot_name()) : std::string();
    SnapshotReader in(format == 1 ? upgraded : text);
    in.set_record(kMagic);
    try {
        restore_machine(in.next("machine"));
        restore_counters(in);
        restore_jobs(in, format);
        discipline_->load_records(in);
        discipline_->restored();
        in.set_record("end");
        std::string line;
        if (!in.next_line(line) || line.compare(0, 4, "end ") != 0)
            bad("a record where the end record belongs: '" + line.substr(0, 40) + "'");
    } catch (const Error& x) {
        std::string why = x.what();
        if (why.compare(0, 10, "snapshot: ") == 0) why.erase(0, 10);
        throw Error(x.code(), "snapshot line " + std::to_string(in.line()) + " ('" + in.record() +
                                  "' record): " + why);
    }
    machine_.advance(now_);
}

// The machine and mode must be the configuration's.
void Scheduler::restore_machine(Record r) {
    auto mismatch = [&](const std::string& what, const std::string& snap, const std::string& conf) {
        throw Error(Errc::config, "snapshot: its " + what + " is " + snap +
                                      ", the configuration's " + conf +
                                      ": a snapshot restores only onto the same machine and mode");
    };
    const auto procs = r.i64();
    if (procs != cfg_.procs)
        mismatch("node count", std::to_string(procs), std::to_string(cfg_.procs));
    const auto rows = r.i64();
    if (rows != cfg_.rows) mismatch("rows", std::to_string(rows), std::to_string(cfg_.rows));
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
            conf.append(" ").append(escaped(x.name)).append("=").append(std::to_string(size_of(x)));
        if (text != conf)
            mismatch(what, text.empty() ? "none" : "{" + text + " }",
                     conf.empty() ? "none" : "{" + conf + " }");
    };
    same_list("pools", 1024, cfg_.pools, [](const auto& p) { return p.capacity; });
    same_list("clusters", std::size_t{1} << 20, cfg_.clusters,
              [](const auto& c) { return c.nodes; });
    const auto classes = r.i64();
    const auto have =
        cfg_.classes.enabled ? static_cast<std::int64_t>(cfg_.classes.base.classes.size()) : 0;
    if (classes != have)
        mismatch("job classes", classes ? std::to_string(classes) : "none",
                 have ? std::to_string(have) : "none");
    const auto malleable = r.flag("malleable");
    if ((malleable != 0) != cfg_.malleable.enabled)
        mismatch("[malleable]", malleable ? "on" : "off", cfg_.malleable.enabled ? "on" : "off");
    const std::string packing = r.word();
    if (packing != "first_fit" && packing != "buddy") bad("unknown packing '" + packing + "'");
    const std::string have_packing = cfg_.packing == Packing::buddy ? "buddy" : "first_fit";
    if (packing != have_packing) mismatch("gang.packing", packing, have_packing);
    std::string parts, conf;
    for (std::size_t i = 0, n = r.count(4096); i < n; ++i) parts += " " + r.word();
    for (const PartitionConfig& p : cfg_.partitions) conf += " " + partition_text(p);
    if (parts != conf)
        mismatch("partitions", parts.empty() ? "none" : "{" + parts + " }",
                 conf.empty() ? "none" : "{" + conf + " }");
    r.done();
}

// The clock, the circuit breaker, the counters, the usage accounts and the
// node states.
void Scheduler::restore_counters(SnapshotReader& in) {
    {
        Record r = in.next("clock");
        now_ = r.in_range("clock", 0, kTimeBound);
        next_seq_ = r.u64();
        held_until_ = r.time("held_until");
        next_rekey_ = r.time("next_rekey");
        active_row_ = r.i32("active row", 0, cfg_.rows - 1);
        const bool nodes = r.flag("node level");
        if (!nodes && machine_.node_level())
            bad("the configuration has partitions; the snapshot's machine had none");
        if (nodes && !machine_.node_level()) machine_.enter_node_level(now_);
        r.done();
    }
    for (int h = 0; h < kHookCount; ++h) {
        Record r = in.next("hook");
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
        Record r = in.next("counters");
        // 22 counters before reservations_moved was added: it reads as 0.
        const std::size_t n = r.count(1024);
        if (n != kCounters && n != kCounters - 1) bad("the counters record has the wrong length");
        std::size_t i = 0;
        each_counter(counters_, [&](std::uint64_t& v) { v = i++ < n ? r.u64() : 0; });
        r.done();
    }
    // Usage records, then the node states.
    std::string line;
    for (in.set_record("usage");;) {
        if (!in.next_line(line)) bad("truncated in the usage records");
        if (line.compare(0, 5, "usage") != 0) break;
        usage_.load_line(line);
    }
    in.set_record("nodes");
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

// The job table: its free slots, a record per job, then the lists that
// hold the jobs (pending, held, queue, running).
void Scheduler::restore_jobs(SnapshotReader& in, int format) {
    std::vector<char> used = restore_free_slots(in);
    restore_job_records(in, format, used);
    check_accounts(used, format == 1 && cfg_.classes.enabled);
    restore_nodes_out();
    restore_slot_list(in, "pending", JobState::pending, pending_, used);
    restore_slot_list(in, "held", JobState::held, held_, used);
    held_batch_ok_ = false;
    restore_slot_list(in, "waiting", JobState::waiting, waiting_, used);
    restore_ended(in);
    restore_queue(in, used);
    restore_running(in, used);
    restore_constraints();
    check_listed(used);
}

std::vector<char> Scheduler::restore_free_slots(SnapshotReader& in) {
    {
        Record r = in.next("slots");
        // Each slot takes at least two bytes of the text (a free entry or a
        // job record): a larger count is an edit, not a table to allocate.
        in.set_slots(r.count(std::min(std::size_t{1} << 31, in.text_size() / 2)));
        r.done();
    }
    const std::size_t slots = in.slots();
    jobs_.assign(slots, Job{});
    // Per slot: 0 unread, 1 a job read, 2 in a list, 3 free.
    std::vector<char> used(slots, 0);
    {
        Record r = in.next("free");
        free_slots_.resize(r.count(slots));
        for (Slot& s : free_slots_) {
            s = in.slot(r);
            if (used[s]) bad("slot " + std::to_string(s) + " is listed twice");
            used[s] = 3;  // free: no job, in no list
        }
        r.done();
    }
    return used;
}

void Scheduler::restore_job_records(SnapshotReader& in, int format, std::vector<char>& used) {
    const std::size_t slots = in.slots();
    std::unordered_set<std::uint64_t> seqs;  // arrival order: no two jobs tie
    for (std::size_t live = slots - free_slots_.size(); live > 0; --live) {
        Record r = in.next("job");
        const Slot s = in.slot(r);
        if (used[s]++) bad("slot " + std::to_string(s) + " is listed twice");
        restore_job(r, s, in, format);
        if (!seqs.insert(jobs_[s].seq).second)
            bad("arrival number " + std::to_string(jobs_[s].seq) + " twice");
    }
}

void Scheduler::restore_slot_list(SnapshotReader& in, const char* kw, JobState st,
                                  std::vector<Slot>& out, std::vector<char>& used) {
    Record r = in.next(kw);
    out.resize(r.count(in.slots()));
    for (Slot& s : out) {
        s = in.slot(r);
        if (used[s] != 1 || jobs_[s].state != st)
            bad(std::string(kw) + " lists slot " + std::to_string(s) + ", not a " +
                job_state_name(st) + " job");
        used[s] = 2;
    }
    r.done();
}

void Scheduler::restore_ended(SnapshotReader& in) {
    const std::size_t slots = in.slots();
    Record r = in.next("ended");
    for (std::size_t i = 0, n = r.count(slots * 8 + 4096); i < n; ++i) {
        const JobId id = r.in_range("ended job", 0, INT64_MAX);
        const Time at = r.in_range("ended at", 0, now_);
        const bool ok = r.flag("ok");
        if (!ended_.emplace(id, Ended{at, ok}).second)
            bad("job " + std::to_string(id) + " ended twice");
        if (!ended_order_.empty() && at < ended_order_.back().first)
            bad("the ended jobs are not in the order they ended");
        ended_order_.emplace_back(at, id);
    }
    r.done();
}

void Scheduler::restore_queue(SnapshotReader& in, std::vector<char>& used) {
    Record r = in.next("queue");
    const std::size_t n = r.count(in.slots() * 8 + 4096);
    for (std::size_t i = 0; i < n; ++i) {
        const std::string t = r.word();
        if (t == "-") {
            // A tombstone: positions after it stay where the walk left them.
            queue_.push_back({0, 1, kForever});
            queue_.kill(queue_.span() - 1);
            continue;
        }
        Record one(t);
        const Slot s = in.slot(one);
        if (used[s] != 1 || jobs_[s].state != JobState::queued)
            bad("queue lists slot " + t + ", not a queued job");
        used[s] = 2;
        queue_.push_back({s, jobs_[s].spec.procs, jobs_[s].window});
    }
    r.done();
}

void Scheduler::restore_running(SnapshotReader& in, std::vector<char>& used) {
    Record r = in.next("running");
    running_.resize(r.count(in.slots()));
    for (Slot& s : running_) {
        s = in.slot(r);
        if (used[s] != 1 || jobs_[s].state != JobState::running)
            bad("running lists slot " + std::to_string(s) + ", not a running job once");
        used[s] = 4;
    }
    r.done();
    for (Slot s : running_) used[s] = 1;
    // Kept only for a discipline that visits running jobs in start order.
    const bool kept = keeps_running_list_;
    if (!kept && !running_.empty()) bad("running lists jobs in a mode that keeps no list");
    if (kept && running_.size() != running_count_)
        bad("running lists " + std::to_string(running_.size()) + " of " +
            std::to_string(running_count_) + " running jobs");
}

void Scheduler::check_listed(const std::vector<char>& used) const {
    for (Slot s = 0; s < used.size(); ++s)
        if (used[s] == 1 && jobs_[s].state != JobState::running &&
            jobs_[s].state != JobState::suspended)
            bad("job " + std::to_string(jobs_[s].spec.id) + " is " +
                job_state_name(jobs_[s].state) + " but in no list");
}

// A job record's names as (key, value) pairs. Formats 1 and 2 held three,
// in this order, unnamed; format 3 names each, in any order, and leaves
// out none it knows (an empty name is "-").
namespace {
std::vector<std::pair<std::string, std::string>> named_fields(Record& r, int format) {
    std::vector<std::pair<std::string, std::string>> out;
    if (format < 3) {
        for (const char* key : {"account", "partition", "qos"}) out.emplace_back(key, r.name());
        return out;
    }
    // More names than this library knows is a newer writer's, which the
    // key says: the count's bound only stops a runaway allocation.
    const std::size_t n = r.count(256);
    for (std::size_t i = 0; i < n; ++i) {
        std::string key = r.word();
        for (const auto& [k, v] : out)
            if (k == key) bad("the name '" + key + "' twice");
        out.emplace_back(std::move(key), r.name());
    }
    return out;
}
}  // namespace

// One job record: its fields as a submit checks them, then its place on
// the machine.
void Scheduler::restore_job(Record& r, Slot s, SnapshotReader& in, int format) {
    Job& j = jobs_[s];
    restore_job_fields(r, j, in);
    restore_job_shape(r, j);
    restore_job_names(r, j, format);
    r.expect("runs");
    j.alloc.runs = r.runs(cfg_.procs);
    const std::int64_t held = snap::check_runs(j.alloc.runs, cfg_.procs, "its runs");
    r.expect("rows");
    const std::int64_t home = r.in_range("home row", -1, cfg_.rows - 1);
    const std::int64_t mask = r.in_range("row mask", 0, (std::int64_t{1} << cfg_.rows) - 1);
    restore_job_progress(r, j);
    restore_job_constraints(r, j);
    r.done();
    enter_restored(s, held, home, mask);
}

void Scheduler::restore_job_fields(Record& r, Job& j, SnapshotReader& in) {
    JobSpec& sp = j.spec;
    sp.id = r.in_range("id", 0, INT64_MAX);
    in.set_record("job " + std::to_string(sp.id));
    j.state = state_of(r.word());
    sp.estimate = r.in_range("estimate", 1, kTimeBound / cfg_.rows);
    sp.procs = r.i32("procs", 1, cfg_.procs);
    sp.user = r.i32("user");
    sp.priority = r.i32("priority");
    sp.submitted = r.in_range("submitted", 0, now_);
    sp.min_procs = r.i32("min_procs", 0, sp.procs);
    sp.adapt_bytes = r.in_range("adapt_bytes", 0, INT64_MAX);
    const auto classes = static_cast<std::int64_t>(cfg_.classes.base.classes.size());
    sp.job_class = r.i32("job_class", -1, cfg_.classes.enabled ? classes - 1 : -1);
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
}

void Scheduler::restore_job_shape(Record& r, Job& j) {
    JobSpec& sp = j.spec;
    r.expect("pools");
    sp.pools.resize(r.count(cfg_.pools.size()));
    for (auto& v : sp.pools) v = r.in_range("pool amount", 0, INT64_MAX);
    r.expect("components");
    // As a submit leaves them: one width per cluster the job spans, adding
    // up to procs, and none on a machine without clusters.
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
}

void Scheduler::restore_job_names(Record& r, Job& j, int format) {
    JobSpec& sp = j.spec;
    r.expect("names");
    for (auto& [key, value] : named_fields(r, format)) {
        bool known = false;
#define ROTA_X(field, type, value_, doc) \
    if (key == #field) {                 \
        sp.field = std::move(value);     \
        known = true;                    \
    }
        ROTA_JOB_COLUMNS_NAMES(ROTA_X)
#undef ROTA_X
        if (!known)
            bad("job " + std::to_string(sp.id) + ": a name '" + key +
                "' this library does not know (written by a newer rota)");
    }
#define ROTA_X(field, type, value, doc)                                   \
    if (const std::string why = bad_name(#field, sp.field); !why.empty()) \
        bad("job " + std::to_string(sp.id) + ": " + why);                 \
    j.field = names_.intern(sp.field);
    ROTA_JOB_COLUMNS_NAMES(ROTA_X)
#undef ROTA_X
}

void Scheduler::restore_job_progress(Record& r, Job& j) {
    r.expect("progress");
    j.work_left = r.f64();
    j.resized = r.time("resized");
    j.paused_until = r.time("paused_until");
    j.harvests = r.i32("harvests", 0);
    j.waited = r.flag("waited");
    j.alloc.procs = r.i32("processors", 0, cfg_.procs);
    r.expect("class");
    j.used = r.in_range("used", 0, j.spec.estimate);
    j.exec_from = r.time("exec_from");
    j.dnd_end = r.time("dnd_end");
    j.swapping_until = r.time("swapping_until");
    j.preemptions = r.i32("preemptions", 0);
    j.swapped = r.flag("swapped");
    j.counted_large = r.flag("large");
}

void Scheduler::restore_job_constraints(Record& r, Job& j) {
    JobSpec& sp = j.spec;
    r.expect("constraints");
    sp.begin = r.in_range("begin", 0, kTimeBound);
    sp.include = r.runs(cfg_.procs);
    sp.exclude = r.runs(cfg_.procs);
    j.reserved_runs = r.runs(cfg_.procs);
    sp.after.resize(r.count(1024));
    for (Dependency& d : sp.after) {
        d.job = r.in_range("dependency", 0, INT64_MAX);
        d.kind = r.flag("afterok") ? DependencyKind::after_ok : DependencyKind::after_any;
        d.delay = r.in_range("delay", 0, kTimeAxisEnd / 4);
    }
    j.eligible = r.time("eligible");
    j.reason = r.name(4096);
}

void Scheduler::enter_restored(Slot s, std::int64_t held, std::int64_t home, std::int64_t mask) {
    Job& j = jobs_[s];
    JobSpec& sp = j.spec;
    check_constraints(sp);
    if (!sp.exclude.empty())
        j.excluded = std::make_shared<const NodeBits>(node_bits(cfg_.procs, sp.exclude));
    check_job_record(j);
    if (index_.find(sp.id) != JobIndex::kNone)
        bad("job " + std::to_string(sp.id) + " is listed twice");
    index_.insert(sp.id, s);
    // The bound at submission counts every job held (scheduler.cpp, new_job).
    const Time window = sp.estimate * cfg_.rows;
    if (window > kForever - held_windows_) bad("the windows of its jobs add up past 2^63 us");
    held_windows_ += window;
    longest_window_ = std::max(longest_window_, window);
    if (j.state == JobState::running)
        place_restored(s, held, home, mask);
    else if (held != 0 || home != -1 || mask != 0 || j.alloc.procs != 0)
        bad("job " + std::to_string(sp.id) + ": holds nodes but is " + job_state_name(j.state));
    if (j.reserved()) place_reservation(s);
}

// What derives from the jobs' constraints: the partitions of every admitted
// job, and the jobs each waiting job still waits for.
void Scheduler::restore_constraints() {
    for (Job& j : jobs_) {
        if (j.spec.id < 0 || j.state == JobState::pending || j.state == JobState::waiting) continue;
        if (const std::string why = partition_reason(j); !why.empty())
            bad("job " + std::to_string(j.spec.id) + " was admitted, but " + why);
    }
    for (const Slot s : waiting_) {
        Job& j = job(s);
        j.unmet = 0;
        for (const Dependency& d : j.spec.after)
            if (index_.find(d.job) != JobIndex::kNone) {
                dependents_[d.job].push_back(j.spec.id);
                ++j.unmet;
            }
    }
}

// What the core checks of a job record; its discipline checks the rest.
void Scheduler::check_job_record(const Job& j) const {
    const JobSpec& sp = j.spec;
    const std::string who = "job " + std::to_string(sp.id);
    if (sp.pools.size() != cfg_.pools.size())
        bad(who + ": " + std::to_string(sp.pools.size()) + " pool amounts; the machine has " +
            std::to_string(cfg_.pools.size()) + " pools");
    if (j.seq >= next_seq_)
        bad(who + ": arrival number " + std::to_string(j.seq) + " is not below the clock's " +
            std::to_string(next_seq_));
    if (!(j.work_left >= 0.0 && j.work_left <= 1.0))
        bad(who + ": the share of work left is outside 0..1");
    if (clustered() && (j.state == JobState::running || j.reserved()) &&
        j.clusters.size() != sp.components.size())
        bad(who + ": " + job_state_name(j.state) + " but its components are on no clusters");
    const std::int64_t reserved_nodes = snap::check_runs(j.reserved_runs, cfg_.procs, who);
    if (machine_.node_level() && j.reserved() ? reserved_nodes != sp.procs : reserved_nodes != 0)
        bad(who + ": its reservation holds " + std::to_string(reserved_nodes) + " nodes for " +
            std::to_string(sp.procs));
    if (j.state != JobState::waiting && j.state != JobState::pending && !j.reason.empty())
        bad(who + ": a reason to reject it, but it is " + job_state_name(j.state));
    discipline_->check_job(j, who);
}

// A running job read back: on its cells of the matrix, its window in its
// home row's profile, its walltime.
void Scheduler::place_restored(Slot s, std::int64_t held, std::int64_t home, std::int64_t mask) {
    Job& j = jobs_[s];
    const std::string who = "job " + std::to_string(j.spec.id);
    if (held != j.alloc.procs || j.reserved())
        bad(who + ": running on " + std::to_string(held) + " nodes for " +
            std::to_string(j.spec.procs));
    // A gang-scheduled job may have overrun its window since the last pass;
    // the next pass extends it.
    if (j.start < 0 || j.start > now_ || (!time_sharing() && j.estimated_end() <= now_))
        bad(who + ": its run does not cover the snapshot's clock");
    if (home < 0 || home >= cfg_.rows || mask <= 0 || mask >= (std::int64_t{1} << cfg_.rows) ||
        !(mask & (std::int64_t{1} << home)))
        bad(who + ": its rows (home " + std::to_string(home) + ", mask " + std::to_string(mask) +
            ") are not rows of the matrix");
    Matrix& m = machine_.matrix();
    for (std::int32_t row = 0; row < cfg_.rows; ++row) {
        if (!(mask & (std::int64_t{1} << row))) continue;
        if (!m.columns_free(row, j.alloc.runs)) bad(who + ": a cell it runs on is taken twice");
        m.place(row, j.alloc.runs, s);
    }
    if (clustered()) check_restored_clusters(j);
    j.alloc.home_row = static_cast<std::int16_t>(home);
    j.alloc.row_mask = static_cast<std::uint32_t>(mask);
    // Only the home row's profile holds the window: replicas fill cells
    // that would otherwise be idle ([Zhang00] §4.3).
    if (j.estimated_end() > now_ && keeps_profile_) {
        Demand d = demand(j);
        d.window = j.estimated_end() - now_;
        if (!machine_.fits_at(j.alloc.home_row, d, now_))
            bad(who +
                ": its run needs more than the machine has left (processors, pools or clusters "
                "held by the jobs before it)");
        machine_.take(j.alloc.home_row, now_, j.estimated_end(), d);
    }
    if (!time_sharing()) expiries_.set({j.estimated_end(), j.seq, s});
    ++running_count_;
}

// Each component's nodes on the cluster it is placed on, and none
// elsewhere: the clusters' profiles and idle counts read them so.
void Scheduler::check_restored_clusters(const Job& j) const {
    std::vector<std::int64_t> on(static_cast<std::size_t>(machine_.clusters())), want(on.size());
    for (const NodeRun& nr : j.alloc.runs)
        for (std::int32_t node = nr.first, end = nr.first + nr.count; node < end;) {
            const std::int32_t c = machine_.cluster_of(node);
            const std::int32_t stop =
                std::min(end, machine_.cluster_first(c) + machine_.cluster_nodes(c));
            on[static_cast<std::size_t>(c)] += stop - node;
            node = stop;
        }
    for (std::size_t k = 0; k < j.clusters.size(); ++k)
        want[static_cast<std::size_t>(j.clusters[k])] += j.spec.components[k];
    if (on != want)
        bad("job " + std::to_string(j.spec.id) +
            ": its nodes are not on the clusters its components are placed on");
}

// Exactly where it was: compression only ever moves it earlier, and a
// placement from scratch could differ. Never beyond what the machine has:
// the passes plan on the profile never going below zero.
void Scheduler::place_reservation(Slot s) {
    const Job& j = jobs_[s];
    const std::string who = "job " + std::to_string(j.spec.id);
    if (j.state != JobState::queued || j.reserved_row < 0 || j.reserved_start < 0 ||
        j.reserved_start + j.window <= now_)
        bad(who + ": a reservation it cannot hold");
    if (!machine_.fits_at(j.reserved_row, demand(j), j.reserved_start))
        bad(who + ": its reservation at " + std::to_string(j.reserved_start) +
            " needs more than the machine has left (processors, pools or clusters held by the "
            "jobs before it)");
    machine_.take(j.reserved_row, j.reserved_start, j.reserved_start + j.window, demand(j));
}

// The accounts count the processors and jobs running now: a restored
// engine gives them back as its jobs end, and must not go below zero.
// (Format 1 snapshots of rota 0.2.0 and before under [classes] did not
// count loads, only unloads: their accounts are not checked, so that they
// still restore.)
void Scheduler::check_accounts(const std::vector<char>& used, bool legacy) const {
    if (legacy) return;
    std::unordered_map<std::int32_t, std::pair<std::int64_t, std::int64_t>> running;
    for (Slot s = 0; s < jobs_.size(); ++s)
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
            bad("user " + std::to_string(entry.first) + " runs jobs but has no usage record");
}

// Nodes out of service leave the profiles; the reservations were placed on
// the nodes in service, so no instant may need more than is left.
void Scheduler::restore_nodes_out() {
    bool any_out = false;
    for (std::size_t i = 0; i < node_state_.size(); ++i)
        if (node_state_[i] == NodeState::out) {
            if (!node_idle(static_cast<std::int32_t>(i)))
                bad("node " + std::to_string(i) + " is out but runs a job");
            machine_.node_out(static_cast<std::int32_t>(i), now_);
            any_out = true;
        }
    if (!any_out || !keeps_profile_) return;
    bool over = false;
    for (std::int32_t row = 0; row < cfg_.rows; ++row)
        over = over || machine_.profile(row).min_free(now_, Machine::kHorizon) < 0;
    for (std::int32_t row = 0; row < cfg_.rows; ++row)
        for (std::int32_t c = 0; c < machine_.clusters(); ++c)
            over = over || machine_.cluster_profile(row, c).min_free(now_, Machine::kHorizon) < 0;
    if (over)
        bad("the reservations need more processors than the nodes in service have (nodes out of "
            "service counted)");
}

}  // namespace rota
