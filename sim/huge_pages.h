// Large arrays backed by transparent huge pages where the kernel offers them.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rota::sim {

constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;

// The whole huge pages within [b, b + n): [first, last), empty when none.
struct HugeRange {
    std::uintptr_t first, last;
};
constexpr HugeRange huge_page_range(std::uintptr_t b, std::size_t n) {
    const std::uintptr_t first = (b + kHugePage - 1) & ~(kHugePage - 1);
    const std::uintptr_t last = (b + n) & ~(kHugePage - 1);
    return last > first ? HugeRange{first, last} : HugeRange{0, 0};
}

// Asks the kernel to back the 2 MiB-aligned part of [p, p + n) with huge
// pages (madvise(MADV_HUGEPAGE)), before it is first touched. A simulation
// fills a few arrays of one entry per job (the trace, the outcomes): with
// 4 KiB pages each page is a fault the first time it is written, and on a
// virtual machine a fault costs microseconds, a few percent of a whole run.
// Kernels with transparent huge pages "always" on need no advice; those
// with them off ignore it, as does any other failure.
inline void advise_huge_pages(const void* p, std::size_t n) {
#ifdef MADV_HUGEPAGE
    const HugeRange r = huge_page_range(reinterpret_cast<std::uintptr_t>(p), n);
    if (r.last > r.first)
        ::madvise(reinterpret_cast<void*>(r.first), r.last - r.first, MADV_HUGEPAGE);
#else
    (void)p;
    (void)n;
#endif
}

// v.reserve(n), its new memory advised as above.
template <class T>
void reserve_huge(std::vector<T>& v, std::size_t n) {
    if (n <= v.capacity()) return;
    v.reserve(n);
    advise_huge_pages(v.data(), n * sizeof(T));
}

}  // namespace rota::sim
