#include "escape.h"

#include <cstdio>

namespace rota::sim {

namespace {

// The length of the valid UTF-8 sequence starting at s[i], or 0; `cp` its
// code point.
std::size_t utf8_length(std::string_view s, std::size_t i, unsigned& cp) {
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
    cp = b & (0x7Fu >> n);
    for (std::size_t k = 1; k < n; ++k) {
        const auto c = static_cast<unsigned char>(s[i + k]);
        if ((c & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (c & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

void append_hex(std::string& out, unsigned char b) {
    char hex[5];
    std::snprintf(hex, sizeof hex, "\\x%02X", b);
    out += hex;
}

// Escapes like escaped(); `controls` false keeps control bytes (JSON
// escapes those itself).
std::string escape(std::string_view s, bool controls, bool keep_newlines) {
    std::string out;
    out.reserve(s.size());
    std::size_t i = 0;
    while (i < s.size()) {
        const auto b = static_cast<unsigned char>(s[i]);
        if (b < 0x80) {
            const bool control = b < 0x20 || b == 0x7F;
            if (control && controls && b != '\t' && !(keep_newlines && b == '\n'))
                append_hex(out, b);
            else
                out += static_cast<char>(b);
            ++i;
            continue;
        }
        unsigned cp = 0;
        const std::size_t n = utf8_length(s, i, cp);
        if (n == 0) {
            append_hex(out, b);
            ++i;
        } else if (controls && cp <= 0x9F) {  // a C1 control: its bytes
            for (std::size_t k = 0; k < n; ++k)
                append_hex(out, static_cast<unsigned char>(s[i + k]));
            i += n;
        } else {
            out.append(s.substr(i, n));
            i += n;
        }
    }
    return out;
}

}  // namespace

std::string escaped(std::string_view s, bool keep_newlines) {
    return escape(s, true, keep_newlines);
}

bool is_clean(std::string_view s) {
    return escape(s, true, false) == s;
}

nlohmann::json json_safe(const nlohmann::json& j) {
    if (j.is_string()) {
        const auto& s = j.get_ref<const std::string&>();
        return escape(s, false, true);
    }
    if (j.is_array()) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& e : j) out.push_back(json_safe(e));
        return out;
    }
    if (j.is_object()) {
        nlohmann::json out = nlohmann::json::object();
        for (const auto& [k, v] : j.items()) out[escape(k, false, true)] = json_safe(v);
        return out;
    }
    return j;
}

}  // namespace rota::sim
