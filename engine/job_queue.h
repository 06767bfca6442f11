// The waiting queue in policy order. Entries carry the width and window
// of their job so the scheduling walk can rule most jobs out without
// touching the job records. Removal leaves a tombstone (width "infinite",
// so the walk's fast path skips it) and the vector is compacted only when
// tombstones are many: starting a job from the middle of a long queue costs
// O(1) instead of shifting the tail.
//
// Every block of kBlock entries keeps, per width class (widths in
// [2^k, 2^(k+1))), the shortest window queued in it, so a walk looking for
// jobs that fit now can pass a whole block with a few comparisons: a job of
// class k fits no longer than a job of width 2^k does. Removals leave the
// minimum as it was (a bound, no longer exact, until the next compaction).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

#include "types.h"

namespace rota {

class JobQueue {
  public:
    using Slot = std::uint32_t;
    static constexpr Slot kDead = static_cast<Slot>(-1);

    struct Entry {
        Slot slot;
        std::int32_t procs;
        Time window;  // what the job asks the profile for: its estimate x rows
        bool live() const { return slot != kDead; }
    };

    static constexpr std::size_t kBlock = 64;
    static constexpr std::size_t kClasses = 16;  // the last one holds every wider job
    static std::size_t width_class(std::int32_t procs) {
        const auto w = static_cast<std::uint32_t>(std::max(procs, 1));
        return std::min<std::size_t>(static_cast<std::size_t>(std::bit_width(w)) - 1, kClasses - 1);
    }
    // The shortest window of class k among the entries of block b (kForever
    // if none); a lower bound once entries were removed.
    Time block_min_window(std::size_t b, std::size_t k) const { return blocks_[b][k]; }

    std::size_t size() const { return entries_.size() - dead_; }  // live entries
    bool empty() const { return size() == 0; }
    std::size_t span() const { return entries_.size(); }  // with tombstones
    const Entry& operator[](std::size_t i) const { return entries_[i]; }

    void push_back(const Entry& e) {
        entries_.push_back(e);
        note(entries_.size() - 1);
    }
    const Entry* last_live() const {
        for (auto it = entries_.rbegin(); it != entries_.rend(); ++it)
            if (it->live()) return &*it;
        return nullptr;
    }
    // Inserts before the first live entry `e` sorts before; compacts first,
    // so positions change. Returns the position.
    template <class Before>
    std::size_t insert_sorted(const Entry& e, Before before) {
        compact();
        auto pos = std::upper_bound(entries_.begin(), entries_.end(), e, before);
        auto at = static_cast<std::size_t>(pos - entries_.begin());
        entries_.insert(pos, e);
        rebuild(at / kBlock);
        return at;
    }

    // The same order, found from the back over the live entries, without
    // compacting: positions after the one returned move up by one. Cheap
    // when `e` sorts near the end (a job that waits again from now): each
    // block from its own on takes in the entry that moved into it, as a
    // removal its minima stay bounds.
    template <class Before>
    std::size_t insert_from_back(const Entry& e, Before before) {
        std::size_t at = entries_.size();
        while (at > 0 && (!entries_[at - 1].live() || before(e, entries_[at - 1]))) --at;
        entries_.insert(entries_.begin() + static_cast<std::ptrdiff_t>(at), e);
        note(at);
        for (std::size_t b = at / kBlock + 1; b * kBlock < entries_.size(); ++b)
            if (entries_[b * kBlock].live()) note(b * kBlock);
        return at;
    }

    void kill(std::size_t pos) {
        entries_[pos].slot = kDead;
        entries_[pos].procs = std::numeric_limits<std::int32_t>::max();
        ++dead_;
    }
    bool kill_slot(Slot s) {
        for (std::size_t i = 0; i < entries_.size(); ++i)
            if (entries_[i].slot == s) {
                kill(i);
                return true;
            }
        return false;
    }

    // Drops tombstones once they are a fifth of the entries; positions
    // change when it returns true.
    bool maybe_compact() {
        if (dead_ < 32 || dead_ * 4 < size()) return false;
        compact();
        return true;
    }
    void compact() {
        if (dead_ == 0) return;
        entries_.erase(std::remove_if(entries_.begin(), entries_.end(),
                                      [](const Entry& e) { return !e.live(); }),
                       entries_.end());
        dead_ = 0;
        rebuild(0);
    }

    // Replaces the entries by entry(0), ..., entry(n - 1), all live, in
    // that order (a re-sort).
    template <class F>
    void assign(std::size_t n, F entry) {
        entries_.resize(n);
        for (std::size_t i = 0; i < n; ++i) entries_[i] = entry(i);
        dead_ = 0;
        rebuild(0);
    }

    template <class F>
    void for_each_live(F&& f) const {
        for (const Entry& e : entries_)
            if (e.live()) f(e);
    }

  private:
    using Block = std::array<Time, kClasses>;
    std::vector<Entry> entries_;
    std::vector<Block> blocks_;
    std::size_t dead_ = 0;

    void note(std::size_t i) {
        const std::size_t b = i / kBlock;
        if (b >= blocks_.size()) {
            Block empty;
            empty.fill(kForever);
            blocks_.resize(b + 1, empty);
        }
        Time& m = blocks_[b][width_class(entries_[i].procs)];
        m = std::min(m, entries_[i].window);
    }
    // Recomputes the blocks from block `from` on.
    void rebuild(std::size_t from) {
        blocks_.resize(std::min(blocks_.size(), from));
        for (std::size_t i = from * kBlock; i < entries_.size(); ++i)
            if (entries_[i].live()) note(i);
        Block empty;
        empty.fill(kForever);
        blocks_.resize((entries_.size() + kBlock - 1) / kBlock, empty);
    }
};

}  // namespace rota
