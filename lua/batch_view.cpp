#include "batch_view.h"

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "engine/usage.h"
#include "state_links.h"

namespace rota::lua {

namespace {

template <class T>
void store_vec(lua_State* L, int table, const std::vector<T>& v) {
    const std::size_t n = v.size();
    for (std::size_t i = 0; i < n; ++i) {
        if constexpr (std::is_floating_point_v<T>)
            lua_pushnumber(L, static_cast<lua_Number>(v[i]));
        else
            lua_pushinteger(L, static_cast<lua_Integer>(v[i]));
        lua_rawseti(L, table, static_cast<lua_Integer>(i + 1));
    }
}

// The strings of one engine's names, by number, kept in the registry so
// that a name column stores a string it already holds: no string made, no
// hashing, per job. A state serves one engine; the cache is replaced when
// another table's names come (a new serial).
constexpr const char* kNameCache = "rota.names";

// Pushes the cache of `names`' strings, made anew if it holds another
// table's.
int push_name_cache(lua_State* L, const NameTable* names) {
    const auto serial = static_cast<lua_Integer>(names ? names->serial() : 0);
    if (lua_getfield(L, LUA_REGISTRYINDEX, kNameCache) == LUA_TTABLE) {
        const bool ours =
            lua_getfield(L, -1, "of") == LUA_TNUMBER && lua_tointeger(L, -1) == serial;
        lua_pop(L, ours ? 1 : 2);
        if (!ours) lua_pushnil(L);
    }
    if (lua_type(L, -1) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 16, 1);
        lua_pushinteger(L, serial);
        lua_setfield(L, -2, "of");
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, kNameCache);
    }
    return lua_gettop(L);
}

// Pushes name `n` as a string, "" for none, through the cache at `cache`.
void push_name(lua_State* L, int cache, Name n, const NameTable* names) {
    if (n.id == 0 || names == nullptr) {
        lua_pushliteral(L, "");
    } else if (lua_rawgeti(L, cache, n.id) != LUA_TSTRING) {
        lua_pop(L, 1);
        const std::string& s = (*names)[n];
        lua_pushlstring(L, s.data(), s.size());
        lua_pushvalue(L, -1);
        lua_rawseti(L, cache, n.id);
    }
}

// A name column as strings, "" for none (so the array stays dense: `#`
// and ipairs agree with n).
void store_vec(lua_State* L, int table, const std::vector<Name>& v, const NameTable* names) {
    table = lua_absindex(L, table);
    const int cache = push_name_cache(L, names);
    const std::size_t n = v.size();
    for (std::size_t i = 0; i < n; ++i) {
        push_name(L, cache, v[i], names);
        lua_rawseti(L, table, static_cast<lua_Integer>(i + 1));
    }
    lua_pop(L, 1);
}

// A column of a batch that has names (`names`): numbers as they are,
// name columns spelled.
template <class B, class T>
void store_job_vec(lua_State* L, int table, const B&, const std::vector<T>& v) {
    store_vec(L, table, v);
}
template <class B>
void store_job_vec(lua_State* L, int table, const B& b, const std::vector<Name>& v) {
    store_vec(L, table, v, b.names);
}

void store_job_column(lua_State* L, int table, const void* batch, int column) {
    const auto& b = *static_cast<const JobBatch*>(batch);
    int k = 0;
#define ROTA_X(name, type, value, doc) \
    if (column == k++) return store_job_vec(L, table, b, b.name);
    ROTA_JOB_COLUMNS_ALL(ROTA_X)
#undef ROTA_X
}

void store_migration_column(lua_State* L, int table, const void* batch, int column) {
    const auto& b = *static_cast<const MigrationBatch*>(batch);
    int k = 0;
#define ROTA_X(name, type, doc) \
    if (column == k++) return store_job_vec(L, table, b, b.name);
    ROTA_MIGRATION_COLUMNS(ROTA_X)
#undef ROTA_X
}

