// Life cycle, errors, versions and policies of the C ABI.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>

#include "engine/combinations.h"
#include "handle.h"

using namespace rota;

namespace rota::capi {

int status_of(Errc c) {
    switch (c) {
        case Errc::invalid:
            return ROTA_EINVAL;
        case Errc::config:
            return ROTA_ECONFIG;
        case Errc::not_found:
            return ROTA_ENOTFOUND;
        case Errc::exists:
            return ROTA_EEXIST;
        case Errc::time:
            return ROTA_ETIME;
        case Errc::script:
            return ROTA_ESCRIPT;
        case Errc::state:
            return ROTA_ESTATE;
        case Errc::internal:
            return ROTA_EINTERNAL;
    }
    return ROTA_EINTERNAL;
}

}  // namespace rota::capi

void rota_engine::log(int level, const std::string& line) {
    if (log_fn && level <= log_level) log_fn(log_ud, level, line.c_str());
}

void rota_engine::install_policies() {
    for (int h = 0; h < kHookCount; ++h) {
        Hook hook = static_cast<Hook>(h);
        if (native[static_cast<std::size_t>(h)])
            sched->set_policy(hook, native[static_cast<std::size_t>(h)]);
        else
            sched->set_policy(hook, lua && lua->provides(hook) ? lua : nullptr);
    }
}

namespace {

// The Lua side of configuration `c` for engine `e`: scripts, limits, where
// to look, where print() and memory go.
LuaConfig lua_config(rota_engine* e, const EngineConfig& c, const std::string& base_dir) {
    LuaConfig lc;
    lc.log = [e](std::string_view l) { e->log(ROTA_LOG_INFO, "policy: " + std::string(l)); };
    lc.alloc = e->alloc;
    lc.alloc_ud = e->alloc_ud;
    for (const auto& s : c.scripts) lc.hooks.push_back({s.hook, LuaHookConfig{s.script, s.params}});
    lc.instruction_budget = c.instruction_budget;
    lc.time_limit = c.time_limit;
    lc.memory_limit = static_cast<std::size_t>(c.memory_limit_mb) << 20;
    lc.machine_procs = c.scheduler.procs;
    lc.rows = c.scheduler.rows;
    if (!base_dir.empty()) lc.search_path.push_back(base_dir);
    for (const auto& d : c.search_path)
        lc.search_path.push_back(d.empty() || d[0] == '/' || base_dir.empty() ? d
                                                                              : base_dir + "/" + d);
    return lc;
}

// The policies configuration `c` asks for, loaded and dry-run; null if it
// names no script.
std::shared_ptr<LuaPolicy> load_policies(rota_engine* e, const EngineConfig& c) {
    std::shared_ptr<LuaPolicy> lua;
    if (!c.scripts.empty()) lua = std::make_shared<LuaPolicy>(lua_config(e, c, e->base_dir));
    // An interval for keys that do not age would be read by nothing.
    if (c.rekey_interval_given && !(lua && lua->ages(Hook::order)))
        throw Error(Errc::config,
                    "key 'scheduler.rekey_interval' has no effect: the order policy " +
                        (lua ? lua->resolved_path(Hook::order) : std::string()) +
                        " does not declare that its keys age (ages = true; "
                        "docs/lua-api.md, \"order\")");
    return lua;
}

}  // namespace

int capi::failed_handle(const std::string& why, rota_engine** out) {
    rota_engine* e = new (std::nothrow) rota_engine;
    *out = e;
    if (!e) return ROTA_ENOMEM;
    e->err = why;
    return ROTA_EINVAL;
}

int capi::create(const std::string& text, const std::string& source, const std::string& base_dir,
                 const rota_engine_options* opt, rota_engine** out) {
    if (!out) return ROTA_EINVAL;
    rota_engine* e = new (std::nothrow) rota_engine;
    *out = e;
    if (!e) return ROTA_ENOMEM;
    e->base_dir = base_dir;
    if (opt) {
        if (opt->size < sizeof(size_t)) {
            e->err = "rota_engine_options: size is not set (o.size = sizeof o)";
            return ROTA_EINVAL;
        }
        rota_engine_options o{};
        std::memcpy(&o, opt, std::min(opt->size, sizeof o));
        if (o.log_level < 0 || o.log_level > ROTA_LOG_DEBUG) {
            e->err = "rota_engine_options: log_level " + std::to_string(o.log_level) +
                     " is outside 0..4";
            return ROTA_EINVAL;
        }
        if (o.log) {
            e->log_fn = o.log;
            e->log_ud = o.log_ud;
        }
        if (o.log_level > 0) e->log_level = o.log_level;
        e->alloc = o.alloc;
        e->alloc_ud = o.alloc_ud;
    }
    try {
        e->config = parse_config(text, source);
        e->lua = load_policies(e, e->config);
        e->sched = std::make_unique<Scheduler>(e->config.scheduler);
        e->sched->set_log([e](int level, const std::string& l) { e->log(level, l); });
        e->install_policies();
        return ROTA_OK;
    } catch (const Error& x) {
        e->sched.reset();
        e->err = x.what();
        return capi::status_of(x.code());
    } catch (const std::exception& x) {
        e->sched.reset();
        e->err = x.what();
        return ROTA_EINTERNAL;
    }
}

