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