void store_malleable_column(lua_State* L, int table, const void* batch, int column) {
    const auto& b = *static_cast<const MalleableBatch*>(batch);
    b.need(static_cast<MalleableColumn>(column));
    int k = 0;
#define ROTA_X(name, type, doc) \
    if (column == k++) return store_job_vec(L, table, b, b.name);
    ROTA_MALLEABLE_COLUMNS(ROTA_X)
#undef ROTA_X
}

void store_preempt_column(lua_State* L, int table, const void* batch, int column) {
    const auto& b = *static_cast<const PreemptBatch*>(batch);
    int k = 0;
#define ROTA_X(name, type, doc) \
    if (column == k++) return store_vec(L, table, b.name);
    ROTA_PREEMPT_COLUMNS(ROTA_X)
#undef ROTA_X
}

int job_resources(const void* batch) {
    return static_cast<const JobBatch*>(batch)->resources();
}

void store_job_shares(lua_State* L, int table, const void* batch, int resource) {
    const auto& b = *static_cast<const JobBatch*>(batch);
    const std::size_t k = b.inv_capacity.size();
    const std::size_t n = b.size();
    for (std::size_t j = 0; j < n; ++j) {
        lua_pushnumber(L, static_cast<lua_Number>(b.R[j * k + static_cast<std::size_t>(resource)]));
        lua_rawseti(L, table, static_cast<lua_Integer>(j + 1));
    }
}

// Each job's widths into an array of its own, reused from call to call.
void store_job_components(lua_State* L, int outer, const void* batch) {
    const auto& b = *static_cast<const JobBatch*>(batch);
    for (std::size_t j = 0; j < b.size(); ++j) {
        const auto key = static_cast<lua_Integer>(j + 1);
        if (lua_rawgeti(L, outer, key) != LUA_TTABLE) {
            lua_pop(L, 1);
            lua_createtable(L, 4, 0);
            lua_pushvalue(L, -1);
            lua_rawseti(L, outer, key);
        }
        const std::int32_t k = b.components(j);
        const auto had = static_cast<std::int32_t>(lua_rawlen(L, -1));
        for (std::int32_t i = 0; i < k; ++i) {
            lua_pushinteger(L, b.component(j, i));
            lua_rawseti(L, -2, i + 1);
        }
        for (std::int32_t i = had; i > k; --i) {
            lua_pushnil(L);
            lua_rawseti(L, -2, i);
        }
        lua_pop(L, 1);
    }
}

template <class B>
std::size_t batch_size(const void* batch) {
    return static_cast<const B*>(batch)->size();
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

const BatchKind kJobBatch{kJobColumnNames,     static_cast<int>(std::size(kJobColumnNames)),
                          store_job_column,    batch_size<JobBatch>,
                          job_resources,       store_job_shares,
                          store_job_components};
const BatchKind kMigrationBatch{kMigrationColumnNames,
                                static_cast<int>(std::size(kMigrationColumnNames)),
                                store_migration_column, batch_size<MigrationBatch>};
const BatchKind kMalleableBatch{kMalleableColumnNames,
                                static_cast<int>(std::size(kMalleableColumnNames)),
                                store_malleable_column, batch_size<MalleableBatch>};
const BatchKind kPreemptBatch{kPreemptColumnNames, static_cast<int>(std::size(kPreemptColumnNames)),
                              store_preempt_column, batch_size<PreemptBatch>};

void BatchView::create(lua_State* L) {
    lua_createtable(L, 0, kind_->columns + 1);
    lua_pushinteger(L, 0);
    lua_setfield(L, -2, "n");
    lua_createtable(L, 0, 3);  // its metatable
    lua_pushlightuserdata(L, this);
    for (int k = 0; k < kind_->columns; ++k) lua_createtable(L, 16, 0);
    const bool shares = kind_->resources != nullptr;
    if (shares) lua_createtable(L, 8, 0);  // R: one array per resource
    const bool comps = kind_->store_components != nullptr;
    if (comps) lua_createtable(L, 16, 0);  // components: one array per job
    lua_pushcclosure(L, &BatchView::index, 1 + kind_->columns + (shares ? 1 : 0) + (comps ? 1 : 0));
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, refuse_batch_write);
    lua_setfield(L, -2, "__newindex");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
    batch_ = nullptr;
    bound_ = 0;
    std::fill(filled_.begin(), filled_.end(), 0);
    filled_shares_.clear();
    filled_components_ = 0;
}

