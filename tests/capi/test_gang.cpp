// Gang scheduling ([Zhang00] §4-5): the matrix phases worked out by hand,
// the identities with space sharing at MPL 1, and the matrix invariants
// after every pass.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "shadow_matrix.h"
#include "sim/generate.h"
#include "sim/swf.h"
#include "support.h"

using namespace rota;

namespace {

constexpr rota_time kS = 1'000'000;

struct Driver {
    rota::test::EnginePtr e;
    std::vector<rota_action> actions{};

    void submit(int64_t id, int32_t procs, int64_t est_s, const char* account = nullptr,
                int32_t user = 0) {
        rota_job j{};
        j.size = sizeof(rota_job);
        j.id = id;
        j.procs = procs;
        j.estimate = est_s * kS;
        j.account = account;
        j.user = user;
        REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    }
    void at(int64_t t_s) { REQUIRE(rota_advance(e.get(), t_s * kS) == ROTA_OK); }
    void end(int64_t id) { REQUIRE(rota_job_end(e.get(), id) == ROTA_OK); }
    void pass() {
        REQUIRE(rota_schedule(e.get()) == ROTA_OK);
        actions.clear();
        rota_action a{};
        a.size = sizeof(rota_action);
        while (rota_next_action(e.get(), &a) == ROTA_OK) actions.push_back(a);
    }
    // Row r as the figures show it: job ids per column, -1 empty.
    std::vector<int64_t> row(int32_t r) {
        std::vector<int64_t> v(64);
        size_t n = 0;
        REQUIRE(rota_matrix_row(e.get(), r, v.data(), v.size(), &n) == ROTA_OK);
        v.resize(n);
        return v;
    }
    int32_t home(int64_t id) {
        int32_t h = -1;
        uint32_t m = 0;
        REQUIRE(rota_job_rows(e.get(), id, &h, &m) == ROTA_OK);
        return h;
    }
    bool did(int type, int64_t job, int32_t row) const {
        for (const auto& a : actions)
            if (a.type == type && a.job == job && a.row == row) return true;
        return false;
    }
};

using Row = std::vector<int64_t>;

}  // namespace

// [Zhang00] §4.2/§5.1 on 8 nodes with MPL 4 (the machine of Figure 7).
//   t=0: A(6) B(6) C(2). Schedule (best fit, FCFS): A row 0 P0-5, B row 1
//   P0-5 (row 0 has 2 free), C row 0 P6-7. FillMatrix in start order,
//   repeated while the matrix changes: A into row 2, B into row 3 (row 2
//   taken), C into row 1, then row 2, then row 3.
//   t=50: A ends. CleanMatrix drops the replicas; CompactMatrix moves C from
//   row 0 (2 used) into the fuller row 1, emptying row 0; E(8) arrives and
//   best fit puts it in row 0; FillMatrix replicates B and C into row 2
//   and E into row 3.
TEST_CASE("gang: Figure 7 machine, clean, compact, schedule and fill by hand") {
    Driver d{rota::test::gang_engine("gs", 8, 4)};
    d.submit(1, 6, 1000);  // A
    d.submit(2, 6, 1000);  // B
    d.submit(3, 2, 1000);  // C
    d.pass();
    CHECK(d.row(0) == Row{1, 1, 1, 1, 1, 1, 3, 3});
    CHECK(d.row(1) == Row{2, 2, 2, 2, 2, 2, 3, 3});
    CHECK(d.row(2) == Row{1, 1, 1, 1, 1, 1, 3, 3});
    CHECK(d.row(3) == Row{2, 2, 2, 2, 2, 2, 3, 3});
    CHECK(d.home(1) == 0);
    CHECK(d.home(2) == 1);
    CHECK(d.home(3) == 0);
    CHECK(d.did(ROTA_ACTION_REPLICATE, 1, 2));
    CHECK(d.did(ROTA_ACTION_REPLICATE, 3, 1));

    d.at(50);
    d.end(1);
    d.submit(5, 8, 1000);  // E
    d.pass();
    CHECK(d.home(3) == 1);  // compacted into the fuller row
    CHECK(d.did(ROTA_ACTION_MOVE, 3, 1));
    CHECK(d.home(5) == 0);
    CHECK(d.row(0) == Row{5, 5, 5, 5, 5, 5, 5, 5});
    CHECK(d.row(1) == Row{2, 2, 2, 2, 2, 2, 3, 3});
    CHECK(d.row(2) == Row{2, 2, 2, 2, 2, 2, 3, 3});
    CHECK(d.row(3) == Row{5, 5, 5, 5, 5, 5, 5, 5});
    int32_t free_cols[8];
    size_t n = 99;
    REQUIRE(rota_row_free_nodes(d.e.get(), 1, free_cols, 8, &n) == ROTA_OK);
    CHECK(n == 0);
    CHECK(rota_row_free_nodes(d.e.get(), 4, free_cols, 8, &n) == ROTA_EINVAL);
}

