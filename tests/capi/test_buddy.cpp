// Buddy packing under gang scheduling (gang.packing = "buddy", [Feitelson97] §3
// after Feitelson's "Packing schemes for gang scheduling", its reference
// [4]): placements worked out by hand, the configurations it refuses, and
// the invariant that every job the engine places holds an aligned
// power-of-two block, in every row it occupies.
#include <bit>
#include <map>
#include <set>

#include "shadow_matrix.h"
#include "sim/generate.h"
#include "support.h"

namespace {

constexpr rota_time kS = 1'000'000;
using Row = std::vector<int64_t>;

std::string buddy_config(std::int32_t procs, std::int32_t mpl, const std::string& preset = "gs",
                         const std::string& more = "") {
    return "[machine]\nprocs = " + std::to_string(procs) + "\n[scheduler]\npreset = \"" + preset +
           "\"\n[gang]\nmpl = " + std::to_string(mpl) + "\nslice = 100\npacking = \"buddy\"\n" +
           more;
}

struct Driver {
    rota::test::EnginePtr e;
    std::vector<rota_action> actions{};
    std::vector<std::vector<rota_node_run>> runs{};  // of each action, copied

    void submit(int64_t id, int32_t procs, int64_t est_s = 1000) {
        rota_job j{};
        j.size = sizeof(rota_job);
        j.id = id;
        j.procs = procs;
        j.estimate = est_s * kS;
        REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    }
    void at(int64_t t_s) { REQUIRE(rota_advance(e.get(), t_s * kS) == ROTA_OK); }
    void end(int64_t id) { REQUIRE(rota_job_end(e.get(), id) == ROTA_OK); }
    void pass() {
        REQUIRE(rota_schedule(e.get()) == ROTA_OK);
        actions.clear();
        runs.clear();
        rota_action a{};
        a.size = sizeof(rota_action);
        while (rota_next_action(e.get(), &a) == ROTA_OK) {
            actions.push_back(a);
            runs.emplace_back(a.runs, a.runs + a.nruns);
        }
    }
    Row row(int32_t r) {
        Row v(64);
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
    // The nodes an action of `type` for `job` in `row` names, as
    // (first, count) runs; empty if there is none.
    std::vector<std::pair<int32_t, int32_t>> named(int type, int64_t job, int32_t row) const {
        for (std::size_t k = 0; k < actions.size(); ++k)
            if (actions[k].type == type && actions[k].job == job && actions[k].row == row) {
                std::vector<std::pair<int32_t, int32_t>> v;
                for (const auto& r : runs[k]) v.emplace_back(r.first, r.count);
                return v;
            }
        return {};
    }
    std::vector<int32_t> nodes(int64_t id) {
        std::vector<int32_t> v(64);
        size_t n = 0;
        REQUIRE(rota_job_nodes(e.get(), id, v.data(), v.size(), &n) == ROTA_OK);
        v.resize(n);
        return v;
    }
};

using Runs = std::vector<std::pair<int32_t, int32_t>>;

}  // namespace

// 8 columns, MPL 3, GS with buddy packing. The buddy tree over 8 columns:
// [0,8); [0,4) [4,8); [0,2) [2,4) [4,6) [6,8); single columns. A job of n
// holds a block of p = n rounded up to a power of two, taken from the
// smallest free block (idle, its parent not) that holds it, lowest first,
// and runs on the block's first n columns.
//   t=0 (FCFS, best-fit row: the fewest free columns that hold the job):
//     A(3), p=4: every row is empty, row 0; the free block [0,8) splits to
//       [0,4). A holds 0-3, runs on 0-2 (column 3 stays idle).
//     B(2), p=2: row 0 (4 free) before rows 1, 2 (8); the free block [4,8)
//       splits to [4,6).
//     C(1), p=1: row 0 (2 free); [6,8) splits to [6,7).
//     D(4): row 0 has 1 free; row 1, [0,4).
//     E(5), p=8: rows 0 and 1 have 1 and 4 free; row 2, [0,8), runs on 0-4.
//   FillMatrix, start order: A's block is taken in rows 1 (D) and 2 (E); B
//   and C go into row 1 at their own blocks; D and E fit nowhere else.
//   First fit would have packed row 0 as A 0-2, B 3-4, C 5.
//   t=10: F(1) and G(1). CleanMatrix drops B's and C's replicas; nothing
//   can move into a fuller row. F: row 0 has 1 free column (7), the free
//   block [7,8). G: row 0 is full (A's idle column 3 is A's), row 1 has
//   4 free: [4,8) splits to [4,5). FillMatrix: C and F go into row 1 again,
//   B no longer fits there (G on 4).
TEST_CASE("buddy: 8 columns, MPL 3, blocks and replicas worked out by hand", "[buddy]") {
    Driver d{rota::test::engine_from(buddy_config(8, 3))};
    d.submit(1, 3);  // A
    d.submit(2, 2);  // B
    d.submit(3, 1);  // C
    d.submit(4, 4);  // D
    d.submit(5, 5);  // E
    d.pass();
    CHECK(d.row(0) == Row{1, 1, 1, 1, 2, 2, 3, -1});
    CHECK(d.row(1) == Row{4, 4, 4, 4, 2, 2, 3, -1});
    CHECK(d.row(2) == Row{5, 5, 5, 5, 5, 5, 5, 5});
    CHECK(d.home(1) == 0);
    CHECK(d.home(4) == 1);
    CHECK(d.home(5) == 2);
    // The actions name the columns a job runs on: the first n of its block.
    CHECK(d.named(ROTA_ACTION_START, 1, 0) == Runs{{0, 3}});
    CHECK(d.named(ROTA_ACTION_START, 5, 2) == Runs{{0, 5}});
    CHECK(d.named(ROTA_ACTION_REPLICATE, 2, 1) == Runs{{4, 2}});
    CHECK(d.named(ROTA_ACTION_REPLICATE, 3, 1) == Runs{{6, 1}});
    CHECK(d.nodes(1) == std::vector<int32_t>{0, 1, 2});
    rota_job_info info{};
    info.size = sizeof info;
    REQUIRE(rota_job_info_get(d.e.get(), 5, &info) == ROTA_OK);
    CHECK(info.nodes == 5);
    // Column 3 is A's in row 0: not free, though A does not run there.
    int32_t cols[8];
    size_t n = 0;
    REQUIRE(rota_row_free_nodes(d.e.get(), 0, cols, 8, &n) == ROTA_OK);
    CHECK(std::vector<int32_t>(cols, cols + n) == std::vector<int32_t>{7});

    d.at(10);
    d.submit(6, 1);  // F
    d.submit(7, 1);  // G
    d.pass();
    CHECK(d.home(6) == 0);
    CHECK(d.home(7) == 1);
    CHECK(d.row(0) == Row{1, 1, 1, 1, 2, 2, 3, 6});
    CHECK(d.row(1) == Row{4, 4, 4, 4, 7, -1, 3, 6});
    CHECK(d.row(2) == Row{5, 5, 5, 5, 5, 5, 5, 5});
    CHECK(d.named(ROTA_ACTION_UNREPLICATE, 2, 1) == Runs{{4, 2}});
}

// A row with enough free columns but no free block: 8 columns, MPL 2.
//   t=0: A(2, est 100) row 0 [0,2); B(4) row 0 (6 free, the fewest) [4,8);
//   C(1) row 0: [0,4) is partly busy, [2,4) is the smallest free block
//   that holds it, C at 2. FillMatrix copies all three into row 1.
//   t=50: A ends. Row 0 has columns 0, 1 and 3 free, but D(3) needs a
//   block of 4, and [0,4) holds C: D goes to row 1, [0,4), runs on 0-2.
//   FillMatrix: B into row 1 again; C's column 2 is D's there.
//   First fit packs row 0 as A 0-1, B 2-5, C 6 and puts D there on 0, 1
//   and 7.
TEST_CASE("buddy: free columns that form no block do not take a job", "[buddy]") {
    Driver d{rota::test::engine_from(buddy_config(8, 2))};
    d.submit(1, 2, 100);  // A
    d.submit(2, 4);       // B
    d.submit(3, 1);       // C
    d.pass();
    CHECK(d.row(0) == Row{1, 1, 3, -1, 2, 2, 2, 2});
    CHECK(d.row(1) == Row{1, 1, 3, -1, 2, 2, 2, 2});
    d.at(50);
    d.end(1);
    d.submit(4, 3);  // D
    d.pass();
    CHECK(d.home(4) == 1);
    CHECK(d.row(0) == Row{-1, -1, 3, -1, 2, 2, 2, 2});
    CHECK(d.row(1) == Row{4, 4, 4, 4, 2, 2, 2, 2});
    CHECK(d.named(ROTA_ACTION_START, 4, 1) == Runs{{0, 3}});

    // The same jobs under first fit: D in row 0 on 0, 1 and 7.
    Driver f{rota::test::gang_engine("gs", 8, 2, 100)};
    f.submit(1, 2, 100);
    f.submit(2, 4);
    f.submit(3, 1);
    f.pass();
    f.at(50);
    f.end(1);
    f.submit(4, 3);
    f.pass();
    CHECK(f.home(4) == 0);
    CHECK(f.named(ROTA_ACTION_START, 4, 0) == Runs{{0, 2}, {7, 1}});
}

// A machine of 12 columns, not a power of two: the tree is over 16, its
// blocks clipped to the columns that exist, so [8,16) is [8,12), 4 long.
// MPL 2.
//   A(3), p=4: the free root [0,12) splits to [0,4).
//   B(8): row 0 has 8 free columns but no free 8-block ([0,8) holds A,
//     [8,12) is clipped to 4); row 1, [0,8).
//   C(4): row 1 has 4 free (the fewest): the free block [8,12) (clipped
//     from 8) holds it whole.
//   D(2): row 0; of its free blocks [4,8) (size 4) and [8,12) (size 8,
//     clipped), the smaller splits: [4,6).
//   FillMatrix: C into row 0 at [8,12); nothing else fits.
TEST_CASE("buddy: a machine whose size is not a power of two clips the tree", "[buddy]") {
    Driver d{rota::test::engine_from(buddy_config(12, 2))};
    d.submit(1, 3);  // A
    d.submit(2, 8);  // B
    d.submit(3, 4);  // C
    d.submit(4, 2);  // D
    d.pass();
    CHECK(d.home(2) == 1);
    CHECK(d.home(3) == 1);
    CHECK(d.home(4) == 0);
    CHECK(d.row(0) == Row{1, 1, 1, 1, 4, 4, -1, -1, 3, 3, 3, 3});
    CHECK(d.row(1) == Row{2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3});
}

// On 7 columns the block [4,8) is [4,7): a job of 3 (p = 4) holds all
// three and leaves nothing idle; a job of 4 cannot use it.
TEST_CASE("buddy: a clipped block holds a job that fits its columns", "[buddy]") {
    Driver d{rota::test::engine_from(buddy_config(7, 2))};
    d.submit(1, 4);  // [0,4) in row 0
    d.submit(2, 3);  // row 0 has 3 free: [4,7)
    d.submit(3, 4);  // row 0 is full: row 1, [0,4)
    d.submit(4, 3);  // row 1 has 3 free: [4,7)
    d.submit(5, 1);  // no row has a free column: waits
    d.pass();
    CHECK(d.row(0) == Row{1, 1, 1, 1, 2, 2, 2});
    CHECK(d.row(1) == Row{3, 3, 3, 3, 4, 4, 4});
    CHECK(d.named(ROTA_ACTION_START, 2, 0) == Runs{{4, 3}});
    size_t nq = 0;
    REQUIRE(rota_queue(d.e.get(), nullptr, 0, &nq) == ROTA_OK);
    CHECK(nq == 1);
}

// With one row buddy packing is space sharing on blocks: FCFS waits for a
// block, not for enough columns.
TEST_CASE("buddy: one row, FCFS on blocks", "[buddy]") {
    Driver d{rota::test::engine_from(
        "[machine]\nprocs = 8\n[scheduler]\npreset = \"fcfs\"\n[gang]\npacking = \"buddy\"\n")};
    d.submit(1, 1, 100);  // [0,1)
    d.submit(2, 4, 100);  // [4,8): the smallest free block of 4
    d.submit(3, 2, 100);  // [2,4)
    d.submit(4, 2, 100);  // 1 column free: waits
    d.pass();
    CHECK(d.named(ROTA_ACTION_START, 1, 0) == Runs{{0, 1}});
    CHECK(d.named(ROTA_ACTION_START, 2, 0) == Runs{{4, 4}});
    CHECK(d.named(ROTA_ACTION_START, 3, 0) == Runs{{2, 2}});
    CHECK(d.named(ROTA_ACTION_START, 4, 0).empty());
    d.at(100);  // all three reach their walltime; 4 starts at [0,2)
    d.pass();
    CHECK(d.named(ROTA_ACTION_START, 4, 0) == Runs{{0, 2}});
}

TEST_CASE("buddy: combinations that cannot be honoured are configuration errors naming the key",
          "[buddy][config]") {
    auto refused = [](const std::string& toml) {
        rota_engine* e = nullptr;
        const int rc = rota_engine_new(toml.c_str(), nullptr, &e);
        const std::string msg = rota_errmsg(e);
        rota_engine_free(e);
        CHECK(rc == ROTA_ECONFIG);
        return msg;
    };
    using Catch::Matchers::Contains;
    CHECK_THAT(refused("[machine]\nprocs = 8\n[scheduler]\npreset = \"gs\"\n[gang]\npacking = "
                       "\"tight\"\n"),
               Contains("key 'gang.packing' must be \"first_fit\" or \"buddy\", got \"tight\""));
    // Reservations: BGS, or no preset (EASY in every row).
    CHECK_THAT(refused(buddy_config(8, 4, "bgs")),
               Contains("gang.packing = \"buddy\" cannot be combined with "
                        "scheduler.reservation_depth = -1") &&
                   Contains("(preset 'bgs')"));
    CHECK_THAT(refused("[machine]\nprocs = 8\n[gang]\nmpl = 4\npacking = \"buddy\"\n"),
               Contains("scheduler.reservation_depth = 1"));
    CHECK_THAT(refused(buddy_config(8, 4, "mgs")),
               Contains("gang.packing = \"buddy\" cannot be combined with gang.migration"));
    CHECK_THAT(refused("[machine]\nprocs = 8\n[gang]\npacking = \"buddy\"\n[classes]\npreset = "
                       "\"llnl-t3d\"\n"),
               Contains("cannot be combined with gang.packing = \"buddy\""));
    // First fit is the default and may be named; backfilling without
    // reservations (FPFS-like in every row) is honoured.
    rota::test::engine_from(
        "[machine]\nprocs = 8\n[scheduler]\npreset = \"bgs\"\n[gang]\npacking = \"first_fit\"\n");
    rota::test::engine_from(
        "[machine]\nprocs = 8\n[scheduler]\nbackfill = true\nreservation_depth = 0\n[gang]\nmpl = "
        "3\nslice = 10\npacking = \"buddy\"\n");
    // Fixed while running, like the rest of the matrix's shape.
    auto e = rota::test::engine_from(buddy_config(8, 2));
    CHECK(rota_reconfigure(e.get(), buddy_config(8, 2).c_str()) == ROTA_OK);
    const std::string ff =
        "[machine]\nprocs = 8\n[scheduler]\npreset = \"gs\"\n[gang]\nmpl = 2\nslice = 100\n";
    CHECK(rota_reconfigure(e.get(), ff.c_str()) == ROTA_ECONFIG);
    CHECK_THAT(std::string(rota_errmsg(e.get())), Contains("gang.packing"));
}

namespace {

int append(void* ud, const void* data, size_t len) {
    static_cast<std::string*>(ud)->append(static_cast<const char*>(data), len);
    return 0;
}

}  // namespace

TEST_CASE("buddy: a snapshot carries the blocks and restores only under buddy packing",
          "[buddy][snapshot]") {
    const std::string cfg = buddy_config(8, 2);
    Driver d{rota::test::engine_from(cfg)};
    d.submit(1, 3);
    d.submit(2, 2);
    d.submit(3, 5);
    d.pass();
    std::string snap;
    REQUIRE(rota_snapshot(d.e.get(), append, &snap) == ROTA_OK);
    CHECK(snap.find(" buddy 0\n") != std::string::npos);
    rota_engine* b = nullptr;
    REQUIRE(rota_restore(cfg.c_str(), nullptr, nullptr, snap.data(), snap.size(), &b) == ROTA_OK);
    Driver r{rota::test::EnginePtr(b)};
    for (int32_t row = 0; row < 2; ++row) CHECK(r.row(row) == d.row(row));
    CHECK(r.nodes(1) == std::vector<int32_t>{0, 1, 2});
    std::string again;
    REQUIRE(rota_snapshot(b, append, &again) == ROTA_OK);
    CHECK(again == snap);
    // The same machine under first fit refuses it, naming the key.
    const std::string ff =
        "[machine]\nprocs = 8\n[scheduler]\npreset = \"gs\"\n[gang]\nmpl = 2\nslice = 100\n";
    rota_engine* c = nullptr;
    CHECK(rota_restore(ff.c_str(), nullptr, nullptr, snap.data(), snap.size(), &c) == ROTA_ECONFIG);
    CHECK(std::string(rota_errmsg(c)).find("gang.packing") != std::string::npos);
    rota_engine_free(c);
}

namespace {

// Whether `first, count` is the block buddy packing gives a job of n on
// `procs` columns: aligned at p = n rounded up to a power of two, p long
// or clipped at the machine's end, and at least n long.
bool aligned_block(int32_t first, int32_t count, int32_t n, int32_t procs) {
    const auto p = static_cast<int32_t>(std::bit_ceil(static_cast<uint32_t>(n)));
    return first % p == 0 && count == std::min(p, procs - first) && count >= n;
}

// After a pass: every running job holds one aligned block of its size in
// its home row and the same block in every other row it holds; it runs on
// the block's first procs columns (rota_job_nodes).
void check_blocks(rota_engine* e, int32_t procs, int32_t rows) {
    std::map<int64_t, std::map<int32_t, std::set<int32_t>>> cells;  // job -> row -> columns
    for (int32_t r = 0; r < rows; ++r) {
        std::vector<int64_t> row(static_cast<size_t>(procs));
        size_t n = 0;
        REQUIRE(rota_matrix_row(e, r, row.data(), row.size(), &n) == ROTA_OK);
        for (int32_t c = 0; c < procs; ++c)
            if (row[static_cast<size_t>(c)] >= 0) cells[row[static_cast<size_t>(c)]][r].insert(c);
    }
    size_t nrun = 0;
    rota_running(e, nullptr, 0, &nrun);
    std::vector<int64_t> running(nrun);
    REQUIRE(rota_running(e, running.data(), nrun, &nrun) == ROTA_OK);
    REQUIRE(cells.size() == running.size());
    for (int64_t id : running) {
        INFO("job " << id);
        rota_job_info info{};
        info.size = sizeof info;
        REQUIRE(rota_job_info_get(e, id, &info) == ROTA_OK);
        int32_t home = -1;
        uint32_t mask = 0;
        REQUIRE(rota_job_rows(e, id, &home, &mask) == ROTA_OK);
        const auto& mine = cells[id];
        REQUIRE(mine.count(home) == 1);
        const std::set<int32_t>& block = mine.at(home);
        const int32_t first = *block.begin();
        const auto count = static_cast<int32_t>(block.size());
        REQUIRE(*block.rbegin() == first + count - 1);  // one run
        REQUIRE(aligned_block(first, count, info.procs, procs));
        for (const auto& [r, cols] : mine) {
            REQUIRE(((mask >> r) & 1u) == 1u);
            REQUIRE(cols == block);
        }
        REQUIRE(static_cast<uint32_t>(std::popcount(mask)) == mine.size());
        std::vector<int32_t> nodes(static_cast<size_t>(info.procs));
        size_t nn = 0;
        REQUIRE(rota_job_nodes(e, id, nodes.data(), nodes.size(), &nn) == ROTA_OK);
        REQUIRE(static_cast<int32_t>(nn) == info.procs);
        REQUIRE(info.nodes == info.procs);
        for (int32_t k = 0; k < info.procs; ++k)
            REQUIRE(nodes[static_cast<size_t>(k)] == first + k);
    }
}

}  // namespace

TEST_CASE("buddy: every placed job holds an aligned power-of-two block in every row it holds",
          "[buddy][properties]") {
    for (const int32_t procs : {64, 100}) {
        for (const int32_t mpl : {1, 3, 5}) {
            INFO(procs << " columns, MPL " << mpl);
            rota::sim::GenerateOptions g;
            g.jobs = 600;
            g.procs = procs;
            g.load = 1.0;
            g.seed = 11;
            rota::sim::RunConfig rc;
            rc.mpl = mpl;
            rc.slice = 200;
            rc.packing = "buddy";
            auto e = rota::test::engine_from(rota::sim::engine_toml(rc, "gs", procs));
            rota::sim::SimOptions opt;
            std::uint64_t passes = 0;
            opt.after_pass = [&](rota_engine* eng, std::int64_t) {
                ++passes;
                check_blocks(eng, procs, mpl);
            };
            const auto r = rota::sim::simulate(e.get(), rota::sim::generate(g), opt);
            CHECK(passes > 0);
            for (const auto& o : r.jobs) CHECK(o.state != rota::sim::FinalState::unfinished);
        }
    }
}

// The actions of every pass, applied in order to a copy of the matrix that
// holds the columns jobs run on, never put a job on a cell another holds,
// and always end equal to the engine's matrix restricted to those columns
// (the first procs of each job's block).
TEST_CASE("buddy: the actions of every pass describe where jobs run", "[buddy][properties]") {
    const int32_t procs = 32, rows = 4;
    auto e = rota::test::engine_from(buddy_config(procs, rows));
    const auto run = rota::test::shadow_matrix_run(
        e.get(), procs, rows, 4242, true,
        [](std::vector<int64_t>& row, const std::map<int64_t, int32_t>& width) {
            std::map<int64_t, int32_t> seen;  // cells of each job so far, left to right
            for (auto& c : row)
                if (c >= 0 && ++seen[c] > width.at(c)) c = -1;  // the block's idle part
        });
    CHECK(run.replicas > 0);
}
