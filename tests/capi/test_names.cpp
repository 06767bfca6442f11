// Accounts, partitions and QOS on jobs (ABI 7): submitted and adopted with
// a job, read back through rota_job_info_get, seen by Lua and native
// policies, refused when they could corrupt what prints them.
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support.h"

namespace fs = std::filesystem;

namespace {

rota_job named(int64_t id, int32_t procs, rota_time estimate, const char* account,
               const char* partition, const char* qos) {
    rota_job j{};
    j.size = sizeof(j);
    j.id = id;
    j.procs = procs;
    j.estimate = estimate;
    j.account = account;
    j.partition = partition;
    j.qos = qos;
    return j;
}

rota_job_info info_of(rota_engine* e, int64_t id) {
    rota_job_info info{};
    info.size = sizeof(info);
    REQUIRE(rota_job_info_get(e, id, &info) == ROTA_OK);
    return info;
}

size_t count_jobs(rota_engine* e) {
    size_t q = 0, h = 0, r = 0;
    REQUIRE(rota_queue(e, nullptr, 0, &q) == ROTA_OK);
    REQUIRE(rota_held(e, nullptr, 0, &h) == ROTA_OK);
    REQUIRE(rota_running(e, nullptr, 0, &r) == ROTA_OK);
    return q + h + r;
}

struct Script {
    fs::path path;
    explicit Script(const std::string& text) {
        static int n = 0;
        path = fs::temp_directory_path() /
               ("rota-names-" + std::to_string(::getpid()) + "-" + std::to_string(n++) + ".lua");
        std::ofstream(path) << text;
    }
    ~Script() {
        std::error_code ec;
        fs::remove(path, ec);
    }
};

}  // namespace

TEST_CASE("names: submitted and adopted names read back through rota_job_info_get",
          "[capi][names]") {
    auto e = rota::test::engine_from("[machine]\nprocs = 8\n");
    std::string account = "physics";  // the engine copies: the caller's string may go
    rota_job j = named(1, 2, 100, account.c_str(), "debug", "high");
    REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    account.assign("overwritten");
    rota_job k = named(2, 1, 100, nullptr, "", "normal");
    REQUIRE(rota_submit(e.get(), &k) == ROTA_OK);
    REQUIRE(rota_advance(e.get(), 10) == ROTA_OK);
    rota_job a = named(3, 4, 100, "chem", "batch", nullptr);
    rota_node_run run{4, 4};
    REQUIRE(rota_adopt(e.get(), &a, 5, &run, 1) == ROTA_OK);

    rota_job_info i1 = info_of(e.get(), 1);
    CHECK(std::string(i1.account) == "physics");
    CHECK(std::string(i1.partition) == "debug");
    CHECK(std::string(i1.qos) == "high");
    rota_job_info i2 = info_of(e.get(), 2);
    REQUIRE(i2.account != nullptr);
    CHECK(std::string(i2.account).empty());
    CHECK(std::string(i2.partition).empty());
    CHECK(std::string(i2.qos) == "normal");
    rota_job_info i3 = info_of(e.get(), 3);
    CHECK(i3.state == ROTA_JOB_RUNNING);
    CHECK(std::string(i3.account) == "chem");
    CHECK(std::string(i3.partition) == "batch");
    CHECK(std::string(i3.qos).empty());

    // Interned: one name, one string, for the engine's life.
    rota_job same = named(4, 1, 100, "x", "debug", "x");
    REQUIRE(rota_submit(e.get(), &same) == ROTA_OK);
    rota_job_info i4 = info_of(e.get(), 4);
    CHECK(i4.partition == i1.partition);
    CHECK(i4.account == i4.qos);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    REQUIRE(rota_advance(e.get(), 150) == ROTA_OK);  // 1 and 2 killed at 110
    CHECK(std::string(i1.partition) == "debug");     // still valid
}

