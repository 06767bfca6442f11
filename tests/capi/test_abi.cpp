// ABI conventions of rota.h: versions, status names, the size field of
// structs, the log sink, failed handles.
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "support.h"

TEST_CASE("abi: versions and status names") {
    CHECK(std::string(rota_version()) == ROTA_VERSION);
    CHECK(rota_abi_version() == ROTA_ABI_VERSION);
    CHECK(rota_version_number() == ROTA_VERSION_NUMBER);
    // The number and the string come from the same three macros.
    const std::string v = std::to_string(ROTA_VERSION_NUMBER / 1000000) + "." +
                          std::to_string(ROTA_VERSION_NUMBER / 1000 % 1000) + "." +
                          std::to_string(ROTA_VERSION_NUMBER % 1000);
    CHECK(v == rota_version());
    CHECK(std::string(rota_status_name(ROTA_ETIME)) == "ROTA_ETIME");
    CHECK(std::string(rota_status_name(99)) == "ROTA_UNKNOWN");
    CHECK(std::string(rota_strerror(ROTA_ETIME)) == "time went backwards");
}

TEST_CASE("abi: a caller with an older, smaller struct gets only the fields it knows") {
    auto e = rota::test::engine_from("[machine]\nprocs = 8\n");
    rota_job j{};
    j.size = sizeof(rota_job);
    j.id = 1;
    j.procs = 3;
    j.estimate = 100;
    REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);

    // As if compiled when rota_action ended after `row`.
    rota_action a;
    std::memset(&a, 0xAB, sizeof a);
    a.size = offsetof(rota_action, nnodes);
    REQUIRE(rota_next_action(e.get(), &a) == ROTA_OK);
    CHECK(a.size == offsetof(rota_action, nnodes));
    CHECK(a.type == ROTA_ACTION_START);
    CHECK(a.job == 1);
    int32_t untouched;
    std::memset(&untouched, 0xAB, sizeof untouched);
    CHECK(a.nnodes == untouched);

    // Reservations use the caller's element size as the stride.
    j.id = 2;
    j.procs = 8;
    REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    struct Old {
        size_t size;
        int64_t job;
        rota_time start;
    } old[2];
    std::memset(old, 0, sizeof old);
    old[0].size = sizeof(Old);
    size_t n = 0;
    REQUIRE(rota_reservations(e.get(), reinterpret_cast<rota_reservation*>(old), 2, &n) == ROTA_OK);
    REQUIRE(n == 1);
    CHECK(old[0].job == 2);
    CHECK(old[0].start == 100);
    CHECK(old[1].job == 0);
}

TEST_CASE("abi: start actions give the nodes as runs") {
    auto e = rota::test::engine_from("[machine]\nprocs = 130\n");
    rota_job j{};
    j.size = sizeof(rota_job);
    j.estimate = 100;
    for (int64_t id = 1; id <= 3; ++id) {
        j.id = id;
        j.procs = id == 2 ? 100 : 10;
        REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    }
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    rota_action a{};
    a.size = sizeof(rota_action);
    REQUIRE(rota_next_action(e.get(), &a) == ROTA_OK);
    REQUIRE(rota_next_action(e.get(), &a) == ROTA_OK);
    CHECK(a.job == 2);
    CHECK(a.nnodes == 100);
    REQUIRE(a.nruns == 1);
    CHECK(a.runs[0].first == 10);
    CHECK(a.runs[0].count == 100);
    REQUIRE(rota_advance(e.get(), 1) == ROTA_OK);
    REQUIRE(rota_job_end(e.get(), 1) == ROTA_OK);  // frees 0..9
    j.id = 4;
    j.procs = 15;  // 0..9 and 120..124
    REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    while (rota_next_action(e.get(), &a) == ROTA_OK && a.job != 4) {
    }
    REQUIRE(a.job == 4);
    REQUIRE(a.nruns == 2);
    CHECK(a.runs[0].first == 0);
    CHECK(a.runs[0].count == 10);
    CHECK(a.runs[1].first == 120);
    CHECK(a.runs[1].count == 5);
    int32_t nodes[15];
    size_t n = 0;
    REQUIRE(rota_job_nodes(e.get(), 4, nodes, 15, &n) == ROTA_OK);
    CHECK(n == 15);
    CHECK(nodes[9] == 9);
    CHECK(nodes[10] == 120);
}

