#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/gzip_lines.h"
#include "sim/swf.h"

using namespace rota::sim;

namespace {

const std::string kData = std::string(ROTA_TEST_DATA) + "/swf/";

std::string temp_path(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path();
    return (dir / ("rota_test_swf_" + std::to_string(::getpid()) + "_" + name)).string();
}

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void write_gz(const std::string& path, const std::string& bytes) {
    gzFile g = gzopen(path.c_str(), "wb");
    REQUIRE(g != nullptr);
    REQUIRE(gzwrite(g, bytes.data(), static_cast<unsigned>(bytes.size())) ==
            static_cast<int>(bytes.size()));
    REQUIRE(gzclose(g) == Z_OK);
}

std::vector<SwfRecord> read_all(const std::string& path,
                                std::vector<std::int64_t>* lines = nullptr) {
    SwfReader r(path);
    std::vector<SwfRecord> out;
    SwfRecord rec;
    while (r.next(rec)) {
        out.push_back(rec);
        if (lines) lines->push_back(r.line_number());
    }
    return out;
}

SwfRecord rec(std::int64_t id, std::int64_t submit, std::int64_t run, std::int32_t alloc,
              std::int32_t req_procs, std::int64_t req_time) {
    SwfRecord r;
    r.id = id;
    r.submit = submit;
    r.run_time = run;
    r.alloc_procs = alloc;
    r.req_procs = req_procs;
    r.req_time = req_time;
    r.user = 7;
    return r;
}

struct TempFile {
    std::string path;
    ~TempFile() { std::remove(path.c_str()); }
};

}  // namespace

TEST_CASE("SWF reader parses header, -1 fields, decimals, blank lines and extra fields", "[swf]") {
    SwfReader r(kData + "small.swf");
    CHECK(r.header().max_procs == 128);
    CHECK(r.header().max_nodes == 64);
    REQUIRE(r.header().lines.size() == 5);
    CHECK(r.header().lines[0] == "; Version: 2.2");
    CHECK(r.header().lines[4] == ";");

    std::vector<std::int64_t> lines;
    auto recs = read_all(kData + "small.swf", &lines);
    REQUIRE(recs.size() == 5);
    CHECK(lines == std::vector<std::int64_t>{6, 7, 9, 10, 13});

    const SwfRecord& a = recs[0];
    CHECK(a.id == 1);
    CHECK(a.submit == 0);
    CHECK(a.wait == 5);
    CHECK(a.run_time == 100);
    CHECK(a.alloc_procs == 4);
    CHECK(a.avg_cpu == 95.5);
    CHECK(a.used_mem == -1);
    CHECK(a.req_procs == 4);
    CHECK(a.req_time == 200);
    CHECK(a.req_mem == -1);
    CHECK(a.status == 1);
    CHECK(a.user == 3);
    CHECK(a.group == 1);
    CHECK(a.executable == -1);
    CHECK(a.think == -1);

    // Leading spaces and a CRLF ending.
    CHECK(recs[1].id == 2);
    CHECK(recs[1].alloc_procs == -1);
    CHECK(recs[1].req_procs == 8);
    CHECK(recs[1].req_time == -1);
    CHECK(recs[1].think == -1);

    // Three extra non-numeric fields are ignored.
    const SwfRecord& c = recs[2];
    CHECK(c.id == 3);
    CHECK(c.wait == -1);
    CHECK(c.avg_cpu == 12.25);
    CHECK(c.used_mem == 1024);
    CHECK(c.req_mem == 2048);
    CHECK(c.status == 0);
    CHECK(c.group == 2);
    CHECK(c.executable == 7);
    CHECK(c.queue == 1);
    CHECK(c.partition == 1);
    CHECK(c.think == -1);

    // Tab separated.
    CHECK(recs[3].id == 4);
    CHECK(recs[3].run_time == 0);
    CHECK(recs[3].req_time == 60);
    CHECK(recs[3].status == 5);

    // Last line has no newline.
    CHECK(recs[4].id == 5);
    CHECK(recs[4].preceding == 2);
    CHECK(recs[4].think == 30);
}