void BatchView::begin(lua_State* L, int table, const void* batch) {
    for (int k = 0; bound_ != 0; ++k) {
        if ((bound_ & (1u << k)) == 0) continue;
        lua_pushstring(L, k < kind_->columns    ? kind_->names[k]
                          : k == kind_->columns ? "R"
                                                : "components");
        lua_pushnil(L);
        lua_rawset(L, table);
        bound_ &= ~(1u << k);
    }
    lua_pushliteral(L, "n");
    lua_pushinteger(L, static_cast<lua_Integer>(kind_->size(batch)));
    lua_rawset(L, table);
    batch_ = batch;
    ++serial_;
}

// The batch of the call running, if the value at idx is its table: known
// by address (state_links.h).
const BatchView* BatchView::of(lua_State* L, int idx) {
    const StateLinks* k = links(L);
    if (k == nullptr || k->batch_table == nullptr || lua_type(L, idx) != LUA_TTABLE) return nullptr;
    return lua_topointer(L, idx) == k->batch_table ? k->batch : nullptr;
}

// __index(batch, key): runs inside the script's protected call.
int BatchView::index(lua_State* L) {
    auto* self = static_cast<BatchView*>(lua_touserdata(L, lua_upvalueindex(1)));
    if (self->batch_ == nullptr || lua_type(L, 2) != LUA_TSTRING) return 0;
    const char* key = lua_tostring(L, 2);
    for (int k = 0; k < self->kind_->columns; ++k) {
        if (std::strcmp(key, self->kind_->names[k]) != 0) continue;
        const int column = lua_upvalueindex(2 + k);
        self->fill_column(L, k, column);
        lua_pushvalue(L, 2);
        lua_pushvalue(L, column);
        lua_rawset(L, 1);
        self->bound_ |= 1u << k;
        lua_pushvalue(L, column);
        return 1;
    }
    if (self->kind_->store_components && std::strcmp(key, "components") == 0) {
        const int outer = lua_upvalueindex(self->components_slot());
        self->kind_->store_components(L, outer, self->batch_);
        const auto n = static_cast<lua_Integer>(self->kind_->size(self->batch_));
        for (lua_Integer j = n + 1; j <= self->filled_components_; ++j) {
            lua_pushnil(L);
            lua_rawseti(L, outer, j);
        }
        self->filled_components_ = n;
        lua_pushvalue(L, 2);
        lua_pushvalue(L, outer);
        lua_rawset(L, 1);
        self->bound_ |= 1u << self->components_bit();
        lua_pushvalue(L, outer);
        return 1;
    }
    if (self->kind_->resources && std::strcmp(key, "R") == 0) {
        const int outer = lua_upvalueindex(self->shares_slot());
        self->fill_shares(L, outer);
        lua_pushvalue(L, 2);
        lua_pushvalue(L, outer);
        lua_rawset(L, 1);
        self->bound_ |= 1u << self->kind_->columns;
        lua_pushvalue(L, outer);
        return 1;
    }
    return 0;
}

