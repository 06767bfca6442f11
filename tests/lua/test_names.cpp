// The name columns of a Lua batch (account, partition, qos): strings
// spelled from the engine's interned names, "" for none.
#include <catch2/catch.hpp>

#include "lua_test_util.h"

using namespace rota;
using namespace rota::test;

namespace {

// Order keys that say what the script read: 1 per job whose partition is
// "debug", 2 for "" and 3 for anything else; the script also checks that
// the column is dense.
constexpr const char* kScript = R"(
return {
  order = function(jobs)
    assert(#jobs.partition == jobs.n, "the partition column is dense")
    assert(#jobs.account == jobs.n and #jobs.qos == jobs.n)
    local k = {}
    for i = 1, jobs.n do
      local p = jobs.partition[i]
      assert(type(p) == "string" and type(jobs.account[i]) == "string")
      k[i] = p == "debug" and 1 or p == "" and 2 or 3
      if jobs.qos[i] ~= "" then k[i] = k[i] + 10 * #jobs.qos[i] end
    end
    return k
  end,
})";

JobBatch named_batch(const NameTable& names, const std::vector<Name>& partitions,
                     const std::vector<Name>& qos) {
    std::vector<JobRow> rows;
    for (std::size_t i = 0; i < partitions.size(); ++i)
        rows.push_back({static_cast<JobId>(i + 1), 1});
    JobBatch b = make_batch(rows);
    b.partition = partitions;
    b.qos = qos;
    b.names = &names;
    return b;
}

}  // namespace

TEST_CASE("a Lua batch reads names as strings, the column dense, across batches and tables",
          "[lua][names]") {
    TempDir dir;
    LuaPolicy p(config(Hook::order, dir.write("names.lua", kScript)));
    NameTable t;
    const Name debug = t.intern("debug"), batch = t.intern("batch"), hi = t.intern("high");
    CHECK(t.intern("debug") == debug);
    CHECK(Name{} == t.intern(""));
    std::vector<double> keys;
    REQUIRE(p.order(named_batch(t, {debug, {}, batch}, {{}, hi, {}}), make_ctx(), keys).ok);
    CHECK(keys == std::vector<double>{1, 42, 3});
    // A shorter batch: the tail of the last is cleared.
    REQUIRE(p.order(named_batch(t, {batch}, {{}}), make_ctx(), keys).ok);
    CHECK(keys == std::vector<double>{3});

    // Another engine's table numbers names otherwise: its batch reads its
    // own names, not those the last table cached.
    NameTable u;
    const Name b2 = u.intern("batch"), d2 = u.intern("debug");
    REQUIRE(b2.id == debug.id);
    REQUIRE(p.order(named_batch(u, {b2, d2}, {{}, {}}), make_ctx(), keys).ok);
    CHECK(keys == std::vector<double>{3, 1});
}

TEST_CASE("partition_limits refuses a malformed limits string at load", "[lua][names][policies]") {
    for (const char* bad : {"debug", "debug=0", "debug=x", "=4", "debug=1.5"}) {
        INFO(bad);
        CHECK_THROWS_WITH(LuaPolicy(config(Hook::admission, "admission/partition_limits.lua",
                                           {{"limits", std::string(bad)}})),
                          Catch::Contains("is not name=procs with procs >= 1"));
    }
    LuaPolicy ok(config(Hook::admission, "admission/partition_limits.lua",
                        {{"limits", std::string("debug=2 gpu=4,big=100")}}));
    NameTable t;
    JobBatch b = named_batch(t, {t.intern("gpu"), t.intern("gpu"), {}}, {{}, {}, {}});
    b.procs = {4, 5, 1000};
    std::vector<Admission> out;
    REQUIRE(ok.admission(b, make_ctx(), out).ok);
    REQUIRE(out.size() == 3);
    CHECK(out[0].kind == AdmissionKind::accept);
    CHECK(out[1].kind == AdmissionKind::reject);
    CHECK(out[1].reason == "requests 5 processors; the limit of partition gpu is 4");
    CHECK(out[2].kind == AdmissionKind::accept);  // no partition, no default: no limit
}

TEST_CASE("a distribution batch reads names as strings too", "[lua][names]") {
    TempDir dir;
    // Gives every processor to the first job of QOS "high".
    LuaPolicy p(config(Hook::distribution, dir.write("dist.lua", R"(
return {
  distribution = function(m, ctx)
    local give = {}
    for i = 1, m.n do give[i] = 0 end
    for i = 1, m.n do
      if m.qos[i] == "high" and m.partition[i] == "" then
        give[i] = ctx.needed
        break
      end
    end
    return give
  end,
})")));
    NameTable t;
    MalleableBatch m;
    m.names = &t;
    for (const auto& [id, qos] :
         {std::pair{1, "low"}, std::pair{2, "high"}, std::pair{3, "high"}}) {
        m.id.push_back(id);
        m.procs.push_back(0);
        m.min.push_back(1);
        m.ideal.push_back(8);
        m.queued.push_back(1);
        m.age.push_back(0);
        m.time_left.push_back(100);
        m.harvests.push_back(0);
        m.cost.push_back(0);
        m.progress.push_back(0);
        m.user.push_back(-1);
        m.account.push_back({});
        m.partition.push_back(id == 2 ? t.intern("debug") : Name{});
        m.qos.push_back(t.intern(qos));
    }
    MalleableContext ctx;
    ctx.needed = 4;
    std::vector<std::int64_t> give;
    REQUIRE(p.distribution(m, ctx, give).ok);
    CHECK(give == std::vector<std::int64_t>{0, 0, 4});
}

TEST_CASE("a preempt context reads the job's and each victim's names as strings", "[lua][names]") {
    TempDir dir;
    // The first set none of whose victims has QOS "keep"; the script also
    // checks what it reads of the job and of the victims.
    LuaPolicy p(config(Hook::preempt, dir.write("pre.lua", R"(
return {
  preempt = function(sets, ctx)
    if sets.n == 0 then
      assert(ctx.job_user == -1 and ctx.job_account == "" and ctx.job_qos == "")
      assert(ctx.victim_account == nil and ctx.victim_id == nil)  -- no victims: nil, as victim_id
      return nil
    end
    assert(ctx.job_user == 4 and ctx.job_account == "physics")
    assert(ctx.job_partition == "" and ctx.job_qos == "high")
    assert(#ctx.victim_qos == #ctx.victim_id and #ctx.victim_partition == #ctx.victim_id)
    assert(ctx.victim_account[1] == "chem" and ctx.victim_account[2] == "")
    assert(ctx.victim_partition[3] == "batch")
    for i = 1, sets.n do
      local ok = true
      for k = sets.first[i], sets.first[i] + sets.victims[i] - 1 do
        if ctx.victim_qos[k] == "keep" then ok = false end
      end
      if ok then return i end
    end
    return nil
  end,
})")));
    NameTable t;
    PreemptBatch b;
    b.procs = {4, 4, 4};
    b.idle = {0, 0, 0};
    b.victims = {1, 1, 1};
    b.first = {1, 2, 3};
    b.cost = {1, 2, 3};
    b.dnd_left = {0, 0, 0};
    PreemptContext ctx;
    ctx.names = &t;
    ctx.job_id = 9;
    ctx.job_user = 4;
    ctx.job_account = t.intern("physics");
    ctx.job_qos = t.intern("high");
    ctx.victim_id = {1, 2, 3};
    for (auto* v : {&ctx.victim_procs, &ctx.victim_class, &ctx.victim_priority, &ctx.victim_user,
                    &ctx.victim_dnd_left, &ctx.victim_elapsed, &ctx.victim_preemptions})
        v->assign(3, 0);
    ctx.victim_account = {t.intern("chem"), {}, t.intern("chem")};
    ctx.victim_partition = {{}, {}, t.intern("batch")};
    ctx.victim_qos = {t.intern("keep"), t.intern("keep"), {}};
    std::vector<std::int64_t> out;
    REQUIRE(p.preempt(b, ctx, out).ok);
    CHECK(out == std::vector<std::int64_t>{2});  // the third set, 0-based
    ctx.victim_qos[2] = t.intern("keep");
    REQUIRE(p.preempt(b, ctx, out).ok);
    CHECK(out.empty());
    // No sets, no victims: the job's names, the victims' arrays nil.
    PreemptContext none;
    none.job_id = -1;
    none.job_user = -1;
    REQUIRE(p.preempt(PreemptBatch{}, none, out).ok);
}

TEST_CASE("a harvest context reads the arriving job's user and names", "[lua][names]") {
    TempDir dir;
    // Takes everything from the first victim unless the arriving job is
    // charged to "nobody".
    LuaPolicy p(config(Hook::harvest, dir.write("h.lua", R"(
return {
  harvest = function(v, ctx)
    if v.n == 0 then return nil end
    assert(type(ctx.job_partition) == "string" and type(ctx.job_qos) == "string")
    assert(ctx.job_user == 12 and ctx.job_partition == "gpu" and ctx.job_qos == "")
    if ctx.job_account == "nobody" then return nil end
    local take = {}
    for i = 1, v.n do take[i] = 0 end
    take[1] = ctx.needed
    return take
  end,
})")));
    NameTable t;
    MalleableBatch v;
    v.names = &t;
    v.id = {1};
    v.procs = {8};
    v.min = {2};
    v.ideal = {8};
    v.queued = {0};
    v.age = {100};
    v.time_left = {100};
    v.harvests = {0};
    v.cost = {0};
    v.progress = {0};
    v.user = {1};
    v.account = {{}};
    v.partition = {{}};
    v.qos = {{}};
    MalleableContext ctx;
    ctx.names = &t;
    ctx.needed = 4;
    ctx.job_id = 2;
    ctx.job_min = 4;
    ctx.job_ideal = 4;
    ctx.job_user = 12;
    ctx.job_account = t.intern("physics");
    ctx.job_partition = t.intern("gpu");
    std::vector<std::int64_t> take;
    REQUIRE(p.harvest(v, ctx, take).ok);
    CHECK(take == std::vector<std::int64_t>{4});
    ctx.job_account = t.intern("nobody");
    REQUIRE(p.harvest(v, ctx, take).ok);
    CHECK(take.empty());
}
