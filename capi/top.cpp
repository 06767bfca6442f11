// rota_top(): the live view of [Feitelson97] §4.5, the LLNL gang scheduler's
// "gangster" tool (Fig. 8). A header line, the node map (each node shows
// the letter of the job loaded on it) and the job table with each job's
// class, letter, id, user, processors, state and execution time.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "engine/class_passes.h"
#include "handle.h"

using namespace rota;

namespace {

constexpr std::int32_t kDefaultWidth = 80;
constexpr std::int32_t kMinWidth = 40;
constexpr std::int32_t kMaxWidth = 1024;

// Fig. 8's four-letter class names for [Feitelson97]'s classes, else the
// name's first four characters.
std::string class_label(const std::string& name) {
    static const std::pair<const char*, const char*> kKnown[] = {
        {"interactive", "Int"}, {"debug", "Dbug"},   {"production", "Prod"},
        {"benchmark", "Bmrk"},  {"standby", "Stby"},
    };
    std::string lower = name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const auto& [full, shown] : kKnown)
        if (lower == full) return shown;
    return name.empty() ? std::string("?") : name.substr(0, 4);
}

// Job number k of the table: a..z, A..Z, then '#'.
char letter(std::size_t k) {
    if (k < 26) return static_cast<char>('a' + k);
    if (k < 52) return static_cast<char>('A' + (k - 26));
    return '#';
}

