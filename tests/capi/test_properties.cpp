// Properties that must hold for every shipped policy in every mode (one
// row, gang scheduling with and without migration, EASY per row) on several
// workloads, checked after every scheduling pass through the public
// queries:
//   - no cell of the matrix is used by two jobs: every running job holds
//     exactly its own nodes in its home row and in every row it occupies,
//     and free + used columns = the machine in every row;
//   - no started job delays an earlier reservation (a reservation's start
//     never moves later, and a reserved job starts no later than it),
//     except after a job outlived its window estimate x MPL ([Zhang00]
//     §5.2), which the engine counts, and, under a finite reservation
//     depth, after the queue was re-sorted by keys that age (EASY's
//     reservations are then placed anew for the new order; conservative
//     ones are kept);
//   - every submitted job ends finished, killed at walltime, or rejected
//     with a reason.
#include <set>

#include "sim/generate.h"
#include "sim/swf.h"
#include "support.h"

using namespace rota;

namespace {

struct Variant {
    const char* name;
    const char* preset;
    const char* extra_toml;
    // At most this many reservations (scheduler.reservation_depth times
    // the rows), when the variant bounds them: no pass may move more.
    std::int32_t most_reserved = -1;
};

// Order keys that age, the queue re-keyed every minute (docs/design.md,
// "Order keys that change").
#define ROTA_MULTIFACTOR                                                                 \
    "[scheduler]\nrekey_interval = 60\nusage_half_life = 86400\n[policy.order]\nscript " \
    "= \"order/multifactor.lua\"\nmax_age = 3600\nweight_priority = 100\n"

const Variant kVariants[] = {
    {"fcfs", "fcfs", ""},
    {"easy first-fit", "easy", ""},
    {"conservative", "conservative", ""},
    {"fpfs(3)", "fpfs", ""},
    {"easy best-fit", "easy", "[policy.backfill_select]\nscript = \"backfill/best_fit.lua\"\n"},
    {"easy sjf", "easy", "[policy.order]\nscript = \"order/sjf.lua\"\n"},
    {"conservative sjf + max_procs", "conservative",
     "[policy.order]\nscript = \"order/sjf.lua\"\n[policy.admission]\nscript = "
     "\"admission/max_procs.lua\"\nmax_procs = 64\n"},
    {"gs (mpl 5)", "gs", ""},
    {"bgs (mpl 5)", "bgs", ""},
    {"mgs (mpl 5)", "mgs", ""},
    {"mbgs (mpl 5)", "mbgs", ""},
    {"bgs best-fit (mpl 5)", "bgs",
     "[policy.backfill_select]\nscript = \"backfill/best_fit.lua\"\n"},
    {"easy per row (mpl 3)", "easy", "[gang]\nmpl = 3\nslice = 200\n"},
    {"fpfs(3) per row (mpl 2)", "fpfs", "[gang]\nmpl = 2\nslice = 300\n"},
    {"easy multifactor, re-keyed", "easy", ROTA_MULTIFACTOR},
    {"conservative multifactor, re-keyed", "conservative", ROTA_MULTIFACTOR},
    {"bgs multifactor, re-keyed (mpl 5)", "bgs", ROTA_MULTIFACTOR},
    {"reservation depth 8", "custom",
     "[scheduler]\nbackfill = true\nreservation_depth = 8\n[policy.backfill_select]\nscript = "
     "\"backfill/first_fit.lua\"\n",
     8},
    {"reservation depth 4 per row (mpl 5)", "custom",
     "[scheduler]\nbackfill = true\nreservation_depth = 4\n[gang]\nmpl = 5\nslice = "
     "200\n[policy.backfill_select]\nscript = \"backfill/first_fit.lua\"\n",
     4 * 5},
};

std::vector<sim::TraceJob> first_jobs(const std::string& rel, std::size_t n, std::int32_t& procs) {
    std::string path = rota::test::shared_path(rel);
    if (path.empty()) return {};
    auto t = sim::load_trace(path, sim::Mapping::standard);
    procs = t.header.max_procs > 0 ? t.header.max_procs : t.header.max_nodes;
    if (t.jobs.size() > n) t.jobs.resize(n);
    return t.jobs;
}

class Checker {
  public:
    explicit Checker(std::int32_t procs) : procs_(procs) {}