TEST_CASE("names: too long or with a control character is ROTA_EINVAL, the engine unchanged",
          "[capi][names]") {
    auto e = rota::test::engine_from("[machine]\nprocs = 8\n");
    const std::string longest(255, 'a');
    rota_job ok = named(1, 1, 100, longest.c_str(), "p", "q");
    REQUIRE(rota_submit(e.get(), &ok) == ROTA_OK);
    CHECK(std::string(info_of(e.get(), 1).account) == longest);

    const std::string too_long(256, 'a');
    const std::string huge(100000, 'b');
    struct Bad {
        const char* account;
        const char* partition;
        const char* qos;
        const char* says;
    } bad[] = {
        {too_long.c_str(), nullptr, nullptr, "account is longer than 255 bytes"},
        {nullptr, huge.c_str(), nullptr, "partition is longer than 255 bytes"},
        {nullptr, nullptr, "hi\ngh", "qos holds a control character"},
        {"a\tb", nullptr, nullptr, "account holds a control character"},
        {nullptr, "x\x7f", nullptr, "partition holds a control character"},
    };
    for (const Bad& b : bad) {
        INFO(b.says);
        rota_job j = named(2, 1, 100, b.account, b.partition, b.qos);
        CHECK(rota_submit(e.get(), &j) == ROTA_EINVAL);
        CHECK(std::string(rota_errmsg(e.get())).find(b.says) != std::string::npos);
        rota_node_run run{4, 1};
        CHECK(rota_adopt(e.get(), &j, 0, &run, 1) == ROTA_EINVAL);
        CHECK(std::string(rota_errmsg(e.get())).find(b.says) != std::string::npos);
        rota_job_info info{};
        info.size = sizeof(info);
        CHECK(rota_job_info_get(e.get(), 2, &info) == ROTA_ENOTFOUND);
    }
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    CHECK(count_jobs(e.get()) == 1);
    // UTF-8 is not a control character.
    rota_job utf8 = named(3, 1, 100, "\xc3\xa9quipe", nullptr, nullptr);
    CHECK(rota_submit(e.get(), &utf8) == ROTA_OK);
}

TEST_CASE("names: a caller built before ABI 7 submits without names and reads none",
          "[capi][names]") {
    auto e = rota::test::engine_from("[machine]\nprocs = 8\n");
    // The old struct ends at job_class; what follows must not be read.
    rota_job j;
    std::memset(&j, 0xAB, sizeof j);
    j.size = offsetof(rota_job, account);
    j.id = 1;
    j.procs = 2;
    j.estimate = 100;
    j.user = -1;
    j.priority = 0;
    j.npools = 0;
    j.pools = nullptr;
    j.ncomponents = 0;
    j.components = nullptr;
    j.submitted = 0;
    j.min_procs = 0;
    j.adapt_bytes = 0;
    j.job_class = 0;
    REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    rota_job_info full = info_of(e.get(), 1);
    CHECK(full.state == ROTA_JOB_RUNNING);
    CHECK(std::string(full.account).empty());
    CHECK(std::string(full.partition).empty());
    CHECK(std::string(full.qos).empty());

    // And an old rota_job_info is not written past its end.
    rota_job_info old;
    std::memset(&old, 0xAB, sizeof old);
    old.size = offsetof(rota_job_info, account);
    REQUIRE(rota_job_info_get(e.get(), 1, &old) == ROTA_OK);
    const char* untouched;
    std::memset(&untouched, 0xAB, sizeof untouched);
    CHECK(old.account == untouched);
    CHECK(old.id == 1);
}