TEST_CASE("SWF reader gives identical records for the gzipped file", "[swf]") {
    TempFile gz{temp_path("small.swf.data")};  // a name without .gz: detection is by magic bytes
    write_gz(gz.path, slurp(kData + "small.swf"));
    {
        LineReader lr(gz.path);
        CHECK(lr.compressed());
        LineReader plain(kData + "small.swf");
        CHECK_FALSE(plain.compressed());
    }
    SwfReader r(gz.path);
    CHECK(r.header().max_procs == 128);
    CHECK(r.header().max_nodes == 64);
    std::vector<std::int64_t> lines_gz, lines_plain;
    auto from_gz = read_all(gz.path, &lines_gz);
    auto from_plain = read_all(kData + "small.swf", &lines_plain);
    REQUIRE(from_gz.size() == 5);
    CHECK(from_gz == from_plain);
    CHECK(lines_gz == lines_plain);
}

TEST_CASE("SWF reader handles lines longer than its buffer and many lines", "[swf]") {
    TempFile f{temp_path("long.swf")};
    std::string body = "; MaxProcs: 4\n";
    std::string extra(2 << 20, 'x');  // longer than the 1 MiB read block
    body += "1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1 " + extra + "\n";
    for (int i = 2; i <= 50000; ++i)
        body += std::to_string(i) + " 5 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n";
    std::ofstream(f.path, std::ios::binary) << body;
    auto recs = read_all(f.path);
    REQUIRE(recs.size() == 50000);
    CHECK(recs[0].id == 1);
    CHECK(recs[49999].id == 50000);
    CHECK(recs[49999].submit == 5);

    TempFile gz{temp_path("long.swf.gz")};
    write_gz(gz.path, body);
    CHECK(read_all(gz.path) == recs);
}

// The comment lines of the header are read, not all kept: a gzip of a few
// hundred KB holding 2x10^8 ';' lines took 12.5 GB before.
TEST_CASE("SWF header lines kept are bounded; every one is still read", "[swf]") {
    TempFile gz{temp_path("comments.swf.gz")};
    std::string body = "; Version: 2.2\n";
    for (int i = 0; i < 300000; ++i) body += ";\n";
    body += "; " + std::string(100, 'c') + "\n";
    body += "; MaxProcs: 64\n";  // after the lines kept: read all the same
    body += "1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n";
    write_gz(gz.path, body);
    SwfReader r(gz.path);
    const SwfHeader& h = r.header();
    CHECK(h.max_procs == 64);
    CHECK(h.max_procs_line == 300003);
    CHECK(h.lines.size() == SwfHeader::kHeaderLinesKept);
    CHECK(h.lines.front() == "; Version: 2.2");
    CHECK(h.lines_dropped == 300003 - static_cast<std::int64_t>(SwfHeader::kHeaderLinesKept));
    CHECK(read_all(gz.path).size() == 1);
    // And within the bytes kept: a few long comment lines fill them first.
    TempFile wide{temp_path("wide.swf")};
    std::string w = "; MaxProcs: 8\n";
    for (int i = 0; i < 100; ++i) w += "; " + std::string(10000, 'w') + "\n";
    w += "1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n";
    std::ofstream(wide.path, std::ios::binary) << w;
    SwfReader rw(wide.path);
    CHECK(rw.header().line_bytes <= SwfHeader::kHeaderBytesKept);
    CHECK(rw.header().lines.size() == 7);  // 13 + 6 x 10002 bytes
    CHECK(rw.header().lines_dropped == 94);
}

// A header line of a megabyte may hold a few hundred thousand entries:
// each was compared with every other (420,000 AdaptBytes entries: 30 s).
TEST_CASE("SWF header lists are checked in a moment however long their line", "[swf]") {
    const auto t0 = std::chrono::steady_clock::now();
    TempFile f{temp_path("lists.swf")};
    std::string adapt = "; MaxProcs: 8\n; AdaptBytes:";
    for (int e = 0; e < 420000; ++e) adapt.append(" ").append(std::to_string(e)).append("=1");
    const std::string record = "\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n";
    std::ofstream(f.path, std::ios::binary) << adapt << record;
    CHECK(SwfReader(f.path).header().adapt_bytes.size() == 420000);
    std::ofstream(f.path, std::ios::binary) << adapt << " 123=5" << record;
    CHECK_THROWS_WITH(SwfReader(f.path), Catch::Contains("executable 123 is declared twice"));
    // Pools: each record carries a field per pool; at most 1024 of them.
    std::string pools = "; MaxProcs: 8\n; Pools:";
    for (std::size_t p = 0; p <= kMaxHeaderPools; ++p)
        pools.append(" p").append(std::to_string(p)).append("=1");
    std::ofstream(f.path, std::ios::binary) << pools << record;
    CHECK_THROWS_WITH(SwfReader(f.path), Catch::Contains(":2: Pools: more than 1024 pools"));
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10));
}

