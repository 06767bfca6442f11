// The tables a hook receives: a batch as parallel arrays and the hook's
// context. Both are built from engine/vocabulary.h, so a column or a
// context field declared there appears here without further code. They
// are created once per state and overwritten in place on every call, so
// handing a batch to a script allocates nothing once the arrays have grown
// (ARCHITECTURE §5).
//
// The columns are filled lazily: a column is written into its array the
// first time the script reads it in a call, through __index of the batch
// table, and then bound to the table so that further reads are plain field
// reads. Policies read one or two columns, and each costs a store per job.
//
// A context is a read-only proxy, one per kind of context (common,
// backfill, migration) so that a hook sees exactly its own fields: the
// first read in a call writes the fields into the table behind the proxy
// and points the proxy's __index at it; a script that never reads ctx pays
// one store per call for it.
//
// The per-user fields (ctx.user_usage[user], ...) are tables filled as
// they are read: a read of a user not yet there asks the engine's usage
// records and keeps the answer for the rest of the call, and pairs()
// fills every user first. A table read in a call is replaced by a fresh
// one at the next call that reads ctx; one left untouched is kept, so a
// context costs nothing more when they are not read.
#pragma once

#include <cstdint>
#include <lua.hpp>
#include <type_traits>
#include <vector>

#include "engine/vocabulary.h"

namespace rota::lua {

// A kind of batch: its column names and how to store column k of a batch
// of that kind into a Lua array. A job batch also has `R`, [Leinberger99]'s
// demand matrix: R[i][j] is job j's share of resource i's capacity, one
// array per resource, filled like a column when first read.
struct BatchKind {
    const char* const* names;
    int columns;
    void (*store)(lua_State* L, int table, const void* batch, int column);
    std::size_t (*size)(const void* batch);
    int (*resources)(const void* batch) = nullptr;  // null: no R
    void (*store_shares)(lua_State* L, int table, const void* batch, int resource) = nullptr;
    // A job batch also has `components`: components[j] is the array of job
    // j's component widths ([Ngubiri07]), one element on a single machine.
    void (*store_components)(lua_State* L, int outer, const void* batch) = nullptr;
};
extern const BatchKind kJobBatch;        // JobBatch
extern const BatchKind kMigrationBatch;  // MigrationBatch
extern const BatchKind kMalleableBatch;  // MalleableBatch
extern const BatchKind kPreemptBatch;    // PreemptBatch

class BatchView {
  public:
    explicit BatchView(const BatchKind& kind) : kind_(&kind), filled_(kind.columns, 0) {}

    // Pushes a new batch table.
    void create(lua_State* L);
    // Before a call: sets n, unbinds the columns bound by the last call.
    // Only stores that cannot fail or run script code: this runs outside
    // protected mode. `batch` must stay alive until end().
    void begin(lua_State* L, int table, const void* batch);
    void end() { batch_ = nullptr; }

    // The view behind the batch table at `idx`, or null if that is not a
    // batch table the engine made. Native helpers of the `rota` library
    // (lua/kselect.h) find the engine's arrays this way instead of through
    // the Lua columns.
    static const BatchView* of(lua_State* L, int idx);
    // The job batch of the call under way, null outside a call or for
    // another kind of batch.
    const JobBatch* jobs() const {
        return kind_ == &kJobBatch ? static_cast<const JobBatch*>(batch_) : nullptr;
    }
    // The malleable batch of the harvest or distribution call under way.
    const MalleableBatch* malleable() const {
        return kind_ == &kMalleableBatch ? static_cast<const MalleableBatch*>(batch_) : nullptr;
    }
    // Counts begin(): a helper's state made in one call is refused in a later one.
    std::uint64_t serial() const { return serial_; }

