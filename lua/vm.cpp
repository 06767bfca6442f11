#include "vm.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "answer.h"
#include "engine/error.h"
#include "engine/hooks.h"
#include "params.h"
#include "script_path.h"
#include "slots.h"
#include "text.h"
#include "waterfill.h"

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

// A script's text, at most `max` bytes. Only a regular file is read,
// checked on the descriptor opened (a FIFO put in its place after the
// path was resolved would hang the load, a device fill memory), and never
// more than `max` + 1 bytes of it: a file that grows while it is read is
// not chased.
std::string read_script(const std::string& path, std::size_t max) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) throw Error(Errc::script, path + ": cannot open the file: " + std::strerror(errno));
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        throw Error(Errc::script, path + ": cannot read the file: " + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) throw Error(Errc::script, path + ": not a regular file");
    const std::string bound = "a policy script may have at most " + std::to_string(max) +
                              " bytes (16 MiB, and no more than lua.memory_limit_mb)";
    if (static_cast<std::uint64_t>(st.st_size) > max)
        throw Error(Errc::script,
                    path + ": the script is " + std::to_string(st.st_size) + " bytes: " + bound);
    const auto grew = [&] {
        return Error(Errc::script, path + ": the script grew past " + std::to_string(max) +
                                       " bytes while it was read: " + bound);
    };
    std::string text;
    text.resize(static_cast<std::size_t>(st.st_size) + 1);
    std::size_t got = 0;
    for (;;) {
        if (got == text.size()) {
            if (got > max) throw grew();  // it grew while it was read
            text.resize(std::min(max + 1, got * 2 + 4096));
        }
        const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0)
            throw Error(Errc::script, path + ": cannot read the file: " + std::strerror(errno));
        if (n == 0) break;
        got += static_cast<std::size_t>(n);
    }
    if (got > max) throw grew();
    text.resize(got);
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
    bool streams = false;  // out
    bool ages = false;     // out
};

// (args, module) -> the hook's function and its params table; reads the
// module's `streams` table (which hooks take their batch a chunk at a time).
int bind_hook_fn(lua_State* L) {
    auto* a = static_cast<BindArgs*>(lua_touserdata(L, 1));
    const int st = lua_getfield(L, 2, "streams");
    if (st == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, -2) != 0) {
            if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TBOOLEAN)
                return luaL_error(L, "'streams' must map hook names to booleans");
            const char* name = lua_tostring(L, -2);
            bool known = false;
            for (int h = 0; h < kHookCount; ++h)
                known = known || std::strcmp(name, hook_name(static_cast<Hook>(h))) == 0;
            if (!known) return luaL_error(L, "'streams' names no hook '%s'", name);
            // Only backfill_select takes its batch in chunks, whichever
            // hooks this file is configured for.
            if (lua_toboolean(L, -1) && std::strcmp(name, hook_name(Hook::backfill_select)) != 0)
                return luaL_error(L, "hook '%s' cannot stream (only backfill_select can)", name);
            lua_pop(L, 1);
        }
        lua_getfield(L, -1, a->hook);
        a->streams = lua_toboolean(L, -1) != 0;
        lua_pop(L, 1);
    } else if (st != LUA_TNIL) {
        return luaL_error(L, "'streams' must be a table, not %s", luaL_typename(L, -1));
    }
    lua_pop(L, 1);
    // `ages = true`: the order keys change with time, so the engine re-keys
    // the whole queue at an interval (docs/lua-api.md, "order").
    const int ages = lua_getfield(L, 2, "ages");
    if (ages != LUA_TNIL && ages != LUA_TBOOLEAN)
        return luaL_error(L, "'ages' must be a boolean, not %s", luaL_typename(L, -1));
    a->ages = lua_toboolean(L, -1) != 0 && std::strcmp(a->hook, hook_name(Hook::order)) == 0;
    lua_pop(L, 1);
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