// A line past 4 MiB is no trace: refused with file and line before it
// fills the memory (a 2 GB line took 6.3 GB before an error).
TEST_CASE("SWF reader refuses a line longer than 4 MiB, naming file and line", "[swf]") {
    TempFile f{temp_path("huge_line.swf")};
    std::string body = "1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n";
    body += std::string(5 << 20, '7');
    std::ofstream(f.path, std::ios::binary) << body;
    CHECK_THROWS_WITH(read_all(f.path),
                      Catch::Contains("huge_line.swf") && Catch::Contains("line 2 is longer than"));
    // Ended by a newline and a record after it: a file fills the buffer with
    // the whole line at once, and the limit holds all the same.
    std::ofstream(f.path, std::ios::binary | std::ios::trunc)
        << body << "\n2 5 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n";
    CHECK_THROWS_WITH(read_all(f.path), Catch::Contains("line 2 is longer than"));
}

TEST_CASE("SWF loading refuses a job id given twice, naming both lines", "[swf]") {
    TempFile f{temp_path("dup.swf")};
    std::ofstream(f.path, std::ios::binary)
        << "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
           "2 5 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
           "1 9 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n";
    CHECK_THROWS_WITH(load_trace(f.path, Mapping::standard),
                      Catch::Contains("dup.swf:4: job id 1 was already given at line 2"));
    // A fault of the trace (exit status 1), not of the options.
    CHECK_THROWS_AS(load_trace(f.path, Mapping::standard), SwfError);
}

TEST_CASE("SWF loading refuses a machine size given twice differently, naming both lines",
          "[swf]") {
    TempFile f{temp_path("twice.swf")};
    std::ofstream(f.path, std::ios::binary)
        << "; MaxProcs: 8\n; MaxNodes: 4\n; MaxProcs: 8\n; MaxProcs: 2\n"
           "1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n";
    // The same value again is no contradiction; MaxNodes is another key.
    CHECK_THROWS_WITH(
        load_trace(f.path, Mapping::standard),
        Catch::Contains("twice.swf:4: MaxProcs: 2 contradicts MaxProcs: 8 at line 1"));
}

TEST_CASE("a trace that is a FIFO without a writer or a directory does not hang", "[swf]") {
    const std::string fifo = temp_path("no_writer.fifo");
    std::filesystem::remove(fifo);
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    SwfReader r(fifo);  // returns at once: no writer is the end of the data
    SwfRecord rec;
    CHECK_FALSE(r.next(rec));
    std::filesystem::remove(fifo);
    CHECK_THROWS_WITH(SwfReader(std::filesystem::temp_directory_path().string()),
                      Catch::Contains("is a directory"));
}