TEST_CASE("names: a Lua policy reads them as strings, \"\" for none", "[capi][names][lua]") {
    // admission sees the strings; order puts QOS "high" first.
    Script s(R"(
local seen = {}
return {
  admission = function(jobs)
    local d = {}
    for i = 1, jobs.n do
      seen[#seen + 1] = jobs.id[i] .. ":" .. jobs.account[i] .. "/" .. jobs.partition[i] ..
                        "/" .. jobs.qos[i]
      if jobs.partition[i] == "closed" then d[i] = { reject = "partition closed" } end
    end
    assert(#jobs.qos == jobs.n, "a name column is dense")
    if #seen > 0 then print(table.concat(seen, " ")) end
    seen = {}
    return d
  end,
  backfill_select = function(c, ctx)
    print("head " .. ctx.head_id .. " " .. ctx.head_user .. " " .. ctx.head_account .. "/" ..
          ctx.head_partition .. "/" .. ctx.head_qos)
    return {}
  end,
  order = function(jobs)
    local k = {}
    for i = 1, jobs.n do
      k[i] = (jobs.qos[i] == "high" and 0 or 1e15) + jobs.submit[i]
    end
    return k
  end,
})");
    auto e = rota::test::engine_from("[machine]\nprocs = 5\n[policy.admission]\nscript = \"" +
                                     s.path.string() + "\"\n[policy.order]\nscript = \"" +
                                     s.path.string() + "\"\n[policy.backfill_select]\nscript = \"" +
                                     s.path.string() + "\"\n");
    std::vector<std::string> lines;
    auto sink = [](void* ud, int, const char* l) {
        static_cast<std::vector<std::string>*>(ud)->push_back(l);
    };
    REQUIRE(rota_set_log(e.get(), sink, &lines) == ROTA_OK);
    rota_job j1 = named(1, 4, 100, "a", "batch", "normal");
    rota_job j2 = named(2, 1, 100, nullptr, nullptr, nullptr);  // could backfill; not picked
    rota_job j3 = named(3, 4, 100, "b", "batch", "high");
    rota_job j4 = named(4, 1, 100, "b", "closed", "high");
    for (rota_job* j : {&j1, &j2, &j3, &j4}) REQUIRE(rota_submit(e.get(), j) == ROTA_OK);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].find("1:a/batch/normal 2:// 3:b/batch/high 4:b/closed/high") !=
          std::string::npos);
    // Job 1 (user 0 by default) is the blocked head once 3 runs; the
    // script passes on 2, the one candidate.
    CHECK(lines[1].find("head 1 0 a/batch/normal") != std::string::npos);
    int64_t q[4];
    size_t n = 0;
    REQUIRE(rota_queue(e.get(), q, 4, &n) == ROTA_OK);
    REQUIRE(n == 2);
    CHECK(q[0] == 1);
    CHECK(q[1] == 2);
    CHECK(info_of(e.get(), 3).state == ROTA_JOB_RUNNING);  // QOS high before the earlier jobs
    rota_action a{};
    a.size = sizeof a;
    bool rejected = false;
    while (rota_next_action(e.get(), &a) == ROTA_OK)
        if (a.type == ROTA_ACTION_REJECT && a.job == 4) {
            rejected = true;
            CHECK(std::string(a.reason).find("partition closed") != std::string::npos);
        }
    CHECK(rejected);
    REQUIRE(rota_set_log(e.get(), rota_log_stderr, nullptr) == ROTA_OK);
}

TEST_CASE("names: a native backfill_select reads them as interned strings", "[capi][names]") {
    auto e = rota::test::engine_from("[machine]\nprocs = 8\n");
    struct Seen {
        std::vector<std::string> rows;
        const char* debug = nullptr;
        bool same_pointer = true;
        std::string head;
    } seen;
    auto fn = [](void* ud, const rota_batch* c, const rota_backfill_context* ctx, uint32_t* picks) {
        auto& s = *static_cast<Seen*>(ud);
        REQUIRE(c->size >= offsetof(rota_batch, qos) + sizeof(c->qos));
        REQUIRE(ctx->size >= offsetof(rota_backfill_context, head_qos) + sizeof(ctx->head_qos));
        s.head = std::to_string(ctx->head_id) + ":" + std::to_string(ctx->head_user) + ":" +
                 ctx->head_account + "/" + ctx->head_partition + "/" + ctx->head_qos;
        int n = 0;
        for (size_t i = 0; i < c->n; ++i) {
            s.rows.push_back(std::to_string(c->id[i]) + ":" + c->account[i] + "/" +
                             c->partition[i] + "/" + c->qos[i]);
            if (std::strcmp(c->partition[i], "debug") == 0) {
                if (s.debug && s.debug != c->partition[i]) s.same_pointer = false;
                s.debug = c->partition[i];
                picks[n++] = static_cast<uint32_t>(i);  // only debug jobs backfill
            }
        }
        return n;
    };
    REQUIRE(rota_set_backfill_select(e.get(), fn, &seen, 0) == ROTA_OK);
    rota_job j1 = named(1, 6, 100, "a", "batch", nullptr);  // runs
    rota_job j2 = named(2, 8, 100, "a", "batch", nullptr);  // the blocked head
    j2.user = 42;
    rota_job j3 = named(3, 1, 50, "b", "batch", "low");   // a candidate, not picked
    rota_job j4 = named(4, 1, 50, "c", "debug", "high");  // picked
    rota_job j5 = named(5, 1, 50, nullptr, "debug", nullptr);
    for (rota_job* j : {&j1, &j2, &j3, &j4, &j5}) REQUIRE(rota_submit(e.get(), j) == ROTA_OK);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    REQUIRE(seen.rows.size() == 3);
    CHECK(seen.rows[0] == "3:b/batch/low");
    CHECK(seen.rows[1] == "4:c/debug/high");
    CHECK(seen.rows[2] == "5:/debug/");
    CHECK(seen.head == "2:42:a/batch/");  // who the candidates would pass
    CHECK(seen.same_pointer);
    CHECK(info_of(e.get(), 3).state == ROTA_JOB_QUEUED);
    CHECK(info_of(e.get(), 4).state == ROTA_JOB_RUNNING);
    CHECK(info_of(e.get(), 5).state == ROTA_JOB_RUNNING);
}

