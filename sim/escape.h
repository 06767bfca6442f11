// Bytes from files, flags and paths as messages, terminals and JSON may
// carry them: a control byte (an escape sequence, a newline that would
// forge a line) or a byte that is not UTF-8 (which JSON cannot hold) is
// shown as \xNN, everything else as it is.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace rota::sim {

// `s` with every control byte (C0, DEL, and the C1 controls U+0080..U+009F),
// and every byte that is not part of valid UTF-8, as \xNN; a tab stays, and
// a newline too when `keep_newlines` (text of several lines).
std::string escaped(std::string_view s, bool keep_newlines = false);

// Whether `s` needs no escape.
bool is_clean(std::string_view s);

// `j` with every string and key that is not valid UTF-8 escaped as above
// (other bytes, control bytes included, JSON escapes itself), so that
// dump() never throws for a path that is not UTF-8.
nlohmann::json json_safe(const nlohmann::json& j);

}  // namespace rota::sim
