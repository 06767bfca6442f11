// Strings that leave a script (print lines, reject reasons) reach logs,
// terminals, JSON and CSV: they are made printable and bounded here, once.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rota::lua {

// `s` as one printable line of valid UTF-8: control characters (newlines
// included, so a script cannot forge a line of the engine's log), DEL and
// bytes that are not part of valid UTF-8 become \xNN, a tab stays; cut
// after `max` bytes with a note of the full length.
std::string printable(std::string_view s, std::size_t max);

}  // namespace rota::lua
