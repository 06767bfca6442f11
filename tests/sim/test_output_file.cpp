#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "output_file.h"

using namespace rota::sim;
namespace fs = std::filesystem;

namespace {

struct TempDir {
    fs::path path;
    TempDir() {
        std::string t = (fs::temp_directory_path() / "rota_output_file_XXXXXX").string();
        path = mkdtemp(t.data());
    }
    ~TempDir() { fs::remove_all(path); }
    std::string operator/(const std::string& name) const { return (path / name).string(); }
};

std::string slurp(const std::string& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void spit(const std::string& p, const std::string& text) {
    std::ofstream(p) << text;
}

std::size_t entries(const fs::path& dir) {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), {}));
}

}  // namespace

TEST_CASE("an output replaces the file at its path only when committed") {
    TempDir d;
    spit(d / "r.csv", "old\n");
    {
        OutputFile f(d / "r.csv", "jobs CSV");
        f.out() << "new\n";
        CHECK(slurp(d / "r.csv") == "old\n");  // still the last run's
        f.commit();
    }
    CHECK(slurp(d / "r.csv") == "new\n");
    CHECK(entries(d.path) == 1);  // no temporary left
}

TEST_CASE("an output never committed leaves the old file and no temporary") {
    TempDir d;
    spit(d / "r.csv", "old\n");
    {
        OutputFile f(d / "r.csv", "jobs CSV");
        f.out() << "half";
    }
    CHECK(slurp(d / "r.csv") == "old\n");
    CHECK(entries(d.path) == 1);
}

TEST_CASE("an output through a symbolic link replaces the link's target") {
    TempDir d;
    spit(d / "target.csv", "old\n");
    fs::create_symlink(d / "target.csv", d / "link.csv");
    OutputFile f(d / "link.csv", "jobs CSV");
    f.out() << "new\n";
    f.commit();
    CHECK(fs::is_symlink(d / "link.csv"));
    CHECK(slurp(d / "target.csv") == "new\n");
}

TEST_CASE("an output with other hard links is written through them") {
    TempDir d;
    spit(d / "r.csv", "old\n");
    fs::create_hard_link(d / "r.csv", d / "copy.csv");
    const auto inode = [](const std::string& p) {
        struct stat st {};
        REQUIRE(stat(p.c_str(), &st) == 0);
        return st.st_ino;
    };
    const auto before = inode(d / "r.csv");
    {
        OutputFile f(d / "copy.csv", "jobs CSV");
        f.out() << "new\n";
        CHECK(slurp(d / "r.csv") == "old\n");  // untouched until committed
        f.commit();
    }
    CHECK(slurp(d / "r.csv") == "new\n");  // the other link sees the new results
    CHECK(slurp(d / "copy.csv") == "new\n");
    CHECK(inode(d / "copy.csv") == before);
    CHECK(fs::hard_link_count(d / "r.csv") == 2);
    CHECK(entries(d.path) == 2);  // no temporary left
}

TEST_CASE("a write through hard links that fails keeps the whole output and names it") {
    TempDir d;
    spit(d / "r.csv", "old\n");
    fs::create_hard_link(d / "r.csv", d / "copy.csv");
    OutputFile f(d / "copy.csv", "jobs CSV");
    f.out() << "new\n";
    // The path is no longer a file it can be copied into.
    fs::remove(d / "copy.csv");
    fs::create_directory(d / "copy.csv");
    std::string msg;
    try {
        f.commit();
    } catch (const std::runtime_error& e) {
        msg = e.what();
    }
    REQUIRE_THAT(msg, Catch::StartsWith("cannot write the jobs CSV '" + (d / "copy.csv") +
                                        "' through its hard links"));
    const std::string key = "the complete output is in '";
    const auto at = msg.find(key);
    REQUIRE(at != std::string::npos);
    const std::string kept = msg.substr(at + key.size(), msg.size() - at - key.size() - 1);
    CHECK(slurp(kept) == "new\n");
    CHECK(slurp(d / "r.csv") == "old\n");
}

TEST_CASE("an output through a symbolic link to no file yet creates the link's target") {
    TempDir d;
    fs::create_symlink("target.csv", d / "link.csv");  // relative, dangling
    OutputFile f(d / "link.csv", "jobs CSV");
    f.out() << "new\n";
    f.commit();
    CHECK(fs::is_symlink(d / "link.csv"));
    CHECK(slurp(d / "target.csv") == "new\n");
}

TEST_CASE("an output through a link to no file yet is the same file as its target") {
    TempDir d;
    fs::create_symlink("b.csv", d / "a.csv");  // b.csv does not exist
    CHECK_THROWS_WITH(
        check_output_paths({}, {{"jobs CSV", d / "a.csv"}, {"SWF output", d / "b.csv"}}),
        Catch::Contains("are the same file"));
}

TEST_CASE("an output in a missing directory is refused when opened") {
    TempDir d;
    CHECK_THROWS_WITH(
        OutputFile(d / "no/r.csv", "jobs CSV"),
        "cannot write the jobs CSV '" + (d / "no/r.csv") + "': No such file or directory");
}

TEST_CASE("an output that is a directory is refused saying so") {
    TempDir d;
    fs::create_directory(d / "sub");
    CHECK_THROWS_WITH(OutputFile(d / "sub", "jobs CSV"),
                      "cannot write the jobs CSV '" + (d / "sub") + "': Is a directory");
}

TEST_CASE("an output that cannot be written whole is an error at commit") {
    if (access("/dev/full", W_OK) != 0) return;
    OutputFile f("/dev/full", "SWF output");
    f.out() << std::string(1 << 16, 'x');
    CHECK_THROWS_WITH(f.commit(), Catch::StartsWith("cannot write the SWF output '/dev/full'"));
}

TEST_CASE("an output that is an input or another output is refused naming both") {
    TempDir d;
    spit(d / "t.swf", "; MaxProcs: 4\n");
    const std::vector<NamedPath> in{{"trace", d / "t.swf"}};
    CHECK_THROWS_WITH(
        check_output_paths(in, {{"jobs CSV", d.path.string() + "/./t.swf"}}),
        Catch::Contains("the jobs CSV '" + d.path.string() + "/./t.swf' is the trace"));
    fs::create_symlink(d / "t.swf", d / "alias.swf");
    CHECK_THROWS_WITH(check_output_paths(in, {{"summary JSON", d / "alias.swf"}}),
                      Catch::Contains("is the trace"));
    CHECK_THROWS_WITH(
        check_output_paths(in, {{"jobs CSV", d / "o.out"}, {"SWF output", d / "o.out"}}),
        Catch::Contains("and the SWF output '" + (d / "o.out") + "' are the same file"));
    CHECK_NOTHROW(check_output_paths(in, {{"jobs CSV", d / "a.csv"}, {"SWF output", d / "b.swf"}}));
    // Streams are not files to destroy: the standard output twice is fine.
    CHECK_NOTHROW(check_output_paths({{"trace", "-"}},
                                     {{"jobs CSV", "/dev/stdout"}, {"SWF output", "/dev/stdout"}}));
}