// Slices rotate over the rows; a job in two of four rows runs half the time.
TEST_CASE("gang: the active row rotates every slice with suspend and resume") {
    Driver d{rota::test::gang_engine("gs", 4, 2, 100)};
    d.submit(1, 4, 1000);
    d.submit(2, 4, 1000);  // row 1: the machine is full in both rows
    d.pass();
    int32_t active = -1;
    REQUIRE(rota_active_row(d.e.get(), &active) == ROTA_OK);
    CHECK(active == 0);
    CHECK(d.did(ROTA_ACTION_RESUME, 1, 0));
    rota_time w = 0;
    REQUIRE(rota_next_wakeup(d.e.get(), &w) == ROTA_OK);
    CHECK(w == 100 * kS);
    d.at(100);
    d.pass();
    std::vector<rota_action> acts;
    REQUIRE(rota_active_row(d.e.get(), &active) == ROTA_OK);
    CHECK(active == 1);
}

// BGS (§5.2): a move in CompactMatrix must not break a reservation of the
// target row. 8 nodes, MPL 2, windows are estimate x 2.
//   t=0: A(4, est 100) row 0 P0-3; B(4, est 1000) row 0 P4-7 (best fit);
//   C(4, est 100) row 1 P0-3; D(8, est 100) cannot start: row 0 frees 8 at
//   2000 (B), row 1 at 200 (C), so D is reserved in row 1 at 200.
//   t=50: A ends. Rows 0 and 1 hold 4 each; moving B into row 1 would hold
//   P4-7 there until 2000, across D's reservation: BGS refuses, GS moves.
TEST_CASE("gang: a BGS reservation stops a compaction that GS makes") {
    for (const char* policy : {"bgs", "gs"}) {
        INFO(policy);
        Driver d{rota::test::gang_engine(policy, 8, 2)};
        d.submit(1, 4, 100);
        d.submit(2, 4, 1000);
        d.submit(3, 4, 100);
        d.submit(4, 8, 100);
        d.pass();
        REQUIRE(d.home(1) == 0);
        REQUIRE(d.home(2) == 0);
        REQUIRE(d.home(3) == 1);
        rota_reservation rs[2];
        rs[0].size = sizeof(rota_reservation);
        size_t n = 0;
        REQUIRE(rota_reservations(d.e.get(), rs, 2, &n) == ROTA_OK);
        if (std::string(policy) == "bgs") {
            REQUIRE(n == 1);
            CHECK(rs[0].job == 4);
            CHECK(rs[0].row == 1);
            CHECK(rs[0].start == 200 * kS);
        } else {
            CHECK(n == 0);  // GS makes no reservations
        }
        d.at(50);
        d.end(1);
        d.pass();
        CHECK(d.home(2) == (std::string(policy) == "bgs" ? 0 : 1));
    }
}

