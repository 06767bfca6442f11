// Job id -> slab slot. An open-addressing table: every job is inserted and
// erased once, and a node-based map would cost an allocation for each.
#pragma once

#include <cstdint>
#include <vector>

#include "types.h"

namespace rota {

class JobIndex {
  public:
    using Slot = std::uint32_t;
    static constexpr Slot kNone = static_cast<Slot>(-1);

    JobIndex() : cells_(16) {}

    Slot find(JobId id) const {
        for (std::size_t i = home(id);; i = (i + 1) & mask()) {
            const Cell& c = cells_[i];
            if (c.slot == kNone) return kNone;
            if (c.id == id) return c.slot;
        }
    }

    // The caller has checked that `id` is absent.
    void insert(JobId id, Slot slot) {
        if ((size_ + 1) * 4 > cells_.size() * 3) grow();
        place(id, slot);
        ++size_;
    }

    void erase(JobId id);

    std::size_t size() const { return size_; }

    template <class F>
    void for_each(F&& f) const {
        for (const Cell& c : cells_)
            if (c.slot != kNone) f(c.id, c.slot);
    }

  private:
    struct Cell {
        JobId id = 0;
        Slot slot = kNone;
    };
    std::vector<Cell> cells_;
    std::size_t size_ = 0;

    std::size_t mask() const { return cells_.size() - 1; }
    std::size_t home(JobId id) const {
        // splitmix64's finaliser: ids are often consecutive.
        auto x = static_cast<std::uint64_t>(id);
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        return static_cast<std::size_t>(x ^ (x >> 31)) & mask();
    }
    void place(JobId id, Slot slot) {
        std::size_t i = home(id);
        while (cells_[i].slot != kNone) i = (i + 1) & mask();
        cells_[i] = {id, slot};
    }
    void grow() {
        std::vector<Cell> old(cells_.size() * 2);
        old.swap(cells_);
        for (const Cell& c : old)
            if (c.slot != kNone) place(c.id, c.slot);
    }
};

inline void JobIndex::erase(JobId id) {
    std::size_t i = home(id);
    while (cells_[i].id != id || cells_[i].slot == kNone) {
        if (cells_[i].slot == kNone) return;
        i = (i + 1) & mask();
    }
    // Backward-shift deletion keeps probe chains whole without tombstones.
    for (std::size_t j = (i + 1) & mask();; j = (j + 1) & mask()) {
        if (cells_[j].slot == kNone) break;
        std::size_t h = home(cells_[j].id);
        // Move j back to i unless its home lies cyclically in (i, j].
        bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
        if (!stays) {
            cells_[i] = cells_[j];
            i = j;
        }
    }
    cells_[i] = Cell{};
    --size_;
}

}  // namespace rota
