#include "text.h"

#include <cstdio>

namespace rota::lua {

namespace {

// The length of the valid UTF-8 sequence starting at s[i], or 0.
std::size_t utf8_length(std::string_view s, std::size_t i) {
    const auto b = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    unsigned min = 0;
    if (b >= 0xC2 && b <= 0xDF) {
        n = 2;
        min = 0x80;
    } else if (b >= 0xE0 && b <= 0xEF) {
        n = 3;
        min = 0x800;
    } else if (b >= 0xF0 && b <= 0xF4) {
        n = 4;
        min = 0x10000;
    } else {
        return 0;
    }
    if (i + n > s.size()) return 0;
    unsigned cp = b & (0x7F >> n);
    for (std::size_t k = 1; k < n; ++k) {
        const auto c = static_cast<unsigned char>(s[i + k]);
        if ((c & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (c & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

}  // namespace

std::string printable(std::string_view s, std::size_t max) {
    std::string out;
    out.reserve(s.size() < max ? s.size() : max);
    std::size_t i = 0;
    while (i < s.size() && out.size() < max) {
        const auto b = static_cast<unsigned char>(s[i]);
        if (b >= 0x20 && b < 0x7F) {
            out += static_cast<char>(b);
            ++i;
        } else if (b == '\t') {
            out += '\t';
            ++i;
        } else if (const std::size_t n = b >= 0x80 ? utf8_length(s, i) : 0; n > 0) {
            out.append(s.substr(i, n));
            i += n;
        } else {
            char hex[5];
            std::snprintf(hex, sizeof hex, "\\x%02X", b);
            out += hex;
            ++i;
        }
    }
    if (i < s.size()) out += "... (" + std::to_string(s.size()) + " bytes)";
    return out;
}

}  // namespace rota::lua
