#include "batch_view.h"

#include <cstring>
#include <vector>

#include "slots.h"

namespace rota::lua {

namespace {

constexpr const char* kNames[BatchView::kColumns] = {"id",     "procs", "estimate",
                                                     "submit", "user",  "priority"};

template <class T>
void store(lua_State* L, int table, const std::vector<T>& v) {
    const std::size_t n = v.size();
    for (std::size_t i = 0; i < n; ++i) {
        lua_pushinteger(L, static_cast<lua_Integer>(v[i]));
        lua_rawseti(L, table, static_cast<lua_Integer>(i + 1));
    }
}

int refuse_ctx_write(lua_State* L) {
    return luaL_error(L, "ctx is read-only");
}

// A new field in the batch (say a column the script has not read yet)
// would outlive the call, since begin() only unbinds the columns it knows.
int refuse_batch_write(lua_State* L) {
    return luaL_error(L, "the batch is read-only");
}

int ctx_next(lua_State* L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    if (lua_next(L, 1) != 0) return 2;
    lua_pushnil(L);
    return 1;
}

}  // namespace

void BatchView::create(lua_State* L) {
    lua_createtable(L, 0, kColumns + 1);
    lua_pushinteger(L, 0);
    lua_setfield(L, -2, "n");
    lua_createtable(L, 0, 3);  // its metatable
    lua_pushlightuserdata(L, this);
    for (int k = 0; k < kColumns; ++k) lua_createtable(L, 16, 0);
    lua_pushcclosure(L, &BatchView::index, 1 + kColumns);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, refuse_batch_write);
    lua_setfield(L, -2, "__newindex");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);

    const int proxy = lua_gettop(L) + 1;
    lua_newtable(L);
    lua_createtable(L, 0, 4);  // its metatable
    const int meta = proxy + 1;
    lua_createtable(L, 0, 12);  // the data behind the proxy
    const int data = proxy + 2;
    lua_pushlightuserdata(L, this);
    lua_pushvalue(L, data);
    lua_pushvalue(L, meta);
    lua_pushcclosure(L, &BatchView::ctx_pairs, 3);
    lua_setfield(L, meta, "__pairs");
    lua_pushcfunction(L, refuse_ctx_write);
    lua_setfield(L, meta, "__newindex");
    lua_pushboolean(L, 0);
    lua_setfield(L, meta, "__metatable");
    lua_pushlightuserdata(L, this);
    lua_pushvalue(L, data);
    lua_pushvalue(L, meta);
    lua_pushcclosure(L, &BatchView::ctx_index, 3);  // the loader
    lua_replace(L, data);
    lua_pushvalue(L, data);
    lua_setfield(L, meta, "__index");
    lua_pushvalue(L, meta);
    lua_setmetatable(L, proxy);

    batch_ = nullptr;
    ctx_ = nullptr;
    ctx_loaded_ = false;
    written_valid_ = false;
    bound_ = 0;
    for (lua_Integer& f : filled_) f = 0;
}

void BatchView::reset(lua_State* L) {
    create(L);
    for (int s = slot::ctx_loader; s >= slot::batch; --s) lua_replace(L, s);
}

void BatchView::begin(lua_State* L, const JobBatch& b, const PassContext& ctx) {
    for (int k = 0; bound_ != 0; ++k) {
        if ((bound_ & (1u << k)) == 0) continue;
        lua_pushstring(L, kNames[k]);
        lua_pushnil(L);
        lua_rawset(L, slot::batch);
        bound_ &= ~(1u << k);
    }
    lua_pushliteral(L, "n");
    lua_pushinteger(L, static_cast<lua_Integer>(b.size()));
    lua_rawset(L, slot::batch);
    if (ctx_loaded_) {
        lua_pushvalue(L, slot::ctx_loader);
        lua_setfield(L, slot::ctx_meta, "__index");  // an existing key: a plain store
        ctx_loaded_ = false;
    }
    batch_ = &b;
    ctx_ = &ctx;
}