void BatchView::fill_shares(lua_State* L, int outer) {
    const int k = kind_->resources(batch_);
    const auto n = static_cast<lua_Integer>(kind_->size(batch_));
    if (filled_shares_.size() < static_cast<std::size_t>(k))
        filled_shares_.resize(static_cast<std::size_t>(k), 0);
    for (int i = 0; i < k; ++i) {
        if (lua_rawgeti(L, outer, i + 1) != LUA_TTABLE) {
            lua_pop(L, 1);
            lua_createtable(L, static_cast<int>(n), 0);
            lua_pushvalue(L, -1);
            lua_rawseti(L, outer, i + 1);
        }
        const int inner = lua_gettop(L);
        kind_->store_shares(L, inner, batch_, i);
        lua_Integer& before = filled_shares_[static_cast<std::size_t>(i)];
        for (lua_Integer j = n + 1; j <= before; ++j) {
            lua_pushnil(L);
            lua_rawseti(L, inner, j);
        }
        before = n;
        lua_pop(L, 1);
    }
}

void BatchView::fill_column(lua_State* L, int column, int table) {
    // If a refused allocation cuts the fill short, filled_ is stale, but the
    // failure path replaces the tables anyway.
    const lua_Integer before = filled_[static_cast<std::size_t>(column)];
    kind_->store(L, table, batch_, column);
    const auto n = static_cast<lua_Integer>(kind_->size(batch_));
    for (lua_Integer i = n + 1; i <= before; ++i) {
        lua_pushnil(L);
        lua_rawseti(L, table, i);
    }
    filled_[static_cast<std::size_t>(column)] = n;
}

void ContextView::create(lua_State* L) {
    const int proxy = lua_gettop(L) + 1;
    lua_newtable(L);
    lua_createtable(L, 0, 4);  // its metatable
    const int meta = proxy + 1;
    lua_createtable(L, 0, 12);  // the data behind the proxy
    const int data = proxy + 2;
    // The metatables of the per-user tables, one per figure.
    lua_createtable(L, kFigures, 0);
    const int figures = proxy + 3;
    for (int f = 0; f < kFigures; ++f) {
        lua_createtable(L, 0, 4);
        lua_pushlightuserdata(L, this);
        lua_pushinteger(L, f);
        lua_pushcclosure(L, &ContextView::user_index, 2);
        lua_setfield(L, -2, "__index");
        lua_pushlightuserdata(L, this);
        lua_pushinteger(L, f);
        lua_pushcclosure(L, &ContextView::user_pairs, 2);
        lua_setfield(L, -2, "__pairs");
        lua_pushcfunction(L, refuse_ctx_write);
        lua_setfield(L, -2, "__newindex");
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
        lua_rawseti(L, figures, f + 1);
    }
    lua_pushlightuserdata(L, this);
    lua_pushvalue(L, data);
    lua_pushvalue(L, meta);
    lua_pushvalue(L, figures);
    lua_pushcclosure(L, &ContextView::pairs, 4);
    lua_setfield(L, meta, "__pairs");
    lua_pushcfunction(L, refuse_ctx_write);
    lua_setfield(L, meta, "__newindex");
    lua_pushboolean(L, 0);
    lua_setfield(L, meta, "__metatable");
    lua_pushlightuserdata(L, this);
    lua_pushvalue(L, data);
    lua_pushvalue(L, meta);
    lua_pushvalue(L, figures);
    lua_pushcclosure(L, &ContextView::index, 4);  // the loader
    lua_replace(L, data);
    lua_pop(L, 1);  // the figures' metatables: upvalues of the loader and of __pairs
    lua_pushvalue(L, data);
    lua_setfield(L, meta, "__index");
    lua_pushvalue(L, meta);
    lua_setmetatable(L, proxy);
    ctx_ = nullptr;
    common_ = nullptr;
    loaded_ = false;
    for (bool& t : touched_) t = false;
}

const ContextView* ContextView::view_of(lua_State* L, int idx) {
    const StateLinks* k = links(L);  // as in BatchView::of
    if (k == nullptr || k->context_table == nullptr || lua_type(L, idx) != LUA_TTABLE)
        return nullptr;
    return lua_topointer(L, idx) == k->context_table ? k->context : nullptr;
}

const BackfillContext* ContextView::backfill_of(lua_State* L, int idx) {
    const ContextView* view = view_of(L, idx);
    return view != nullptr ? view->backfill_ : nullptr;
}

