// [Weissman03]'s workload models (sim/weissman.h): §4.2's fit and generator,
// §4.1's application instances, and the adaptation bytes they carry
// through SWF into the simulator.
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "sim/generate.h"
#include "sim/malleable.h"
#include "sim/rng.h"
#include "sim/weissman.h"
#include "support.h"

using namespace rota;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
    const std::string path = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                             "/rota_test_weissman_" + name;
    std::ofstream(path) << text;
    return path;
}

}  // namespace

TEST_CASE("weibull_mle solves the likelihood equation and recovers a known Weibull",
          "[sim][weissman]") {
    // Two samples 1 and e: with y = (0, 1), the equation
    //   (e^k) / (1 + e^k) - 1/k - 1/2 = 0
    // has its root at k = 2.3994 (found by hand with a few bisections).
    const auto [k2, s2] = sim::weibull_mle({1.0, std::exp(1.0)});
    CHECK(std::exp(k2) / (1 + std::exp(k2)) - 1 / k2 - 0.5 == Approx(0).margin(1e-9));
    CHECK(k2 == Approx(2.3994).epsilon(1e-3));
    // scale = ((1 + e^k) / 2)^(1/k)
    CHECK(s2 == Approx(std::pow((1 + std::exp(k2)) / 2, 1 / k2)).epsilon(1e-9));

    sim::Rng rng(7);
    std::vector<double> x;
    for (int i = 0; i < 200000; ++i) x.push_back(rng.weibull(0.7, 1000));
    const auto [k, s] = sim::weibull_mle(x);
    CHECK(k == Approx(0.7).epsilon(0.01));
    CHECK(s == Approx(1000).epsilon(0.02));

    CHECK_THROWS_AS(sim::weibull_mle({1.0}), std::invalid_argument);
    CHECK_THROWS_AS(sim::weibull_mle({1.0, 0.0}), std::invalid_argument);
}

TEST_CASE("fit_weissman counts arrivals by local hour, sizes, and the span", "[sim][weissman]") {
    // Time 0 of the log is 23:00 local: submits 0 and 1800 fall in hour 23,
    // 3600 in hour 0, 90000 (25 h later) in hour 0 again.
    using rota::test::job;
    const std::vector<sim::TraceJob> jobs{job(1, 0, 4, 100), job(2, 1800, 1, 10),
                                          job(3, 3600, 4, 1000), job(4, 90000, 200, 30)};
    const sim::WeissmanFit f = sim::fit_weissman(jobs, 128, 23 * 3600, "hand");
    CHECK(f.hourly[23] == 2);
    CHECK(f.hourly[0] == 2);
    CHECK(f.days == Approx(90000.0 / 86400));
    // Sizes by count; a job wider than the machine counts as the machine.
    CHECK(f.sizes == std::vector<std::pair<std::int32_t, std::int64_t>>{{1, 1}, {4, 2}, {128, 1}});
    CHECK(f.runtime_max == 1000);
    CHECK(f.rate(23) == Approx(2 / (f.days * 3600)));
    CHECK(f.rate(5) == 0);
    CHECK_THROWS_AS(sim::fit_weissman({job(1, 0, 1, 1)}, 8, 0, "one"), std::invalid_argument);
    CHECK_THROWS_AS(sim::fit_weissman({job(1, 0, 1, 1), job(2, 60, 1, 1)}, 8, 0, "short"),
                    std::invalid_argument);
}

TEST_CASE("the built-in SDSC SP2 fit is the fit of the log", "[sim][weissman]") {
    const std::string path = rota::test::shared_path("traces/SDSC-SP2-1998-4.2-cln.swf.gz");
    if (path.empty()) return;
    const sim::WeissmanFit f = sim::fit_weissman_trace(path);
    const sim::WeissmanFit& b = sim::sdsc_sp2_fit();
    CHECK(f.procs == b.procs);
    CHECK(f.days == Approx(b.days).epsilon(1e-12));
    CHECK(f.hourly == b.hourly);
    CHECK(f.sizes == b.sizes);
    CHECK(f.weibull_shape == Approx(b.weibull_shape).epsilon(1e-9));
    CHECK(f.weibull_scale == Approx(b.weibull_scale).epsilon(1e-9));
    CHECK(f.runtime_max == b.runtime_max);
    // Daytime arrivals outnumber the night's (§4.2, Figure 5).
    CHECK(b.hourly[11] > 3 * b.hourly[3]);
}

