// The tables a hook receives: the job batch as parallel arrays and the pass
// context. They are created once per state and overwritten in place on
// every call, so handing a batch to a script allocates nothing once the
// arrays have grown (ARCHITECTURE §5).
//
// The columns (id, procs, ...) are filled lazily: a column is written into
// its array the first time the script reads it in a call, through __index
// of the batch table, and then bound to the table so that further reads are
// plain field reads. Policies read one or two of the six columns, and each
// column costs a store per job, so this is most of the cost of a call.
//
// The context is a read-only proxy, filled the same way: the first read in
// a call writes the fields that changed into the table behind it and points
// the proxy's __index at that table, so later reads are table reads. A
// script that never reads ctx pays one store per call for it.
#pragma once

#include <cstdint>
#include <lua.hpp>

#include "engine/policy.h"

namespace rota::lua {

class BatchView {
  public:
    static constexpr int kColumns = 6;

    // Pushes the batch table, the ctx proxy, its metatable and its loader,
    // which the caller keeps in slots slot::batch .. slot::ctx_loader.
    void create(lua_State* L);
    // Replaces them all with fresh ones: after a failed call the script may
    // have left them damaged (a column replaced, stray keys).
    void reset(lua_State* L);

    // Before a call: sets n, unbinds the columns bound by the last call and
    // re-arms the ctx loader. Only stores that cannot fail or run script
    // code: this runs outside protected mode. `b` and `ctx` must stay alive
    // until end().
    void begin(lua_State* L, const JobBatch& b, const PassContext& ctx);
    void end() {
        batch_ = nullptr;
        ctx_ = nullptr;
    }

  private:
    static int index(lua_State* L);
    static int ctx_index(lua_State* L);
    static int ctx_pairs(lua_State* L);
    void fill_column(lua_State* L, int column, int table);
    // Makes the data behind the proxy current; upvalues 2 and 3 of the
    // running closure are that table and the proxy's metatable.
    void load_ctx(lua_State* L);

    const JobBatch* batch_ = nullptr;
    const PassContext* ctx_ = nullptr;
    bool ctx_loaded_ = false;  // the proxy's __index is the data table
    // What the data table holds, so that a load writes only what changed:
    // scripts cannot write there, the proxy being read-only.
    PassContext written_;
    bool written_valid_ = false;
    std::uint32_t bound_ = 0;  // bit per column bound in this call
    // Entries 1..filled_[k] of column k hold values. When a batch is shorter
    // than the last, the tail is cleared so `#` and ipairs agree with `n`.
    lua_Integer filled_[kColumns] = {};
};

}  // namespace rota::lua
