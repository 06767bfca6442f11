// Co-allocation on a multi-cluster machine ([Ngubiri07] §2.1, §3): a job is
// split into components, each of which runs on a cluster of its own, all
// starting at once.
//
// The walk (walk.cpp) decides which jobs start exactly as on one machine,
// asking the machine whether a placement on distinct clusters holds each
// job's window (Machine::worst_fit: pairing the widest component with the
// roomiest cluster is both WFit and the test of whether any placement
// exists). A job that starts afresh is placed by Worst Fit, or by the
// placement hook when one is configured: it is asked as the job starts,
// so that the next fit check of the walk sees where the job went. An
// answer without room for every component is refused (a failure) and
// Worst Fit stands. A job started by its reservation keeps the clusters
// the reservation holds (docs/design.md, "Co-allocation").
#include <algorithm>

#include "answers.h"
#include "error.h"
#include "walk.h"

namespace rota {

std::string MatrixWalk::never_starts(const Job& j) const {
    if (!clustered()) return {};
    const auto& w = j.spec.components;
    const std::int32_t n = machine().clusters();
    if (static_cast<std::int32_t>(w.size()) > n)
        return "has " + std::to_string(w.size()) + " components; the machine has " +
               std::to_string(n) + " clusters";
    std::vector<std::int32_t> widths(w), sizes;
    for (std::int32_t c = 0; c < n; ++c) sizes.push_back(machine().cluster_nodes(c));
    std::sort(widths.rbegin(), widths.rend());
    std::sort(sizes.rbegin(), sizes.rend());
    for (std::size_t i = 0; i < widths.size(); ++i)
        if (widths[i] > sizes[i]) {
            // Appended piece by piece: GCC 12 misreads a long chain of
            // string + as overlapping copies (-Wrestrict).
            static const char* const kOrdinal[] = {"st", "nd", "rd", "th"};
            std::string why = "its components (";
            for (std::size_t k = 0; k < w.size(); ++k) {
                if (k > 0) why += '+';
                why += std::to_string(w[k]);
            }
            why += " nodes) do not fit distinct clusters: the ";
            why += std::to_string(i + 1);
            why += kOrdinal[std::min<std::size_t>(i, 3)];
            why += " largest cluster has ";
            why += std::to_string(sizes[i]);
            why += " nodes";
            return why;
        }
    return {};
}

void MatrixWalk::choose_placement(Slot s, std::int32_t row) {
    Job& j = job(s);
    place_batch_.clear();
    place_batch_.push(j);
    const auto context = [&] {
        PlacementContext ctx;
        static_cast<CommonContext&>(ctx) = common_context();
        ctx.clusters = machine().clusters();
        for (std::int32_t k = 0; k < ctx.clusters; ++k) {
            const Profile& prof = machine().cluster_profile(row, k);
            ctx.cluster_nodes.push_back(machine().cluster_nodes(k));
            ctx.cluster_free.push_back(machine().cluster_idle(row, k));
            ctx.room.push_back(prof.min_free(now(), now() + j.window));
        }
        return ctx;
    };
    const auto has_room = [&](const std::vector<std::int64_t>& a) -> std::string {
        answered_.assign(a.begin(), a.end());
        if (machine().clusters_hold(row, demand(j), answered_.data(), now())) return {};
        return "job 1 (id " + std::to_string(j.spec.id) +
               "): its components do not all have room on the clusters given";
    };
    // An empty answer (the fallback) keeps Worst Fit.
    if (ask<Hook::placement>(place_batch_, context, placement_, has_room) && !placement_.empty())
        std::copy(answered_.begin(), answered_.end(), j.clusters.begin());
}

}  // namespace rota
