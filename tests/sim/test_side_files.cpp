// Files read beside or instead of a trace: the .machines description, a
// byte order mark, bytes a message would otherwise print raw. Each is bad
// input that must give a clear error naming the file, never a hang, a
// wrapped number or a terminal taken over by escape codes.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/pools.h"
#include "sim/run_config.h"
#include "sim/small_file.h"
#include "sim/swf.h"

using namespace rota::sim;

namespace {

const char* const kJob = "1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n";

// A trace and its .machines in a directory of their own, removed after.
struct TraceDir {
    std::filesystem::path dir;
    TraceDir() {
        dir = std::filesystem::temp_directory_path() /
              ("rota_test_side_" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
    }
    ~TraceDir() {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
    std::string trace(const std::string& machines) const {
        const std::string t = (dir / "t.swf").string();
        std::ofstream(t) << kJob;
        std::ofstream(t + ".machines") << machines;
        return t;
    }
};

}  // namespace

TEST_CASE("a .machines file is read by whole columns, naming file and line", "[swf][machines]") {
    TraceDir d;
    SECTION("a good file: totals over its clusters") {
        const auto m = read_machines_file(d.trace("# Alea\n0 a 20 80 1 1000\n1 b 4 12 1.5 10\n"));
        REQUIRE(m);
        CHECK(m->nodes == 24);
        CHECK(m->cpus == 20 * 80 + 4 * 12);
        CHECK(m->memory_kb == 20 * 1000 + 4 * 10);
        CHECK(m->clusters == 2);
    }
    SECTION("a decimal where a count goes is refused, not read as a prefix") {
        const std::string t = d.trace("0 a 20 80.5 1 529426432\n");
        CHECK_THROWS_WITH(read_machines_file(t),
                          t + ".machines:1: CPUs per node '80.5' is not a positive whole number");
    }
    SECTION("too few columns, a zero, a sign") {
        const std::string t = d.trace("\n0 a 20 80 1\n");
        CHECK_THROWS_WITH(read_machines_file(t),
                          Catch::StartsWith(t + ".machines:2: 5 columns; expected"));
        CHECK_THROWS_WITH(read_machines_file(d.trace("0 a 0 8 1 10\n")),
                          Catch::Contains(":1: nodes '0' is not a positive whole number"));
        CHECK_THROWS_WITH(read_machines_file(d.trace("0 a 2 8 1 -10\n")),
                          Catch::Contains(":1: RAM per node (KB) '-10' is not a positive"));
    }
    SECTION("products that would wrap are refused") {
        CHECK_THROWS_WITH(read_machines_file(d.trace("0 a 4611686018427387904 4 1 1\n")),
                          Catch::Contains(":1: 4611686018427387904 nodes of 4 CPUs is more than "
                                          "a count can hold"));
        CHECK_THROWS_WITH(read_machines_file(d.trace("0 a 2 1 1 4611686018427387904\n")),
                          Catch::Contains(":1: 2 nodes of 4611686018427387904 KB"));
        // Each line's product fits; their sum does not.
        CHECK_THROWS_WITH(read_machines_file(d.trace(
                              "0 a 1 1 1 4611686018427387904\n1 b 1 1 1 4611686018427387904\n")),
                          Catch::Contains(":2: the total of the CPUs or of the RAM so far passes"));
    }
    SECTION("bytes that are not text are shown escaped") {
        CHECK_THROWS_WITH(read_machines_file(d.trace("0 a 2 \x1b[2J 1 10\n")),
                          Catch::Contains("CPUs per node '\\x1B[2J' is not"));
    }
    SECTION("no file: none; no cluster: an error") {
        const std::string t = d.trace("");
        std::filesystem::remove(t + ".machines");
        CHECK_FALSE(read_machines_file(t));
        std::ofstream(t + ".machines") << "# nothing\n";
        CHECK_THROWS_WITH(read_machines_file(t), t + ".machines: no cluster described");
    }
}

TEST_CASE("a .machines that is a pipe or a device is refused, not read", "[swf][machines]") {
    TraceDir d;
    const std::string t = d.trace("");
    std::filesystem::remove(t + ".machines");
    REQUIRE(::mkfifo((t + ".machines").c_str(), 0600) == 0);
    // Without a writer a blocking read would never return.
    CHECK_THROWS_WITH(read_machines_file(t), "'" + t + ".machines' is a pipe, not a machines file");
    CHECK_THROWS_WITH(load_trace(t, Mapping::standard), Catch::Contains("is a pipe"));
    std::filesystem::remove(t + ".machines");
    std::filesystem::create_symlink("/dev/zero", t + ".machines");
    CHECK_THROWS_WITH(read_machines_file(t),
                      "'" + t + ".machines' is a device, not a machines file");
}

TEST_CASE("standard input has no .machines beside it", "[swf][machines]") {
    // A "-.machines" in the working directory belongs to no trace read from
    // standard input. The test works in a directory of its own.
    TraceDir d;
    struct Cwd {
        std::filesystem::path was = std::filesystem::current_path();
        ~Cwd() { std::filesystem::current_path(was); }
    } restore;
    std::filesystem::current_path(d.dir);
    std::ofstream("-.machines") << "0 a 7 3 1 100\n";
    REQUIRE(std::filesystem::file_size("-.machines") > 0);
    CHECK_FALSE(read_machines_file("-"));
    REQUIRE(read_small_file("-.machines", "machines file", 100));  // it is there to be read
}

TEST_CASE("a .machines whose name cannot exist is absent, not an error", "[swf][machines]") {
    TraceDir d;
    // 250 bytes of name: with ".machines" it passes the 255 a name may have.
    const std::string t = (d.dir / (std::string(246, 't') + ".swf")).string();
    std::ofstream(t) << kJob;
    CHECK_FALSE(read_machines_file(t));
    CHECK_FALSE(read_machines_file(t + "/inside"));  // a file taken for a directory
}

TEST_CASE("a side file larger than its bound is refused by its size", "[swf][machines]") {
    TraceDir d;
    const std::string t = d.trace("");
    std::filesystem::resize_file(t + ".machines", kMaxMachinesFileBytes + 1);
    CHECK_THROWS_WITH(read_machines_file(t),
                      Catch::Contains("holds 1048577 bytes: a machines file is at most 1 MiB"));
    CHECK_THROWS_WITH(read_small_file((d.dir / "none").string(), "thing", 10),
                      Catch::Contains("cannot open the thing"));
    CHECK_FALSE(read_small_file((d.dir / "none").string(), "thing", 10, true));
}

TEST_CASE("a processor count from .machines past the engine's limit names the file",
          "[swf][machines]") {
    TraceDir d;
    const std::string t = d.trace("0 a 2000 1000 1 100\n");
    const Trace tr = load_trace(t, Mapping::standard);
    REQUIRE(tr.machines);
    CHECK(tr.machines->cpus == 2'000'000);
    RunConfig rc;
    rc.trace = t;
    CHECK_THROWS_WITH(trace_procs(rc, tr),
                      t + ".machines: 2000000 processors in all, more than the 1000000 a machine "
                          "may have (--procs sets a smaller machine)");
    rc.procs = 64;
    CHECK(trace_procs(rc, tr) == 64);
}

TEST_CASE("a UTF-8 byte order mark before the first line is not part of it", "[swf]") {
    TraceDir d;
    const std::string t = (d.dir / "bom.swf").string();
    std::ofstream(t) << "\xEF\xBB\xBF; MaxProcs: 8\n" << kJob;
    const Trace tr = load_trace(t, Mapping::standard);
    CHECK(tr.header.max_procs == 8);
    REQUIRE(tr.jobs.size() == 1);
    // Anywhere else it is a byte of a field, and shown as bytes.
    std::ofstream(t) << "; MaxProcs: 8\n\xEF\xBB\xBF" << kJob;
    CHECK_THROWS_WITH(
        load_trace(t, Mapping::standard),
        Catch::Contains(":2: field 1 (job number): not a number: '\\xEF\\xBB\\xBF1'"));
}

TEST_CASE("a field's bytes reach a message escaped", "[swf]") {
    CHECK(printable_token("12x") == "12x");
    CHECK(printable_token(std::string("4\0"
                                      "5",
                                      3)) == "4\\x005");
    CHECK(printable_token("\x1b[31mX") == "\\x1B[31mX");
    CHECK(printable_token("a\\b") == "a\\x5Cb");
    CHECK(printable_token(std::string(50, 'z')) == std::string(40, 'z') + "...");
    TraceDir d;
    const std::string t = (d.dir / "esc.swf").string();
    std::ofstream(t) << "1 0 0 10 \x1b[2J -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n";
    CHECK_THROWS_WITH(load_trace(t, Mapping::standard),
                      Catch::Contains("field 5 (allocated processors): not a number: '\\x1B[2J'"));
}