// __index(batch, key): runs inside the script's protected call.
int BatchView::index(lua_State* L) {
    auto* self = static_cast<BatchView*>(lua_touserdata(L, lua_upvalueindex(1)));
    if (self->batch_ == nullptr || lua_type(L, 2) != LUA_TSTRING) return 0;
    const char* key = lua_tostring(L, 2);
    for (int k = 0; k < kColumns; ++k) {
        if (std::strcmp(key, kNames[k]) != 0) continue;
        const int column = lua_upvalueindex(2 + k);
        self->fill_column(L, k, column);
        lua_pushvalue(L, 2);
        lua_pushvalue(L, column);
        lua_rawset(L, 1);
        self->bound_ |= 1u << k;
        lua_pushvalue(L, column);
        return 1;
    }
    return 0;
}

void BatchView::fill_column(lua_State* L, int column, int table) {
    const JobBatch& b = *batch_;
    // If a refused allocation cuts the fill short, filled_ is stale, but the
    // failure path replaces the tables anyway.
    const lua_Integer before = filled_[column];
    switch (column) {
        case 0:
            store(L, table, b.id);
            break;
        case 1:
            store(L, table, b.procs);
            break;
        case 2:
            store(L, table, b.estimate);
            break;
        case 3:
            store(L, table, b.submit);
            break;
        case 4:
            store(L, table, b.user);
            break;
        default:
            store(L, table, b.priority);
            break;
    }
    const auto n = static_cast<lua_Integer>(b.size());
    for (lua_Integer i = n + 1; i <= before; ++i) {
        lua_pushnil(L);
        lua_rawseti(L, table, i);
    }
    filled_[column] = n;
}

// __index(ctx, key) at the first read of ctx in a call.
int BatchView::ctx_index(lua_State* L) {
    auto* self = static_cast<BatchView*>(lua_touserdata(L, lua_upvalueindex(1)));
    self->load_ctx(L);
    lua_pushvalue(L, 2);
    lua_rawget(L, lua_upvalueindex(2));
    return 1;
}

// pairs(ctx) walks the data behind the proxy.
int BatchView::ctx_pairs(lua_State* L) {
    auto* self = static_cast<BatchView*>(lua_touserdata(L, lua_upvalueindex(1)));
    self->load_ctx(L);
    lua_pushcfunction(L, ctx_next);
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushnil(L);
    return 3;
}

void BatchView::load_ctx(lua_State* L) {
    if (ctx_ == nullptr || ctx_loaded_) return;
    const int data = lua_upvalueindex(2);
    const PassContext& c = *ctx_;
    const PassContext& w = written_;
    const bool all = !written_valid_;
    auto set = [&](bool changed, const char* key, lua_Integer v) {
        if (!all && !changed) return;
        lua_pushinteger(L, v);
        lua_setfield(L, data, key);  // the data table has no metatable
    };
    set(c.now != w.now, "now", c.now);
    set(c.machine_procs != w.machine_procs, "machine_procs", c.machine_procs);
    set(c.free_procs != w.free_procs, "free_procs", c.free_procs);
    set(c.queue_length != w.queue_length, "queue_length", c.queue_length);
    set(c.head_id != w.head_id, "head_id", c.head_id);
    set(c.head_procs != w.head_procs, "head_procs", c.head_procs);
    set(c.head_jumps != w.head_jumps, "head_jumps", c.head_jumps);
    set(c.extra_procs != w.extra_procs, "extra_procs", c.extra_procs);
    set(c.migration_budget != w.migration_budget, "migration_budget", c.migration_budget);
    if (all || c.migration_cost != w.migration_cost) {
        lua_pushnumber(L, c.migration_cost);
        lua_setfield(L, data, "migration_cost");
    }
    if (all || c.shadow_time != w.shadow_time) {
        if (c.shadow_time == kNoTime) {
            lua_pushnil(L);
        } else {
            lua_pushinteger(L, c.shadow_time);
        }
        lua_setfield(L, data, "shadow_time");
    }
    // A refused allocation above skips this; the failure path then
    // replaces the tables.
    written_ = c;
    written_valid_ = true;
    lua_pushvalue(L, data);
    lua_setfield(L, lua_upvalueindex(3), "__index");
    ctx_loaded_ = true;
}

}  // namespace rota::lua