const MalleableContext* ContextView::malleable_of(lua_State* L, int idx) {
    const ContextView* view = view_of(L, idx);
    return view != nullptr ? view->malleable_ : nullptr;
}

void ContextView::rearm(lua_State* L, int meta, int loader) {
    if (!loaded_) return;
    lua_pushvalue(L, loader);
    lua_setfield(L, meta, "__index");  // an existing key: a plain store
    loaded_ = false;
}

// __index(ctx, key) at the first read of ctx in a call.
int ContextView::index(lua_State* L) {
    auto* self = static_cast<ContextView*>(lua_touserdata(L, lua_upvalueindex(1)));
    self->load(L);
    lua_pushvalue(L, 2);
    lua_rawget(L, lua_upvalueindex(2));
    return 1;
}

// pairs(ctx) walks the data behind the proxy.
int ContextView::pairs(lua_State* L) {
    auto* self = static_cast<ContextView*>(lua_touserdata(L, lua_upvalueindex(1)));
    self->load(L);
    lua_pushcfunction(L, ctx_next);
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushnil(L);
    return 3;
}

void ContextView::load(lua_State* L) {
    if (ctx_ == nullptr || loaded_) return;
    const int data = lua_upvalueindex(2);
    load_(L, data, ctx_);  // a refused allocation leaves: the failure path replaces the tables
    lua_pushvalue(L, data);
    lua_setfield(L, lua_upvalueindex(3), "__index");
    loaded_ = true;
}

void ContextView::set_field(lua_State* L, int data, const char* name, std::int64_t v) {
    lua_pushinteger(L, static_cast<lua_Integer>(v));
    lua_setfield(L, data, name);  // the data table has no metatable
}

void ContextView::set_field(lua_State* L, int data, const char* name, std::int32_t v) {
    set_field(L, data, name, static_cast<std::int64_t>(v));
}

void ContextView::set_field(lua_State* L, int data, const char* name, double v) {
    lua_pushnumber(L, v);
    lua_setfield(L, data, name);
}

namespace {

template <class T>
void set_vector(lua_State* L, int data, const char* name, const std::vector<T>& v) {
    if (v.empty()) {
        lua_pushnil(L);
    } else {
        lua_createtable(L, static_cast<int>(v.size()), 0);
        for (std::size_t i = 0; i < v.size(); ++i) {
            if constexpr (std::is_floating_point_v<T>)
                lua_pushnumber(L, static_cast<lua_Number>(v[i]));
            else
                lua_pushinteger(L, static_cast<lua_Integer>(v[i]));
            lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
        }
    }
    lua_setfield(L, data, name);
}

}  // namespace

void ContextView::set_field(lua_State* L, int data, const char* name, const Shares& v) {
    set_vector(L, data, name, v);
}

void ContextView::set_field(lua_State* L, int data, const char* name, const Amounts& v) {
    set_vector(L, data, name, v);
}

// A name as a string, "" for none, as in a batch's name columns.
void ContextView::set_field(lua_State* L, int data, const char* name, Name v,
                            const NameTable* names) {
    if (v.id == 0 || names == nullptr) {
        lua_pushliteral(L, "");
        lua_setfield(L, data, name);
        return;
    }
    const int cache = push_name_cache(L, names);
    push_name(L, cache, v, names);
    lua_setfield(L, data, name);
    lua_pop(L, 1);
}

// An array of names, "" for none; nil when empty, like Amounts.
void ContextView::set_field(lua_State* L, int data, const char* name, const Names& v,
                            const NameTable* names) {
    if (v.empty()) {
        lua_pushnil(L);
    } else {
        const int cache = push_name_cache(L, names);
        lua_createtable(L, static_cast<int>(v.size()), 0);
        for (std::size_t i = 0; i < v.size(); ++i) {
            push_name(L, cache, v[i], names);
            lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
        }
        lua_remove(L, cache);
    }
    lua_setfield(L, data, name);
}

