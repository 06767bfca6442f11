// The SWF reader's number fields against a reference made of the standard
// library's conversions: random tokens (digit runs of 0 to 23 digits, past
// what 64 bits hold, signs, stray characters, decimals) in an integer field
// and in field 6, the one decimal field, in the middle of a line and near
// its end, padded with blanks or tabs.

#include <unistd.h>

#include <catch2/catch.hpp>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <string>

#include "sim/swf.h"

using namespace rota::sim;

namespace {

std::string temp_path(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path();
    return (dir / ("rota_test_swf_numbers_" + std::to_string(::getpid()) + "_" + name)).string();
}

// A token the reader should see as an integer: [+-]?[0-9]+, magnitude at
// most INT64_MAX. Nothing (nullopt) with `range` false: not a number.
struct IntRef {
    std::optional<std::int64_t> value;
    bool range = false;  // digits only, but too large
};

IntRef int_reference(const std::string& t) {
    std::size_t i = (!t.empty() && (t[0] == '+' || t[0] == '-')) ? 1 : 0;
    if (i == t.size()) return {};
    for (std::size_t k = i; k < t.size(); ++k)
        if (t[k] < '0' || t[k] > '9') return {};
    std::uint64_t mag = 0;
    auto [ptr, ec] = std::from_chars(t.data() + i, t.data() + t.size(), mag);
    if (ec == std::errc::result_out_of_range ||
        mag > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        return {std::nullopt, true};
    const auto v = static_cast<std::int64_t>(mag);
    return {t[0] == '-' ? -v : v, false};
}

std::string random_token(std::mt19937_64& rng) {
    std::uniform_int_distribution<int> len(0, 22), pick(0, 9), kind(0, 9);
    std::string t;
    const int k = kind(rng);
    if (k == 0) t += '-';
    if (k == 1) t += '+';
    const int n = len(rng) + (k < 2 ? 0 : 1);
    for (int i = 0; i < n; ++i) t += static_cast<char>('0' + pick(rng));
    if (k == 2 && !t.empty()) {  // a stray character anywhere in the run
        std::uniform_int_distribution<std::size_t> at(0, t.size() - 1);
        const char stray[] = {'x', '.', '/', ':', '-', '+', '\x7f', '\xc3'};
        t[at(rng)] = stray[pick(rng) % 8];
    }
    if (k == 3 && !t.empty()) t += ".5";  // a decimal: only field 6 takes it
    if (t.empty()) t.push_back('-');      // a sign alone
    return t;
}

// One line of 18 fields: `tok` in field `field` (1-based), the others 1.
std::string line_with(int field, const std::string& tok, const std::string& pad) {
    std::string s;
    for (int f = 1; f <= 18; ++f) {
        if (f > 1) s += pad;
        s += f == field ? tok : "1";
    }
    return s + "\n";
}

}  // namespace

TEST_CASE("SWF integer fields read as the standard library reads them", "[swf]") {
    std::mt19937_64 rng(20261129);
    const std::string path = temp_path("ints.swf");
    for (int i = 0; i < 4000; ++i) {
        const std::string tok = random_token(rng);
        // Field 1 is followed by the rest of the line; field 17 by " 1\n",
        // so a short token there is read near the end of the line.
        const int field = i % 2 == 0 ? 1 : 17;
        std::ofstream(path) << line_with(field, tok, i % 3 == 0 ? "\t" : "   ");
        const IntRef want = int_reference(tok);
        INFO("token '" << tok << "' in field " << field);
        SwfReader r(path);
        SwfRecord rec;
        if (want.value) {
            REQUIRE(r.next(rec));
            CHECK((field == 1 ? rec.id : rec.preceding) == *want.value);
        } else {
            CHECK_THROWS_WITH(r.next(rec), Catch::Contains(want.range ? "out of range: '" + tok
                                                                      : "not a number: '"));
        }
    }
    std::filesystem::remove(path);
}

TEST_CASE("SWF field 6 reads whole numbers and decimals as from_chars does", "[swf]") {
    std::mt19937_64 rng(6);
    const std::string path = temp_path("avg.swf");
    std::vector<std::string> tokens = {"-1",
                                       "0",
                                       "-0",
                                       "+0",
                                       "+7",
                                       "12.25",
                                       "1e3",
                                       "-0.0",
                                       "9007199254740993",
                                       "99999999999999999999",
                                       "123456789"};
    for (int i = 0; i < 2000; ++i) tokens.push_back(random_token(rng));
    for (const std::string& tok : tokens) {
        std::ofstream(path) << line_with(6, tok, " ");
        INFO("token '" << tok << "'");
        double want = 0;
        const char* b = tok.data() + (tok[0] == '+' ? 1 : 0);
        auto [ptr, ec] = std::from_chars(b, tok.data() + tok.size(), want);
        SwfReader r(path);
        SwfRecord rec;
        if (ec == std::errc() && ptr == tok.data() + tok.size() && std::isfinite(want)) {
            REQUIRE(r.next(rec));
            CHECK(rec.avg_cpu == want);
            CHECK(std::signbit(rec.avg_cpu) == std::signbit(want));
        } else {
            CHECK_THROWS_WITH(r.next(rec), Catch::Contains("field 6 (average CPU time)"));
        }
    }
    std::filesystem::remove(path);
}
