// The waiting jobs of one job class under [classes] (classes.cpp), in queue
// order: (order key, arrival sequence), as the engine's queue. Each entry
// carries what the two passes test first (processors, whether the job's
// state is on disk, when it began to wait), and every block of kBlock
// entries keeps, over its live entries, the fewest processors asked (for
// jobs swapped out and for the others) and the earliest and latest wait
// start. A pass looking for the first job that may be loaded under the
// current limits, or that waited past its class's maximum wait, passes a
// whole block with a few comparisons; the next maximum wait to run out is
// found the same way.
//
// Removal leaves a tombstone that keeps its key, so the entries stay
// sorted and a job is found by binary search; its block's summary is
// brought up to date at once (recomputed when the entry was one of its
// bounds), so summaries are exact.
// compact() drops tombstones; positions change.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "types.h"

namespace rota {

class ClassQueue {
  public:
    using Slot = std::uint32_t;
    static constexpr Slot kDead = static_cast<Slot>(-1);
    static constexpr std::size_t kBlock = 32;
    static constexpr std::int32_t kNone = std::numeric_limits<std::int32_t>::max();

    struct Entry {
        double key;
        std::uint64_t seq;
        Slot slot;
        std::int32_t procs;
        Time wait_from;
        bool swapped;
        bool live() const { return slot != kDead; }
        bool before(double k, std::uint64_t s) const { return key != k ? key < k : seq < s; }
    };
    struct Block {
        std::int32_t min_procs[2];  // [swapped]: kNone if no such live entry
        Time min_wait, max_wait;    // kForever, kNoTime if no live entry
        std::uint32_t live;
    };

    std::size_t span() const { return entries_.size(); }  // with tombstones
    std::size_t size() const { return entries_.size() - dead_; }
    const Entry& operator[](std::size_t i) const { return entries_[i]; }
    const Block& block(std::size_t b) const { return blocks_[b]; }

    void clear() {
        entries_.clear();
        blocks_.clear();
        dead_ = 0;
        all_known_ = false;
        after_known_ = false;
    }

    // The summary of every live entry, as a block's: a walk that no job of
    // the class could pass skips the class at once. Kept up to date, or
    // recomputed from the blocks when an entry that was one of its bounds
    // leaves.
    const Block& summary() const {
        if (!all_known_) {
            all_ = empty_block();
            for (const Block& b : blocks_) {
                if (b.live == 0) continue;
                all_.min_procs[0] = std::min(all_.min_procs[0], b.min_procs[0]);
                all_.min_procs[1] = std::min(all_.min_procs[1], b.min_procs[1]);
                all_.min_wait = std::min(all_.min_wait, b.min_wait);
                all_.max_wait = std::max(all_.max_wait, b.max_wait);
                all_.live += b.live;
            }
            all_known_ = true;
        }
        return all_;
    }

    // `where`, given to insert, erase and maybe_compact: by slot, where its
    // entry is (shared by the queues of every class, sized by the caller);
    // a hint that erase checks, kept as entries move.
    using Where = std::vector<std::uint32_t>;

    // In (key, seq) order: appended when it sorts last (the common case),
    // else inserted, and the summaries from its block on recomputed.
    void insert(const Entry& e, Where& where) {
        if (after_known_ && e.live() && e.wait_from > after_from_ && e.wait_from < after_)
            after_ = e.wait_from;  // now the earliest after after_from_
        if (all_known_) add(all_, e);
        if (entries_.empty() || !e.before(entries_.back().key, entries_.back().seq)) {
            entries_.push_back(e);
            note(entries_.size() - 1);
            locate(entries_.size() - 1, where);
            return;
        }
        const std::size_t at = upper_bound(e.key, e.seq);
        entries_.insert(entries_.begin() + static_cast<std::ptrdiff_t>(at), e);
        rebuild(at / kBlock);
        locate(at, where);
    }

    // The first position whose entry sorts after (key, seq).
    std::size_t upper_bound(double key, std::uint64_t seq) const {
        auto it = std::upper_bound(entries_.begin(), entries_.end(), 0, [&](int, const Entry& x) {
            return x.key != key ? key < x.key : seq < x.seq;
        });
        return static_cast<std::size_t>(it - entries_.begin());
    }

    // Removes the live entry (key, seq) of `slot`; false if there is none.
    bool erase(double key, std::uint64_t seq, Slot slot, const Where& where) {
        std::size_t i = slot < where.size() ? where[slot] : entries_.size();
        if (i >= entries_.size() || entries_[i].slot != slot) {
            i = upper_bound(key, seq);
            if (i == 0 || entries_[i - 1].slot != slot) return false;
            --i;
        }
        entries_[i].slot = kDead;
        ++dead_;
        // An entry strictly inside its block's bounds leaves them as they
        // are: only the count changes, without a walk over the block.
        Block& k = blocks_[i / kBlock];
        const Entry& e = entries_[i];
        if (after_known_ && e.wait_from == after_) after_known_ = false;  // (perhaps) the answer
        if (all_known_) {
            if (--all_.live == 0 || e.procs == all_.min_procs[e.swapped ? 1 : 0] ||
                e.wait_from == all_.min_wait || e.wait_from == all_.max_wait)
                all_known_ = false;
        }
        if (--k.live == 0)
            k = empty_block();
        else if (e.procs == k.min_procs[e.swapped ? 1 : 0] || e.wait_from == k.min_wait ||
                 e.wait_from == k.max_wait)
            summarize(i / kBlock);
        return true;
    }

