// Running jobs' expected ends, earliest first: when the engine kills at a
// walltime (one row) and what rota_next_wakeup reports.
//
// One entry per job slot, moved in place when the job's end moves (a
// malleable job grows or shrinks, an embedder reports progress) and
// removed when the job stops. A heap of (end, seq) with lazy deletion
// instead left one stale entry per grow and per early end until its time
// came: a harvest-heavy run kept about 630 entries for some 40 running
// jobs and popped two stale ones per wakeup (docs/benchmarks.md).
#pragma once

#include <cstdint>
#include <vector>

#include "types.h"

namespace rota {

class ExpiryHeap {
  public:
    using Slot = std::uint32_t;
    struct Entry {
        Time end;
        std::uint64_t seq;  // arrival order: equal ends come due in it
        Slot slot;
    };

    bool empty() const { return heap_.empty(); }
    std::size_t size() const { return heap_.size(); }
    const Entry& top() const { return heap_.front(); }

    // The slot's entry becomes `e`, added if it had none.
    void set(const Entry& e) {
        if (e.slot >= pos_.size()) pos_.resize(static_cast<std::size_t>(e.slot) + 1, kNone);
        std::uint32_t& p = pos_[e.slot];
        if (p == kNone) {
            p = static_cast<std::uint32_t>(heap_.size());
            heap_.push_back(e);
            up(p);
            return;
        }
        const bool earlier = before(e, heap_[p]);
        heap_[p] = e;
        if (earlier)
            up(p);
        else
            down(p);
    }

    // Removes the slot's entry, if any.
    void erase(Slot s) {
        if (s >= pos_.size() || pos_[s] == kNone) return;
        const std::uint32_t p = pos_[s];
        pos_[s] = kNone;
        const Entry last = heap_.back();
        heap_.pop_back();
        if (p == heap_.size()) return;
        heap_[p] = last;
        pos_[last.slot] = p;
        if (p > 0 && before(last, heap_[(p - 1) / 2]))
            up(p);
        else
            down(p);
    }

    void pop() { erase(heap_.front().slot); }

    void clear() {
        heap_.clear();
        pos_.clear();
    }

  private:
    static constexpr std::uint32_t kNone = UINT32_MAX;
    std::vector<Entry> heap_;
    std::vector<std::uint32_t> pos_;  // by slot: its index in heap_, or kNone

    static bool before(const Entry& a, const Entry& b) {
        return a.end != b.end ? a.end < b.end : a.seq < b.seq;
    }
    void place(std::uint32_t i, const Entry& e) {
        heap_[i] = e;
        pos_[e.slot] = i;
    }
    void up(std::uint32_t i) {
        const Entry e = heap_[i];
        while (i > 0) {
            const std::uint32_t parent = (i - 1) / 2;
            if (!before(e, heap_[parent])) break;
            place(i, heap_[parent]);
            i = parent;
        }
        place(i, e);
    }
    void down(std::uint32_t i) {
        const Entry e = heap_[i];
        const auto n = static_cast<std::uint32_t>(heap_.size());
        for (;;) {
            std::uint32_t child = 2 * i + 1;
            if (child >= n) break;
            if (child + 1 < n && before(heap_[child + 1], heap_[child])) ++child;
            if (!before(heap_[child], e)) break;
            place(i, heap_[child]);
            i = child;
        }
        place(i, e);
    }
};

}  // namespace rota
