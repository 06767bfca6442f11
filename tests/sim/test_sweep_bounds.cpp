// What a sweep file may make rota do (docs/sweeps.md, docs/reliability.md):
// no value of it reaches a shell (the Slurm batch script), no run writes
// outside its folder, the number of runs is bounded before any is made, and
// what is echoed to the terminal or written into run.toml is escaped.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "sim/escape.h"
#include "sim/sweep_plan.h"
#include "sim/sweep_slurm.h"

using namespace rota::sim;
namespace fs = std::filesystem;

namespace {

fs::path temp_dir(const std::string& name) {
    fs::path d = fs::temp_directory_path() /
                 ("rota_test_sweep_bounds_" + std::to_string(::getpid()) + "_" + name);
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

fs::path write_file(const fs::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
    return p;
}

std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// A word for sh, in single quotes.
std::string shq(const std::string& s) {
    std::string o = "'";
    for (char c : s) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return o + "'";
}

const char* kBase = "[simulator.workload]\njobs = 20\nprocs = 16\n";

// A sandbox for running a batch script: `pwn` (what every injected
// command calls), sbatch and srun on the PATH leave a mark when run; the
// stub rota logs its arguments and writes the summary it is asked for.
struct Sandbox {
    fs::path root, bin, mark, log, rota;
    explicit Sandbox(const fs::path& d) : root(d) {
        bin = d / "bin";
        fs::create_directories(bin);
        mark = d / "MARK";
        log = d / "rota.log";
        for (const char* cmd : {"pwn", "sbatch", "srun"})
            stub(bin / cmd, "#!/bin/sh\necho \"$0 $*\" >> " + shq(mark.string()) + "\n");
        rota = d / "rota-stub";
        stub(rota, "#!/bin/sh\nprintf '%s\\n' \"$*\" >> " + shq(log.string()) + "\n: > \"$4\"\n");
    }
    static void stub(const fs::path& p, const std::string& text) {
        write_file(p, text);
        ::chmod(p.c_str(), 0755);
    }
    // Runs array task `task` of `script` with SLURM_ARRAY_TASK_ID set, in
    // the sandbox's folder, the stubs first on the PATH.
    int run(const std::string& script, int task) const {
        const std::string cmd = "cd " + shq(root.string()) + " && PATH=" + shq(bin.string()) +
                                ":\"$PATH\" SLURM_ARRAY_TASK_ID=" + std::to_string(task) +
                                " bash " + shq(script) + " >/dev/null 2>&1";
        return std::system(cmd.c_str());
    }
    bool marked() const { return fs::exists(mark); }
};

// A plan of `runs` runs, for slurm_script alone.
SweepPlan plan_of(std::size_t runs) {
    SweepPlan p;
    p.name = "s";
    for (std::size_t i = 0; i < runs; ++i) {
        SweepRun r;
        r.index = i;
        r.policy = "fcfs";
        p.runs.push_back(r);
    }
    return p;
}

// Writes the script of `p` for folder `dir` (with its runs/ folders), checks
// that bash parses it and that running every array task runs the stub rota
// once per run and nothing else; returns the script's text.
std::string run_every_task(const SweepPlan& p, const fs::path& dir, const Sandbox& box) {
    for (const auto& r : p.runs) fs::create_directories(run_dir(dir.string(), r.index));
    const std::string text = slurm_script(p, dir.string(), box.rota.string());
    const fs::path script = dir / "sweep.sbatch";
    write_file(script, text);
    REQUIRE(std::system(("bash -n " + shq(script.string()) + " 2>/dev/null").c_str()) == 0);
    fs::remove(box.log);
    for (std::size_t t = 0; t < slurm_tasks(p); ++t) CHECK(box.run(script.string(), t) == 0);
    CHECK_FALSE(box.marked());
    // The stub ran once per run, with exactly the run's command.
    std::string want;
    for (std::size_t t = 0; t < slurm_tasks(p); ++t)
        for (std::size_t i = t; i < p.runs.size(); i += slurm_tasks(p)) {
            const std::string r = run_dir(dir.string(), i);
            want += "simulate " + r + "/run.toml --summary-json " + r +
                    "/summary.json.part --no-progress\n";
        }
    CHECK(read(box.log) == want);
    return text;
}

}  // namespace

TEST_CASE("sweep: output files as parameters are refused, as in the base", "[sweep][bounds]") {
    const fs::path d = temp_dir("outputs");
    for (const char* key : {"summary_json", "jobs_csv", "swf_out", "batsim_csv"}) {
        INFO(key);
        const auto param = write_file(d / "p.toml", std::string(kBase) +
                                                        "[sweep]\npolicies = ['fcfs']\n"
                                                        "[sweep.parameters]\n\"simulator." +
                                                        key + "\" = ['/tmp/x', '/tmp/y']\n");
        CHECK_THROWS_WITH(load_sweep(param.string()),
                          Catch::Contains(std::string("'sweep.parameters.\"simulator.") + key +
                                          "\"': every run would write this one file"));
        const auto grid = write_file(d / "g.toml", std::string(kBase) +
                                                       "[sweep]\npolicies = ['fcfs']\n"
                                                       "[[sweep.grid]]\n[sweep.grid.parameters]\n"
                                                       "\"simulator." +
                                                       key + "\" = ['/tmp/x']\n");
        CHECK_THROWS_AS(load_sweep(grid.string()), SweepUsageError);
        const auto base = write_file(d / "b.toml", "[simulator]\n" + std::string(key) +
                                                       " = '/tmp/x'\n[simulator.workload]\n"
                                                       "jobs = 20\nprocs = 16\n[sweep]\n"
                                                       "policies = ['fcfs']\n");
        CHECK_THROWS_WITH(load_sweep(base.string()),
                          Catch::Contains(std::string("'simulator.") + key + "' in a sweep file"));
    }
    fs::remove_all(d);
}

TEST_CASE("sweep: a name with control bytes is refused and shown escaped", "[sweep][bounds]") {
    const fs::path d = temp_dir("name");
    const auto f = write_file(d / "n.toml", std::string(kBase) +
                                                "[sweep]\nname = \"red\\u001b[31mALERT\"\n"
                                                "policies = ['fcfs']\n");
    try {
        load_sweep(f.string());
        FAIL("a name with an ESC byte was accepted");
    } catch (const SweepUsageError& e) {
        const std::string what = e.what();
        CHECK_THAT(what, Catch::Contains("'sweep.name' must be printable UTF-8") &&
                             Catch::Contains("red\\x1B[31mALERT"));
        CHECK(what.find('\x1b') == std::string::npos);
    }
    // The default name, the file's, is held to the same rule.
    const auto g =
        write_file(d / "bell\a.toml", std::string(kBase) + "[sweep]\npolicies = ['fcfs']\n");
    CHECK_THROWS_WITH(load_sweep(g.string()),
                      Catch::Contains("bell\\x07") && Catch::Contains("(the sweep file's name)"));
    // A valid UTF-8 name is a name.
    const auto ok = write_file(
        d / "ok.toml", std::string(kBase) + "[sweep]\nname = \"café-π\"\npolicies = ['fcfs']\n");
    CHECK(load_sweep(ok.string()).name == "café-π");
    fs::remove_all(d);
}

TEST_CASE("sweep: the number of runs is bounded before any is made", "[sweep][bounds]") {
    const fs::path d = temp_dir("runs");
    // A few hundred bytes describing 14 million runs (a kilobyte described
    // 729 million, and took 2.9 GB before std::bad_alloc).
    // Three policies, nine seeds, six parameters of nine values each.
    std::string text = std::string(kBase) +
                       "[sweep]\npolicies = ['fcfs', 'easy', 'conservative']\n"
                       "seeds = [1, 2, 3, 4, 5, 6, 7, 8, 9]\n[sweep.parameters]\n";
    for (const char* key : {"simulator.workload.load", "simulator.workload.jobs", "simulator.procs",
                            "simulator.max_jumps", "simulator.warmup", "simulator.mpl"})
        text += std::string("\"") + key + "\" = [1, 2, 3, 4, 5, 6, 7, 8, 9]\n";
    const auto f = write_file(d / "huge.toml", text);
    const auto t0 = std::chrono::steady_clock::now();
    CHECK_THROWS_WITH(
        load_sweep(f.string()),
        Catch::Contains("the sweep describes 14348907 runs") && Catch::Contains("at most 100000"));
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
    // Grids add up.
    std::string grids = std::string(kBase) + "[sweep]\npolicies = ['fcfs']\nseeds = [";
    for (int s = 0; s < 1000; ++s) grids += (s ? ", " : "") + std::to_string(s);
    grids += "]\n";
    for (int g = 0; g < 101; ++g) grids += "[[sweep.grid]]\npolicies = ['easy']\n";
    const auto h = write_file(d / "grids.toml", grids);
    CHECK_THROWS_WITH(load_sweep(h.string()), Catch::Contains("describes 101000 runs"));
    fs::remove_all(d);
}

TEST_CASE(
    "sweep --slurm: a newline, $(...) or backquotes in a value reaching the script are "
    "refused, naming the key",
    "[sweep][bounds][security]") {
    const fs::path d = temp_dir("inject");
    const std::string payload = "x\\n pwn \\n$(pwn) `pwn`; pwn";
    auto refused = [&](const std::string& table, const std::string& key) {
        INFO(table);
        const auto f =
            write_file(d / "i.toml", std::string(kBase) + "[sweep]\npolicies = ['fcfs']\n" + table);
        CHECK_THROWS_AS(load_sweep(f.string()), SweepUsageError);
        CHECK_THROWS_WITH(load_sweep(f.string()), Catch::Contains(key));
    };
    for (const char* key : {"partition", "time", "mem", "account"}) {
        refused("[sweep.slurm]\n" + std::string(key) + " = \"" + payload + "\"\n",
                std::string("'sweep.slurm.") + key + "'");
        // Without the newline too: a value of a #SBATCH line is a plain word.
        refused("[sweep.slurm]\n" + std::string(key) + " = \"short $(pwn) `pwn`\"\n",
                std::string("'sweep.slurm.") + key + "'");
    }
    refused("[sweep.slurm]\nmax_parallel = \"2\\n pwn\"\n", "'sweep.slurm.max_parallel'");
    refused("[sweep.slurm]\nmax_array_size = \"3 $(pwn)\"\n", "'sweep.slurm.max_array_size'");
    refused("[sweep.slurm]\noptions = [\"--exclusive\\n pwn\"]\n", "'sweep.slurm.options'");
    refused("[sweep.slurm]\noptions = [\"pwn\"]\n", "'sweep.slurm.options'");
    refused("name = \"n\\n pwn $(pwn) `pwn`\"\n", "'sweep.name'");
    for (const char* key : {"partition", "time", "mem", "account"}) {
        // The refusal shows the value escaped: no raw newline reaches a terminal.
        const auto f = write_file(d / "e.toml", std::string(kBase) +
                                                    "[sweep]\npolicies = ['fcfs']\n"
                                                    "[sweep.slurm]\n" +
                                                    key + " = \"" + payload + "\"\n");
        try {
            load_sweep(f.string());
        } catch (const SweepUsageError& e) {
            CHECK(std::string(e.what()).find('\n') == std::string::npos);
        }
    }

    // What is accepted runs nothing but the task: an option holding $(...)
    // and backquotes (a comment to bash, sbatch's own words), a folder whose
    // name holds them, a quote, spaces, a # and a %.
    const fs::path box_dir = d / "box";
    Sandbox box(box_dir);
    const auto f = write_file(d / "ok.toml", std::string(kBase) +
                                                 "[sweep]\npolicies = ['fcfs', 'easy']\n"
                                                 "[sweep.slurm]\npartition = \"short,long\"\n"
                                                 "time = \"1-00:30:00\"\nmem = \"2G\"\n"
                                                 "account = \"proj_42\"\nmax_parallel = 1\n"
                                                 "options = [\"--comment=$(pwn) `pwn` ; pwn\"]\n");
    const SweepPlan plan = load_sweep(f.string());
    const fs::path dir = box_dir / "it's $(pwn) `pwn` #1 100%";
    write_plan(plan, dir.string());
    const std::string text = run_every_task(plan, dir, box);
    CHECK(text.find("#SBATCH --comment=$(pwn) `pwn` ; pwn\n") != std::string::npos);
    CHECK(text.find("#SBATCH --output=\"" + box_dir.string() +
                    "/it's $(pwn) `pwn` \\#1 100%%/slurm/task-%a.out\"\n") != std::string::npos);
    // A folder or a program whose path holds a newline cannot be named.
    CHECK_THROWS_WITH(slurm_script(plan, (box_dir / "a\npwn").string(), box.rota.string()),
                      Catch::Contains("--slurm '") && Catch::Contains("/a\\x0Apwn'"));
    CHECK_THROWS_WITH(slurm_script(plan, dir.string(), "/bin/rota\npwn"),
                      Catch::Contains("--rota '/bin/rota\\x0Apwn'"));
    fs::remove_all(d);
}

TEST_CASE("sweep --slurm: for random values, the script parses and runs nothing but the task",
          "[sweep][bounds][security]") {
    const fs::path d = temp_dir("fuzz");
    Sandbox box(d / "box");
    // Pieces of words and of attacks on a shell, a comment or an #SBATCH line.
    const std::vector<std::string> pieces = {"short",
                                             "00:10:00",
                                             "2G",
                                             "proj",
                                             "-",
                                             "_",
                                             ".",
                                             ":",
                                             ",",
                                             "+",
                                             "=",
                                             " ",
                                             "\t",
                                             "\n",
                                             "\r",
                                             "\n pwn\n",
                                             "$(pwn)",
                                             "`pwn`",
                                             "; pwn",
                                             "&& pwn",
                                             "| pwn",
                                             "'",
                                             "\"",
                                             "\\",
                                             "#",
                                             "%",
                                             "%a",
                                             "${PWN:-$(pwn)}",
                                             "$'\\n'pwn",
                                             "\x1b[2J",
                                             "\xc3\xa9",
                                             "\xff",
                                             "--exclusive",
                                             "--comment=",
                                             "\" ; pwn ; \"",
                                             "' ; pwn ; '",
                                             "\\\n pwn",
                                             "*",
                                             "?",
                                             "~",
                                             "!",
                                             "{a,b}"};
    // Those a value of partition, time, mem or account may hold.
    const std::vector<std::string> plain = {"short", "00:10:00", "2G", "proj", "-",
                                            "_",     ".",        ":",  ",",    "+"};
    std::vector<std::string> printable;  // and those without a control byte
    for (const auto& p : pieces)
        if (std::none_of(p.begin(), p.end(),
                         [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
            printable.push_back(p);
    std::mt19937 rng(20261127);
    auto word_of = [&](const std::vector<std::string>& from, std::size_t max_pieces) {
        std::string w;
        const std::size_t n = 1 + rng() % max_pieces;
        for (std::size_t i = 0; i < n; ++i) w += from[rng() % from.size()];
        return w;
    };
    auto word = [&](std::size_t max_pieces) { return word_of(pieces, max_pieces); };
    // Mostly what is accepted, sometimes anything.
    auto value = [&](const std::vector<std::string>& likely, std::size_t max_pieces) {
        return rng() % 5 == 0 ? word(max_pieces) : word_of(likely, max_pieces);
    };
    int accepted = 0, refused = 0;
    // 60 rounds in the suite; ROTA_SWEEP_FUZZ_ROUNDS=N for a longer run.
    int rounds = 60;
    if (const char* env = std::getenv("ROTA_SWEEP_FUZZ_ROUNDS")) rounds = std::atoi(env);
    for (int round = 0; round < rounds; ++round) {
        SweepPlan p = plan_of(1 + rng() % 2);
        p.name = word(3);
        for (const char* key : {"partition", "time", "mem", "account"})
            if (rng() % 2) p.slurm[key] = value(plain, 2);
        if (rng() % 2) p.slurm["options"] = {"-" + value(printable, 3), "--exclusive"};
        if (rng() % 5 == 0) p.slurm["max_parallel"] = word(1);
        if (rng() % 3 == 0) p.slurm["max_array_size"] = 1 + static_cast<int>(rng() % 3);
        // The folder's name: any byte but '/' and NUL.
        std::string leaf = "r" + std::to_string(round) + value(printable, 3);
        for (char& c : leaf)
            if (c == '/' || c == '\0') c = '_';
        const fs::path dir = box.root / leaf;
        INFO("round " << round << ": name '" << escaped(p.name) << "', slurm "
                      << json_safe(p.slurm).dump() << ", folder '" << escaped(leaf) << "'");
        try {
            (void)slurm_script(p, dir.string(), box.rota.string());
        } catch (const SweepUsageError& e) {
            ++refused;
            // A refusal names what it refuses, escaped.
            const std::string what = e.what();
            CHECK((what.find("'sweep.slurm.") != std::string::npos ||
                   what.find("--slurm '") != std::string::npos));
            CHECK(is_clean(what));
            continue;
        }
        ++accepted;
        fs::create_directories(dir);
        run_every_task(p, dir, box);
        fs::remove_all(dir);
    }
    // Both sides were explored.
    CHECK(accepted > rounds / 6);
    CHECK(refused > rounds / 6);
    fs::remove_all(d);
}

// The runs' configurations were checked through a file of a guessable name
// in the shared temporary folder: a link planted there by another user was
// followed, and the file it named overwritten.
TEST_CASE("sweep: checking the runs follows no link planted in the temporary folder",
          "[sweep][bounds][security]") {
    const fs::path d = temp_dir("link");
    const fs::path victim = write_file(d / "victim.txt", "precious\n");
    const fs::path planted =
        fs::temp_directory_path() / ("rota_sweep_check_" + std::to_string(::getpid()) + ".toml");
    fs::remove(planted);
    fs::create_symlink(victim, planted);
    const auto f = write_file(d / "s.toml", std::string(kBase) + "[sweep]\npolicies = ['fcfs']\n");
    CHECK(load_sweep(f.string()).runs.size() == 1);
    CHECK(read(victim) == "precious\n");
    fs::remove(planted);
    fs::remove_all(d);
}