namespace {

// The matrix invariants, through the public queries, after a pass.
void check_matrix(rota_engine* e, std::int32_t procs) {
    rota_machine_info mi{};
    mi.size = sizeof(mi);
    REQUIRE(rota_machine_info_get(e, &mi) == ROTA_OK);
    std::map<int64_t, std::set<int32_t>> cols_in_row[32];
    std::map<int64_t, uint32_t> seen_rows;
    for (int32_t r = 0; r < mi.rows; ++r) {
        std::vector<int64_t> row(static_cast<size_t>(procs));
        size_t n = 0;
        REQUIRE(rota_matrix_row(e, r, row.data(), row.size(), &n) == ROTA_OK);
        for (int32_t c = 0; c < procs; ++c) {
            int64_t id = row[static_cast<size_t>(c)];
            if (id < 0) continue;
            cols_in_row[r][id].insert(c);
            seen_rows[id] |= 1u << r;
        }
    }
    size_t nrun = 0;
    rota_running(e, nullptr, 0, &nrun);
    std::vector<int64_t> running(nrun);
    REQUIRE(rota_running(e, running.data(), nrun, &nrun) == ROTA_OK);
    REQUIRE(seen_rows.size() == running.size());  // every running job is in the matrix
    for (int64_t id : running) {
        int32_t home = -1;
        uint32_t mask = 0;
        REQUIRE(rota_job_rows(e, id, &home, &mask) == ROTA_OK);
        // Exactly one home row, which the job holds; it holds the rows it says.
        REQUIRE(home >= 0);
        REQUIRE((mask >> home) & 1u);
        REQUIRE(mask == seen_rows[id]);
        // Replicas sit in the home columns; every column count is the width.
        rota_job_info info{};
        info.size = sizeof(info);
        REQUIRE(rota_job_info_get(e, id, &info) == ROTA_OK);
        const auto& home_cols = cols_in_row[home][id];
        REQUIRE(static_cast<int32_t>(home_cols.size()) == info.procs);
        for (int32_t r = 0; r < mi.rows; ++r)
            if ((mask >> r) & 1u) REQUIRE(cols_in_row[r][id] == home_cols);
    }
}

}  // namespace

TEST_CASE(
    "gang: matrix invariants after every pass, all four policies on traces and a generated load",
    "[gang][properties]") {
    std::vector<std::pair<std::string, std::vector<sim::TraceJob>>> loads;
    std::vector<std::int32_t> procs;
    for (const char* rel : {"traces/KTH-SP2-1996-2.1-cln.swf.gz", "traces/lublin_256.swf"}) {
        std::string path = rota::test::shared_path(rel);
        if (path.empty()) continue;
        auto t = sim::load_trace(path, sim::Mapping::standard);
        if (t.jobs.size() > 1500) t.jobs.resize(1500);
        procs.push_back(t.header.max_procs > 0 ? t.header.max_procs : t.header.max_nodes);
        loads.emplace_back(rel, std::move(t.jobs));
    }
    sim::GenerateOptions g;
    g.jobs = 800;
    g.procs = 64;
    g.load = 1.0;
    g.seed = 5;
    loads.emplace_back("generated", sim::generate(g));
    procs.push_back(64);
    for (std::size_t k = 0; k < loads.size(); ++k) {
        for (const char* policy : {"gs", "bgs", "mgs", "mbgs"}) {
            INFO(loads[k].first << ", " << policy);
            auto e = rota::test::gang_engine(policy, procs[k], 5, 200, 10.0, 64);
            sim::SimOptions opt;
            opt.cs_overhead = 0.01;
            std::uint64_t passes = 0;
            opt.after_pass = [&](rota_engine* eng, std::int64_t) {
                ++passes;
                check_matrix(eng, procs[k]);
            };
            auto r = sim::simulate(e.get(), loads[k].second, opt);
            CHECK(passes > 0);
            for (const auto& o : r.jobs) {
                CHECK(o.state != sim::FinalState::unfinished);
                if (o.state == sim::FinalState::finished) CHECK(o.run_time <= o.requested_time);
            }
        }
    }
}

