// Whatever a policy script returns: arbitrary Lua values (nested tables,
// NaN and huge numbers, strings with any bytes, tables whose metatables
// raise on every access) go through every hook's decoder and then the
// engine's check of the answer. The decoders run outside protected mode in
// rota, so a decoder that touched a metamethod or raised would abort here
// (Lua's default panic); a decoded answer must be one the checks can judge,
// and a refused one must say why.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <lua.hpp>
#include <string>
#include <vector>

#include "engine/answers.h"
#include "lua/decode.h"

namespace {

using namespace rota;

struct Bytes {
    const std::uint8_t* p;
    std::size_t n;
    std::uint8_t byte() {
        if (n == 0) return 0;
        --n;
        return *p++;
    }
    template <class T>
    T raw() {
        T v{};
        std::uint8_t b[sizeof(T)] = {};
        for (auto& x : b) x = byte();
        std::memcpy(&v, b, sizeof(T));
        return v;
    }
};

int raise(lua_State* L) {
    return luaL_error(L, "a metamethod was called");
}

// Pushes one value built from the bytes; tables nest at most `depth` deep.
void push_value(lua_State* L, Bytes& in, int depth) {
    switch (in.byte() % 9) {
        case 0:
            lua_pushnil(L);
            break;
        case 1:
            lua_pushboolean(L, in.byte() & 1);
            break;
        case 2:  // small integers: indices, amounts, options
            lua_pushinteger(L, static_cast<std::int8_t>(in.byte()));
            break;
        case 3:
            lua_pushinteger(L, in.raw<lua_Integer>());
            break;
        case 4:  // any double: NaN, inf, -0, 2.5, 1e300
            lua_pushnumber(L, in.raw<double>());
            break;
        case 5: {
            static const char* const words[] = {"accept", "hold", "reject", "", "maybe"};
            lua_pushstring(L, words[in.byte() % 5]);
            break;
        }
        case 6: {
            const std::size_t len = in.byte() % 32;
            std::string s;
            for (std::size_t i = 0; i < len; ++i) s += static_cast<char>(in.byte());
            lua_pushlstring(L, s.data(), s.size());
            break;
        }
        default: {  // a table: an array part, then named or odd keys
            lua_createtable(L, 0, 0);
            if (depth <= 0) break;
            const int t = lua_gettop(L);
            const int items = in.byte() % 12;
            for (int i = 1; i <= items; ++i) {
                const std::uint8_t k = in.byte() % 6;
                if (k < 3)
                    lua_pushinteger(L, i);
                else if (k == 3)
                    lua_pushstring(L, (in.byte() & 1) ? "reject" : "hold");
                else if (k == 4)
                    lua_pushinteger(L, static_cast<std::int8_t>(in.byte()));
                else
                    lua_pushnumber(L, 0.5 + i);
                push_value(L, in, depth - 1);
                lua_rawset(L, t);
            }
            if (in.byte() % 4 == 0) {  // a metatable that raises on any access
                lua_createtable(L, 0, 4);
                for (const char* mm : {"__index", "__len", "__newindex", "__pairs"}) {
                    lua_pushcfunction(L, raise);
                    lua_setfield(L, -2, mm);
                }
                lua_setmetatable(L, t);
            }
        }
    }
}

void refused_says_why(bool ok, const std::string& why) {
    if (!ok && why.empty()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static lua_State* L = luaL_newstate();
    Bytes in{data, size};
    const std::size_t n = in.byte() % 6;  // jobs (or candidates, moves, sets) in the batch
    lua_settop(L, 0);
    push_value(L, in, 4);

    JobBatch jobs;
    MalleableBatch mall;
    for (std::size_t j = 0; j < n; ++j) {
        jobs.id.push_back(static_cast<JobId>(j));
        jobs.procs.push_back(1 + static_cast<std::int32_t>(j));
        mall.id.push_back(static_cast<JobId>(j));
        mall.procs.push_back(4);
        mall.min.push_back(1);
        mall.ideal.push_back(8);
        mall.queued.push_back(static_cast<std::int32_t>(j % 2));
    }
    std::string why;
    std::vector<std::int64_t> ints;
    std::vector<std::uint8_t> seen;

    std::vector<Admission> adm;
    bool ok = lua::decode_admission(L, 1, n, adm, why);
    refused_says_why(ok, why);
    if (ok) check_admission(adm, n);
    why.clear();

    std::vector<double> keys;
    ok = lua::decode_keys(L, 1, n, keys, why);
    refused_says_why(ok, why);
    if (ok) check_keys(keys, n);
    why.clear();

    ok = lua::decode_picks(L, 1, ints, why);
    refused_says_why(ok, why);
    if (ok) check_picks(ints, n, seen);
    why.clear();

    ok = lua::decode_set(L, 1, ints, why);
    refused_says_why(ok, why);
    if (ok) check_preempt(ints, n);
    why.clear();

    ok = lua::decode_options(L, 1, n, ints, why);
    refused_says_why(ok, why);
    if (ok) check_options(ints, n);
    why.clear();

    ok = lua::decode_placement(L, 1, jobs, ints, why);
    refused_says_why(ok, why);
    if (ok) check_placement(ints, jobs, 3);
    why.clear();

    ok = lua::decode_amounts(L, 1, n, ints, why);
    refused_says_why(ok, why);
    if (ok) {
        check_harvest(ints, mall, 2);
        check_distribution(ints, mall, 6);
    }
    // The decoders leave the stack as they found it.
    if (lua_gettop(L) != 1) std::abort();
    return 0;
}
