#include "vm.h"

#include <cassert>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <type_traits>

#include "decode.h"
#include "engine/error.h"
#include "params.h"
#include "script_path.h"
#include "slots.h"

namespace rota::lua {

namespace {

// Lua aborts after the panic function returns; say why first.
int panic(lua_State* L) {
    const char* msg = lua_tostring(L, -1);
    std::fprintf(stderr, "rota: unprotected error in the Lua runtime: %s\n",
                 msg != nullptr ? msg : "(no message)");
    return 0;
}

// Makes every error message read "file:line: message", also for
// error(msg, 0) and for error objects that are not strings.
int message_handler(lua_State* L) {
    if (lua_tostring(L, 1) == nullptr) {
        if (luaL_callmeta(L, 1, "__tostring") == 0 || lua_type(L, -1) != LUA_TSTRING) {
            lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
        }
        lua_replace(L, 1);
    }
    lua_settop(L, 1);
    lua_Debug ar;
    for (int level = 1; lua_getstack(L, level, &ar) != 0; ++level) {
        lua_getinfo(L, "Sl", &ar);
        if (ar.currentline <= 0) continue;  // a C function: look further out
        const char* msg = lua_tostring(L, 1);
        const std::size_t n = std::strlen(ar.short_src);
        if (std::strncmp(msg, ar.short_src, n) != 0 || msg[n] != ':') {
            lua_pushfstring(L, "%s:%d: %s", ar.short_src, ar.currentline, msg);
        }
        break;
    }
    return 1;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(Errc::script, path + ": cannot open the file");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw Error(Errc::script, path + ": cannot read the file");
    return text;
}

struct ChunkArgs {
    const char* text;
    std::size_t size;
    const char* chunkname;
};

// Compiles a script (text only: "t" refuses precompiled bytecode), runs it
// in a new sandbox env and returns the table of hooks it returns.
int load_chunk(lua_State* L) {
    const auto* a = static_cast<const ChunkArgs*>(lua_touserdata(L, 1));
    if (luaL_loadbufferx(L, a->text, a->size, a->chunkname, "t") != LUA_OK) return lua_error(L);
    const int chunk = lua_gettop(L);
    push_sandbox_env(L);
    const int env = lua_gettop(L);
    lua_pushvalue(L, env);
    lua_setupvalue(L, chunk, 1);  // a main chunk's only upvalue is _ENV
    lua_pushvalue(L, chunk);
    lua_call(L, 0, 1);
    if (lua_type(L, -1) != LUA_TTABLE) {
        return luaL_error(L, "the script must return a table of hook functions, not %s",
                          luaL_typename(L, -1));
    }
    lock_sandbox_env(L, env);
    return 1;
}

struct BindArgs {
    const char* hook;
    const Params* params;
};

// (args, module) -> the hook's function and its params table.
int bind_hook_fn(lua_State* L) {
    const auto* a = static_cast<const BindArgs*>(lua_touserdata(L, 1));
    if (lua_getfield(L, 2, a->hook) != LUA_TFUNCTION) {
        return luaL_error(L, "the script returns no '%s' function (found %s)", a->hook,
                          luaL_typename(L, -1));
    }
    const int defaults = lua_getfield(L, 2, "defaults");
    if (defaults != LUA_TNIL && defaults != LUA_TTABLE) {
        return luaL_error(L, "'defaults' must be a table, not %s", luaL_typename(L, -1));
    }
    push_params(L, -1, *a->params);
    lua_remove(L, -2);
    return 2;
}

// What Lua prints for `chunkname` in messages (long paths are shortened).
std::string chunk_id(lua_State* L, const std::string& chunkname) {
    std::string id;
    if (luaL_loadbufferx(L, "", 0, chunkname.c_str(), "t") == LUA_OK) {
        lua_Debug ar;
        lua_getinfo(L, ">S", &ar);
        id = ar.short_src;
    } else {
        lua_pop(L, 1);
    }
    return id;
}

}  // namespace

Vm::Vm(const LuaConfig& cfg) : log_(cfg.log) {
    memory_.limit = cfg.memory_limit;
    budget_.limit = cfg.instruction_budget;
    state_.reset(lua_newstate(&MemoryBudget::alloc, &memory_));
    if (!state_) throw Error(Errc::script, "cannot create a Lua state");
    lua_State* L = this->L();
    lua_atpanic(L, panic);
    luaL_checkversion(L);
    budget_.install(L);
    lua_checkstack(L, slot::top + LUA_MINSTACK);
    prepare_sandbox(L, &log_);

    lua_pushcfunction(L, message_handler);
    view_.create(L);
    for (int i = 0; i < 2 * kHookCount; ++i) lua_pushnil(L);
    assert(lua_gettop(L) == slot::top);

    for (const auto& [hook, hc] : cfg.hooks) {
        const std::string path = resolve_script_path(hc.script, cfg.search_path);
        std::size_t k = 0;
        while (k < modules_.size() && modules_[k] != path) ++k;
        if (k == modules_.size()) load_module(path);
        path_[index(hook)] = path;
        bind_hook(hook, slot::top + 1 + static_cast<int>(k), hc.params);
    }
    lua_settop(L, slot::top);
    lua_gc(L, LUA_GCCOLLECT);  // start the first call from a clean heap
}

Vm::~Vm() = default;

int Vm::run_protected(lua_CFunction f, void* args, int nargs, int nresults) {
    lua_State* L = this->L();
    lua_pushcfunction(L, f);
    lua_pushlightuserdata(L, args);
    for (int i = 0; i < nargs; ++i) lua_pushvalue(L, -2 - nargs);
    budget_.arm(L);
    memory_.enforce = true;
    const int status = lua_pcall(L, 1 + nargs, nresults, slot::msgh);
    memory_.enforce = false;
    return status == LUA_OK && budget_.tripped ? LUA_ERRRUN : status;
}

void Vm::load_module(const std::string& path) {
    const std::string text = read_file(path);
    const std::string chunkname = "@" + path;
    chunk_ids_.emplace_back(chunk_id(L(), chunkname), path);
    ChunkArgs args{text.data(), text.size(), chunkname.c_str()};
    const int status = run_protected(load_chunk, &args, 0, 1);
    if (status != LUA_OK) {
        std::string msg = error_text(status);
        if (msg.compare(0, path.size(), path) != 0) msg = path + ": " + msg;
        lua_settop(L(), slot::top + static_cast<int>(modules_.size()));
        throw Error(Errc::script, msg);
    }
    modules_.push_back(path);
}

void Vm::bind_hook(Hook h, int module, const Params& params) {
    lua_pushvalue(L(), module);
    BindArgs args{hook_name(h), &params};
    const int status = run_protected(bind_hook_fn, &args, 1, 2);
    if (status != LUA_OK) {
        const std::string msg = path(h) + ": hook " + hook_name(h) + ": " + error_text(status);
        throw Error(Errc::script, msg);
    }
    lua_replace(L(), slot::params(h));
    lua_replace(L(), slot::fn(h));
    lua_pop(L(), 1);
}

void Vm::dry_run(const PassContext& ctx) {
    const JobBatch empty;
    std::vector<Admission> decisions;
    std::vector<double> keys;
    std::vector<std::uint32_t> picks;
    for (int i = 0; i < kHookCount; ++i) {
        const auto h = static_cast<Hook>(i);
        if (!provides(h)) continue;
        const MigrationBatch no_moves;
        std::vector<std::uint8_t> options;
        HookOutcome r = h == Hook::admission          ? admission(empty, ctx, decisions)
                        : h == Hook::order            ? order(empty, ctx, keys)
                        : h == Hook::migration_option ? migration_option(no_moves, ctx, options)
                                                      : backfill_select(empty, ctx, picks);
        if (!r.ok) throw Error(Errc::script, "dry run on an empty batch failed: " + r.error);
    }
}

HookOutcome Vm::precheck(Hook h, const JobBatch& b) const {
    if (!provides(h)) {
        return HookOutcome::failure(std::string(hook_name(h)) + ": no script configured");
    }
    const std::size_t n = b.size();
    if (b.procs.size() != n || b.estimate.size() != n || b.submit.size() != n ||
        b.user.size() != n || b.priority.size() != n) {
        return HookOutcome::failure(std::string(hook_name(h)) +
                                    ": malformed batch (columns of different lengths)");
    }
    return {};
}

int Vm::call(Hook h, const JobBatch& b, const PassContext& ctx) {
    lua_State* L = this->L();
    lua_settop(L, slot::top);  // in case an exception cut the last call short
    view_.begin(L, b, ctx);
    lua_pushvalue(L, slot::fn(h));
    lua_pushvalue(L, slot::batch);
    lua_pushvalue(L, slot::ctx);
    lua_pushvalue(L, slot::params(h));
    budget_.arm(L);
    memory_.enforce = true;
    const int status = lua_pcall(L, 3, 1, slot::msgh);
    memory_.enforce = false;
    view_.end();
    // A script can catch the budget error with pcall and still return.
    return status == LUA_OK && budget_.tripped ? LUA_ERRRUN : status;
}

std::string Vm::error_text(int status) const {
    if (budget_.tripped) {
        return "instruction budget of " + std::to_string(budget_.limit) + " exceeded (at " +
               with_full_paths(budget_.where) + ")";
    }
    if (status == LUA_ERRMEM) {
        return "memory limit of " + std::to_string(memory_.limit) + " bytes exceeded";
    }
    const char* msg = lua_tostring(L(), -1);
    std::string text = with_full_paths(msg != nullptr ? msg : "(no error message)");
    if (status == LUA_ERRERR) text = "error while handling an error: " + text;
    return text;
}

HookOutcome Vm::failure(Hook h, int status) {
    std::string msg = std::string(hook_name(h)) + ": " + error_text(status);
    if (status == LUA_ERRMEM) msg += " in " + path(h);
    lua_State* L = this->L();
    lua_settop(L, slot::top);
    // The script may have damaged the tables it was handed.
    view_.reset(L);
    // Let the next call start below the cap again.
    if (status == LUA_ERRMEM) lua_gc(L, LUA_GCCOLLECT);
    return HookOutcome::failure(std::move(msg));
}

HookOutcome Vm::invalid(Hook h) {
    lua_settop(L(), slot::top);
    view_.reset(L());
    return HookOutcome::failure(std::string(hook_name(h)) + ": " + path(h) +
                                " returned an invalid answer: " + why_);
}

std::string Vm::with_full_paths(std::string msg) const {
    for (const auto& [id, full] : chunk_ids_) {
        if (id.empty() || id == full) continue;
        for (std::size_t at = msg.find(id); at != std::string::npos;
             at = msg.find(id, at + full.size())) {
            msg.replace(at, id.size(), full);
        }
    }
    return msg;
}

HookOutcome Vm::admission(const JobBatch& jobs, const PassContext& ctx,
                          std::vector<Admission>& out) {
    if (HookOutcome pre = precheck(Hook::admission, jobs); !pre.ok) return pre;
    const int status = call(Hook::admission, jobs, ctx);
    if (status != LUA_OK) return failure(Hook::admission, status);
    if (!decode_admission(L(), -1, jobs.size(), out, why_)) return invalid(Hook::admission);
    lua_settop(L(), slot::top);
    return {};
}

HookOutcome Vm::order(const JobBatch& jobs, const PassContext& ctx, std::vector<double>& keys) {
    if (HookOutcome pre = precheck(Hook::order, jobs); !pre.ok) return pre;
    const int status = call(Hook::order, jobs, ctx);
    if (status != LUA_OK) return failure(Hook::order, status);
    if (!decode_keys(L(), -1, jobs.size(), keys, why_)) return invalid(Hook::order);
    lua_settop(L(), slot::top);
    return {};
}

HookOutcome Vm::backfill_select(const JobBatch& cands, const PassContext& ctx,
                                std::vector<std::uint32_t>& picks) {
    picks.clear();
    if (HookOutcome pre = precheck(Hook::backfill_select, cands); !pre.ok) return pre;
    const int status = call(Hook::backfill_select, cands, ctx);
    if (status != LUA_OK) return failure(Hook::backfill_select, status);
    // Returning the candidate batch itself means "all of them, in the order
    // given": first fit answers without building a table per call.
    if (lua_rawequal(L(), -1, slot::batch) != 0) {
        picks.resize(cands.size());
        for (std::uint32_t i = 0; i < picks.size(); ++i) picks[i] = i;
        lua_settop(L(), slot::top);
        return {};
    }
    if (!decode_picks(L(), -1, cands.size(), picks, seen_, why_)) {
        return invalid(Hook::backfill_select);
    }
    lua_settop(L(), slot::top);
    return {};
}

namespace {

template <class T>
void set_column(lua_State* L, int t, const char* name, const std::vector<T>& v) {
    lua_createtable(L, static_cast<int>(v.size()), 0);
    for (std::size_t i = 0; i < v.size(); ++i) {
        if constexpr (std::is_floating_point_v<T>)
            lua_pushnumber(L, v[i]);
        else
            lua_pushinteger(L, static_cast<lua_Integer>(v[i]));
        lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
    }
    lua_setfield(L, t, name);
}

// Builds the migration candidates as a fresh table of parallel arrays:
// these batches are rare and short, so no reuse is needed.
int push_migrations(lua_State* L) {
    const auto* m = static_cast<const MigrationBatch*>(lua_touserdata(L, 1));
    lua_createtable(L, 0, 9);
    const int t = lua_gettop(L);
    lua_pushinteger(L, static_cast<lua_Integer>(m->size()));
    lua_setfield(L, t, "n");
    set_column(L, t, "id", m->id);
    set_column(L, t, "procs", m->procs);
    set_column(L, t, "from_row", m->from_row);
    set_column(L, t, "to_row", m->to_row);
    set_column(L, t, "cost1", m->cost1);
    set_column(L, t, "cost2", m->cost2);
    set_column(L, t, "tasks1", m->tasks1);
    set_column(L, t, "tasks2", m->tasks2);
    return 1;
}

}  // namespace

HookOutcome Vm::migration_option(const MigrationBatch& m, const PassContext& ctx,
                                 std::vector<std::uint8_t>& out) {
    out.clear();
    const Hook h = Hook::migration_option;
    if (!provides(h)) return HookOutcome::failure("migration_option: no script configured");
    lua_State* L = this->L();
    lua_settop(L, slot::top);
    const JobBatch none;
    view_.begin(L, none, ctx);  // for ctx
    lua_pushvalue(L, slot::fn(h));
    lua_pushcfunction(L, push_migrations);
    lua_pushlightuserdata(L, const_cast<MigrationBatch*>(&m));
    int status = lua_pcall(L, 1, 1, slot::msgh);  // building it may hit the memory cap
    if (status == LUA_OK) {
        lua_pushvalue(L, slot::ctx);
        lua_pushvalue(L, slot::params(h));
        budget_.arm(L);
        memory_.enforce = true;
        status = lua_pcall(L, 3, 1, slot::msgh);
        memory_.enforce = false;
        if (status == LUA_OK && budget_.tripped) status = LUA_ERRRUN;
    }
    view_.end();
    if (status != LUA_OK) return failure(h, status);
    // The answer: one option per candidate, 0 (none), 1 or 2; nil means 0.
    if (lua_type(L, -1) != LUA_TTABLE) {
        why_ = std::string("a ") + luaL_typename(L, -1) + "; expected a table of options";
        return invalid(h);
    }
    out.assign(m.size(), 0);
    for (std::size_t i = 0; i < m.size(); ++i) {
        const int type = lua_rawgeti(L, -1, static_cast<lua_Integer>(i + 1));
        if (type != LUA_TNIL) {
            int ok = 0;
            const lua_Integer v = lua_tointegerx(L, -1, &ok);
            if (type != LUA_TNUMBER || !ok || v < 0 || v > 2) {
                why_ = "option " + std::to_string(i + 1) + " is not 0, 1 or 2";
                lua_pop(L, 1);
                return invalid(h);
            }
            out[i] = static_cast<std::uint8_t>(v);
        }
        lua_pop(L, 1);
    }
    lua_settop(L, slot::top);
    return {};
}

}  // namespace rota::lua