namespace {

void check_identity(const char* space, const char* gang, const char* rel) {
    std::string path = rota::test::shared_path(rel);
    if (path.empty()) return;
    auto t = sim::load_trace(path, sim::Mapping::standard);
    const std::int32_t procs = t.header.max_procs;
    auto a = rota::test::preset_engine(space, procs);
    auto b = rota::test::gang_engine(gang, procs, 1);
    auto ra = sim::simulate(a.get(), t.jobs, {});
    auto rb = sim::simulate(b.get(), t.jobs, {});
    std::size_t differ = 0;
    for (std::size_t i = 0; i < ra.jobs.size(); ++i)
        if (ra.jobs[i].start != rb.jobs[i].start || ra.jobs[i].finish != rb.jobs[i].finish)
            ++differ;
    INFO(gang << "-1 against " << space << " on " << rel);
    CHECK(differ == 0);
}

}  // namespace

TEST_CASE("gang: GS with MPL 1 is FCFS, job for job, on real traces", "[gang][differential]") {
    check_identity("fcfs", "gs", "traces/KTH-SP2-1996-2.1-cln.swf.gz");
    check_identity("fcfs", "gs", "traces/SDSC-SP2-1998-4.2-cln.swf.gz");
    check_identity("fcfs", "gs", "traces/CTC-SP2-1996-3.1-cln.swf.gz");
}

TEST_CASE("gang: BGS with MPL 1 is conservative backfilling, job for job, on real traces",
          "[gang][differential]") {
    check_identity("conservative", "bgs", "traces/KTH-SP2-1996-2.1-cln.swf.gz");
    check_identity("conservative", "bgs", "traces/SDSC-SP2-1998-4.2-cln.swf.gz");
    check_identity("conservative", "bgs", "traces/CTC-SP2-1996-3.1-cln.swf.gz");
}

namespace {

const rota_action* find_action(const std::vector<rota_action>& acts, int type, int64_t job) {
    for (const auto& a : acts)
        if (a.type == type && a.job == job) return &a;
    return nullptr;
}

// [Zhang00] §5.4, Figure 13, on 10 nodes with MPL 2 and C = 10 s.
//   t=0: Y(4) row 0 P0-3, S(3) row 0 P4-6, Z(3) row 0 P7-9; W(4) row 1
//   P0-3, A(2) row 1 P4-5.  t=10: Z and W end. Row 1 holds only A; A's
//   columns are taken by S in the fuller row 0, which has 3 free (P7-9):
//   a CollapseMatrix-2 candidate with S(A) = {S}:
//     option 1, eq. (4): C/2 x |A| + C x |S| = 5 x 2 + 10 x 3 = 40
//     option 2, eq. (5): C x |A| + C/2 x |S| = 10 x 2 + 5 x 3 = 35
// A may be charged to `a_account` (user 6 then).
Driver figure13(const std::string& script, std::int64_t q, const char* a_account = nullptr) {
    std::string extra;
    if (!script.empty()) extra = "[policy.migration_option]\nscript = \"" + script + "\"\n";
    Driver d{rota::test::gang_engine("mgs", 10, 2, 200, 10.0, q, extra)};
    d.submit(1, 4, 1000);                                // Y
    d.submit(2, 3, 1000);                                // S
    d.submit(3, 3, 1000);                                // Z
    d.submit(4, 4, 1000);                                // W
    d.submit(5, 2, 1000, a_account, a_account ? 6 : 0);  // A
    d.pass();
    REQUIRE(d.row(0) == Row{1, 1, 1, 1, 2, 2, 2, 3, 3, 3});
    REQUIRE(d.home(5) == 1);
    d.at(10);
    d.end(3);
    d.end(4);
    d.pass();
    return d;
}

}  // namespace

