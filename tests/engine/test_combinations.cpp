// Which parts of a configuration combine (engine/combinations.h): every
// refused pair is refused with its reason when an engine is made, every
// other pair goes together, and docs/config.md shows the table as the code
// has it.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "engine/combinations.h"
#include "engine/error.h"
#include "engine/scheduler.h"

using namespace rota;

namespace {

// A configuration with part `p` in it, on top of `c`.
void add(SchedulerConfig& c, Part p) {
    switch (p) {
        case Part::classes:
            c.classes.enabled = true;
            c.classes.base.classes.push_back(JobClassConfig{"batch"});
            c.reservation_depth = 1;  // the default they do not read
            break;
        case Part::malleable:
            c.malleable.enabled = true;
            c.reservation_depth = 1;
            break;
        case Part::rows:
            c.rows = 2;
            c.slice = kSecond;
            break;
        case Part::pools:
            c.pools.push_back({"mem", 10});
            break;
        case Part::clusters:
            c.clusters = {{"a", 4}, {"b", 4}};
            break;
        case Part::partitions:
            c.partitions.push_back({"p", {NodeRun{0, 4}}, false});
            break;
        case Part::buddy:
            c.packing = Packing::buddy;
            break;
        case Part::migration:
            c.migration = true;
            break;
        case Part::reservations:
            c.reservation_depth = c.classes.enabled || c.malleable.enabled ? 3 : 1;
            break;
        case Part::backfill:
            c.backfill = true;
            break;
    }
}

SchedulerConfig base() {
    SchedulerConfig c;
    c.procs = 8;
    c.backfill = false;
    c.reservation_depth = 0;
    return c;
}

}  // namespace

TEST_CASE("combinations: each refused pair is refused with its reason, every other goes") {
    for (int a = 0; a < kPartCount; ++a)
        for (int b = a + 1; b < kPartCount; ++b) {
            const auto pa = static_cast<Part>(a), pb = static_cast<Part>(b);
            SchedulerConfig c = base();
            // The disciplines first: the reservation depth a part means
            // depends on them.
            for (Part p : {pa, pb})
                if (p == Part::classes || p == Part::malleable) add(c, p);
            for (Part p : {pa, pb})
                if (p != Part::classes && p != Part::malleable) add(c, p);
            INFO(part_key(pa) << " with " << part_key(pb));
            // Migration needs rows to be a part of a configuration at all.
            const bool rows_added = (pa == Part::migration || pb == Part::migration) && c.rows == 1;
            if (rows_added) add(c, Part::rows);
            const char* why = refusal(pa, pb);
            bool refused = false;
            std::string message;
            try {
                check_combination(c);
            } catch (const Error& x) {
                refused = true;
                message = x.what();
            }
            if (why) {
                CHECK(refused);
                if (!rows_added) CHECK_THAT(message, Catch::Contains(why));
            } else if (refused) {
                // Only another pair the test had to add may refuse it.
                CHECK_THAT(message,
                           Catch::Contains(part_key(Part::rows)) || Catch::Contains("gang.mpl"));
            }
        }
}

TEST_CASE("combinations: docs/config.md shows the table of refused pairs as the code has it") {
    std::ifstream in(std::string(ROTA_SOURCE_DIR) + "/docs/config.md");
    REQUIRE(in.good());
    std::stringstream text;
    text << in.rdbuf();
    CHECK_THAT(text.str(), Catch::Contains("<!-- combinations: generated from "
                                           "engine/combinations.cpp -->\n" +
                                           combination_table() + "<!-- end of combinations -->"));
}
