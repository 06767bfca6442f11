#include "components.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <stdexcept>

namespace rota::sim {

std::int32_t Components::widest(std::size_t j) const {
    return *std::max_element(widths.begin() + offset[j], widths.begin() + offset[j + 1]);
}

void Components::push(const std::int32_t* w, std::size_t n) {
    if (offset.empty()) offset.push_back(0);
    widths.insert(widths.end(), w, w + n);
    offset.push_back(static_cast<std::uint32_t>(widths.size()));
}

std::vector<std::int32_t> split_widths(std::int32_t s, std::int32_t n) {
    if (n < 1 || n > s) throw std::invalid_argument("split_widths: need 1 <= n <= s");
    std::vector<std::int32_t> w(static_cast<std::size_t>(n), s / n);
    w.back() = s - (n - 1) * (s / n);
    return w;
}

std::string format_widths(const std::int32_t* w, std::size_t n) {
    std::string s;
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0) s += '+';
        s += std::to_string(w[i]);
    }
    return s;
}

std::vector<std::int32_t> parse_widths(std::string_view text) {
    std::vector<std::int32_t> out;
    std::size_t k = 1;
    while (true) {
        const std::size_t plus = text.find('+');
        const std::string_view part = text.substr(0, plus);
        const std::string where = "component " + std::to_string(k);
        if (part.empty()) throw std::invalid_argument(where + " is empty");
        std::int64_t v = 0;
        auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
        if (ec == std::errc::result_out_of_range ||
            (ec == std::errc() && ptr == part.data() + part.size() &&
             v > std::numeric_limits<std::int32_t>::max()))
            throw std::invalid_argument(where + " is out of range: '" + std::string(part) + "'");
        if (ec != std::errc() || ptr != part.data() + part.size())
            throw std::invalid_argument(where + " is not a number: '" + std::string(part) + "'");
        if (v <= 0)
            throw std::invalid_argument(where + " must be at least 1 node wide, not " +
                                        std::to_string(v));
        out.push_back(static_cast<std::int32_t>(v));
        if (plus == std::string_view::npos) break;
        text.remove_prefix(plus + 1);
        ++k;
    }
    return out;
}

}  // namespace rota::sim