// Runs inside the loader or __pairs of the context (ContextView::load),
// whose upvalues are this view and the per-user metatables.
void ContextView::set_field(lua_State* L, int data, const char* name, const UserFigures& v) {
    auto* self = static_cast<ContextView*>(lua_touserdata(L, lua_upvalueindex(1)));
    const int f = static_cast<int>(v.figure);
    if (!self->touched_[f]) {
        const bool kept = lua_getfield(L, data, name) == LUA_TTABLE;
        lua_pop(L, 1);
        if (kept) return;  // nothing was cached in it: good for this call too
    }
    lua_createtable(L, 0, 0);
    lua_rawgeti(L, lua_upvalueindex(4), f + 1);
    lua_setmetatable(L, -2);
    lua_setfield(L, data, name);
    self->touched_[f] = false;
}

const UserFigures* ContextView::figures(int figure) const {
    if (common_ == nullptr) return nullptr;  // outside a call: nothing to look up
    switch (static_cast<UserFigure>(figure)) {
        case UserFigure::usage:
            return &common_->user_usage;
        case UserFigure::procs:
            return &common_->user_procs;
        case UserFigure::running:
            return &common_->user_running;
    }
    return nullptr;
}

namespace {

void push_figure(lua_State* L, const UserFigures& f, std::int32_t user) {
    if (f.figure == UserFigure::usage)
        lua_pushnumber(L, static_cast<lua_Number>(f.value(user)));
    else
        lua_pushinteger(L, static_cast<lua_Integer>(f.value(user)));
}

}  // namespace

// __index(t, user) of a per-user table: the engine's figure, kept in t for
// the rest of the call. A key that is not an integer reads nil; a user
// never seen reads 0 and is not kept, so that pairs() shows only the users
// the engine has seen.
int ContextView::user_index(lua_State* L) {
    auto* self = static_cast<ContextView*>(lua_touserdata(L, lua_upvalueindex(1)));
    const int figure = static_cast<int>(lua_tointeger(L, lua_upvalueindex(2)));
    const UserFigures* f = self->figures(figure);
    if (f == nullptr || lua_type(L, 2) != LUA_TNUMBER) return 0;
    int exact = 0;
    const lua_Integer user = lua_tointegerx(L, 2, &exact);
    if (!exact) return 0;
    if (user < INT32_MIN || user > INT32_MAX || f->book == nullptr ||
        !f->book->known(static_cast<std::int32_t>(user))) {
        push_figure(L, UserFigures{nullptr, 0, f->figure}, 0);  // 0, of the figure's type
        return 1;
    }
    push_figure(L, *f, static_cast<std::int32_t>(user));
    lua_pushvalue(L, 2);
    lua_pushvalue(L, -2);
    lua_rawset(L, 1);
    self->touched_[figure] = true;
    return 1;
}

// pairs(t): every user the engine has seen, then a plain walk.
int ContextView::user_pairs(lua_State* L) {
    auto* self = static_cast<ContextView*>(lua_touserdata(L, lua_upvalueindex(1)));
    const int figure = static_cast<int>(lua_tointeger(L, lua_upvalueindex(2)));
    luaL_checktype(L, 1, LUA_TTABLE);
    const UserFigures* f = self->figures(figure);
    if (f != nullptr && f->book != nullptr) {
        for (const std::int32_t user : f->book->ids()) {
            push_figure(L, *f, user);
            lua_rawseti(L, 1, user);
        }
        self->touched_[figure] = true;
    }
    lua_pushcfunction(L, ctx_next);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

void ContextView::set_field(lua_State* L, int data, const char* name, MaybeTime v) {
    if (v.t == kNoTime)
        lua_pushnil(L);
    else
        lua_pushinteger(L, static_cast<lua_Integer>(v.t));
    lua_setfield(L, data, name);
}

}  // namespace rota::lua
