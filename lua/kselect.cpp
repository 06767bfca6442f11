#include "kselect.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "batch_view.h"
#include "state_links.h"
#include "state_object.h"

namespace rota::lua {

namespace {

// The slack of [Leinberger99]'s fit test, as the shipped scripts had it: demands
// are shares computed by division, so a job that exactly fills a resource
// must not fail on rounding.
constexpr double kEps = 1e-9;

constexpr const char* kMeta = "rota.kselect";
const char kStateKey = 0;  // registry: the state's one selection

// One K-resource selection: the usage a script's picks leave (S), what the
// head's reservation leaves at the shadow time (E), and the candidates
// taken. One per Lua state, reset by each rota.kselect(), so a hook call
// allocates nothing once the vectors have grown.
struct KSelect {
    const BatchView* view = nullptr;
    std::uint64_t serial = 0;
    const JobBatch* batch = nullptr;
    std::size_t k = 0;  // K
    std::size_t n = 0;
    bool shadow = false;  // E holds: candidates running past the shadow must fit it
    std::vector<double> S, E;
    std::vector<std::uint8_t> past, taken;
    std::vector<std::size_t> order;  // resources by usage (lowest)
    std::vector<std::uint8_t> low;   // the window (lowest)

    const double* R(std::size_t j) const {
        return batch->R.data() + j * batch->inv_capacity.size();
    }
};

enum class Score { balanced, lowest };

struct ScoreArgs {
    Score score = Score::balanced;
    std::size_t w = 0;    // lowest: the window, at most K
    double mismatch = 2;  // lowest
};

KSelect& check(lua_State* L) {
    // Known by address (state_links.h), as the waterfill plan is.
    void* p = lua_touserdata(L, 1);
    const StateLinks* k = links(L);
    if (p == nullptr || k == nullptr || p != k->kselect) luaL_typeerror(L, 1, kMeta);
    auto* s = static_cast<KSelect*>(p);
    // The batch and context it was made from are gone after their call.
    if (s->view == nullptr || s->view->serial() != s->serial || s->view->jobs() != s->batch)
        luaL_error(L,
                   "this selection belongs to an earlier call: make it with rota.kselect(c, ctx)");
    return *s;
}

std::size_t check_candidate(lua_State* L, const KSelect& s, int arg) {
    const lua_Integer j = luaL_checkinteger(L, arg);
    luaL_argcheck(L, j >= 1 && static_cast<std::uint64_t>(j) <= s.n, arg,
                  "not a candidate of the batch (1..c.n)");
    return static_cast<std::size_t>(j - 1);
}

// Reads a score's name and parameters from `arg` on, and sets the window
// of `lowest` from the current usage.
ScoreArgs score_args(lua_State* L, KSelect& s, int arg) {
    static const char* const names[] = {"balanced", "lowest", nullptr};
    ScoreArgs a;
    a.score = static_cast<Score>(luaL_checkoption(L, arg, nullptr, names));
    if (a.score != Score::lowest) return a;
    const lua_Integer window = luaL_optinteger(L, arg + 1, 1);
    luaL_argcheck(L, window >= 0, arg + 1, "the window must be >= 0");
    a.mismatch = luaL_optnumber(L, arg + 2, 2.0);
    luaL_argcheck(L, a.mismatch >= 1, arg + 2, "mismatch must be >= 1");
    a.w = static_cast<std::size_t>(std::min<lua_Integer>(window, static_cast<lua_Integer>(s.k)));
    if (a.w == 0 || a.w >= s.k) return a;  // every job matches: no window needed
    s.order.resize(s.k);
    for (std::size_t i = 0; i < s.k; ++i) s.order[i] = i;
    std::sort(s.order.begin(), s.order.end(), [&](std::size_t x, std::size_t y) {
        return s.S[x] != s.S[y] ? s.S[x] < s.S[y] : x < y;
    });
    s.low.assign(s.k, 0);
    for (std::size_t q = 0; q < a.w; ++q) s.low[s.order[q]] = 1;
    return a;
}

// Whether job j's w largest requirements (ties to the lower resource) are
// exactly the window: resource i is among them when fewer than w
// resources rank above it.
bool matches(const KSelect& s, const double* r, std::size_t w) {
    for (std::size_t i = 0; i < s.k; ++i) {
        if (s.low[i]) continue;
        std::size_t above = 0;
        for (std::size_t a = 0; a < s.k && above < w; ++a)
            if (r[a] > r[i] || (r[a] == r[i] && a < i)) ++above;
        if (above < w) return false;
    }
    return true;
}

// Candidate j's score, or false when it does not fit. The operations are
// those of the Lua loops the shipped scripts had, in the same order, so the
// scores are the same doubles.
bool score_of(const KSelect& s, std::size_t j, const ScoreArgs& a, double& out) {
    const double* r = s.R(j);
    const bool past = s.shadow && s.past[j];
    double mx = 0.0, sum = 0.0;
    for (std::size_t i = 0; i < s.k; ++i) {
        const double u = s.S[i] + r[i];
        if (u > 1 + kEps || (past && r[i] > s.E[i] + kEps)) return false;
        if (u > mx) mx = u;
        sum = sum + u;
    }
    const double avg = sum / static_cast<double>(s.k);
    if (a.score == Score::balanced) {
        out = (mx / avg) * (1 - avg);
    } else {
        out = 1 - avg;
        if (a.w > 0 && a.w < s.k && !matches(s, r, a.w)) out = out * a.mismatch;
    }
    return true;
}

// sel:best(score [, window, mismatch]) -> j, value | nil
int best(lua_State* L) {
    KSelect& s = check(L);
    const ScoreArgs a = score_args(L, s, 2);
    std::size_t at = s.n;
    double lowest = HUGE_VAL;
    for (std::size_t j = 0; j < s.n; ++j) {
        double v;
        if (s.taken[j] || !score_of(s, j, a, v)) continue;
        if (v < lowest) {
            at = j;
            lowest = v;
        }
    }
    if (at == s.n) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushinteger(L, static_cast<lua_Integer>(at + 1));
    lua_pushnumber(L, lowest);
    return 2;
}

// sel:score(j, score [, window, mismatch]) -> value | nil
int score(lua_State* L) {
    KSelect& s = check(L);
    const std::size_t j = check_candidate(L, s, 2);
    const ScoreArgs a = score_args(L, s, 3);
    double v;
    if (s.taken[j] || !score_of(s, j, a, v))
        lua_pushnil(L);
    else
        lua_pushnumber(L, v);
    return 1;
}

// sel:fits(j) -> boolean
int fits(lua_State* L) {
    KSelect& s = check(L);
    const std::size_t j = check_candidate(L, s, 2);
    double v;
    lua_pushboolean(L, !s.taken[j] && score_of(s, j, ScoreArgs{}, v));
    return 1;
}

// sel:take(j): job j starts in the script's plan.
int take(lua_State* L) {
    KSelect& s = check(L);
    const std::size_t j = check_candidate(L, s, 2);
    luaL_argcheck(L, !s.taken[j], 2, "already taken");
    s.taken[j] = 1;
    const double* r = s.R(j);
    const bool past = s.shadow && s.past[j];
    for (std::size_t i = 0; i < s.k; ++i) {
        s.S[i] = s.S[i] + r[i];
        if (past) s.E[i] = s.E[i] - r[i];
    }
    return 0;
}

std::size_t check_resource(lua_State* L, const KSelect& s) {
    const lua_Integer i = luaL_checkinteger(L, 2);
    luaL_argcheck(L, i >= 1 && static_cast<std::uint64_t>(i) <= s.k, 2,
                  "not a resource (1..ctx.resources)");
    return static_cast<std::size_t>(i - 1);
}

// sel:usage(i) -> S_i with the picks taken so far
int usage(lua_State* L) {
    KSelect& s = check(L);
    lua_pushnumber(L, s.S[check_resource(L, s)]);
    return 1;
}

// sel:extra(i) -> E_i with the picks taken so far, nil without a shadow time
int extra(lua_State* L) {
    KSelect& s = check(L);
    const std::size_t i = check_resource(L, s);
    if (s.shadow)
        lua_pushnumber(L, s.E[i]);
    else
        lua_pushnil(L);
    return 1;
}

KSelect& state(lua_State* L) {
    static const luaL_Reg methods[] = {{"best", best},    {"score", score}, {"fits", fits},
                                       {"take", take},    {"usage", usage}, {"extra", extra},
                                       {nullptr, nullptr}};
    return state_object<KSelect>(L, &kStateKey, kMeta, methods);
}

}  // namespace

int kselect(lua_State* L) {
    const BatchView* view = BatchView::of(L, 1);
    const JobBatch* b = view != nullptr ? view->jobs() : nullptr;
    luaL_argexpected(L, b != nullptr, 1, "the candidate batch of this call");
    const BackfillContext* ctx = ContextView::backfill_of(L, 2);
    luaL_argexpected(L, ctx != nullptr, 2, "the backfill_select context of this call");
    const auto k = static_cast<std::size_t>(std::max(ctx->resources, 0));
    const std::size_t n = b->size();
    if (ctx->usage.size() < k || (n > 0 && b->inv_capacity.size() < k))
        return luaL_error(L, "rota.kselect: the batch or the context has fewer than %d resources",
                          ctx->resources);
    KSelect& s = state(L);
    links(L)->kselect = &s;
    s.view = view;
    s.serial = view->serial();
    s.batch = b;
    s.k = k;
    s.n = n;
    s.S.assign(ctx->usage.begin(), ctx->usage.begin() + static_cast<std::ptrdiff_t>(k));
    // As the scripts had it: E holds only with a shadow time and extra shares.
    s.shadow = ctx->shadow_time.t != kNoTime && !ctx->extra.empty();
    if (s.shadow && ctx->extra.size() < k)
        return luaL_error(L, "rota.kselect: ctx.extra has fewer than %d resources", ctx->resources);
    s.E.assign(s.shadow ? ctx->extra.begin() : ctx->extra.end(),
               s.shadow ? ctx->extra.begin() + static_cast<std::ptrdiff_t>(k) : ctx->extra.end());
    s.taken.assign(n, 0);
    s.past.assign(n, 0);
    if (s.shadow) {
        const Time now = ctx->now, shadow = ctx->shadow_time.t;
        for (std::size_t j = 0; j < n; ++j) s.past[j] = now + b->estimate[j] > shadow;
    }
    return 1;
}

}  // namespace rota::lua
