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