TEST_CASE("the weissman model draws arrivals by hour, sizes and run times of its fit",
          "[sim][weissman]") {
    sim::GenerateOptions o = sim::weissman_options(3);
    o.jobs = 200000;
    const sim::GeneratedWorkload w = sim::generate_workload(o);
    REQUIRE(w.jobs.size() == 200000);
    const sim::WeissmanFit& f = sim::sdsc_sp2_fit();
    std::int64_t fit_total = 0;
    for (auto h : f.hourly) fit_total += h;
    std::array<std::int64_t, 24> hours{};
    std::map<std::int32_t, std::int64_t> sizes;
    double runtime_sum = 0;
    for (std::size_t i = 0; i < w.jobs.size(); ++i) {
        const auto& j = w.jobs[i];
        if (i > 0) REQUIRE(j.submit >= w.jobs[i - 1].submit);
        ++hours[static_cast<std::size_t>((j.submit % 86400) / 3600)];
        ++sizes[j.procs];
        REQUIRE(j.runtime >= 1);
        REQUIRE(j.runtime <= f.runtime_max);
        REQUIRE(j.estimate == j.runtime);  // Φ = 1 by default
        runtime_sum += static_cast<double>(j.runtime);
    }
    // Each hour's share of the arrivals is the fit's, within 3 %.
    for (std::size_t h = 0; h < 24; ++h) {
        INFO("hour " << h);
        const double expect = static_cast<double>(f.hourly[h]) / static_cast<double>(fit_total);
        CHECK(static_cast<double>(hours[h]) / 200000.0 == Approx(expect).epsilon(0.03));
    }
    // Sizes 1 and 64, the log's most and a power of two, at their share.
    std::int64_t log_jobs = 0, log_1 = 0, log_64 = 0;
    for (const auto& [s, c] : f.sizes) {
        log_jobs += c;
        if (s == 1) log_1 = c;
        if (s == 64) log_64 = c;
    }
    CHECK(sizes[1] / 200000.0 == Approx(static_cast<double>(log_1) / log_jobs).epsilon(0.02));
    CHECK(sizes[64] / 200000.0 == Approx(static_cast<double>(log_64) / log_jobs).epsilon(0.05));
    // The median of a Weibull is scale x ln(2)^(1/shape).
    std::vector<std::int64_t> rt;
    for (const auto& j : w.jobs) rt.push_back(j.runtime);
    std::nth_element(rt.begin(), rt.begin() + 100000, rt.end());
    CHECK(static_cast<double>(rt[100000]) ==
          Approx(f.weibull_scale * std::pow(std::log(2.0), 1 / f.weibull_shape)).epsilon(0.03));
    // The fitted rates give the arrivals per day of the log.
    const double days = static_cast<double>(w.jobs.back().submit) / 86400;
    CHECK(200000 / days == Approx(static_cast<double>(fit_total) / f.days).epsilon(0.02));

    // --load scales every hour's rate alike: twice the load, half the span.
    sim::GenerateOptions o2 = o;
    o2.load = 2 * f.offered_load(128);
    const sim::GeneratedWorkload w2 = sim::generate_workload(o2);
    CHECK(static_cast<double>(w2.jobs.back().submit) ==
          Approx(static_cast<double>(w.jobs.back().submit) / 2).epsilon(0.01));
    CHECK(runtime_sum > 0);

    // A load too small to draw arrivals in reasonable time is refused.
    o2.load = 1e-300;
    o2.jobs = 10;
    CHECK_THROWS_AS(sim::generate_workload(o2), std::invalid_argument);
}

TEST_CASE("the weissman-apps model draws Table 1's instances at beta's arrival rate",
          "[sim][weissman]") {
    sim::GenerateOptions o = sim::weissman_apps_options(5);
    o.apps = "ge";
    o.beta = 0.5;
    o.jobs = 100000;
    const sim::GeneratedWorkload w = sim::generate_workload(o);
    REQUIRE(w.apps.executable.size() == w.jobs.size());
    std::map<std::int32_t, std::int64_t> count;
    for (std::size_t i = 0; i < w.jobs.size(); ++i) {
        const std::int32_t exe = w.apps.executable[i];
        REQUIRE(exe >= 5);
        REQUIRE(exe <= 8);  // GE's P1..P4
        const sim::AppInstance& a = sim::weissman_instances()[static_cast<std::size_t>(exe - 1)];
        REQUIRE(std::string(a.app) == "GE");
        REQUIRE(w.jobs[i].procs == a.ideal);
        REQUIRE(w.jobs[i].runtime == a.rt_ideal);
        ++count[exe];
    }
    for (const auto& [exe, c] : count) CHECK(c / 100000.0 == Approx(0.25).epsilon(0.03));
    // GE: mean RT_ideal (177 + 768 + 3857 + 3857) / 4 = 2164.75 s, mean
    // P_ideal 11, on 64 processors with beta 0.5: a mean gap of
    // 2164.75 / (64 / 11) x 0.5 = 186.03 s.
    const double gap = static_cast<double>(w.jobs.back().submit) / 99999;
    CHECK(gap == Approx(186.03).epsilon(0.02));
    // Each executable's adaptation bytes: 2 N^2 x 8 for GE.
    REQUIRE(w.apps.entries.size() == 4);
    CHECK(w.apps.entries[0].executable == 5);
    CHECK(w.apps.entries[0].adapt_bytes == 2 * 128 * 128 * 8);
    CHECK(w.apps.entries[3].adapt_bytes == 2 * 1024 * 1024 * 8);
    // §4.1's example: removing a processor of STEN N=128 at P = 4 costs
    // about 7 s (1 + 0.00009 x 2 x 128^2 x 8 / 4 = 6.9 s).
    const sim::AppInstance& sten1 = sim::weissman_instances()[0];
    CHECK(sim::kWeissmanAdaptLatency +
              sim::kWeissmanAdaptPerByte * static_cast<double>(sten1.adapt_bytes) / 4 ==
          Approx(6.9).epsilon(0.01));

    o.apps = "mixed";
    o.beta = 0;
    o.jobs = 1200;
    const sim::GeneratedWorkload m = sim::generate_workload(o);
    std::map<std::int32_t, int> mixed;
    for (std::size_t i = 0; i < m.jobs.size(); ++i) {
        CHECK(m.jobs[i].submit == 0);  // beta 0: every job at once
        ++mixed[m.apps.executable[i]];
    }
    CHECK(mixed.size() == 12);

    o.apps = "cl";
    o.procs = 16;  // CL P3 and P4 need 24 and 32
    CHECK_THROWS_AS(sim::generate_workload(o), std::invalid_argument);
    o.procs = 64;
    o.apps = "fft";
    CHECK_THROWS_AS(sim::generate_workload(o), std::invalid_argument);
}