  private:
    static int index(lua_State* L);
    void fill_column(lua_State* L, int column, int table);
    void fill_shares(lua_State* L, int outer);
    int shares_slot() const { return 2 + kind_->columns; }
    int components_slot() const { return shares_slot() + (kind_->resources ? 1 : 0); }
    int components_bit() const { return kind_->columns + 1; }

    const BatchKind* kind_;
    const void* batch_ = nullptr;
    std::uint64_t serial_ = 0;
    std::uint32_t bound_ = 0;  // bit per column bound in this call
    // Entries 1..filled_[k] of column k hold values. When a batch is shorter
    // than the last, the tail is cleared so that `#` and ipairs agree with n.
    std::vector<lua_Integer> filled_;
    std::vector<lua_Integer> filled_shares_;  // the same for each array of R
    lua_Integer filled_components_ = 0;       // entries of `components` holding a job's array
};

class ContextView {
  public:
    // Pushes the proxy, its metatable and its loader (three values).
    void create(lua_State* L);
    // Before a call; `meta` and `loader` are the stack slots of the last two.
    template <class Ctx>
    void begin(lua_State* L, int meta, int loader, const Ctx& ctx) {
        rearm(L, meta, loader);
        ctx_ = &ctx;
        common_ = &ctx;
        if constexpr (std::is_same_v<Ctx, BackfillContext>)
            backfill_ = &ctx;
        else
            backfill_ = nullptr;
        if constexpr (std::is_same_v<Ctx, MalleableContext>)
            malleable_ = &ctx;
        else
            malleable_ = nullptr;
        load_ = &load_fields<Ctx>;
    }
    void end() {
        ctx_ = nullptr;
        common_ = nullptr;
        backfill_ = nullptr;
        malleable_ = nullptr;
    }

    // The backfill context behind the proxy at `idx` during a
    // backfill_select call, else null (see BatchView::of).
    static const BackfillContext* backfill_of(lua_State* L, int idx);
    // The malleable context behind the proxy at `idx` during a harvest or
    // distribution call, else null.
    static const MalleableContext* malleable_of(lua_State* L, int idx);

  private:
    static const ContextView* view_of(lua_State* L, int idx);
    static int index(lua_State* L);
    static int pairs(lua_State* L);
    static int user_index(lua_State* L);
    static int user_pairs(lua_State* L);
    const UserFigures* figures(int figure) const;
    void rearm(lua_State* L, int meta, int loader);
    void load(lua_State* L);
    template <class Ctx>
    static void load_fields(lua_State* L, int data, const void* ctx) {
        const Ctx& c = *static_cast<const Ctx*>(ctx);
        visit_fields(c, [&](const char* name, const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, Name> || std::is_same_v<T, Names>)
                set_field(L, data, name, v, c.names);
            else
                set_field(L, data, name, v);
        });
    }
    static void set_field(lua_State* L, int data, const char* name, std::int64_t v);
    static void set_field(lua_State* L, int data, const char* name, std::int32_t v);
    static void set_field(lua_State* L, int data, const char* name, double v);
    static void set_field(lua_State* L, int data, const char* name, MaybeTime v);
    static void set_field(lua_State* L, int data, const char* name, const Shares& v);
    static void set_field(lua_State* L, int data, const char* name, const Amounts& v);
    static void set_field(lua_State* L, int data, const char* name, const UserFigures& v);
    static void set_field(lua_State* L, int data, const char* name, Name v, const NameTable* names);
    static void set_field(lua_State* L, int data, const char* name, const Names& v,
                          const NameTable* names);

    static constexpr int kFigures = 3;  // UserFigure's values
    const void* ctx_ = nullptr;
    const CommonContext* common_ = nullptr;
    const BackfillContext* backfill_ = nullptr;
    const MalleableContext* malleable_ = nullptr;
    bool touched_[kFigures] = {};  // a per-user table was read since it was made
    void (*load_)(lua_State*, int, const void*) = nullptr;
    bool loaded_ = false;  // the proxy's __index is the data table
};

}  // namespace rota::lua
