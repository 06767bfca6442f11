// The Ousterhout matrix: cells, free columns per row, lowest-first
// allocation as node runs.
#include <catch2/catch.hpp>

#include "engine/error.h"
#include "engine/matrix.h"

using namespace rota;

namespace {

std::vector<std::int32_t> free_of(const Matrix& m, std::int32_t row) {
    std::vector<std::int32_t> v;
    m.free_columns(row, v);
    return v;
}

}  // namespace

TEST_CASE("matrix: a job holds the same columns in every row it is placed in") {
    Matrix m(3, 10);
    std::vector<NodeRun> a;
    m.allocate(0, 4, a, 7);
    REQUIRE(a.size() == 1);
    CHECK(a[0].first == 0);
    CHECK(a[0].count == 4);
    CHECK(m.free(0) == 6);
    CHECK(m.used(0) == 4);
    CHECK(m.free(1) == 10);
    CHECK(m.columns_free(1, a));
    m.place(2, a, 7);  // a replica
    CHECK_FALSE(m.columns_free(2, a));
    for (std::int32_t c = 0; c < 4; ++c) {
        CHECK(m.at(0, c) == 7);
        CHECK(m.at(1, c) == Matrix::kEmpty);
        CHECK(m.at(2, c) == 7);
    }
    m.clear(0, a);
    CHECK(m.free(0) == 10);
    CHECK(m.at(0, 2) == Matrix::kEmpty);
    CHECK(m.at(2, 2) == 7);
}

TEST_CASE("matrix: allocation takes the lowest free columns, as runs across holes") {
    Matrix m(2, 130);  // two rows: with one the cells are not kept
    std::vector<NodeRun> a, b, c, d;
    m.allocate(0, 70, a, 1);  // 0..69, across a word boundary
    m.allocate(0, 10, b, 2);  // 70..79
    m.clear(0, a);
    m.allocate(0, 75, c, 3);  // 0..69, then 80..84
    REQUIRE(c.size() == 2);
    CHECK(c[0].first == 0);
    CHECK(c[0].count == 70);
    CHECK(c[1].first == 80);
    CHECK(c[1].count == 5);
    CHECK(m.at(0, 84) == 3);
    CHECK(m.at(0, 75) == 2);
    std::vector<NodeRun> look;
    m.lowest_free(0, 3, look);  // looks without taking
    CHECK(look[0].first == 85);
    CHECK(m.free(0) == 130 - 85);
    CHECK(free_of(m, 0).front() == 85);
    CHECK(free_of(m, 0).size() == 45);
}

TEST_CASE("matrix: placing on a held cell or freeing a free one is a broken invariant") {
    Matrix m(2, 8);
    std::vector<NodeRun> a;
    m.allocate(0, 3, a, 1);
    CHECK_THROWS_AS(m.place(0, a, 2), Error);
    m.clear(0, a);
    CHECK_THROWS_AS(m.clear(0, a), Error);
    std::vector<NodeRun> too_many;
    CHECK_THROWS_AS(m.allocate(1, 9, too_many, 1), Error);
}

TEST_CASE("matrix: with one row only the free columns are kept") {
    Matrix m(1, 16);
    CHECK_FALSE(m.has_cells());
    std::vector<NodeRun> a;
    m.allocate(0, 5, a, 1);
    CHECK(m.free(0) == 11);
    CHECK_FALSE(m.columns_free(0, a));
    m.clear(0, a);
    CHECK(m.free(0) == 16);
    CHECK(Matrix(2, 16).has_cells());
}