TEST_CASE("abi: the log sink can be replaced and silenced; a policy's print() goes there") {
    namespace fs = std::filesystem;
    fs::path script =
        fs::temp_directory_path() / ("rota-abi-print-" + std::to_string(::getpid()) + ".lua");
    std::ofstream(script) << "return { backfill_select = function(c)\n"
                             "  if c.n > 0 then print('backfilling', c.n) end\n"
                             "  return c.n > 0 and { 1 } or {}\nend }\n";
    auto e = rota::test::engine_from("[machine]\nprocs = 8\n[policy.backfill_select]\nscript = \"" +
                                     script.string() + "\"\n");
    std::vector<std::string> lines;
    auto sink = [](void* ud, int, const char* l) {
        static_cast<std::vector<std::string>*>(ud)->push_back(l);
    };
    REQUIRE(rota_set_log(e.get(), sink, &lines) == ROTA_OK);
    auto submit = [&](int64_t id, int32_t procs, rota_time est) {
        rota_job j{};
        j.size = sizeof(rota_job);
        j.id = id;
        j.procs = procs;
        j.estimate = est;
        REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    };
    submit(1, 6, 100);
    submit(2, 8, 100);  // the head, reserved at 100
    submit(3, 1, 50);   // a candidate
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    REQUIRE(lines.size() == 1);
    CHECK(lines[0].find("backfilling") != std::string::npos);

    REQUIRE(rota_set_log(e.get(), nullptr, nullptr) == ROTA_OK);  // silenced
    submit(4, 1, 50);
    REQUIRE(rota_advance(e.get(), 1) == ROTA_OK);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    CHECK(lines.size() == 1);
    REQUIRE(rota_set_log(e.get(), rota_log_stderr, nullptr) == ROTA_OK);  // the default again
    fs::remove(script);
}

TEST_CASE("abi: a handle whose creation failed keeps one readable message") {
    rota_engine* e = nullptr;
    REQUIRE(rota_engine_new("[machine]\nprocs = -1\n", nullptr, &e) == ROTA_ECONFIG);
    std::string first = rota_errmsg(e);
    CHECK(rota_schedule(e) == ROTA_ESTATE);
    CHECK(rota_schedule(e) == ROTA_ESTATE);
    std::string later = rota_errmsg(e);
    CHECK(later == "engine was not created: " + first);
    rota_engine_free(e);
    // A NULL configuration or path is such a handle too, saying so.
    for (int k = 0; k < 4; ++k) {
        e = nullptr;
        const int rc = k == 0   ? rota_engine_new(nullptr, nullptr, &e)
                       : k == 1 ? rota_engine_new_v2(nullptr, nullptr, nullptr, &e)
                       : k == 2 ? rota_engine_new_file(nullptr, &e)
                                : rota_restore(nullptr, nullptr, nullptr, "", 0, &e);
        INFO(k);
        CHECK(rc == ROTA_EINVAL);
        REQUIRE(e != nullptr);
        CHECK_THAT(rota_errmsg(e), Catch::Contains("is NULL"));
        CHECK(rota_schedule(e) == ROTA_ESTATE);
        rota_engine_free(e);
    }
}

TEST_CASE("abi: job ids must not be negative") {
    auto e = rota::test::engine_from("[machine]\nprocs = 8\n");
    rota_job j{};
    j.size = sizeof(rota_job);
    j.id = -1;
    j.procs = 1;
    j.estimate = 10;
    CHECK(rota_submit(e.get(), &j) == ROTA_EINVAL);
    CHECK(std::string(rota_errmsg(e.get())).find("ids must be >= 0") != std::string::npos);
}

TEST_CASE("abi: a job struct too small for its fixed fields is refused with its size") {
    auto e = rota::test::engine_from("[machine]\nprocs = 8\n");
    rota_job j{};
    j.size = 16;  // set, but to something other than sizeof(rota_job)
    j.id = 1;
    j.procs = 1;
    j.estimate = 10;
    CHECK(rota_submit(e.get(), &j) == ROTA_EINVAL);
    CHECK_THAT(rota_errmsg(e.get()), Catch::Contains("job.size is 16; set it to sizeof(rota_job)"));
    CHECK(rota_submit(e.get(), nullptr) == ROTA_EINVAL);
    CHECK_THAT(rota_errmsg(e.get()), Catch::EndsWith("job is NULL"));
}

