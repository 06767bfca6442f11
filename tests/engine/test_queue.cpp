// The waiting queue: policy order, tombstones, compaction.
#include <catch2/catch.hpp>

#include "engine/job_queue.h"

using namespace rota;

namespace {

using Entry = JobQueue::Entry;

std::vector<JobQueue::Slot> live(const JobQueue& q) {
    std::vector<JobQueue::Slot> v;
    q.for_each_live([&](const Entry& e) { v.push_back(e.slot); });
    return v;
}

}  // namespace

TEST_CASE("queue: removal leaves a tombstone that no job fits through") {
    JobQueue q;
    for (JobQueue::Slot s = 0; s < 5; ++s) q.push_back({s, 2, 100});
    q.kill(1);
    q.kill_slot(3);
    CHECK(q.size() == 3);
    CHECK(q.span() == 5);
    CHECK_FALSE(q[1].live());
    CHECK(q[1].procs > 1'000'000);  // the walk's width test rules it out
    CHECK(live(q) == std::vector<JobQueue::Slot>{0, 2, 4});
    CHECK(q.last_live()->slot == 4);
    q.kill(4);
    CHECK(q.last_live()->slot == 2);
    CHECK_FALSE(q.kill_slot(99));
}

TEST_CASE("queue: sorted insertion compacts first and keeps ties in arrival order") {
    JobQueue q;
    // Keys by slot: the comparison a policy order gives (lower first).
    const double key[] = {5, 1, 3, 3, 2};
    auto before = [&](const Entry& a, const Entry& b) {
        return key[a.slot] != key[b.slot] ? key[a.slot] < key[b.slot] : a.slot < b.slot;
    };
    q.push_back({0, 1, 10});
    q.push_back({2, 1, 10});
    q.kill(0);
    std::size_t at = q.insert_sorted({1, 1, 10}, before);
    CHECK(at == 0);
    CHECK(q.span() == 2);  // the tombstone went with the compaction
    q.insert_sorted({3, 1, 10}, before);
    q.insert_sorted({4, 1, 10}, before);
    CHECK(live(q) == std::vector<JobQueue::Slot>{1, 4, 2, 3});
}

TEST_CASE("queue: compaction waits until tombstones are many") {
    JobQueue q;
    for (JobQueue::Slot s = 0; s < 200; ++s) q.push_back({s, 1, 10});
    for (std::size_t i = 0; i < 31; ++i) q.kill(i);
    CHECK_FALSE(q.maybe_compact());  // fewer than 32
    q.kill(31);
    CHECK_FALSE(q.maybe_compact());  // 32, but under a fifth of the live ones
    for (std::size_t i = 32; i < 60; ++i) q.kill(i);
    CHECK(q.maybe_compact());
    CHECK(q.span() == 140);
    CHECK(q[0].slot == 60);
}

// The blocks' shortest window per width class against a brute-force scan of
// the live entries: exact after pushes, insertions and compaction; after a
// removal a lower bound.
TEST_CASE("queue: blocks keep the shortest window of each width class") {
    JobQueue q;
    std::uint64_t x = 12345;
    auto next = [&x] {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        return x >> 33;
    };
    auto check = [&](bool exact) {
        const std::size_t blocks = (q.span() + JobQueue::kBlock - 1) / JobQueue::kBlock;
        for (std::size_t b = 0; b < blocks; ++b) {
            for (std::size_t k = 0; k < JobQueue::kClasses; ++k) {
                Time want = kForever;
                for (std::size_t i = b * JobQueue::kBlock;
                     i < std::min(q.span(), (b + 1) * JobQueue::kBlock); ++i)
                    if (q[i].live() && JobQueue::width_class(q[i].procs) == k)
                        want = std::min(want, q[i].window);
                if (exact)
                    REQUIRE(q.block_min_window(b, k) == want);
                else
                    REQUIRE(q.block_min_window(b, k) <= want);
            }
        }
    };
    CHECK(JobQueue::width_class(1) == 0);
    CHECK(JobQueue::width_class(3) == 1);
    CHECK(JobQueue::width_class(4) == 2);
    CHECK(JobQueue::width_class(1 << 20) == JobQueue::kClasses - 1);
    for (JobQueue::Slot s = 0; s < 500; ++s)
        q.push_back({s, static_cast<std::int32_t>(1 + next() % 2000),
                     static_cast<Time>(1 + next() % 100000)});
    check(true);
    for (std::size_t i = 0; i < q.span(); i += 3) q.kill(i);
    check(false);
    q.compact();
    check(true);
    // An entry that sorts before every other lands at the front: every
    // block shifts by one.
    auto before = [](const Entry& a, const Entry& b) { return a.slot == 999 && b.slot != 999; };
    q.insert_sorted({999, 1, 1}, before);
    CHECK(q[0].slot == 999);
    check(true);
}