TEST_CASE("gang: Figure 13, min cost chooses option 2 (35 < 40) and charges eq. (5)") {
    Driver d = figure13("", -1);  // the preset's migration/min_cost.lua
    const rota_action* a = find_action(d.actions, ROTA_ACTION_MIGRATE, 5);
    REQUIRE(a != nullptr);
    CHECK(a->option == 2);
    CHECK(a->row == 0);
    CHECK(a->from_row == 1);
    CHECK(a->delay == 10 * kS);  // A: checkpoint and restart, C
    REQUIRE(a->nruns == 1);
    CHECK(a->runs[0].first == 7);  // the free columns of row 0
    CHECK(a->runs[0].count == 2);
    const rota_action* s = find_action(d.actions, ROTA_ACTION_MIGRATE, 2);
    REQUIRE(s != nullptr);
    CHECK(s->delay == 5 * kS);  // S: waits C/2 for A's checkpoint
    CHECK(d.home(5) == 0);
    rota_counters c{};
    c.size = sizeof(c);
    REQUIRE(rota_counters_get(d.e.get(), &c) == ROTA_OK);
    CHECK(c.migrated_tasks >= 2);
    CHECK(rota::test::hook_stats(d.e.get(), ROTA_HOOK_MIGRATION_OPTION).calls >= 1);
}

TEST_CASE("gang: Figure 13 with option 1 moves S and keeps A's columns, eq. (4)") {
    Driver d = figure13("migration/option1_only.lua", -1);
    const rota_action* s = find_action(d.actions, ROTA_ACTION_MIGRATE, 2);
    REQUIRE(s != nullptr);
    CHECK(s->option == 1);
    CHECK(s->delay == 10 * kS);  // S: checkpoint and restart on new columns
    REQUIRE(s->nruns == 1);
    CHECK(s->runs[0].first == 6);
    CHECK(s->runs[0].count == 3);
    const rota_action* a = find_action(d.actions, ROTA_ACTION_MIGRATE, 5);
    REQUIRE(a != nullptr);
    CHECK(a->delay == 5 * kS);  // A: checkpoint only, C/2
    CHECK(d.home(5) == 0);
    CHECK(d.row(0) == Row{1, 1, 1, 1, 5, 5, 2, 2, 2, -1});
}

TEST_CASE("gang: a migration over the budget Q is refused") {
    // Option 1 would migrate |S| = 3 tasks; Q = 2 allows none of them.
    Driver d = figure13("migration/option1_only.lua", 2);
    // S keeps its columns (FillMatrix-2 may still replicate it, moving A
    // within row 1 for 2 tasks, which Q allows).
    const rota_action* s = find_action(d.actions, ROTA_ACTION_MIGRATE, 2);
    if (s) CHECK(s->runs[0].first == 4);
    CHECK(d.row(0)[4] == 2);
    CHECK(d.home(5) == 1);  // A did not move to row 0
    rota_counters c{};
    c.size = sizeof(c);
    REQUIRE(rota_counters_get(d.e.get(), &c) == ROTA_OK);
    CHECK(c.migrated_tasks <= 2);
}

TEST_CASE("gang: never.lua keeps CollapseMatrix-2 from migrating") {
    Driver d = figure13("migration/never.lua", -1);
    CHECK(d.home(5) == 1);
    CHECK(d.home(2) == 0);
}

