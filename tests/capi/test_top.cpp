// rota_top(), [Feitelson97] §4.5's gangster display (Fig. 8), on hand-built
// schedules through the C ABI: the node map's letters on exact nodes,
// each state letter of Fig. 8's caption for the right job, the header,
// the list protocol (count, ERANGE) and an engine without [classes].
// Times are seconds.
#include <sstream>

#include "support.h"

using rota::test::engine_from;
using rota::test::EnginePtr;

namespace {

constexpr std::int64_t kUs = 1'000'000;

// Three classes on 8 processors: each processor's state takes 1 s to
// write out and 1 s to read back (swap_time 2).
const char* const kClasses = R"(
[machine]
procs = 8
[classes]
swap_time = 2
default = "production"
[[classes.class]]
name = "interactive"
priority = 4
max_wait = 0
dnd = 10
[[classes.class]]
name = "production"
priority = 3
max_wait = 3600
dnd = 10
[[classes.class]]
name = "standby"
priority = 1
dnd = 1
)";

void drain(rota_engine* e) {
    rota_action a{};
    a.size = sizeof(a);
    while (rota_next_action(e, &a) == ROTA_OK) {
        a = rota_action{};
        a.size = sizeof(a);
    }
}

std::int32_t class_of(rota_engine* e, const char* name) {
    std::int32_t c = -1;
    REQUIRE(rota_class_find(e, name, &c) == ROTA_OK);
    return c;
}

void submit(rota_engine* e, std::int64_t id, std::int32_t procs, std::int32_t cls,
            std::int32_t user = -1) {
    rota_job j{};
    j.size = sizeof(j);
    j.id = id;
    j.estimate = 10000 * kUs;
    j.procs = procs;
    j.user = user;
    j.job_class = cls;
    INFO(rota_errmsg(e));
    REQUIRE(rota_submit(e, &j) == ROTA_OK);
}

void at(rota_engine* e, std::int64_t t_s) {
    INFO(rota_errmsg(e));
    REQUIRE(rota_advance(e, t_s * kUs) == ROTA_OK);
    REQUIRE(rota_schedule(e) == ROTA_OK);
    drain(e);
}

