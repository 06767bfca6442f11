// The usage book (engine/usage.h): accounts found by user whether the id is
// a small number (a table), a large one or negative (a hash), kept apart,
// listed in the order seen and restored from a snapshot line.
#include <catch2/catch.hpp>
#include <string>

#include "engine/usage.h"

using rota::kSecond;
using rota::UsageBook;

TEST_CASE("usage accounts of small large and negative user ids stay apart", "[engine][usage]") {
    UsageBook book;
    const std::int32_t users[] = {3, 70000, -1, 0, 65534, 65535, 65536, -2, -70000};
    std::int32_t procs = 1;
    for (std::int32_t u : users) book.started(u, procs++, 0, 0);
    CHECK(book.users() == 9);
    CHECK(book.ids() == std::vector<std::int32_t>(std::begin(users), std::end(users)));
    procs = 1;
    for (std::int32_t u : users) {
        INFO(u);
        CHECK(book.procs(u) == procs);
        CHECK(book.usage(u, 10 * kSecond) == Approx(10.0 * procs));
        ++procs;
    }
    CHECK_FALSE(book.known(4));
    CHECK_FALSE(book.known(70001));
    CHECK_FALSE(book.known(-3));
    CHECK(book.procs(4) == 0);
    book.resized(70000, 5, 10 * kSecond);
    book.stopped(3, 1, 10 * kSecond);
    CHECK(book.procs(70000) == 7);
    CHECK(book.running(3) == 0);
    CHECK(book.procs(3) == 0);

    std::string text;
    book.save(text);
    UsageBook back;
    std::size_t from = 0;
    for (std::size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1)
        back.load_line(text.substr(from, nl - from));
    CHECK(back.ids() == book.ids());
    for (std::int32_t u : users) {
        INFO(u);
        CHECK(back.procs(u) == book.procs(u));
        CHECK(back.usage(u, 20 * kSecond) == book.usage(u, 20 * kSecond));
    }
    CHECK_FALSE(back.known(4));
}
