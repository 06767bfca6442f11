// Running jobs' expected ends: one entry per slot, moved in place.
#include <catch2/catch.hpp>
#include <map>
#include <random>

#include "engine/expiry_heap.h"

using namespace rota;

TEST_CASE("expiry heap: an entry moves when its end moves and goes when its job stops") {
    ExpiryHeap h;
    h.set({100, 1, 7});
    h.set({50, 2, 3});
    h.set({50, 0, 9});  // the same end: the earlier arrival first
    CHECK(h.top().slot == 9);
    h.set({200, 0, 9});  // slot 9 shrunk: its end moves later
    CHECK(h.size() == 3);
    CHECK(h.top().slot == 3);
    h.set({10, 1, 7});  // slot 7 grew: its end moves earlier
    CHECK(h.top().slot == 7);
    h.erase(7);
    h.erase(7);  // a slot without an entry: nothing happens
    CHECK(h.size() == 2);
    CHECK(h.top().slot == 3);
    h.pop();
    CHECK(h.top().slot == 9);
    CHECK(h.top().end == 200);
    h.pop();
    CHECK(h.empty());
}

// Against a map from slot to entry on random sets, erases and pops: the top
// is always the least (end, seq) and the sizes agree.
TEST_CASE("expiry heap: agrees with a brute-force model on random operations", "[property]") {
    ExpiryHeap h;
    std::map<ExpiryHeap::Slot, ExpiryHeap::Entry> model;
    std::mt19937_64 rng(11);
    auto uni = [&](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    for (int op = 0; op < 100'000; ++op) {
        const auto slot = static_cast<ExpiryHeap::Slot>(uni(0, 200));
        const std::int64_t kind = uni(0, 9);
        if (kind < 6) {
            const ExpiryHeap::Entry e{uni(0, 1000), static_cast<std::uint64_t>(slot % 17), slot};
            h.set(e);
            model[slot] = e;
        } else if (kind < 8) {
            h.erase(slot);
            model.erase(slot);
        } else if (!model.empty()) {
            model.erase(h.top().slot);
            h.pop();
        }
        REQUIRE(h.size() == model.size());
        if (model.empty()) continue;
        const ExpiryHeap::Entry* least = nullptr;
        for (const auto& [s, e] : model)
            if (!least || e.end < least->end || (e.end == least->end && e.seq < least->seq))
                least = &e;
        REQUIRE(h.top().end == least->end);
        REQUIRE(h.top().seq == least->seq);
    }
}