std::string top(rota_engine* e, std::int32_t width = 80) {
    std::size_t n = 0;
    INFO(rota_errmsg(e));
    REQUIRE(rota_top(e, width, nullptr, 0, &n) == ROTA_OK);
    std::string s(n + 1, '\0');
    std::size_t n2 = 0;
    REQUIRE(rota_top(e, width, s.data(), s.size(), &n2) == ROTA_OK);
    REQUIRE(n2 == n);
    REQUIRE(s[n] == '\0');
    s.resize(n);
    return s;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

std::vector<std::string> words(const std::string& line) {
    std::vector<std::string> out;
    std::istringstream in(line);
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

// The node map's rows: from the one of node 0 to the empty line.
std::vector<std::string> map_rows(const std::string& text) {
    const auto ls = lines_of(text);
    std::size_t first = 0;
    while (first < ls.size() && (ls[first].empty() || words(ls[first])[0] != "0")) ++first;
    std::vector<std::string> rows;
    for (std::size_t i = first; i < ls.size() && !ls[i].empty(); ++i) rows.push_back(ls[i]);
    return rows;
}

// The node map: one letter per node.
std::string node_map(const std::string& text) {
    std::string nodes;
    for (const auto& r : map_rows(text)) {
        const auto w = words(r);
        for (std::size_t k = 1; k < w.size(); ++k) nodes += w[k];
    }
    return nodes;
}

struct Row {
    std::string cls;
    char letter = 0;
    std::string user, procs;
    char state = 0;
    std::string time;
};

// The job table's line of job `id`.
Row row_of(const std::string& text, std::int64_t id) {
    const auto ls = lines_of(text);
    bool table = false;
    for (const auto& l : ls) {
        if (l.rfind("CLAS", 0) == 0) {
            table = true;
            continue;
        }
        if (!table) continue;
        const auto w = words(l);
        REQUIRE(w.size() == 7);
        if (w[2] != std::to_string(id)) continue;
        REQUIRE(w[1].size() == 1);
        REQUIRE(w[5].size() == 1);
        return Row{w[0], w[1][0], w[3], w[4], w[5][0], w[6]};
    }
    FAIL("job " << id << " is not in the table:\n" << text);
    return {};
}

std::size_t table_size(const std::string& text) {
    const auto ls = lines_of(text);
    for (std::size_t i = 0; i < ls.size(); ++i)
        if (ls[i].rfind("CLAS", 0) == 0) return ls.size() - i - 1;
    return 0;
}

}  // namespace

TEST_CASE(
    "rota_top draws Fig. 8's node map and states through preemptions, a suspension and a "
    "pass-1 reservation",
    "[capi][top][classes]") {
    EnginePtr p = engine_from(kClasses);
    rota_engine* e = p.get();
    const std::int32_t inter = class_of(e, "interactive"), prod = class_of(e, "production"),
                       standby = class_of(e, "standby");
    // t=0: production 1 and standby 3 load side by side; standby 5 wants
    // the whole machine and waits.
    submit(e, 1, 4, prod, 17);
    submit(e, 3, 4, standby, 5);
    submit(e, 5, 8, standby);
    at(e, 0);
    std::string t = top(e);
    INFO(t);
    CHECK(lines_of(t)[0] == "time 00:00:00  period base  loaded 8/8  swapped 0  jobs 3");
    // Production first, then standby; letters go to the loaded jobs first.
    CHECK(row_of(t, 1).letter == 'a');
    CHECK(row_of(t, 3).letter == 'b');
    CHECK(row_of(t, 5).letter == 'c');
    CHECK(lines_of(t)[1] == "0 a a a a b b b b");
    CHECK(node_map(t) == "aaaabbbb");
    CHECK(row_of(t, 1).state == 'R');
    CHECK(row_of(t, 3).state == 'R');
    CHECK(row_of(t, 5).state == 'N');
    CHECK(row_of(t, 1).cls == "Prod");
    CHECK(row_of(t, 3).cls == "Stby");
    CHECK(row_of(t, 1).user == "17");
    CHECK(row_of(t, 5).user == "-");
    CHECK(row_of(t, 1).procs == "4");

    // t=5: production 2 arrives; standby 3 is past its do-not-disturb
    // time (4 s) and is preempted: its state is written out until t=9
    // (o) while job 2 holds nodes 4-7 and waits for them (W).
    submit(e, 2, 4, prod, 17);
    at(e, 5);
    t = top(e);
    INFO(t);
    CHECK(row_of(t, 1).letter == 'a');
    CHECK(row_of(t, 2).letter == 'b');
    CHECK(row_of(t, 3).letter == 'c');
    CHECK(row_of(t, 5).letter == 'd');
    CHECK(node_map(t) == "aaaabbbb");
    CHECK(row_of(t, 2).state == 'W');
    CHECK(row_of(t, 3).state == 'o');
    CHECK(row_of(t, 5).state == 'N');
    CHECK(row_of(t, 3).time == "00:05");
    CHECK(row_of(t, 1).time == "00:05");
    CHECK(row_of(t, 2).time == "00:00");
    CHECK(lines_of(t)[0].find("loaded 8/8  swapped 4  jobs 4") != std::string::npos);

    // t=20: job 3's state is on disk (O); job 2 computes since t=9.
    at(e, 20);
    t = top(e);
    INFO(t);
    CHECK(row_of(t, 3).state == 'O');
    CHECK(row_of(t, 2).state == 'R');
    CHECK(row_of(t, 2).time == "00:11");
    CHECK(row_of(t, 1).time == "00:20");

    // Its user suspends job 1 (S); job 3 loads onto nodes 0-3 and reads
    // its state back once job 1's is written out: swapping in (i) until
    // t=28.
    REQUIRE(rota_job_suspend(e, 1) == ROTA_OK);
    at(e, 20);
    t = top(e);
    INFO(t);
    CHECK(row_of(t, 1).state == 'S');
    CHECK(row_of(t, 3).state == 'i');
    CHECK(row_of(t, 3).time == "00:05");
    CHECK(row_of(t, 1).time == "00:20");
    CHECK(row_of(t, 2).letter == 'a');
    CHECK(row_of(t, 3).letter == 'b');
    CHECK(row_of(t, 1).letter == 'c');
    CHECK(node_map(t) == "bbbbaaaa");
    CHECK(table_size(t) == 4);

    // t=21: an interactive job for the whole machine is past its maximum
    // wait (0): pass 1 reserves every processor for it (W); their jobs
    // leave as their do-not-disturb times end.
    submit(e, 4, 8, inter, 3);
    at(e, 21);
    t = top(e);
    INFO(t);
    CHECK(row_of(t, 4).cls == "Int");
    CHECK(row_of(t, 4).state == 'W');
    CHECK(row_of(t, 4).letter == 'c');
    CHECK(row_of(t, 1).letter == 'd');
    CHECK(row_of(t, 5).letter == 'e');
    CHECK(row_of(t, 3).state == 'i');
    CHECK(row_of(t, 5).state == 'N');
    CHECK(lines_of(t)[0].find("jobs 5  reserved 8 for c") != std::string::npos);
    // Interactive first, then production, then standby.
    const auto ls = lines_of(t);
    std::vector<std::string> order;
    for (std::size_t i = 0; i < ls.size(); ++i)
        if (ls[i].rfind("CLAS", 0) == 0)
            for (std::size_t k = i + 1; k < ls.size(); ++k) order.push_back(words(ls[k])[2]);
    CHECK(order == std::vector<std::string>{"4", "2", "1", "3", "5"});

    // t=22: resumed, job 1 waits while its state is still being written
    // out (o); t=25: it is on disk (O). Job 3 is past its do-not-disturb
    // time (t=24) but still swapping in: a loaded job executes as long as
    // its load took (8 s, to t=36) before it is swapped out again. Then it
    // leaves the reserved set for job 4 (o).
    REQUIRE(rota_job_resume(e, 1) == ROTA_OK);
    at(e, 22);
    CHECK(row_of(top(e), 1).state == 'o');
    at(e, 25);
    t = top(e);
    INFO(t);
    CHECK(row_of(t, 1).state == 'O');
    CHECK(row_of(t, 3).state == 'i');
    CHECK(row_of(t, 4).state == 'W');
    at(e, 35);
    CHECK(row_of(top(e), 3).state == 'R');
    at(e, 36);
    t = top(e);
    INFO(t);
    CHECK(row_of(t, 3).state == 'o');
    CHECK(row_of(t, 4).state == 'W');
    CHECK(node_map(t) == "....aaaa");
}

TEST_CASE("rota_top lays the node map out in rows that fit the width", "[capi][top]") {
    EnginePtr p = engine_from(R"(
[machine]
procs = 256
[classes]
preset = "llnl-t3d"
)");
    rota_engine* e = p.get();
    submit(e, 1, 100, 0);
    submit(e, 2, 28, class_of(e, "interactive"));
    at(e, 0);
    const std::string t80 = top(e, 80);
    INFO(t80);
    const auto ls = lines_of(t80);
    // One header line, then 32 nodes a row, spaced, each row led by its
    // first node's number, then an empty line.
    REQUIRE(ls.size() > 9);
    // Monday 00:00 is in the preset's night (18:00-07:00).
    CHECK(ls[0] == "time 00:00:00  period night  loaded 128/256  swapped 0  jobs 2");
    CHECK(ls[1].rfind("  0 ", 0) == 0);
    CHECK(ls[2].rfind(" 32 ", 0) == 0);
    CHECK(ls[8].rfind("224 ", 0) == 0);
    CHECK(ls[9].empty());
    CHECK(words(ls[1]).size() == 33);
    for (const auto& l : ls) CHECK(l.size() <= 80);
    const std::string nodes = node_map(t80);
    REQUIRE(nodes.size() == 256);
    // The interactive job (a, listed first) and the production job (b):
    // 128 processors loaded in all, the rest idle.
    CHECK(std::count(nodes.begin(), nodes.end(), 'a') == 28);
    CHECK(std::count(nodes.begin(), nodes.end(), 'b') == 100);
    CHECK(std::count(nodes.begin(), nodes.end(), '.') == 128);
    for (std::int64_t id : {1, 2}) {
        std::int32_t got[256];
        std::size_t n = 0;
        REQUIRE(rota_job_nodes(e, id, got, 256, &n) == ROTA_OK);
        for (std::size_t k = 0; k < n; ++k)
            CHECK(nodes[static_cast<std::size_t>(got[k])] == (id == 2 ? 'a' : 'b'));
    }

    // 64 a row, spaced, at 132 columns; packed, 32 a row, at 40, where the
    // header takes two lines.
    auto rows = map_rows(top(e, 132));
    REQUIRE(rows.size() == 4);
    CHECK(rows[1].rfind(" 64 ", 0) == 0);
    CHECK(rows[1].size() == 4 + 127);
    const std::string t40 = top(e, 40);
    rows = map_rows(t40);
    REQUIRE(rows.size() == 8);
    CHECK(rows[1].rfind(" 32 ", 0) == 0);
    CHECK(rows[1].size() == 4 + 32);
    CHECK(lines_of(t40)[0] == "time 00:00:00  period night");
    for (const auto& l : lines_of(t40)) CHECK(l.size() <= 40);
    std::string packed;
    for (const auto& r : rows) packed += r.substr(4);
    CHECK(packed == nodes);
}

TEST_CASE("rota_top without classes shows one class and states N and R", "[capi][top]") {
    EnginePtr p = engine_from(R"(
[machine]
procs = 8
[scheduler]
preset = "easy"
)");
    rota_engine* e = p.get();
    submit(e, 10, 6, 0, 2);
    submit(e, 11, 4, 0, 2);
    submit(e, 12, 2, 0);
    at(e, 0);
    at(e, 65);
    const std::string t = top(e);
    INFO(t);
    CHECK(lines_of(t)[0].find("period -") != std::string::npos);
    CHECK(row_of(t, 10).cls == "-");
    CHECK(row_of(t, 10).state == 'R');
    CHECK(row_of(t, 12).state == 'R');  // backfilled
    CHECK(row_of(t, 11).state == 'N');
    CHECK(row_of(t, 10).time == "01:05");
    CHECK(row_of(t, 12).user == "-");
    CHECK(node_map(t) == "aaaaaabb");
    CHECK(row_of(t, 11).letter == 'c');
}

TEST_CASE("rota_top follows the list protocol: a count, ERANGE with a short buffer, bad arguments",
          "[capi][top]") {
    EnginePtr p = engine_from(kClasses);
    rota_engine* e = p.get();
    submit(e, 1, 3, 0);
    at(e, 0);
    std::size_t n = 0;
    REQUIRE(rota_top(e, 0, nullptr, 0, &n) == ROTA_OK);
    const std::string full = top(e, 80);
    CHECK(n == full.size());
    CHECK(full.back() == '\n');
    // Too short: filled up to cap - 1 and terminated.
    std::vector<char> small(10, 'z');
    std::size_t m = 0;
    CHECK(rota_top(e, 80, small.data(), small.size(), &m) == ROTA_ERANGE);
    CHECK(m == n);
    CHECK(std::string(small.data()) == full.substr(0, 9));
    // Exactly the text without room for the NUL is too short too.
    std::vector<char> exact(n, 'z');
    CHECK(rota_top(e, 80, exact.data(), exact.size(), &m) == ROTA_ERANGE);
    std::vector<char> enough(n + 1, 'z');
    CHECK(rota_top(e, 80, enough.data(), enough.size(), &m) == ROTA_OK);
    CHECK(std::string(enough.data()) == full);

    CHECK(rota_top(e, 39, nullptr, 0, &n) == ROTA_EINVAL);
    CHECK(std::string(rota_errmsg(e)).find("width") != std::string::npos);
    CHECK(rota_top(e, 2000, nullptr, 0, &n) == ROTA_EINVAL);
    CHECK(rota_top(e, 80, nullptr, 5, &n) == ROTA_EINVAL);
    CHECK(rota_top(e, 80, nullptr, 0, nullptr) == ROTA_EINVAL);
    CHECK(rota_top(nullptr, 80, nullptr, 0, &n) == ROTA_EINVAL);
}

TEST_CASE("rota_top letters wrap from a-z to A-Z and then to #", "[capi][top]") {
    EnginePtr p = engine_from(R"(
[machine]
procs = 64
[scheduler]
preset = "fcfs"
)");
    rota_engine* e = p.get();
    for (std::int64_t id = 0; id < 60; ++id) submit(e, id, 1, 0);
    at(e, 0);
    const std::string t = top(e);
    INFO(t);
    CHECK(row_of(t, 0).letter == 'a');
    CHECK(row_of(t, 25).letter == 'z');
    CHECK(row_of(t, 26).letter == 'A');
    CHECK(row_of(t, 51).letter == 'Z');
    CHECK(row_of(t, 52).letter == '#');
    CHECK(row_of(t, 59).letter == '#');
    const std::string nodes = node_map(t);
    CHECK(nodes.substr(0, 4) == "abcd");
    CHECK(nodes.substr(52, 8) == "########");
    CHECK(nodes.substr(60) == "....");
}