    void after_pass(rota_engine* e) {
        ++passes_;
        rota_machine_info mi{};
        mi.size = sizeof(mi);
        REQUIRE(rota_machine_info_get(e, &mi) == ROTA_OK);
        const auto cols = static_cast<std::size_t>(procs_);
        // The matrix as the engine shows it, row by row.
        std::vector<std::vector<int64_t>> cell(static_cast<std::size_t>(mi.rows));
        for (int32_t r = 0; r < mi.rows; ++r) {
            auto& row = cell[static_cast<std::size_t>(r)];
            row.resize(cols);
            std::size_t n = 0;
            REQUIRE(rota_matrix_row(e, r, row.data(), cols, &n) == ROTA_OK);
            REQUIRE(n == cols);
            std::size_t nfree = 0;
            rota_row_free_nodes(e, r, nullptr, 0, &nfree);
            std::size_t used = 0;
            for (int64_t id : row) used += id >= 0;
            REQUIRE(nfree + used == cols);
        }
        // Every running job holds exactly its nodes in every row of its mask.
        std::size_t n = 0;
        rota_running(e, nullptr, 0, &n);
        std::vector<int64_t> running(n);
        REQUIRE(rota_running(e, running.data(), n, &n) == ROTA_OK);
        std::vector<std::size_t> held(static_cast<std::size_t>(mi.rows), 0);
        for (int64_t id : running) {
            std::size_t k = 0;
            rota_job_nodes(e, id, nullptr, 0, &k);
            std::vector<int32_t> nodes(k);
            REQUIRE(rota_job_nodes(e, id, nodes.data(), k, &k) == ROTA_OK);
            int32_t home = -1;
            uint32_t mask = 0;
            REQUIRE(rota_job_rows(e, id, &home, &mask) == ROTA_OK);
            if ((mask >> home & 1u) == 0) FAIL("job " << id << " is not in its home row");
            for (int32_t r = 0; r < mi.rows; ++r) {
                if ((mask >> r & 1u) == 0) continue;
                held[static_cast<std::size_t>(r)] += nodes.size();
                for (int32_t node : nodes) {
                    // Plain tests in the inner loop: an assertion per node
                    // and pass would dominate the run.
                    if (node < 0 || node >= procs_ ||
                        cell[static_cast<std::size_t>(r)][static_cast<std::size_t>(node)] != id)
                        FAIL("job " << id << " does not hold node " << node << " in row " << r);
                }
            }
        }
        for (int32_t r = 0; r < mi.rows; ++r) {
            std::size_t used = 0;
            for (int64_t id : cell[static_cast<std::size_t>(r)]) used += id >= 0;
            REQUIRE(used == held[static_cast<std::size_t>(r)]);  // no cell of another job
        }

        rota_counters c{};
        c.size = sizeof(c);
        REQUIRE(rota_counters_get(e, &c) == ROTA_OK);
        const bool overran = c.window_extensions != extensions_;
        extensions_ = c.window_extensions;
        if (c.resorts != resorts_ && mi.reservation_depth != -1) reserved_.clear();
        resorts_ = c.resorts;
        std::size_t nr = 0;
        rota_reservations(e, nullptr, 0, &nr);
        std::vector<rota_reservation> rs(nr);
        REQUIRE(rota_reservations(e, rs.data(), nr, &nr) == ROTA_OK);
        for (const auto& r : rs) {
            auto it = reserved_.find(r.job);
            if (it != reserved_.end() && r.start > it->second && !overran)
                FAIL("job " << r.job << "'s reservation moved later, from " << it->second << " to "
                            << r.start);
            reserved_[r.job] = r.start;
            if (it != reserved_.end() && r.start > it->second) late_[r.job] = true;
        }
    }