TEST_CASE("gang: MGS and MBGS keep the invariants and Q on a loaded machine",
          "[gang][properties]") {
    sim::GenerateOptions g;
    g.jobs = 800;
    g.procs = 64;
    g.load = 1.0;
    g.seed = 9;
    const auto jobs = sim::generate(g);
    for (const char* policy : {"mgs", "mbgs"}) {
        INFO(policy);
        const std::int64_t q = 16;
        auto e = rota::test::gang_engine(policy, 64, 5, 200, 10.0, q);
        sim::SimOptions opt;
        opt.cs_overhead = 0.01;
        std::map<std::int64_t, std::uint64_t> migrated_by_slice;
        std::uint64_t last = 0;
        opt.after_pass = [&](rota_engine* eng, std::int64_t now) {
            check_matrix(eng, 64);
            rota_counters c{};
            c.size = sizeof(c);
            REQUIRE(rota_counters_get(eng, &c) == ROTA_OK);
            migrated_by_slice[now / (200 * kS)] += c.migrated_tasks - last;
            last = c.migrated_tasks;
        };
        auto r = sim::simulate(e.get(), jobs, opt);
        CHECK(r.counters.migrated_tasks > 0);
        for (const auto& [slice, tasks] : migrated_by_slice)
            CHECK(tasks <= static_cast<std::uint64_t>(q));
        for (const auto& o : r.jobs) CHECK(o.state != sim::FinalState::unfinished);
    }
}

TEST_CASE("gang: a migration_option script sees each move's user, account, partition and QOS",
          "[names]") {
    namespace fs = std::filesystem;
    // Option 2 for a job of user 6 charged to "movable" (with no partition
    // or QOS), no migration otherwise.
    fs::path script =
        fs::temp_directory_path() / ("rota-mig-names-" + std::to_string(::getpid()) + ".lua");
    std::ofstream(script) << R"(return { migration_option = function(m)
  local o = {}
  for i = 1, m.n do
    local movable = m.account[i] == "movable" and m.user[i] == 6
    o[i] = (movable and m.partition[i] == "" and m.qos[i] == "") and 2 or 0
  end
  return o
end })";
    SECTION("A is charged to movable: it migrates by option 2, as min cost would") {
        Driver d = figure13(script.string(), -1, "movable");
        const rota_action* a = find_action(d.actions, ROTA_ACTION_MIGRATE, 5);
        REQUIRE(a != nullptr);
        CHECK(a->option == 2);
        CHECK(d.home(5) == 0);
        CHECK(rota::test::hook_stats(d.e.get(), ROTA_HOOK_MIGRATION_OPTION).failures == 0);
    }
    SECTION("A is charged to another account: it stays") {
        Driver d = figure13(script.string(), -1, "pinned");
        CHECK(d.home(5) == 1);
        CHECK(rota::test::hook_stats(d.e.get(), ROTA_HOOK_MIGRATION_OPTION).calls >= 1);
        CHECK(rota::test::hook_stats(d.e.get(), ROTA_HOOK_MIGRATION_OPTION).failures == 0);
    }
    fs::remove(script);
}

TEST_CASE("gang: a broken migration_option script is counted and no migration happens") {
    namespace fs = std::filesystem;
    fs::path script =
        fs::temp_directory_path() / ("rota-bad-mig-" + std::to_string(::getpid()) + ".lua");
    std::ofstream(script) << "return { migration_option = function(m)\n"
                             "  if m.n == 0 then return {} end\n  return { 3 }\nend }\n";
    Driver d = figure13(script.string(), -1);
    rota_set_log(d.e.get(), nullptr, nullptr);
    CHECK(rota::test::hook_stats(d.e.get(), ROTA_HOOK_MIGRATION_OPTION).failures == 1);
    CHECK(d.home(5) == 1);  // the fallback: A stays in its row
    fs::remove(script);
}

// The action stream, applied in order to a copy of the matrix, never puts
// a job on a cell another job holds and always ends equal to the engine's
// matrix, with and without migration.
TEST_CASE("gang: the actions of every pass describe the matrix, migrations included") {
    for (const char* policy : {"gs", "bgs", "mgs", "mbgs"}) {
        INFO(policy);
        const int32_t procs = 32, rows = 4;
        auto e = rota::test::gang_engine(policy, procs, rows, 100, 10.0, -1);
        rota_engine* eng = e.get();
        rota::test::shadow_matrix_run(eng, procs, rows, 12345);
        rota_counters c{};
        c.size = sizeof(c);
        REQUIRE(rota_counters_get(eng, &c) == ROTA_OK);
        if (std::string(policy)[0] == 'm') CHECK(c.migrated_tasks > 0);
    }
}