TEST_CASE("abi: advancing past a reservation's start re-places it and loses nothing") {
    for (const char* cfg :
         {"[machine]\nprocs = 4\n[scheduler]\nreservation_depth = 1\n",
          "[machine]\nprocs = 4\n[scheduler]\nreservation_depth = -1\n",
          "[machine]\nprocs = 4\n[scheduler]\npreset = \"bgs\"\n[gang]\nmpl = 1\n"}) {
        INFO(cfg);
        auto e = rota::test::engine_from(cfg);
        rota_job j{};
        j.size = sizeof(rota_job);
        j.id = 1;
        j.procs = 4;
        j.estimate = 100;
        REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
        j.id = 2;
        REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
        REQUIRE(rota_schedule(e.get()) == ROTA_OK);
        rota_time w = 0;
        REQUIRE(rota_next_wakeup(e.get(), &w) == ROTA_OK);
        CHECK(w == 100);
        REQUIRE(rota_advance(e.get(), 150) == ROTA_OK);  // past the wakeup
        REQUIRE(rota_schedule(e.get()) == ROTA_OK);
        rota_job_info info{};
        info.size = sizeof(info);
        REQUIRE(rota_job_info_get(e.get(), 2, &info) == ROTA_OK);
        CHECK(info.state == ROTA_JOB_RUNNING);
        CHECK(info.start == 150);
    }
}

TEST_CASE("abi: an estimate beyond the time axis is refused") {
    auto e = rota::test::engine_from("[machine]\nprocs = 4\n");
    REQUIRE(rota_advance(e.get(), 1) == ROTA_OK);
    rota_job j{};
    j.size = sizeof(rota_job);
    j.id = 1;
    j.procs = 1;
    j.estimate = INT64_MAX;
    CHECK(rota_submit(e.get(), &j) == ROTA_EINVAL);
    CHECK_THAT(rota_errmsg(e.get()), Catch::Contains("would end past the time axis (now 1 us"));
    CHECK(rota_advance(e.get(), INT64_MAX) == ROTA_EINVAL);
    CHECK(rota_now(e.get()) == 1);
    // At the axis' end no estimate fits, and the message says why.
    REQUIRE(rota_advance(e.get(), INT64_MAX / 4) == ROTA_OK);
    j.estimate = 1;
    CHECK(rota_submit(e.get(), &j) == ROTA_EINVAL);
    CHECK_THAT(rota_errmsg(e.get()), Catch::Contains("at most 0 us"));
}

TEST_CASE("abi: a native backfill policy on an engine that never backfills is refused") {
    auto e = rota::test::engine_from("[machine]\nprocs = 8\n[scheduler]\npreset = \"fcfs\"\n");
    auto none = [](void*, const rota_batch*, const rota_backfill_context*, uint32_t*) { return 0; };
    CHECK(rota_set_backfill_select(e.get(), none, nullptr, 0) == ROTA_EINVAL);
    CHECK(std::string(rota_errmsg(e.get())).find("never backfills") != std::string::npos);
    CHECK(rota_set_backfill_select(e.get(), nullptr, nullptr, 0) == ROTA_OK);  // clearing is fine
    // The iScheduler replaces the walk and starts no job past a blocked
    // one; the class passes offer backfill_select the jobs that fit in
    // their pass 2.
    auto m = rota::test::engine_from("[machine]\nprocs = 256\n[malleable]\n");
    CHECK(rota_set_backfill_select(m.get(), none, nullptr, 0) == ROTA_EINVAL);
    CHECK(std::string(rota_errmsg(m.get())).find("never backfills") != std::string::npos);
    rota_machine_info info{};
    info.size = sizeof info;
    REQUIRE(rota_machine_info_get(m.get(), &info) == ROTA_OK);
    CHECK(info.backfill == 0);
    auto c = rota::test::engine_from("[machine]\nprocs = 256\n[classes]\npreset = \"llnl-t3d\"\n");
    CHECK(rota_set_backfill_select(c.get(), none, nullptr, 0) == ROTA_OK);
    REQUIRE(rota_machine_info_get(c.get(), &info) == ROTA_OK);
    CHECK(info.backfill == 1);
}