    void check_start(std::int64_t engine_id, std::int64_t start_s) {
        auto it = reserved_.find(engine_id);
        if (it != reserved_.end() && start_s * 1'000'000 > it->second)
            FAIL("job " << engine_id << " started at " << start_s << " s, after its reservation at "
                        << it->second / 1'000'000.0 << " s");
    }

    std::uint64_t passes() const { return passes_; }

  private:
    std::int32_t procs_;
    std::map<int64_t, rota_time> reserved_;
    std::map<int64_t, bool> late_;
    std::uint64_t passes_ = 0;
    std::uint64_t extensions_ = 0;
    std::uint64_t resorts_ = 0;
};

void check_workload(const std::string& name, const std::vector<sim::TraceJob>& jobs,
                    std::int32_t procs) {
    if (jobs.empty()) return;
    for (const auto& v : kVariants) {
        INFO(name << ", " << v.name);
        auto e = rota::test::preset_engine(v.preset, procs, 3, v.extra_toml);
        Checker checker(procs);
        sim::SimOptions opt;
        std::uint64_t moved = 0;
        opt.after_pass = [&](rota_engine* eng, std::int64_t) {
            checker.after_pass(eng);
            const std::uint64_t now_moved = rota::test::counters(eng).reservations_moved;
            if (v.most_reserved >= 0 &&
                now_moved - moved > static_cast<std::uint64_t>(v.most_reserved))
                FAIL("a pass moved " << now_moved - moved << " reservations of at most "
                                     << v.most_reserved);
            moved = now_moved;
        };
        auto r = sim::simulate(e.get(), jobs, opt);
        CHECK(checker.passes() > 0);
        std::map<std::int64_t, std::string> reasons(r.rejections.begin(), r.rejections.end());
        std::size_t unfinished = 0;
        for (std::size_t i = 0; i < r.jobs.size(); ++i) {
            const auto& o = r.jobs[i];
            if (o.state == sim::FinalState::unfinished) ++unfinished;
            if (o.state == sim::FinalState::rejected) {
                CHECK_FALSE(reasons[o.id].empty());
                continue;
            }
            if (o.start >= 0) checker.check_start(static_cast<std::int64_t>(i), o.start);
            if (o.state == sim::FinalState::killed) CHECK(o.run_time == o.requested_time);
            if (o.state == sim::FinalState::finished) CHECK(o.run_time <= o.requested_time);
        }
        CHECK(unfinished == 0);
        CHECK(r.hooks[ROTA_HOOK_BACKFILL_SELECT].second.failures == 0);
    }
}

}  // namespace

TEST_CASE("properties: every policy on the start of KTH-SP2", "[properties]") {
    std::int32_t procs = 0;
    auto jobs = first_jobs("traces/KTH-SP2-1996-2.1-cln.swf.gz", 3000, procs);
    check_workload("KTH-SP2", jobs, procs);
}

TEST_CASE("properties: every policy on the start of SDSC-SP2", "[properties]") {
    std::int32_t procs = 0;
    auto jobs = first_jobs("traces/SDSC-SP2-1998-4.2-cln.swf.gz", 3000, procs);
    check_workload("SDSC-SP2", jobs, procs);
}

TEST_CASE("properties: every policy on the Lublin synthetic trace", "[properties]") {
    std::int32_t procs = 0;
    auto jobs = first_jobs("traces/lublin_256.swf", 3000, procs);
    check_workload("lublin_256", jobs, procs);
}

TEST_CASE("properties: every policy on a generated overloaded workload", "[properties]") {
    sim::GenerateOptions g;
    g.jobs = 2000;
    g.procs = 128;
    g.load = 1.1;
    g.seed = 42;
    check_workload("generated", sim::generate(g), g.procs);
}