TEST_CASE("SWF reader reports malformed lines with file, line and field", "[swf]") {
    SECTION("too few fields") {
        const std::string path = kData + "bad_few_fields.swf";
        SwfReader r(path);
        SwfRecord rec;
        REQUIRE(r.next(rec));
        CHECK(rec.id == 1);
        try {
            r.next(rec);
            FAIL("no SwfError");
        } catch (const SwfError& e) {
            CHECK(e.file() == path);
            CHECK(e.line() == 3);
            CHECK(e.field() == 18);
            std::string msg = e.what();
            CHECK_THAT(msg, Catch::StartsWith(path + ":3: field 18 (think time): missing"));
            CHECK_THAT(msg, Catch::Contains("17 fields"));
        }
    }
    SECTION("non-numeric field") {
        const std::string path = kData + "bad_token.swf";
        try {
            read_all(path);
            FAIL("no SwfError");
        } catch (const SwfError& e) {
            CHECK(e.line() == 2);
            CHECK(e.field() == 4);
            CHECK(std::string(e.what()) == path + ":2: field 4 (run time): not a number: '12x'");
        }
    }
    SECTION("bad decimal in field 6") {
        const std::string path = kData + "bad_decimal.swf";
        CHECK_THROWS_WITH(read_all(path),
                          path + ":1: field 6 (average CPU time): not a number: '1.5e'");
    }
    SECTION("integer field out of range") {
        TempFile f{temp_path("range.swf")};
        std::ofstream(f.path) << "1 0 0 10 99999999999 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n";
        CHECK_THROWS_WITH(read_all(f.path),
                          Catch::Contains(":1: field 5 (allocated processors): out of range"));
    }
    SECTION("a time past the simulator's time axis") {
        // It fits 64 bits but not the engine's microseconds: the line says so,
        // not the simulation later by job number.
        TempFile f{temp_path("axis.swf")};
        std::ofstream(f.path) << "1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
                              << "2 5 0 10 1 -1 -1 1 2305843009214 -1 1 1 1 -1 -1 -1 -1 -1\n";
        CHECK_THROWS_WITH(read_all(f.path), f.path +
                                                ":2: field 9 (requested time): past the time axis: "
                                                "2305843009214 s (at most 2305843009213 s)");
        std::ofstream(f.path) << "1 99999999999999 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n";
        CHECK_THROWS_WITH(read_all(f.path), Catch::Contains(":1: field 2 (submit time): past"));
    }
}

TEST_CASE("SWF reader: missing and truncated files give clear errors", "[swf]") {
    const std::string path = kData + "does-not-exist.swf";
    try {
        SwfReader r(path);
        FAIL("no SwfError");
    } catch (const SwfError& e) {
        CHECK(e.line() == 0);
        CHECK(std::string(e.what()) == path + ": cannot open: No such file or directory");
    }

    TempFile gz{temp_path("trunc.swf.gz")};
    std::string body;
    for (int i = 1; i <= 2000; ++i)
        body += std::to_string(i) + " 5 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n";
    write_gz(gz.path, body);
    std::string bytes = slurp(gz.path);
    std::ofstream(gz.path, std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() / 2);
    CHECK_THROWS_WITH(read_all(gz.path), Catch::Contains("truncated"));
}

namespace {

std::string jobs_text(int from, int to) {
    std::string body;
    for (int i = from; i <= to; ++i)
        body += std::to_string(i) + " 5 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n";
    return body;
}

std::string gz_bytes(const std::string& name, const std::string& text) {
    TempFile part{temp_path(name)};
    write_gz(part.path, text);
    return slurp(part.path);
}

}  // namespace

TEST_CASE("SWF reader reads every member of a gzip file made by concatenation", "[swf]") {
    TempFile gz{temp_path("members.swf.gz")};
    std::ofstream(gz.path, std::ios::binary)
        << gz_bytes("m1.gz", jobs_text(1, 3000)) << gz_bytes("m2.gz", jobs_text(3001, 3005));
    const auto recs = read_all(gz.path);
    REQUIRE(recs.size() == 3005);
    CHECK(recs.back().id == 3005);
    // As gzip -d reads it: the same records as the text of both members.
    TempFile plain{temp_path("members.swf")};
    std::ofstream(plain.path, std::ios::binary) << jobs_text(1, 3005);
    CHECK(read_all(plain.path) == recs);
}