std::string clock_text(Time t) {
    const long long s = static_cast<long long>(std::max<Time>(0, t) / kSecond);
    char buf[48];
    if (s >= 86400)
        std::snprintf(buf, sizeof buf, "%lldd %02lld:%02lld:%02lld", s / 86400, s / 3600 % 24,
                      s / 60 % 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
    return buf;
}

std::string mmss(Time t) {
    const long long s = static_cast<long long>(std::max<Time>(0, t) / kSecond);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%02lld:%02lld", s / 60, s % 60);
    return buf;
}

std::size_t digits(long long v) {
    std::size_t d = v < 0 ? 2 : 1;
    for (v = v < 0 ? -v : v; v >= 10; v /= 10) ++d;
    return d;
}

struct Line {
    const Job* job;
    std::int32_t priority;
    std::int32_t cls;  // -1 without [classes]
    bool loaded;
    char state;
    char letter = '#';
    Time executed;
};

// Fig. 8's ST field.
char state_of(const Job& j, Time now, bool classes, JobId reserved) {
    switch (j.state) {
        case JobState::running:
            // Loaded, not computing yet: its state being read back (i), or a
            // fresh job waiting for its nodes' former jobs to be written out
            // (W: waiting, nodes assigned).
            if (classes && j.exec_from != kNoTime && now < j.exec_from)
                return j.used > 0 || j.preemptions > 0 ? 'i' : 'W';
            return 'R';
        case JobState::suspended:
            return 'S';
        case JobState::held:
            return 'H';
        case JobState::waiting:
            return 'D';  // its dependencies
        case JobState::queued:
            if (j.swapped && j.swapping_until > now) return 'o';
            if (classes && j.spec.id == reserved) return 'W';
            return j.swapped ? 'O' : 'N';
        default:
            return 'N';
    }
}

// The node map's rows: `per_row` nodes, spaced ("a a a") or packed ("aaa").
struct MapLayout {
    std::int32_t per_row = 1;
    bool spaced = true;
    std::size_t label = 1;  // width of the row's leading node number
};

MapLayout map_layout(std::int32_t procs, std::int32_t width) {
    MapLayout m;
    m.label = digits(std::max(0, procs - 1));
    std::int32_t top = 1;
    while (top < procs) top *= 2;
    const auto room = static_cast<std::int64_t>(width) - static_cast<std::int64_t>(m.label) - 1;
    auto largest = [&](auto fits) {
        std::int32_t p = top;
        while (p > 1 && !fits(p)) p /= 2;
        return p;
    };
    const std::int32_t spaced = largest([&](std::int64_t p) { return 2 * p - 1 <= room; });
    // Spaced as Fig. 8 while that keeps 32 nodes to a row (or the whole
    // machine on one); packed otherwise.
    if (spaced >= std::min(32, top)) {
        m.per_row = spaced;
        return m;
    }
    m.spaced = false;
    m.per_row = largest([&](std::int64_t p) { return p <= room; });
    return m;
}

void add_line(std::string& out, std::string line, std::int32_t width) {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (line.size() > static_cast<std::size_t>(width)) line.resize(static_cast<std::size_t>(width));
    out += line;
    out += '\n';
}

// The engine as the view sees it now: its jobs, one line each, and the
// node map's letters.
struct View {
    const Scheduler& s;
    const ClassPasses* cp;
    bool classes;
    Time now;
    JobId reserved;
    std::vector<Line> lines;
    std::int64_t swapped = 0;
    std::vector<char> node;
    std::int64_t loaded = 0;

    explicit View(const Scheduler& sched)
        : s(sched),
          cp(sched.classes()),
          classes(cp != nullptr),
          now(sched.now()),
          reserved(classes ? cp->class_reserved_job() : -1) {}
};

// Every job the engine lists: running, waiting, held, and the
// suspended ones the handle remembers.
std::vector<JobId> listed_ids(const rota_engine* e) {
    const Scheduler& s = *e->sched;
    std::vector<JobId> ids;
    s.running_ids(ids);
    s.queue_ids(ids);
    s.held_ids(ids);
    auto& susp = e->suspended;
    susp.erase(std::remove_if(susp.begin(), susp.end(),
                              [&](JobId id) {
                                  const Job* j = s.find(id);
                                  return !j || j->state != JobState::suspended;
                              }),
               susp.end());
    ids.insert(ids.end(), susp.begin(), susp.end());
    return ids;
}

Line line_of(const View& v, const Job& j) {
    Line l{};
    l.job = &j;
    l.cls = v.classes ? j.cls : -1;
    l.priority =
        v.classes ? v.cp->class_params().classes[static_cast<std::size_t>(j.cls)].priority : 0;
    l.loaded = j.state == JobState::running;
    l.state = state_of(j, v.now, v.classes, v.reserved);
    l.executed = j.used;
    if (l.loaded) {
        const Time from = j.exec_from != kNoTime ? j.exec_from : j.start;
        if (v.now > from) l.executed += v.now - from;
    }
    return l;
}

// The table's lines in its order, each with its letter.
void list_jobs(View& v, const std::vector<JobId>& ids) {
    v.lines.reserve(ids.size());
    for (JobId id : ids) {
        const Job* j = v.s.find(id);
        if (!j) continue;
        if (j->swapped) v.swapped += j->spec.procs;
        v.lines.push_back(line_of(v, *j));
    }
    std::sort(v.lines.begin(), v.lines.end(), [](const Line& a, const Line& b) {
        if (a.priority != b.priority) return a.priority > b.priority;
        if (a.cls != b.cls) return a.cls < b.cls;
        if (a.loaded != b.loaded) return a.loaded;
        return a.job->spec.id < b.job->spec.id;
    });
    // Letters: the loaded jobs first, the map's, then the others.
    std::size_t next = 0;
    for (int pass = 0; pass < 2; ++pass)
        for (Line& l : v.lines)
            if (l.loaded == (pass == 0)) l.letter = letter(next++);
}

// The node map: the active row (the only one but under gang scheduling).
void map_nodes(View& v, std::int32_t procs) {
    const Scheduler& s = v.s;
    v.node.assign(static_cast<std::size_t>(procs), '.');
    for (std::int32_t k = 0; k < procs; ++k)
        if (s.node_state(k) == Scheduler::NodeState::out) v.node[static_cast<std::size_t>(k)] = 'x';
    std::vector<std::pair<JobId, char>> by_id;
    for (const Line& l : v.lines)
        if (l.loaded) by_id.emplace_back(l.job->spec.id, l.letter);
    std::sort(by_id.begin(), by_id.end());
    auto letter_of = [&](JobId id) {
        auto it = std::lower_bound(by_id.begin(), by_id.end(), std::make_pair(id, '\0'));
        return it != by_id.end() && it->first == id ? it->second : '?';
    };
    const Matrix& m = s.machine().matrix();
    if (m.has_cells()) {
        for (std::int32_t col = 0; col < m.cols(); ++col) {
            const Matrix::Slot slot = m.at(s.active_row(), col);
            if (slot == Matrix::kEmpty) continue;
            v.node[static_cast<std::size_t>(col)] = letter_of(s.job_at(slot));
            ++v.loaded;
        }
        return;
    }
    for (const Line& l : v.lines) {
        if (!l.loaded) continue;
        for (const NodeRun& r : l.job->alloc.runs)
            for (std::int32_t k = r.first; k < r.first + r.count; ++k, ++v.loaded)
                v.node[static_cast<std::size_t>(k)] = l.letter;
    }
}

// The header: its items on one line, on more if the width is short.
void add_header(std::string& out, const View& v, std::int32_t procs, std::int32_t width) {
    std::vector<std::string> items = {
        "time " + clock_text(v.now),
        std::string("period ") + (!v.classes             ? "-"
                                  : *v.cp->period_name() ? v.cp->period_name()
                                                         : "base"),
        "loaded " + std::to_string(v.loaded) + "/" + std::to_string(procs),
        "swapped " + std::to_string(v.swapped),
        "jobs " + std::to_string(v.lines.size()),
    };
    if (v.reserved >= 0)
        for (const Line& l : v.lines)
            if (l.job->spec.id == v.reserved)
                items.push_back("reserved " + std::to_string(v.cp->class_reserved_nodes()) +
                                " for " + l.letter);
    std::string head;
    for (const std::string& item : items) {
        if (!head.empty() && head.size() + 2 + item.size() > static_cast<std::size_t>(width)) {
            add_line(out, head, width);
            head.clear();
        }
        head += (head.empty() ? "" : "  ") + item;
    }
    add_line(out, head, width);
}

void add_map(std::string& out, const std::vector<char>& node, std::int32_t procs,
             std::int32_t width) {
    const MapLayout ml = map_layout(procs, width);
    for (std::int32_t first = 0; first < procs; first += ml.per_row) {
        std::string row(ml.label - digits(first), ' ');
        row += std::to_string(first);
        row += ' ';
        const std::int32_t last = std::min(procs, first + ml.per_row);
        for (std::int32_t k = first; k < last; ++k) {
            if (ml.spaced && k > first) row += ' ';
            row += node[static_cast<std::size_t>(k)];
        }
        add_line(out, row, width);
    }
    out += '\n';
}

std::string pad(const std::string& v, std::size_t w, bool left) {
    const std::string fill(v.size() < w ? w - v.size() : 0, ' ');
    return left ? v + fill : fill + v;
}

// The job table's column widths, and each job's MM:SS.
struct TableWidths {
    std::size_t id = 3, user = 4, pe = 3, time = 5;
    std::vector<std::string> times;
};

TableWidths table_widths(const std::vector<Line>& lines) {
    TableWidths w;
    w.times.reserve(lines.size());
    for (const Line& l : lines) {
        w.id = std::max(w.id, digits(l.job->spec.id));
        w.user = std::max(w.user, l.job->spec.user < 0 ? 1 : digits(l.job->spec.user));
        w.pe = std::max(w.pe, digits(l.job->spec.procs));
        w.times.push_back(mmss(l.executed));
        w.time = std::max(w.time, w.times.back().size());
    }
    return w;
}

void add_table(std::string& out, const std::vector<Line>& lines, const SchedulerConfig& cfg,
               std::int32_t width) {
    const TableWidths w = table_widths(lines);
    add_line(out,
             "CLAS " + pad("JOB", w.id + 2, true) + " " + pad("USER", w.user, false) + " " +
                 pad("#PE", w.pe, false) + " ST " + pad("MM:SS", w.time, false),
             width);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const Line& l = lines[i];
        const JobSpec& spec = l.job->spec;
        const std::string cls =
            l.cls < 0 ? std::string("-")
                      : class_label(cfg.classes.base.classes[static_cast<std::size_t>(l.cls)].name);
        std::string row =
            pad(cls, 4, true) + " " + l.letter + " " + pad(std::to_string(spec.id), w.id, true) +
            " " + pad(spec.user < 0 ? std::string("-") : std::to_string(spec.user), w.user, false) +
            " " + pad(std::to_string(spec.procs), w.pe, false) + " " + l.state + "  " +
            pad(w.times[i], w.time, false);
        add_line(out, row, width);
    }
}