Vm::Vm(const LuaConfig& cfg)
    : sink_(cfg.log), log_([this](std::string_view line) { print_line(line); }) {
    memory_.limit = cfg.memory_limit;
    memory_.max_block = std::max(MemoryBudget::kMinBlock, cfg.memory_limit / 4);
    memory_.backing = cfg.alloc;
    memory_.backing_ud = cfg.alloc_ud;
    budget_.limit = cfg.instruction_budget;
    budget_.time_limit_ns = static_cast<std::int64_t>(cfg.time_limit * 1e9);
    state_.reset(lua_newstate(&MemoryBudget::alloc, &memory_));
    if (!state_) throw Error(Errc::script, "cannot create a Lua state");
    lua_State* L = this->L();
    lua_atpanic(L, panic);
    luaL_checkversion(L);
    set_links(L, &links_);
    // The watchdog serves the time limit, which the count hook carries.
    if (budget_.limit > 0 && budget_.time_limit_ns > 0) {
        deadline_ = std::make_unique<Deadline>(L, &InstructionBudget::hook, budget_.time_limit_ns);
        budget_.expired = deadline_->flag();
        memory_.expired = deadline_->flag();
        memory_.timing = &budget_;
        memory_.state = L;
    }
    budget_.install(L);
    lua_checkstack(L, slot::top + LUA_MINSTACK);
    prepare_sandbox(L, &log_);

    lua_pushcfunction(L, message_handler);
    for (int i = slot::jobs; i <= slot::top; ++i) lua_pushnil(L);
    create_views();
    assert(lua_gettop(L) == slot::top);

    for (const auto& [hook, hc] : cfg.hooks) {
        // The message names the key that gave the script, as every
        // configuration message does.
        std::string path;
        try {
            path = resolve_script_path(hc.script, cfg.search_path);
        } catch (const Error& e) {
            throw Error(e.code(),
                        "key 'policy." + std::string(hook_name(hook)) + ".script': " + e.what());
        }
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

int Vm::limited_pcall(int nargs, int nresults, const std::string& file) {
    lua_State* L = this->L();
    budget_.arm(L);
    memory_.enforce = true;
    if (deadline_) deadline_->begin();
    const int status = lua_pcall(L, nargs, nresults, slot::msgh);
    if (deadline_) deadline_->end();
    memory_.enforce = false;
    // Past its limit by the watchdog's clock, whatever the script saw (a
    // refused allocation, or nothing: it returned before its next
    // instruction), the call fails for its time limit.
    if (deadline_ && deadline_->expired()) budget_.time_out(file.c_str());
    // A script can catch the budget error with pcall and still return.
    return status == LUA_OK && budget_.tripped ? LUA_ERRRUN : status;
}

int Vm::run_protected(lua_CFunction f, void* args, int nargs, int nresults,
                      const std::string& file) {
    lua_State* L = this->L();
    lua_pushcfunction(L, f);
    lua_pushlightuserdata(L, args);
    for (int i = 0; i < nargs; ++i) lua_pushvalue(L, -2 - nargs);
    return limited_pcall(1 + nargs, nresults, file);
}

void Vm::load_module(const std::string& path) {
    const std::string text = read_script(path, std::min(kScriptMax, memory_.limit));
    const std::string chunkname = "@" + path;
    chunk_ids_.emplace_back(chunk_id(L(), chunkname), path);
    ChunkArgs args{text.data(), text.size(), chunkname.c_str()};
    // The text counts against the state's memory while it is compiled.
    memory_.used += text.size();
    const int status = run_protected(load_chunk, &args, 0, 1, path);
    memory_.used -= text.size();
    if (status != LUA_OK) {
        std::string msg = error_text(status);
        if (msg.compare(0, path.size(), path) != 0) msg = path + ": " + msg;
        lua_settop(L(), slot::top + static_cast<int>(modules_.size()));
        throw Error(Errc::script, msg);
    }
    modules_.push_back(path);
}

void Vm::create_views() {
    lua_State* L = this->L();
    jobs_view_.create(L);
    lua_replace(L, slot::jobs);
    moves_view_.create(L);
    lua_replace(L, slot::moves);
    mall_view_.create(L);
    lua_replace(L, slot::mall);
    sets_view_.create(L);
    lua_replace(L, slot::sets);
    const std::pair<ContextView*, slot::Ctx> views[] = {
        {&common_view_, slot::common},       {&backfill_view_, slot::backfill},
        {&migration_view_, slot::migration}, {&placement_view_, slot::placement},
        {&malleable_view_, slot::malleable}, {&preempt_view_, slot::preempt}};
    for (const auto& [view, cs] : views) {
        view->create(L);
        lua_replace(L, cs.loader);
        lua_replace(L, cs.meta);
        lua_replace(L, cs.proxy);
    }
}

void Vm::bind_hook(Hook h, int module, const Params& params) {
    lua_pushvalue(L(), module);
    BindArgs args{hook_name(h), &params};
    const int status = run_protected(bind_hook_fn, &args, 1, 2, path(h));
    if (status != LUA_OK) {
        const std::string msg = path(h) + ": hook " + hook_name(h) + ": " + error_text(status);
        throw Error(Errc::script, msg);
    }
    lua_replace(L(), slot::params(h));
    lua_replace(L(), slot::fn(h));
    lua_pop(L(), 1);
    streams_[index(h)] = args.streams;
    ages_[index(h)] = args.ages;
    std::string names;
    for (const auto& [key, value] : params) names += (names.empty() ? "" : ", ") + key;
    param_names_[index(h)] = std::move(names);
}

namespace {

// Messages of a dry run count indices from 1, as the script does.
struct CountsFromOne final : Policy {
    bool provides(Hook) const override { return false; }
    std::int64_t first_index() const override { return 1; }
};

}  // namespace

// Hook H on an empty batch and the last context seen; the answer is checked
// as the engine checks it (engine/hooks.h).
template <Hook H>
HookOutcome Vm::dry_run_one(const BackfillContext& last) {
    using S = HookSpec<H>;
    const typename S::Batch none{};
    typename S::Context ctx{};
    if constexpr (std::is_same_v<typename S::Context, BackfillContext>)
        ctx = last;
    else
        static_cast<CommonContext&>(ctx) = last;
    if constexpr (requires { ctx.job_id; }) {
        ctx.job_id = -1;  // no job: a harvest's or a preemption's
        ctx.job_user = -1;
    }
    typename S::Answer answer;
    HookOutcome r = ask<H>(none, ctx, answer);
    if (!r.ok) return r;
    const std::string why = S::check(answer, none, ctx, CountsFromOne{});
    if (why.empty()) return r;
    return HookOutcome::failure(std::string(hook_name(H)) + ": " + path(H) +
                                " returned an invalid answer: " + why);
}

void Vm::dry_run(const BackfillContext& last) {
    for (int i = 0; i < kHookCount; ++i) {
        const auto h = static_cast<Hook>(i);
        if (!provides(h)) continue;
        const HookOutcome r =
            with_hook_spec(h, [&](auto spec) { return dry_run_one<decltype(spec)::kHook>(last); });
        if (r.ok) continue;
        // A script that checks its params fails here on a bad value: say
        // where those params were set, since the script cannot.
        const std::string& names = param_names_[static_cast<std::size_t>(i)];
        throw Error(Errc::script, "dry run on an empty batch failed: " + r.error +
                                      (names.empty() ? std::string()
                                                     : std::string(" (its params, from [policy.") +
                                                           hook_name(h) + "]: " + names + ")"));
    }
}

void Vm::print_line(std::string_view line) {
    if (!sink_) return;
    ++printed_;
    if (++printed_in_call_ > kPrintPerCall || printed_ > kPrintPerState) {
        if (printed_in_call_ == kPrintPerCall + 1 && printed_ <= kPrintPerState)
            sink_("print: further lines of this call dropped (at most " +
                  std::to_string(kPrintPerCall) + " a call)");
        else if (printed_ == kPrintPerState + 1)
            sink_("print: further lines dropped until the policies are reloaded (at most " +
                  std::to_string(kPrintPerState) + ")");
        return;
    }
    sink_(printable(line, kPrintLineMax));
}

template <class Batch, class Ctx>
int Vm::call(Hook h, const Batch& b, const Ctx& ctx) {
    lua_State* L = this->L();
    lua_settop(L, slot::top);  // in case an exception cut the last call short
    printed_in_call_ = 0;
    const auto [batch_slot, batch] = slot_of(b);
    const auto [cs, cv] = slot_of(ctx);
    batch.begin(L, batch_slot, &b);
    cv.begin(L, cs.meta, cs.loader, ctx);
    lua_pushvalue(L, slot::fn(h));
    lua_pushvalue(L, batch_slot);
    lua_pushvalue(L, cs.proxy);
    lua_pushvalue(L, slot::params(h));
    links_.batch_table = lua_topointer(L, batch_slot);
    links_.batch = &batch;
    links_.context_table = lua_topointer(L, cs.proxy);
    links_.context = &cv;
    const int status = limited_pcall(3, 1, path(h));
    links_.batch_table = links_.context_table = nullptr;
    links_.batch = nullptr;
    links_.context = nullptr;
    batch.end();
    cv.end();
    return status;
}

std::string Vm::error_text(int status) const {
    if (budget_.tripped && budget_.timed_out) {
        char secs[32];
        std::snprintf(secs, sizeof secs, "%g", static_cast<double>(budget_.time_limit_ns) / 1e9);
        return std::string("time limit of ") + secs + " s exceeded (at " +
               with_full_paths(budget_.where) + ")";
    }
    if (budget_.tripped) {
        return "instruction budget of " + std::to_string(budget_.limit) + " exceeded (at " +
               with_full_paths(budget_.where) + ")";
    }
    if (status == LUA_ERRMEM) {
        return "memory limit of " + std::to_string(memory_.limit) + " bytes exceeded";
    }
    const char* msg = lua_tostring(L(), -1);
    // The script's own text reaches the log: one printable line, bounded,
    // as print lines are (a newline in it would forge a line of the log).
    std::string text =
        printable(with_full_paths(msg != nullptr ? msg : "(no error message)"), kErrorMax);
    if (status == LUA_ERRERR) text = "error while handling an error: " + text;
    return text;
}

HookOutcome Vm::failure(Hook h, int status) {
    std::string msg = std::string(hook_name(h)) + ": " + error_text(status);
    if (status == LUA_ERRMEM && !budget_.tripped) msg += " in " + path(h);
    lua_State* L = this->L();
    lua_settop(L, slot::top);
    // The script may have damaged the tables it was handed.
    create_views();
    // Let the next call start below the cap again (a call stopped by the
    // watchdog may have been refused memory too).
    if (status == LUA_ERRMEM || budget_.timed_out) lua_gc(L, LUA_GCCOLLECT);
    return HookOutcome::failure(std::move(msg));
}

HookOutcome Vm::invalid(Hook h) {
    lua_settop(L(), slot::top);
    create_views();
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

namespace {

HookOutcome not_configured(Hook h) {
    return HookOutcome::failure(std::string(hook_name(h)) + ": no script configured");
}

}  // namespace

template <Hook H>
HookOutcome Vm::ask(const typename HookSignature<H>::Batch& b,
                    const typename HookSignature<H>::Context& c,
                    typename HookSignature<H>::Answer& a) {
    a.clear();
    if (!provides(H)) return not_configured(H);
    const int status = call(H, b, c);
    if (status != LUA_OK) return failure(H, status);
    if (!decode_answer<H>(L(), -1, slot_of(b).slot, b, a, why_)) return invalid(H);
    lua_settop(L(), slot::top);
    return {};
}

#define ROTA_X(hook, id, Batch, Context, Answer, fallback) \
    template HookOutcome Vm::ask<Hook::hook>(const Batch&, const Context&, Answer&);
ROTA_HOOKS(ROTA_X)
#undef ROTA_X

}  // namespace rota::lua