TEST_CASE("SWF reader refuses text appended to a gzip file instead of dropping it", "[swf]") {
    TempFile gz{temp_path("appended.swf.gz")};
    const std::string member = gz_bytes("a1.gz", jobs_text(1, 10));
    const std::string ends = "the gzip data ends after " + std::to_string(member.size()) + " bytes";
    std::ofstream(gz.path, std::ios::binary) << member << jobs_text(11, 12);
    CHECK_THROWS_WITH(read_all(gz.path),
                      Catch::Contains(ends + " and the file goes on with data that is not gzip"));
    // One stray byte; zero padding, then text; the start of a member that
    // never comes.
    std::ofstream(gz.path, std::ios::binary | std::ios::trunc) << member << 'x';
    CHECK_THROWS_WITH(read_all(gz.path), Catch::Contains(ends + " and the file goes on"));
    std::ofstream(gz.path, std::ios::binary | std::ios::trunc)
        << member << std::string(4, '\0') << jobs_text(11, 11);
    CHECK_THROWS_WITH(
        read_all(gz.path),
        Catch::Contains(ends + ", and after 4 zero bytes the file goes on with data that would "
                               "not be read"));
    for (const std::string cut : {"\x1f", "\x1f\x8b"}) {
        std::ofstream(gz.path, std::ios::binary | std::ios::trunc) << member << cut;
        CHECK_THROWS_WITH(read_all(gz.path), Catch::Contains("truncated"));
    }
}

TEST_CASE("SWF reader accepts zero bytes padding a gzip file", "[swf]") {
    TempFile gz{temp_path("padded.swf.gz")};
    std::ofstream(gz.path, std::ios::binary)
        << gz_bytes("p.gz", jobs_text(1, 10)) << std::string(512, '\0');
    const auto recs = read_all(gz.path);
    REQUIRE(recs.size() == 10);
    CHECK(recs.back().id == 10);
}

TEST_CASE("default mapping", "[swf][mapping]") {
    MappingStats st;
    SECTION("allocated processors win over requested ones") {
        auto j = map_default(rec(1, 100, 50, 4, 8, 60), st);
        REQUIRE(j);
        CHECK(*j == TraceJob{1, 100, 50, 60, 4, 7});
        CHECK(st.estimate_from_runtime == 0);
        CHECK(st.runtime_cut_to_estimate == 0);
    }
    SECTION("requested processors when none were allocated") {
        auto j = map_default(rec(2, 100, 50, -1, 8, 60), st);
        REQUIRE(j);
        CHECK(j->procs == 8);
        auto k = map_default(rec(3, 100, 50, 0, 16, 60), st);
        REQUIRE(k);
        CHECK(k->procs == 16);
    }
    SECTION("missing requested time: the estimate is the runtime") {
        auto j = map_default(rec(4, 100, 50, 2, 2, -1), st);
        REQUIRE(j);
        CHECK(j->estimate == 50);
        CHECK(j->runtime == 50);
        auto k = map_default(rec(5, 100, 70, 2, 2, 0), st);
        REQUIRE(k);
        CHECK(k->estimate == 70);
        CHECK(st.estimate_from_runtime == 2);
    }
    SECTION("runtime above the estimate is cut") {
        auto j = map_default(rec(6, 100, 500, 2, 2, 300), st);
        REQUIRE(j);
        CHECK(j->runtime == 300);
        CHECK(j->estimate == 300);
        CHECK(st.runtime_cut_to_estimate == 1);
    }
    SECTION("jobs that never ran are skipped and counted") {
        CHECK_FALSE(map_default(rec(10, 0, 0, 4, 4, 60), st));
        CHECK_FALSE(map_default(rec(11, 0, -1, 4, 4, 60), st));
        CHECK_FALSE(map_default(rec(12, 0, 30, 0, 0, 60), st));
        CHECK_FALSE(map_default(rec(13, 0, 30, -1, -1, 60), st));
        CHECK_FALSE(map_default(rec(14, 0, 0, 0, 0, 60), st));   // first reason wins
        CHECK(map_default(rec(15, 0, 30, 1000000, 1, 60), st));  // larger than any machine: kept
        CHECK(st.records == 6);
        CHECK(st.kept == 1);
        CHECK(st.skipped == std::map<std::string, std::int64_t>{{"runtime_not_positive", 3},
                                                                {"procs_not_positive", 2}});
        CHECK(st.skipped_total() == 5);
        CHECK(st.skipped_ids_sample == std::vector<std::int64_t>{10, 11, 12, 13, 14});
        for (int i = 0; i < 30; ++i) map_default(rec(100 + i, 0, 0, 1, 1, 1), st);
        CHECK(st.skipped_ids_sample.size() == 20);
        CHECK(st.skipped_ids_sample.back() == 114);
    }
    SECTION("a job without a submit time is skipped and counted") {
        CHECK_FALSE(map_default(rec(20, -1, 30, 4, 4, 60), st));
        CHECK_FALSE(map_default(rec(21, -10, 30, 4, 4, 60), st));
        CHECK_FALSE(map_default(rec(22, -10, 0, 4, 4, 60), st));  // first reason wins
        CHECK(map_default(rec(23, 0, 30, 4, 4, 60), st));
        CHECK(st.skipped == std::map<std::string, std::int64_t>{{"submit_negative", 2},
                                                                {"runtime_not_positive", 1}});
    }
    CHECK(skip_reason_name(SkipReason::procs_not_positive) == std::string("procs_not_positive"));
}

