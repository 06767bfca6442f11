#include "waterfill.h"

#include <cmath>
#include <string_view>

#include "batch_view.h"
#include "state_links.h"
#include "state_object.h"
#include "waterfill_rules.h"

namespace rota::lua {

namespace {

constexpr const char* kMeta = "rota.waterfill";
const char kStateKey = 0;  // registry: the state's one plan

// One plan per Lua state, reset by each rota.waterfill(), so a hook call
// allocates nothing once its vectors have grown. A plan either takes
// (harvest) or gives (distribution), whichever it did first.
struct Waterfill {
    enum class Direction { none, take, give };
    const BatchView* view = nullptr;
    std::uint64_t serial = 0;
    Direction direction = Direction::none;
    Plan plan;

    bool current() const {
        return view != nullptr && view->serial() == serial && view->malleable() == plan.batch;
    }
};

// The state's one plan, if the value at idx is it: known by address
// (state_links.h), where luaL_testudata would intern the metatable's name
// at every call.
Waterfill* plan_at(lua_State* L, int idx) {
    void* p = lua_touserdata(L, idx);
    const StateLinks* k = links(L);
    return p != nullptr && k != nullptr && p == k->waterfill ? static_cast<Waterfill*>(p) : nullptr;
}

Waterfill& check(lua_State* L) {
    Waterfill* w = plan_at(L, 1);
    if (w == nullptr) luaL_typeerror(L, 1, kMeta);
    // The batch and context it was made from are gone after their call.
    if (!w->current())
        luaL_error(L, "this plan belongs to an earlier call: make it with rota.waterfill(b, ctx)");
    return *w;
}

void direct(lua_State* L, Waterfill& w, Waterfill::Direction d) {
    if (w.direction != Waterfill::Direction::none && w.direction != d)
        luaL_error(L,
                   "this plan already %s processors: a plan either takes (harvest) or gives "
                   "(distribution)",
                   w.direction == Waterfill::Direction::take ? "takes" : "gives");
    w.direction = d;
}

// luaL_checkoption, with lengths compared before bytes: it runs a strcmp
// per option ahead of the one named, at every call of a shipped script.
template <std::size_t N>
int option(lua_State* L, int arg, const std::string_view (&names)[N]) {
    std::size_t len = 0;
    const char* s = luaL_checklstring(L, arg, &len);
    const std::string_view name(s, len);
    for (std::size_t i = 0; i < N; ++i)
        if (names[i] == name) return static_cast<int>(i);
    return luaL_argerror(L, arg, lua_pushfstring(L, "invalid option '%s'", s));
}

int push_left(lua_State* L, const Waterfill& w) {
    lua_pushinteger(L, static_cast<lua_Integer>(w.plan.left));
    return 1;
}

// w:take(rule [, T]) -> processors still to take
int take(lua_State* L) {
    Waterfill& w = check(L);
    static constexpr std::string_view rules[] = {"even", "fair", "long", "short", "low_impact"};
    const int rule = option(L, 2, rules);
    const double T = luaL_optnumber(L, 3, -1);
    // NaN compares false with every age and time left: no victim at all.
    luaL_argcheck(L, !std::isnan(T), 3, "T is NaN");
    direct(L, w, Waterfill::Direction::take);
    switch (rule) {
        case 0:
            take_in_turn(w.plan, Candidates::all);
            break;
        case 1:
            take_in_turn(w.plan, Candidates::fair);
            break;
        case 2:
            take_in_turn(w.plan, Candidates::longest, T);
            break;
        case 3:
            take_in_turn(w.plan, Candidates::most_left, T);
            break;
        default:
            take_by_share(w.plan);
            break;
    }
    return push_left(L, w);
}

// w:give(rule) -> processors still free
int give(lua_State* L) {
    Waterfill& w = check(L);
    static constexpr std::string_view rules[] = {"even", "fair", "low_impact"};
    const int rule = option(L, 2, rules);
    direct(L, w, Waterfill::Direction::give);
    switch (rule) {
        case 0:
            give_in_turn(w.plan);
            break;
        case 1:
            give_most_harvested(w.plan);
            break;
        default:
            give_by_share(w.plan);
            break;
    }
    return push_left(L, w);
}

// w:admit() -> processors still free
int admit_queued(lua_State* L) {
    Waterfill& w = check(L);
    direct(L, w, Waterfill::Direction::give);
    admit(w.plan);
    return push_left(L, w);
}

// w:left() -> processors still to take or to give
int left(lua_State* L) {
    return push_left(L, check(L));
}

// w:amount(j) -> what job j gives up or receives so far
int amount(lua_State* L) {
    Waterfill& w = check(L);
    const lua_Integer j = luaL_checkinteger(L, 2);
    luaL_argcheck(L, j >= 1 && static_cast<std::uint64_t>(j) <= w.plan.amount.size(), 2,
                  "not a job of the batch (1..b.n)");
    lua_pushinteger(L, static_cast<lua_Integer>(w.plan.amount[static_cast<std::size_t>(j - 1)]));
    return 1;
}

// w:amounts() -> a new table of the amounts, one per job
int amounts(lua_State* L) {
    Waterfill& w = check(L);
    const std::vector<std::int64_t>& a = w.plan.amount;
    lua_createtable(L, static_cast<int>(a.size()), 0);
    for (std::size_t j = 0; j < a.size(); ++j) {
        lua_pushinteger(L, static_cast<lua_Integer>(a[j]));
        lua_rawseti(L, -2, static_cast<lua_Integer>(j + 1));
    }
    return 1;
}

Waterfill& state(lua_State* L) {
    static const luaL_Reg methods[] = {
        {"take", take},     {"give", give},       {"admit", admit_queued}, {"left", left},
        {"amount", amount}, {"amounts", amounts}, {nullptr, nullptr}};
    return state_object<Waterfill>(L, &kStateKey, kMeta, methods);
}

}  // namespace

int waterfill(lua_State* L) {
    const BatchView* view = BatchView::of(L, 1);
    const MalleableBatch* b = view != nullptr ? view->malleable() : nullptr;
    luaL_argexpected(L, b != nullptr, 1, "the batch of this harvest or distribution call");
    const MalleableContext* ctx = ContextView::malleable_of(L, 2);
    luaL_argexpected(L, ctx != nullptr, 2, "the context of this harvest or distribution call");
    Waterfill& w = state(L);
    links(L)->waterfill = &w;
    w.view = view;
    w.serial = view->serial();
    w.direction = Waterfill::Direction::none;
    w.plan.reset(*b, ctx->needed);
    return 1;
}

PlanAnswer waterfill_answer(lua_State* L, int idx, const MalleableBatch& batch, bool takes,
                            std::vector<std::int64_t>& out, std::string& why) {
    const Waterfill* w = plan_at(L, idx);
    if (w == nullptr) return PlanAnswer::not_a_plan;
    // Made in this call (the batch's view has not begun another) for this batch.
    if (w->view == nullptr || w->view->serial() != w->serial || w->plan.batch != &batch) {
        why = "the plan belongs to an earlier call: make it with rota.waterfill(b, ctx)";
        return PlanAnswer::bad_plan;
    }
    const auto wrong = takes ? Waterfill::Direction::give : Waterfill::Direction::take;
    if (w->direction == wrong) {
        why = takes ? "the plan gives processors (w:give, w:admit); a harvest takes them (w:take)"
                    : "the plan takes processors (w:take); a distribution gives them (w:give, "
                      "w:admit)";
        return PlanAnswer::bad_plan;
    }
    out = w->plan.amount;
    return PlanAnswer::plan;
}

}  // namespace rota::lua