namespace {

std::vector<rota_reservation> reservations_of(rota_engine* e) {
    std::size_t n = 0;
    rota_reservations(e, nullptr, 0, &n);
    std::vector<rota_reservation> rs(n);
    if (n > 0) rs[0].size = sizeof(rota_reservation);
    REQUIRE(rota_reservations(e, rs.data(), n, &n) == ROTA_OK);
    return rs;
}

// 4 nodes, MPL 2, windows are estimate x 2. A(3) fills row 0 but column 3,
// B(3) row 1 but column 3 (best fit: row 0 cannot hold it). C(4) can start
// in neither: reserved in row 0 at 200 (A's window ends then; row 1 ties,
// the lowest row wins).
void abc(Driver& d) {
    d.submit(1, 3, 100);  // A
    d.submit(2, 3, 100);  // B
    d.submit(3, 4, 100);  // C
}

}  // namespace

// BGS runs the same walk as conservative backfilling in every row, and its
// candidates go to the configured backfill_select: D(1, 50), E(1, 50) and
// F(1, 300) each fit now in some row without touching a reservation (F only
// in row 1: in row 0 its window would cross C's). A script that answers the
// candidates last first starts F (row 1, column 3) and E (row 0, column 3);
// D then fits nowhere and is reserved in row 0 at 100, when E's window
// ends. First fit (the preset's script) starts D in row 0 and E in row 1,
// and reserves F in row 1 at 100.
TEST_CASE("gang: BGS hands its candidates to a Lua backfill_select and obeys it") {
    namespace fs = std::filesystem;
    fs::path script =
        fs::temp_directory_path() / ("rota-last-first-" + std::to_string(::getpid()) + ".lua");
    std::ofstream(script) << "return { backfill_select = function(c)\n"
                             "  local picks = {}\n"
                             "  for i = c.n, 1, -1 do picks[#picks + 1] = i end\n"
                             "  return picks\nend }\n";
    auto reserved = [](rota_engine* e) {
        std::map<int64_t, std::pair<int32_t, rota_time>> m;
        for (const auto& r : reservations_of(e)) m[r.job] = {r.row, r.start};
        return m;
    };
    using R = std::map<int64_t, std::pair<int32_t, rota_time>>;
    {
        Driver d{rota::test::gang_engine(
            "bgs", 4, 2, 100, 0, -1,
            "[policy.backfill_select]\nscript = \"" + script.string() + "\"\n")};
        abc(d);
        d.submit(4, 1, 50);   // D
        d.submit(5, 1, 50);   // E
        d.submit(6, 1, 300);  // F
        d.pass();
        CHECK(d.did(ROTA_ACTION_START, 6, 1));
        CHECK(d.did(ROTA_ACTION_START, 5, 0));
        CHECK(d.row(1) == Row{2, 2, 2, 6});
        CHECK(d.row(0) == Row{1, 1, 1, 5});
        CHECK(reserved(d.e.get()) == R{{3, {0, 200 * kS}}, {4, {0, 100 * kS}}});
        const rota_hook_stats st = rota::test::hook_stats(d.e.get(), ROTA_HOOK_BACKFILL_SELECT);
        CHECK(st.calls == 1);
        CHECK(st.failures == 0);
    }
    {
        Driver d{rota::test::gang_engine("bgs", 4, 2, 100)};
        abc(d);
        d.submit(4, 1, 50);
        d.submit(5, 1, 50);
        d.submit(6, 1, 300);
        d.pass();
        CHECK(d.row(0) == Row{1, 1, 1, 4});
        CHECK(d.row(1) == Row{2, 2, 2, 5});
        CHECK(reserved(d.e.get()) == R{{3, {0, 200 * kS}}, {6, {1, 100 * kS}}});
        CHECK(rota::test::hook_stats(d.e.get(), ROTA_HOOK_BACKFILL_SELECT).calls >= 1);
    }
    fs::remove(script);
}

