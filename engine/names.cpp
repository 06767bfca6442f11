#include "names.h"

#include <atomic>

namespace rota {

std::string bad_name(std::string_view what, std::string_view s) {
    if (s.size() > kMaxNameBytes)
        return std::string(what) + " is longer than " + std::to_string(kMaxNameBytes) + " bytes";
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c == 0x7f)
            return std::string(what) + " holds a control character (byte " + std::to_string(c) +
                   " at offset " + std::to_string(i) + ")";
    }
    return {};
}

NameTable::NameTable() {
    static std::atomic<std::uint64_t> next{1};
    serial_ = next.fetch_add(1, std::memory_order_relaxed);
    names_.emplace_back();
}

Name NameTable::intern_new(std::string_view s) {
    if (auto it = ids_.find(s); it != ids_.end()) {
        last_ = it->first;
        last_id_ = it->second;
        return {it->second};
    }
    const auto id = static_cast<std::int32_t>(names_.size());
    const std::string& kept = names_.emplace_back(s);
    ids_.emplace(std::string_view(kept), id);
    last_ = kept;
    last_id_ = id;
    return {id};
}

}  // namespace rota