namespace {

// A backfill_select policy that calls a C function, with the columns and
// context fields a Lua policy gets (both from engine/vocabulary.h).
class NativeBackfill : public Policy {
  public:
    NativeBackfill(rota_backfill_select_fn fn, void* ud, bool streams)
        : fn_(fn), ud_(ud), streams_(streams) {}
    bool provides(Hook h) const override { return h == Hook::backfill_select; }
    bool streams(Hook h) const override { return streams_ && h == Hook::backfill_select; }
    std::string source(Hook) const override { return "the native backfill_select"; }
    HookOutcome backfill_select(const JobBatch& c, const BackfillContext& ctx,
                                std::vector<std::int64_t>& picks) override {
        rota_batch rb{};
        rb.size = sizeof(rb);
        rb.n = c.size();
#define ROTA_X(name, type, value, doc) rb.name = c.name.data();
        ROTA_JOB_COLUMNS(ROTA_X)
#undef ROTA_X
        rb.resources = c.resources();
        rb.R = c.R.empty() ? nullptr : c.R.data();
#define ROTA_X(name, type, value, doc) rb.name = c.name.data();
        ROTA_JOB_COLUMNS_CLASSES(ROTA_X)
#undef ROTA_X
        std::size_t spelled = 0;
#define ROTA_X(name, type, value, doc) rb.name = spell(c.name, c.names, spelled++);
        ROTA_JOB_COLUMNS_NAMES(ROTA_X)
#undef ROTA_X
        rota_backfill_context rc{};
        rc.size = sizeof(rc);
#define ROTA_X(name, type, doc) rc.name = c_value(ctx.name);
        ROTA_CONTEXT_COMMON(ROTA_X)
        ROTA_CONTEXT_BACKFILL(ROTA_X)
#undef ROTA_X
        users(ctx, rc);
        rc.head_user = ctx.head_user;
#define ROTA_X(field, type, value, doc) \
    rc.head_##field = ctx.names ? ctx.names->c_str(ctx.head_##field) : "";
        ROTA_JOB_COLUMNS_NAMES(ROTA_X)
#undef ROTA_X
        out_.resize(c.size());
        const int n = fn_(ud_, &rb, &rc, out_.data());
        picks.clear();
        if (n < 0 || static_cast<std::size_t>(n) > c.size())
            return HookOutcome::failure("the native backfill_select returned " + std::to_string(n));
        picks.assign(out_.begin(), out_.begin() + n);
        return {};
    }

  private:
    // A name column as the strings C reads: the interned names' own
    // characters, so a pointer per job and no copy of a string.
    const char* const* spell(const std::vector<Name>& ids, const NameTable* names, std::size_t k) {
        if (spelled_.size() <= k) spelled_.resize(k + 1);
        std::vector<const char*>& out = spelled_[k];
        out.clear();
        for (const Name n : ids) out.push_back(names ? names->c_str(n) : "");
        return out.data();
    }

    template <class T>
    static T c_value(T v) {
        return v;
    }
    static rota_time c_value(MaybeTime v) {
        return v.t == kNoTime ? -1 : v.t;
    }
    template <class T>
    static const T* c_value(const std::vector<T>& v) {
        return v.empty() ? nullptr : v.data();
    }

    // ROTA_CONTEXT_USERS as arrays over the users, in id order: the order
    // is sorted again only when a user is added, the figures read again
    // only when the records or the time changed since the last call.
    void users(const BackfillContext& ctx, rota_backfill_context& rc) {
        const UsageBook* book = ctx.user_usage.book;
        const std::uint64_t serial = book ? book->serial() : 0;
        const std::size_t count = book ? book->ids().size() : 0;
        if (serial != serial_ || count != ids_.size()) {
            serial_ = serial;
            version_ = ~std::uint64_t{0};  // the figures too
            positions_.resize(count);
            std::iota(positions_.begin(), positions_.end(), std::uint32_t{0});
            if (book) {
                const auto& seen = book->ids();
                std::sort(positions_.begin(), positions_.end(),
                          [&seen](std::uint32_t x, std::uint32_t y) { return seen[x] < seen[y]; });
            }
            ids_.resize(count);
            for (std::size_t k = 0; k < count; ++k) ids_[k] = book->ids()[positions_[k]];
            usage_.resize(count);
            procs_.resize(count);
            running_.resize(count);
        }
        const auto version = book ? book->version() : 0;
        if (book && (version != version_ || ctx.user_usage.now != now_)) {
            version_ = version;
            now_ = ctx.user_usage.now;
            book->figures(positions_, now_, usage_.data(), procs_.data(), running_.data());
        }
        rc.users = static_cast<std::int32_t>(ids_.size());
        rc.total_usage = ctx.total_usage;
        rc.user_ids = ids_.empty() ? nullptr : ids_.data();
        rc.user_usage = usage_.empty() ? nullptr : usage_.data();
        rc.user_procs = procs_.empty() ? nullptr : procs_.data();
        rc.user_running = running_.empty() ? nullptr : running_.data();
    }