// reservation_depth holds per row under gang scheduling: with depth 1
// (preset easy and a [gang] table) each row holds at most one reservation,
// EASY per row; BGS (unlimited) reserves for every waiting job; depth 0
// (FPFS per row) for none. After A, B, C as above: G(4) is reserved in row
// 1 at 200 under both (row 0 holds C); H(4) is reserved in row 0 at 400
// under BGS (after C, tie with row 1 after G) and not at all per-row EASY.
TEST_CASE("gang: reservation_depth per row turns BGS into EASY per row") {
    auto run = [](const std::string& preset) {
        Driver d{rota::test::preset_engine(preset, 4, 10, "[gang]\nmpl = 2\nslice = 100\n")};
        abc(d);
        d.submit(7, 4, 100);  // G
        d.submit(8, 4, 100);  // H
        d.pass();
        std::vector<std::tuple<int64_t, int32_t, rota_time>> v;
        for (const auto& r : reservations_of(d.e.get())) v.emplace_back(r.job, r.row, r.start);
        rota_machine_info mi{};
        mi.size = sizeof(mi);
        REQUIRE(rota_machine_info_get(d.e.get(), &mi) == ROTA_OK);
        CHECK(mi.rows == 2);
        return v;
    };
    using V = std::vector<std::tuple<int64_t, int32_t, rota_time>>;
    CHECK(run("conservative") == V{{3, 0, 200 * kS}, {7, 1, 200 * kS}, {8, 0, 400 * kS}});
    CHECK(run("easy") == V{{3, 0, 200 * kS}, {7, 1, 200 * kS}});
    CHECK(run("fpfs").empty());
}

// A row that was at its reservation depth and falls below it (its reserved
// job started) can take a reservation again: compression must look there.
// 10 processors, two rows, depth 1. At 0 job 1 (10) runs in row 0, jobs 2
// (6) and 3 (4, estimate 150) in row 1; job 4 (2) is reserved in row 0 at
// 100, so job 5 (8) can only be reserved in row 1, at 300. Job 1 ends at 90
// and job 4 starts there: row 0 has 8 columns free and no reservation. Job
// 3 ends early at 150: job 5's earliest slot is now row 0 at 150, not row 1
// at 200.
TEST_CASE("gang: a row freed from its reservation depth takes a compressed reservation") {
    auto e = rota::test::engine_from(
        "[machine]\nprocs = 10\n[scheduler]\nbackfill = true\nreservation_depth = 1\n"
        "[gang]\nmpl = 2\nslice = 100000\n");
    auto submit = [&](std::int64_t id, std::int32_t procs, std::int64_t estimate_s) {
        rota_job j{};
        j.size = sizeof(j);
        j.id = id;
        j.procs = procs;
        j.estimate = estimate_s * kS;
        j.user = -1;
        REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    };
    auto started = [](const std::vector<rota::test::Act>& acts, std::int64_t job) {
        return std::any_of(acts.begin(), acts.end(), [&](const rota::test::Act& a) {
            return a.type == ROTA_ACTION_START && a.job == job;
        });
    };
    for (auto [id, procs, est] :
         {std::tuple{1, 10, 50}, {2, 6, 100}, {3, 4, 150}, {4, 2, 100}, {5, 8, 100}}) {
        submit(id, procs, est);
        rota::test::at(e.get(), 0);
    }
    REQUIRE(rota_advance(e.get(), 90 * kS) == ROTA_OK);
    REQUIRE(rota_job_end(e.get(), 1) == ROTA_OK);
    CHECK(started(rota::test::at(e.get(), 90), 4));
    REQUIRE(rota_advance(e.get(), 150 * kS) == ROTA_OK);
    REQUIRE(rota_job_end(e.get(), 3) == ROTA_OK);
    CHECK(started(rota::test::at(e.get(), 150), 5));
}
