// Reading a hook's Lua answer into the engine's answer type, by the form
// its HookSpec declares (engine/hooks.h, AnswerForm; docs/lua-api.md gives
// the forms). Everything else about a call (the batch and context views,
// the limits, the dry run at load) is the same for every hook (lua/vm.cpp).
#pragma once

#include <cstdint>
#include <lua.hpp>
#include <string>

#include "decode.h"
#include "engine/hooks.h"
#include "waterfill.h"

namespace rota::lua {

// Reads the answer at stack index `idx` of hook H to batch `b` (the table
// at `batch_slot` is the batch as the script saw it). False, with `why`,
// when it has no shape of an answer.
template <Hook H>
bool decode_answer(lua_State* L, int idx, int batch_slot, const typename HookSignature<H>::Batch& b,
                   typename HookSignature<H>::Answer& out, std::string& why) {
    constexpr AnswerForm form = HookSpec<H>::form;
    if constexpr (form == AnswerForm::decisions) {
        return decode_admission(L, idx, b.size(), out, why);
    } else if constexpr (form == AnswerForm::keys) {
        return decode_keys(L, idx, b.size(), out, why);
    } else if constexpr (form == AnswerForm::picks) {
        // The candidate batch itself means "all of them, in the order
        // given": first fit answers without building a table per call.
        if (lua_rawequal(L, idx, batch_slot) != 0) {
            out.resize(b.size());
            for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<std::int64_t>(i);
            return true;
        }
        return decode_picks(L, idx, out, why);
    } else if constexpr (form == AnswerForm::options) {
        return decode_options(L, idx, b.size(), out, why);
    } else if constexpr (form == AnswerForm::clusters) {
        return decode_placement(L, idx, b, out, why);
    } else if constexpr (form == AnswerForm::taken_amounts || form == AnswerForm::given_amounts) {
        constexpr bool takes = form == AnswerForm::taken_amounts;
        // A plan of rota.waterfill answers for itself, without a table of
        // amounts.
        const PlanAnswer plan = waterfill_answer(L, idx, b, takes, out, why);
        if (plan == PlanAnswer::bad_plan) return false;
        if (plan == PlanAnswer::not_a_plan && !decode_amounts(L, idx, b.size(), out, why))
            return false;
        if (!takes && out.empty()) out.assign(b.size(), 0);  // nil: nobody gets any
        return true;
    } else {
        static_assert(form == AnswerForm::one_index);
        return decode_set(L, idx, out, why);
    }
}

}  // namespace rota::lua
