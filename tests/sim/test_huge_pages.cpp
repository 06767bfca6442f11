// The part of an array advised to use huge pages (sim/huge_pages.h): only
// whole 2 MiB pages inside it, never a byte outside.

#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "sim/huge_pages.h"

using namespace rota::sim;

TEST_CASE("huge pages: only whole 2 MiB pages inside the array are advised", "[sim]") {
    constexpr std::uintptr_t M2 = kHugePage;
    // Shorter than a huge page, or straddling one boundary: nothing.
    CHECK(huge_page_range(4096, M2 - 1).last == 0);
    CHECK(huge_page_range(M2 - 4096, M2).last == 0);
    // Aligned and exactly one page long: that page.
    CHECK(huge_page_range(M2, M2).first == M2);
    CHECK(huge_page_range(M2, M2).last == 2 * M2);
    // 4.3 MiB from just past a boundary: the one whole page after it.
    const auto r = huge_page_range(M2 + 16, 4'500'000);
    CHECK(r.first == 2 * M2);
    CHECK(r.last == 3 * M2);
    CHECK(r.last <= M2 + 16 + 4'500'000);
    // From a boundary, 4.3 MiB: two whole pages.
    CHECK(huge_page_range(4 * M2, 4'500'000).last == 6 * M2);
}

TEST_CASE("huge pages: a reserved vector keeps its contents and capacity", "[sim]") {
    std::vector<std::int64_t> v = {1, 2, 3};
    reserve_huge(v, 600'000);  // 4.8 MB: past the mmap threshold, advised
    REQUIRE(v.capacity() >= 600'000);
    CHECK(v == std::vector<std::int64_t>{1, 2, 3});
    const auto* before = v.data();
    reserve_huge(v, 10);  // smaller: nothing changes
    CHECK(v.data() == before);
    for (std::int64_t i = 3; i < 600'000; ++i) v.push_back(i + 1);
    CHECK(v.data() == before);  // no reallocation while filling
    CHECK(v.back() == 600'000);
}