TEST_CASE("adaptation bytes travel through SWF: field 14 and the AdaptBytes header",
          "[sim][weissman][swf]") {
    sim::GenerateOptions o = sim::weissman_apps_options(2);
    o.apps = "sten";
    o.jobs = 50;
    const sim::GeneratedWorkload w = sim::generate_workload(o);
    std::ostringstream out;
    sim::write_swf(out, w.jobs, o, nullptr, w.notes, nullptr, nullptr, &w.apps);
    const std::string path = write_temp("sten.swf", out.str());
    const sim::Trace t = sim::load_trace(path, sim::Mapping::standard);
    REQUIRE(t.jobs.size() == 50);
    REQUIRE(t.adapt_bytes.size() == 50);
    for (std::size_t i = 0; i < 50; ++i) {
        const auto& a =
            sim::weissman_instances()[static_cast<std::size_t>(w.apps.executable[i] - 1)];
        CHECK(t.adapt_bytes[i] == a.adapt_bytes);
        CHECK(t.jobs[i].procs == a.ideal);
    }
    CHECK(t.header.adapt_bytes.size() == 4);

    // An executable the header does not list redistributes nothing; a log
    // without the header has no adaptation bytes at all.
    const std::string two =
        "; MaxProcs: 8\n; AdaptBytes: 3=1000 1=50\n"
        "1 0 -1 10 2 -1 -1 2 10 -1 -1 -1 -1 1 -1 -1 -1 -1\n"
        "2 0 -1 10 2 -1 -1 2 10 -1 -1 -1 -1 2 -1 -1 -1 -1\n"
        "3 0 -1 10 2 -1 -1 2 10 -1 -1 -1 -1 3 -1 -1 -1 -1\n";
    const sim::Trace t2 = sim::load_trace(write_temp("two.swf", two), sim::Mapping::standard);
    CHECK(t2.adapt_bytes == std::vector<std::int64_t>{50, 0, 1000});
    const sim::Trace t3 =
        sim::load_trace(write_temp("none.swf", "; MaxProcs: 8\n" + two.substr(two.find("1 0"))),
                        sim::Mapping::standard);
    CHECK(t3.adapt_bytes.empty());
}

TEST_CASE("a malformed AdaptBytes header is an error naming the entry", "[sim][weissman][swf]") {
    const std::string rec = "1 0 -1 10 2 -1 -1 2 10 -1 -1 -1 -1 1 -1 -1 -1 -1\n";
    auto error_of = [&](const std::string& header) -> std::string {
        try {
            sim::load_trace(write_temp("bad.swf", "; MaxProcs: 8\n" + header + "\n" + rec),
                            sim::Mapping::standard);
        } catch (const std::exception& e) {
            return e.what();
        }
        return "";
    };
    CHECK_THAT(error_of("; AdaptBytes: 1=x"),
               Catch::Contains("expected executable=bytes (integers), not '1=x'"));
    CHECK_THAT(error_of("; AdaptBytes: 1"), Catch::Contains("not '1'"));
    CHECK_THAT(error_of("; AdaptBytes: 1="), Catch::Contains("not '1='"));
    CHECK_THAT(error_of("; AdaptBytes: 1=-5"), Catch::Contains("must be >= 0"));
    CHECK_THAT(error_of("; AdaptBytes: 1=5 1=6"),
               Catch::Contains("executable 1 is declared twice"));
    CHECK_THAT(error_of("; AdaptBytes:"), Catch::Contains("no entry"));
    CHECK_THAT(error_of("; AdaptBytes: 1=5\n; AdaptBytes: 2=5"),
               Catch::Contains("declares AdaptBytes twice"));
    CHECK(error_of("; AdaptBytes: 1=5").empty());
}