    rota_backfill_select_fn fn_;
    void* ud_;
    bool streams_;
    std::vector<std::uint32_t> out_;
    std::uint64_t serial_ = 0;
    std::vector<std::uint32_t> positions_;  // into the book's ids(), in id order
    std::uint64_t version_ = 0;
    Time now_ = kNoTime;
    std::vector<std::int32_t> ids_, procs_, running_;
    std::vector<double> usage_;
    std::vector<std::vector<const char*>> spelled_;  // per name column, reused call after call
};

}  // namespace

extern "C" {

const char* rota_version(void) {
    return ROTA_VERSION;
}

int rota_version_number(void) {
    return ROTA_VERSION_NUMBER;
}

void rota_log_stderr(void*, int level, const char* line) {
    const char* tag = level == ROTA_LOG_ERROR     ? "error: "
                      : level == ROTA_LOG_WARNING ? "warning: "
                                                  : "";
    std::fprintf(stderr, "rota: %s%s\n", tag, line);
}
int rota_abi_version(void) {
    return ROTA_ABI_VERSION;
}

const char* rota_status_name(int s) {
    static const char* names[] = {"ROTA_OK",        "ROTA_DONE",      "ROTA_EINVAL", "ROTA_ECONFIG",
                                  "ROTA_ENOTFOUND", "ROTA_EEXIST",    "ROTA_ETIME",  "ROTA_ESCRIPT",
                                  "ROTA_ESTATE",    "ROTA_EINTERNAL", "ROTA_ENOMEM", "ROTA_ERANGE",
                                  "ROTA_EABORT"};
    return s >= 0 && s <= ROTA_EABORT ? names[s] : "ROTA_UNKNOWN";
}

const char* rota_strerror(int s) {
    static const char* text[] = {"success",
                                 "nothing more to return",
                                 "invalid argument or malformed input",
                                 "bad configuration",
                                 "no such job",
                                 "job id already submitted",
                                 "time went backwards",
                                 "policy script failed to load or compile",
                                 "not valid in the current state",
                                 "internal error (a bug in rota)",
                                 "out of memory",
                                 "output buffer too small",
                                 "stopped by the caller's callback"};
    return s >= 0 && s <= ROTA_EABORT ? text[s] : "unknown status code";
}

const char* rota_errmsg(const rota_engine* e) {
    return e ? e->err.c_str() : "engine could not be allocated";
}

int rota_engine_new(const char* config_toml, const char* base_dir, rota_engine** out) {
    if (!out) return ROTA_EINVAL;
    if (!config_toml) return capi::failed_handle("rota_engine_new: config_toml is NULL", out);
    return capi::create(config_toml, "<config>", base_dir ? base_dir : ".", nullptr, out);
}

int rota_engine_new_v2(const char* config_toml, const char* base_dir,
                       const rota_engine_options* options, rota_engine** out) {
    if (!out) return ROTA_EINVAL;
    if (!config_toml) return capi::failed_handle("rota_engine_new_v2: config_toml is NULL", out);
    return capi::create(config_toml, "<config>", base_dir ? base_dir : ".", options, out);
}

int rota_engine_new_file(const char* path, rota_engine** out) {
    if (!out) return ROTA_EINVAL;
    if (!path) return capi::failed_handle("rota_engine_new_file: path is NULL", out);
    // Only a regular file is opened: a FIFO without a writer would hang the
    // open, and a device (/dev/zero) would fill memory.
    std::error_code ec;
    const auto st = std::filesystem::status(path, ec);
    const bool exists = !ec && std::filesystem::exists(st);
    const bool regular = exists && std::filesystem::is_regular_file(st);
    std::ifstream in;
    if (regular) in.open(path);
    if (!regular || !in) {
        int rc = capi::create("", path, ".", nullptr, out);  // a handle that carries the error
        if (*out)
            (*out)->err = std::string("cannot open config file '") + path + "'" +
                          (!exists || regular                  ? ""
                           : std::filesystem::is_directory(st) ? ": it is a directory"
                                                               : ": it is not a regular file");
        return rc == ROTA_ENOMEM ? rc : ROTA_ECONFIG;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    std::string p(path);
    auto slash = p.find_last_of('/');
    return capi::create(ss.str(), p, slash == std::string::npos ? "." : p.substr(0, slash), nullptr,
                        out);
}

void rota_engine_free(rota_engine* e) {
    // From inside a callback the engine is still running the call that
    // made it: deleting it would pull the state from under that call.
    if (e && e->busy) {
        e->err =
            "rota_engine_free called from inside a callback of the same engine: the engine is "
            "kept (free it after the call returns)";
        return;
    }
    delete e;
}

int rota_reload_policies(rota_engine* e) {
    return capi::guard(e, [&] {
        if (!e->lua) return ROTA_OK;  // nothing configured, nothing to reload
        try {
            e->lua->reload();
        } catch (const Error& x) {
            ++e->reload_failures;
            e->log(ROTA_LOG_ERROR,
                   std::string("policy reload failed, keeping the running policies: ") + x.what());
            throw;
        }
        ++e->reloads;
        e->log(ROTA_LOG_INFO, "policies reloaded");
        e->install_policies();
        e->sched->end_quarantines();
        // The new order script's keys, for the whole queue, at once.
        e->sched->rekey();
        return ROTA_OK;
    });
}

int rota_reconfigure(rota_engine* e, const char* config_toml) {
    return capi::guard(e, [&] {
        if (!config_toml) throw Error(Errc::invalid, "rota_reconfigure: config_toml is NULL");
        EngineConfig next;
        std::shared_ptr<LuaPolicy> lua;
        try {
            // Everything that can fail happens aside; the engine is touched
            // only once all of it succeeded.
            next = parse_config(config_toml, "<reconfigure>");
            e->sched->check_retune(next.scheduler);
            lua = load_policies(e, next);
        } catch (const Error& x) {
            ++e->reload_failures;
            e->log(ROTA_LOG_ERROR,
                   std::string("reconfiguration failed, keeping the running one: ") + x.what());
            throw;
        }
        e->sched->retune(next.scheduler);
        e->config = std::move(next);
        e->lua = std::move(lua);
        ++e->reloads;
        e->install_policies();
        e->sched->end_quarantines();
        e->sched->rekey();
        e->log(ROTA_LOG_INFO, "configuration replaced");
        return ROTA_OK;
    });
}

int rota_set_backfill_select(rota_engine* e, rota_backfill_select_fn fn, void* ud, int flags) {
    return capi::guard(e, [&] {
        if (flags & ~ROTA_STREAM)
            throw Error(Errc::invalid,
                        "rota_set_backfill_select: unknown flags " + std::to_string(flags));
        // A callback the engine would never call is refused, not ignored.
        const SchedulerConfig& sc = e->config.scheduler;
        if (fn && !calls_backfill_select(sc))
            throw Error(
                Errc::invalid,
                "rota_set_backfill_select: this engine never backfills (" +
                    (sc.malleable.enabled
                         ? std::string("[malleable]: ") + kNeverBackfills
                         : "scheduler.backfill is false" +
                               (e->config.preset.empty() ? std::string()
                                                         : ", preset '" + e->config.preset + "'")) +
                    ")");
        e->native[static_cast<std::size_t>(Hook::backfill_select)] =
            fn ? std::make_shared<NativeBackfill>(fn, ud, (flags & ROTA_STREAM) != 0) : nullptr;
        e->install_policies();
        return ROTA_OK;
    });
}

const char* rota_preset_name(int i) {
    const auto& all = presets();
    return i >= 0 && static_cast<std::size_t>(i) < all.size()
               ? all[static_cast<std::size_t>(i)].name
               : nullptr;
}

const char* rota_hook_name(int hook) {
    return hook >= 0 && hook < kHookCount ? hook_name(static_cast<Hook>(hook)) : nullptr;
}

int rota_set_log(rota_engine* e, rota_log_fn fn, void* ud) {
    return capi::guard(e, [&] {
        e->log_fn = fn;
        e->log_ud = ud;
        return ROTA_OK;
    });
}

int rota_set_log_level(rota_engine* e, int level) {
    return capi::guard(e, [&] {
        if (level < 0 || level > ROTA_LOG_DEBUG)
            throw Error(Errc::invalid,
                        "rota_set_log_level: level " + std::to_string(level) + " is outside 0..4");
        e->log_level = level;
        return ROTA_OK;
    });
}

}  // extern "C"