TEST_CASE("pyss mapping follows the reference README", "[swf][mapping]") {
    MappingStats st;
    const std::int32_t P = 100;
    // estimate = max(req, run, 1); runtime = max(min(req, run), 1); procs = max(min(alloc, P), 1)
    CHECK(*map_pyss(rec(1, 10, 50, 4, 8, 60), P, st) == TraceJob{1, 10, 50, 60, 4, 7});
    CHECK(*map_pyss(rec(2, 10, 500, 4, 8, 60), P, st) == TraceJob{2, 10, 60, 500, 4, 7});
    CHECK(*map_pyss(rec(3, 10, 50, 400, 400, 60), P, st) == TraceJob{3, 10, 50, 60, 100, 7});
    // A requested time of -1 gives a runtime of 1 s.
    CHECK(*map_pyss(rec(4, 10, 50, 4, 4, -1), P, st) == TraceJob{4, 10, 1, 50, 4, 7});
    // Processors come from the allocated field, not the requested one.
    CHECK(map_pyss(rec(5, 10, 50, 2, 64, 60), P, st)->procs == 2);
    // Problematic records become 1 s jobs, kept.
    CHECK(*map_pyss(rec(6, 10, 0, 4, 4, 60), P, st) == TraceJob{6, 10, 1, 1, 4, 7});
    CHECK(*map_pyss(rec(7, 0, -1, 4, 4, 60), P, st) == TraceJob{7, 1, 1, 1, 4, 7});
    CHECK(*map_pyss(rec(8, 10, 50, 0, 8, 60), P, st) == TraceJob{8, 10, 1, 1, 1, 7});
    CHECK(*map_pyss(rec(9, 10, 50, -1, 8, 60), P, st) == TraceJob{9, 10, 1, 1, 1, 7});
    CHECK(*map_pyss(rec(10, -5, 50, 4, 4, 60), P, st) == TraceJob{10, 1, 1, 1, 4, 7});
    // Not capped at P in the problematic branch.
    CHECK(*map_pyss(rec(11, 10, 0, 400, 400, 60), P, st) == TraceJob{11, 10, 1, 1, 400, 7});
    CHECK(st.records == 11);
    CHECK(st.kept == 11);
    CHECK(st.skipped.empty());
    CHECK(st.substituted == 6);
}

TEST_CASE("load_trace on the fixture", "[swf][mapping]") {
    Trace t = load_trace(kData + "small.swf", Mapping::standard);
    CHECK(t.header.max_procs == 128);
    CHECK(t.stats.records == 5);
    CHECK(t.stats.kept == 3);
    CHECK(t.stats.skipped.at("runtime_not_positive") == 1);
    CHECK(t.stats.skipped.at("procs_not_positive") == 1);
    CHECK(t.stats.runtime_cut_to_estimate == 1);
    CHECK(t.stats.estimate_from_runtime == 1);
    REQUIRE(t.jobs.size() == 3);
    CHECK(t.jobs[0] == TraceJob{1, 0, 100, 200, 4, 3});
    CHECK(t.jobs[1] == TraceJob{2, 10, 50, 50, 8, 4});
    CHECK(t.jobs[2] == TraceJob{3, 20, 250, 250, 16, 3});

    Trace p = load_trace(kData + "small.swf", Mapping::pyss, 8);
    REQUIRE(p.jobs.size() == 5);
    CHECK(p.jobs[0] == TraceJob{1, 0, 100, 200, 4, 3});
    CHECK(p.jobs[1] == TraceJob{2, 10, 1, 1, 1, 4});
    CHECK(p.jobs[2] == TraceJob{3, 20, 250, 300, 8, 3});
    CHECK(p.jobs[3] == TraceJob{4, 30, 1, 1, 1, 5});
    CHECK(p.jobs[4] == TraceJob{5, 40, 1, 1, 1, 6});
    // Without a machine size the header's MaxProcs is used.
    CHECK(load_trace(kData + "small.swf", Mapping::pyss).jobs[2].procs == 16);
    CHECK_THROWS_AS(load_trace(kData + "bad_token.swf", Mapping::pyss), std::invalid_argument);
    CHECK(sizeof(TraceJob) <= 40);
}