TEST_CASE("abi: an action's runs and reason outlive queries until the next event call") {
    auto e = rota::test::engine_from("[machine]\nprocs = 8\n");
    rota_job j{};
    j.size = sizeof j;
    j.estimate = 100;
    j.user = -1;
    j.id = 1;
    j.procs = 16;  // wider than the machine: rejected with a reason
    REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    j.id = 2;
    j.procs = 3;
    REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    rota_action a{}, b{}, rest{};
    a.size = b.size = rest.size = sizeof(rota_action);
    REQUIRE(rota_next_action(e.get(), &a) == ROTA_OK);
    REQUIRE(rota_next_action(e.get(), &b) == ROTA_OK);
    if (a.type != ROTA_ACTION_REJECT) std::swap(a, b);
    REQUIRE(a.type == ROTA_ACTION_REJECT);
    REQUIRE(b.type == ROTA_ACTION_START);
    CHECK(rota_next_action(e.get(), &rest) == ROTA_DONE);
    const std::string reason = a.reason;
    // Queries are not event calls: the pointers stay (ASan would see a free).
    rota_job_info info{};
    info.size = sizeof info;
    CHECK(rota_job_info_get(e.get(), 2, &info) == ROTA_OK);
    size_t n = 0;
    CHECK(rota_running(e.get(), nullptr, 0, &n) == ROTA_OK);
    rota_counters c{};
    c.size = sizeof c;
    CHECK(rota_counters_get(e.get(), &c) == ROTA_OK);
    char top[4096];
    CHECK(rota_top(e.get(), 80, top, sizeof top, &n) == ROTA_OK);
    CHECK(std::string(a.reason) == reason);
    REQUIRE(b.nruns == 1);
    CHECK(b.runs[0].count == 3);
}

TEST_CASE("abi: a native backfill policy survives a policy reload") {
    auto e = rota::test::engine_from(
        "[machine]\nprocs = 8\n[policy.backfill_select]\nscript = \"backfill/first_fit.lua\"\n");
    static int calls = 0;
    calls = 0;
    auto none = [](void*, const rota_batch*, const rota_backfill_context*, uint32_t*) {
        ++calls;
        return 0;
    };
    REQUIRE(rota_set_backfill_select(e.get(), none, nullptr, 0) == ROTA_OK);
    REQUIRE(rota_reload_policies(e.get()) == ROTA_OK);
    rota_job j{};
    j.size = sizeof(rota_job);
    auto submit = [&](int64_t id, int32_t procs, rota_time est) {
        j.id = id;
        j.procs = procs;
        j.estimate = est;
        REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    };
    submit(1, 6, 100);
    submit(2, 8, 100);
    submit(3, 1, 50);  // a candidate the native policy refuses
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    CHECK(calls == 1);
    rota_job_info info{};
    info.size = sizeof(info);
    REQUIRE(rota_job_info_get(e.get(), 3, &info) == ROTA_OK);
    CHECK(info.state == ROTA_JOB_QUEUED);
}

TEST_CASE("abi: NULL out pointers are refused, not dereferenced") {
    CHECK(rota_engine_new_file("/nonexistent/rota.toml", nullptr) == ROTA_EINVAL);
    CHECK(rota_engine_new("[machine]\nprocs = 1\n", nullptr, nullptr) == ROTA_EINVAL);
}

TEST_CASE("abi: rota_hook_script names the file each hook's script was loaded from") {
    auto e = rota::test::engine_from(
        "[machine]\nprocs = 8\n[policy.backfill_select]\nscript = \"backfill/first_fit.lua\"\n"
        "[policy.order]\nscript = \"" ROTA_POLICY_DIR "/order/sjf.lua\"\n");
    const char* bf = rota_hook_script(e.get(), ROTA_HOOK_BACKFILL_SELECT);
    REQUIRE(bf != nullptr);
    // A relative name resolved to the shipped policy's file.
    CHECK(std::filesystem::equivalent(bf, ROTA_POLICY_DIR "/backfill/first_fit.lua"));
    const char* order = rota_hook_script(e.get(), ROTA_HOOK_ORDER);
    REQUIRE(order != nullptr);
    CHECK(std::string(order) == ROTA_POLICY_DIR "/order/sjf.lua");
    // No script: the built-in default; hooks the library does not know.
    CHECK(rota_hook_script(e.get(), ROTA_HOOK_ADMISSION) == nullptr);
    CHECK(rota_hook_script(e.get(), -1) == nullptr);
    CHECK(rota_hook_script(e.get(), 1000) == nullptr);
    CHECK(rota_hook_script(nullptr, ROTA_HOOK_ORDER) == nullptr);
    // A native backfill_select replaces the script.
    auto none = [](void*, const rota_batch*, const rota_backfill_context*, uint32_t*) { return 0; };
    REQUIRE(rota_set_backfill_select(e.get(), none, nullptr, 0) == ROTA_OK);
    CHECK(rota_hook_script(e.get(), ROTA_HOOK_BACKFILL_SELECT) == nullptr);
    auto plain = rota::test::engine_from("[machine]\nprocs = 8\n");
    CHECK(rota_hook_script(plain.get(), ROTA_HOOK_BACKFILL_SELECT) == nullptr);
}