std::string render(const rota_engine* e, std::int32_t width) {
    View v(*e->sched);
    list_jobs(v, listed_ids(e));
    const SchedulerConfig& cfg = v.s.config();
    const std::int32_t procs = cfg.procs;
    map_nodes(v, procs);
    std::string out;
    add_header(out, v, procs, width);
    add_map(out, v.node, procs, width);
    // The job table.
    add_table(out, v.lines, cfg, width);
    return out;
}

}  // namespace

namespace rota::capi {

void note_suspended(rota_engine* e, JobId id) {
    auto& v = e->suspended;
    // Drop the ids of jobs resumed, cancelled or ended since.
    v.erase(std::remove_if(v.begin(), v.end(),
                           [&](JobId x) {
                               const Job* j = e->sched->find(x);
                               return x == id || !j || j->state != JobState::suspended;
                           }),
            v.end());
    v.push_back(id);
}

}  // namespace rota::capi

extern "C" {

int rota_top(const rota_engine* e, int32_t width, char* out, size_t cap, size_t* n) {
    return capi::guard(e, [&] {
        if (!n) throw Error(Errc::invalid, "rota_top: the count pointer n is NULL");
        if (cap > 0 && !out) throw Error(Errc::invalid, "rota_top: out is NULL but cap > 0");
        if (width == 0) width = kDefaultWidth;
        if (width < kMinWidth || width > kMaxWidth)
            throw Error(Errc::invalid,
                        "rota_top: width must be 0 (80) or " + std::to_string(kMinWidth) + ".." +
                            std::to_string(kMaxWidth) + ", got " + std::to_string(width));
        const std::string text = render(e, width);
        *n = text.size();
        if (cap == 0) return ROTA_OK;  // a count query
        const std::size_t k = std::min(cap - 1, text.size());
        std::memcpy(out, text.data(), k);
        out[k] = '\0';
        return cap <= text.size() ? ROTA_ERANGE : ROTA_OK;
    });
}

}  // extern "C"