TEST_CASE("KTH-SP2 trace from the shared directory", "[swf][trace]") {
    const std::string path = std::string(ROTA_SHARED_DIR) + "/traces/KTH-SP2-1996-2.1-cln.swf.gz";
    if (!std::filesystem::exists(path)) {
        const char* ci = std::getenv("CI");
        if (ci && std::string(ci) == "true") FAIL("missing trace " << path);
        WARN("skipped: trace not found at " << path);
        return;
    }
    SwfReader r(path);
    CHECK(r.header().max_procs == 100);
    CHECK(r.header().max_nodes == 100);
    SwfRecord rec;
    std::int64_t n = 0, last_id = 0;
    while (r.next(rec)) {
        ++n;
        last_id = rec.id;
    }
    CHECK(n == 28476);
    CHECK(last_id == 28490);

    // Counts cross-checked with awk over the decompressed trace.
    Trace t = load_trace(path, Mapping::standard);
    CHECK(t.stats.records == 28476);
    CHECK(t.stats.kept == 28467);
    CHECK(t.stats.skipped.at("runtime_not_positive") == 8);
    CHECK(t.stats.skipped.at("procs_not_positive") == 1);
    CHECK(t.stats.runtime_cut_to_estimate == 475);
    CHECK(t.stats.estimate_from_runtime == 0);

    Trace p = load_trace(path, Mapping::pyss);
    CHECK(p.jobs.size() == 28476);
    CHECK(p.stats.substituted == 9);
}

// The machine size decides every job's fate: a header value the reader
// cannot take whole is an error naming the line, never a prefix of it.
TEST_CASE("SWF MaxProcs and MaxNodes must be whole numbers >= 1 naming the line", "[swf]") {
    TempFile f{temp_path("maxprocs.swf")};
    for (const std::string v :
         {"1e3", "2,048", "128x", "0", "-16", "abc", "99999999999999999999", "", "12.5"})
        for (const std::string key : {"MaxProcs", "MaxNodes"}) {
            INFO(key << ": '" << v << "'");
            std::ofstream(f.path, std::ios::binary)
                << "; Version: 2.2\n; " << key << ": " << v
                << "\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n";
            CHECK_THROWS_WITH(
                SwfReader(f.path),
                Catch::Contains("maxprocs.swf:2: " + key +
                                ": expected a whole number of processors >= 1, not '" +
                                v.substr(0, v.find(' ')) + "'"));
        }
    // The archive's commentary after the number stays commentary.
    std::ofstream(f.path, std::ios::binary)
        << "; MaxNodes: 338 (batch partition; 512 total)\n; MaxProcs:\t400 (48 interactive)\n";
    SwfReader r(f.path);
    CHECK(r.header().max_nodes == 338);
    CHECK(r.header().max_procs == 400);
    CHECK(r.header().max_procs_line == 2);
}

TEST_CASE("a header machine beyond the engine's limit is named by its header line", "[swf]") {
    TempFile f{temp_path("maxprocs_big.swf")};
    std::ofstream(f.path, std::ios::binary)
        << "; MaxNodes: 16\n\n; MaxProcs: 2000000\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n";
    const Trace t = load_trace(f.path, Mapping::standard);
    CHECK_THROWS_WITH(header_procs(t.header, f.path),
                      Catch::Contains("maxprocs_big.swf:3: MaxProcs: 2000000 is more than the "
                                      "1000000 processors a machine may have"));
    SwfHeader h;
    h.max_nodes = 64;
    CHECK(header_procs(h, "x") == 64);
    CHECK(header_procs(SwfHeader{}, "x") == 0);
}