TEST_CASE(
    "names: admission/partition_limits.lua rejects or holds jobs over their partition's "
    "limit, worked by hand",
    "[capi][names][policies]") {
    // 8 processors; debug allows 2 per job, gpu 4, anything else 6.
    const std::string policy =
        "[machine]\nprocs = 8\n[policy.admission]\nscript = \"admission/partition_limits.lua\"\n"
        "limits = \"debug=2, gpu=4\"\ndefault = 6\n";
    struct Case {
        const char* name;
        std::string extra;
        int expect_rejects;
    };
    for (const Case& c : {Case{"reject", "", 3}, Case{"hold", "hold = true\n", 0}}) {
        SECTION(c.name) {
            auto e = rota::test::engine_from(policy + c.extra);
            rota_job jobs[] = {
                named(1, 3, 100, nullptr, "debug", nullptr),  // 3 > 2: over
                named(2, 2, 100, nullptr, "debug", nullptr),  // starts at 0 on 0-1
                named(3, 4, 100, nullptr, "gpu", nullptr),    // starts at 0 on 2-5
                named(4, 7, 100, nullptr, "batch", nullptr),  // 7 > 6 (default): over
                named(5, 7, 100, nullptr, nullptr, nullptr),  // no partition: default, over
                named(6, 2, 100, nullptr, "batch", nullptr),  // starts at 0 on 6-7
                named(7, 1, 100, nullptr, "gpu", nullptr),    // waits for 2 to end at 100
            };
            for (rota_job& j : jobs) REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
            REQUIRE(rota_schedule(e.get()) == ROTA_OK);
            std::vector<std::string> got;
            rota_action a{};
            a.size = sizeof a;
            while (rota_next_action(e.get(), &a) == ROTA_OK) {
                if (a.type == ROTA_ACTION_START)
                    got.push_back("start " + std::to_string(a.job) + " on " +
                                  std::to_string(a.runs[0].first) + "+" + std::to_string(a.nnodes));
                if (a.type == ROTA_ACTION_REJECT)
                    got.push_back("reject " + std::to_string(a.job) + ": " + a.reason);
            }
            std::vector<std::string> want = {"start 2 on 0+2", "start 3 on 2+4", "start 6 on 6+2"};
            if (c.expect_rejects)
                want = {"reject 1: requests 3 processors; the limit of partition debug is 2",
                        "reject 4: requests 7 processors; the limit of partition batch is 6",
                        "reject 5: requests 7 processors; the limit without a partition is 6",
                        "start 2 on 0+2",
                        "start 3 on 2+4",
                        "start 6 on 6+2"};
            CHECK(got == want);
            size_t held = 0;
            REQUIRE(rota_held(e.get(), nullptr, 0, &held) == ROTA_OK);
            CHECK(held == (c.expect_rejects ? 0u : 3u));
            // Job 7 (gpu, 1 processor) starts when job 2 ends.
            REQUIRE(rota_advance(e.get(), 50) == ROTA_OK);
            REQUIRE(rota_job_end(e.get(), 2) == ROTA_OK);
            REQUIRE(rota_schedule(e.get()) == ROTA_OK);
            CHECK(info_of(e.get(), 7).state == ROTA_JOB_RUNNING);
        }
    }
}