    // Drops the tombstones once they are a fifth of the entries.
    bool maybe_compact(Where& where) {
        if (dead_ < 32 || dead_ * 4 < size()) return false;
        entries_.erase(std::remove_if(entries_.begin(), entries_.end(),
                                      [](const Entry& e) { return !e.live(); }),
                       entries_.end());
        dead_ = 0;
        rebuild(0);
        locate(0, where);
        return true;
    }

    // The first live entry at or after `from` in a block that `block_ok`
    // accepts and that `entry_ok` accepts; span() if none.
    template <class BlockOk, class EntryOk>
    std::size_t find(std::size_t from, BlockOk block_ok, EntryOk entry_ok) const {
        std::size_t i = from;
        while (i < entries_.size()) {
            const std::size_t b = i / kBlock;
            const std::size_t end = std::min(entries_.size(), (b + 1) * kBlock);
            if (blocks_[b].live == 0 || !block_ok(blocks_[b])) {
                i = end;
                continue;
            }
            for (; i < end; ++i)
                if (entries_[i].live() && entry_ok(entries_[i])) return i;
        }
        return entries_.size();
    }

    // The earliest wait start among the live entries, kForever if none.
    Time min_wait() const { return summary().min_wait; }

    // The earliest wait start later than `t` among the live entries,
    // kForever if none.
    Time min_wait_after(Time t) const {
        // The answer holds for every time from the one it was found for up
        // to itself (no live entry starts its wait in between), until an
        // entry comes in between (the new answer) or the one answered
        // leaves; others coming and going leave it as it is.
        if (after_known_ && after_from_ <= t && t < after_) return after_;
        after_known_ = true;
        after_from_ = t;
        after_ = min_wait_after_scan(t);
        return after_;
    }

  private:
    Time min_wait_after_scan(Time t) const {
        Time m = kForever;
        if (summary().max_wait <= t) return m;
        for (std::size_t b = 0; b < blocks_.size(); ++b) {
            const Block& k = blocks_[b];
            if (k.live == 0 || k.max_wait <= t || k.min_wait >= m) continue;
            if (k.min_wait > t) {
                m = k.min_wait;
                continue;
            }
            const std::size_t end = std::min(entries_.size(), (b + 1) * kBlock);
            for (std::size_t i = b * kBlock; i < end; ++i)
                if (entries_[i].live() && entries_[i].wait_from > t)
                    m = std::min(m, entries_[i].wait_from);
        }
        return m;
    }

  private:
    std::vector<Entry> entries_;
    std::vector<Block> blocks_;
    std::size_t dead_ = 0;
    mutable Block all_{};  // summary()
    mutable bool all_known_ = false;
    mutable bool after_known_ = false;
    mutable Time after_from_ = 0, after_ = 0;  // min_wait_after(after_from_)

    // Records the positions of the live entries from `from` on.
    void locate(std::size_t from, Where& where) {
        for (std::size_t i = from; i < entries_.size(); ++i)
            if (entries_[i].live() && entries_[i].slot < where.size())
                where[entries_[i].slot] = static_cast<std::uint32_t>(i);
    }

    static Block empty_block() { return {{kNone, kNone}, kForever, kNoTime, 0}; }

    void add(Block& k, const Entry& e) {
        if (!e.live()) return;
        std::int32_t& p = k.min_procs[e.swapped ? 1 : 0];
        p = std::min(p, e.procs);
        k.min_wait = std::min(k.min_wait, e.wait_from);
        k.max_wait = std::max(k.max_wait, e.wait_from);
        ++k.live;
    }
    void note(std::size_t i) {
        const std::size_t b = i / kBlock;
        if (b >= blocks_.size()) blocks_.resize(b + 1, empty_block());
        add(blocks_[b], entries_[i]);
    }
    void summarize(std::size_t b) {
        Block k = empty_block();
        const std::size_t end = std::min(entries_.size(), (b + 1) * kBlock);
        for (std::size_t i = b * kBlock; i < end; ++i) add(k, entries_[i]);
        blocks_[b] = k;
    }
    // Recomputes the summaries from block `from` on.
    void rebuild(std::size_t from) {
        blocks_.resize((entries_.size() + kBlock - 1) / kBlock, empty_block());
        for (std::size_t b = from; b < blocks_.size(); ++b) summarize(b);
    }
};

}  // namespace rota
