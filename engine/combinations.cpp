#include "combinations.h"

#include "error.h"

namespace rota {

namespace {

struct Refusal {
    Part a, b;
    const char* reason;
};

// Every pair not listed goes together.
const Refusal kRefused[] = {
    {Part::classes, Part::malleable,
     "[Feitelson97] §4.3 makes room for a waiting job by swapping whole jobs out (lazy "
     "preemption), [Weissman03] §2.2 by shrinking running jobs (harvest): two answers to the same "
     "question, and one discipline schedules a machine"},
    {Part::classes, Part::rows,
     "the class passes ([Feitelson97] §4.3) time-share the processors by swapping jobs out and "
     "in, the matrix's rows ([Zhang00] §4) by slices: a job swapped out would hold no row, and a "
     "job in a row no quantum of its class"},
    {Part::classes, Part::clusters,
     "[Feitelson97] §4.3's processor sets are idle and preemptable processors of one machine; a "
     "job of components on distinct clusters ([Ngubiri07] §2.1) would need a set per cluster, "
     "which the two passes do not define"},
    {Part::classes, Part::buddy,
     "buddy packing ([Feitelson97] §3) places jobs in the rows of a gang matrix; the class "
     "passes (§4.3) place a loaded job by best fit among the idle processors"},
    {Part::classes, Part::migration,
     "migration ([Zhang00] §5.4) moves jobs between the matrix's rows; the class passes have "
     "none"},
    {Part::classes, Part::reservations,
     "the class passes reserve one processor set at a time, for the job past its class's maximum "
     "wait ([Feitelson97] §4.3): a reservation depth has no meaning there"},
    {Part::malleable, Part::rows,
     "the iScheduler grows and shrinks a job's processors while it runs ([Weissman03] §2.2); a "
     "job of the matrix holds the same columns in every row ([Zhang00] §4), so its width cannot "
     "change"},
    {Part::malleable, Part::clusters,
     "a malleable job's width changes as it runs ([Weissman03] §2.2); a job on clusters is "
     "components of fixed widths, one per cluster ([Ngubiri07] §2.1)"},
    {Part::malleable, Part::partitions,
     "the iScheduler treats the machine as one pool of interchangeable processors, any of which "
     "a running job may grow into or be harvested of ([Weissman03] §2.2, fluid resource "
     "management); a partition splits that pool"},
    {Part::malleable, Part::buddy,
     "buddy packing ([Feitelson97] §3) places jobs in gang rows; the iScheduler has none"},
    {Part::malleable, Part::migration,
     "migration ([Zhang00] §5.4) moves jobs between rows; the iScheduler has none"},
    {Part::malleable, Part::reservations,
     "the iScheduler starts a waiting job only at its arrival or when a termination's processors "
     "are distributed ([Weissman03] Figure 3(a)): it holds no reservation"},
    {Part::clusters, Part::partitions,
     "[Ngubiri07]'s clusters are the machine's partition already: Worst Fit places each component "
     "on a whole cluster (§3), and a partition cutting across clusters has no place in that rule"},
    {Part::clusters, Part::buddy,
     "buddy packing ([Feitelson97] §3) aligns a job's block in the whole machine's tree; a job on "
     "clusters is components placed by Worst Fit, one per cluster ([Ngubiri07] §3)"},
    {Part::clusters, Part::migration,
     "migration ([Zhang00] §5.4) moves a job to whichever columns are free in another row, which "
     "may lie in other clusters than its components' ([Ngubiri07] §2.1)"},
    {Part::partitions, Part::buddy,
     "buddy packing ([Feitelson97] §3) allocates aligned blocks of the whole machine's tree; a "
     "partition's nodes need not form such blocks"},
    {Part::partitions, Part::migration,
     "migration ([Zhang00] §5.4, options 1 and 2) moves jobs to any free columns of the target "
     "row, off the nodes their partitions allow"},
    {Part::buddy, Part::reservations,
     "a reservation promises a count of columns in a row's profile ([Zhang00] §5.2); buddy "
     "packing needs a free aligned block at the start, which a count cannot promise"},
    {Part::buddy, Part::migration,
     "migration ([Zhang00] §5.4) moves jobs to any free columns, off their buddy blocks"},
};

}  // namespace

const char* part_key(Part p) {
    switch (p) {
        case Part::classes:
            return "[classes]";
        case Part::malleable:
            return "[malleable]";
        case Part::rows:
            return "gang.mpl > 1";
        case Part::pools:
            return "[[machine.pools]]";
        case Part::clusters:
            return "[[machine.clusters]]";
        case Part::partitions:
            return "[[machine.partitions]]";
        case Part::buddy:
            return "gang.packing = \"buddy\"";
        case Part::migration:
            return "gang.migration";
        case Part::reservations:
            return "scheduler.reservation_depth";
        case Part::backfill:
            return "scheduler.backfill";
    }
    return "?";
}

const char* refusal(Part a, Part b) {
    for (const Refusal& r : kRefused)
        if ((r.a == a && r.b == b) || (r.a == b && r.b == a)) return r.reason;
    return nullptr;
}

std::vector<Part> parts_of(const SchedulerConfig& c) {
    std::vector<Part> p;
    if (c.classes.enabled) p.push_back(Part::classes);
    if (c.malleable.enabled) p.push_back(Part::malleable);
    if (c.rows > 1) p.push_back(Part::rows);
    if (!c.pools.empty()) p.push_back(Part::pools);
    if (!c.clusters.empty()) p.push_back(Part::clusters);
    if (!c.partitions.empty()) p.push_back(Part::partitions);
    if (c.packing == Packing::buddy) p.push_back(Part::buddy);
    if (c.migration) p.push_back(Part::migration);
    // The disciplines that replace the walk read neither key; only a
    // setting they cannot honour is a part.
    const bool walk = !c.classes.enabled && !c.malleable.enabled;
    if (c.reservation_depth != (walk ? 0 : 1)) p.push_back(Part::reservations);
    if (c.backfill && walk) p.push_back(Part::backfill);
    return p;
}

namespace {

// A part as the configuration has it, with its value where it has one.
std::string part_text(Part p, const SchedulerConfig& c) {
    switch (p) {
        case Part::rows:
            return "gang.mpl = " + std::to_string(c.rows);
        case Part::reservations:
            return "scheduler.reservation_depth = " + std::to_string(c.reservation_depth);
        default:
            return part_key(p);
    }
}

}  // namespace

void check_combination(const SchedulerConfig& c) {
    const std::vector<Part> parts = parts_of(c);
    for (std::size_t i = 0; i < parts.size(); ++i)
        for (std::size_t k = i + 1; k < parts.size(); ++k)
            if (const char* why = refusal(parts[i], parts[k]))
                throw Error(Errc::config, part_text(parts[i], c) + " cannot be combined with " +
                                              part_text(parts[k], c) + ": " + why);
}

const char* kNeverBackfills =
    "the iScheduler starts a waiting job only at its arrival or when a termination's processors "
    "are distributed ([Weissman03] Figure 3(a)): no job passes a blocked one, and backfill_select "
    "would never be called";

bool calls_backfill_select(const SchedulerConfig& c) {
    return c.backfill && !c.malleable.enabled;
}

std::string combination_table() {
    std::string o = "| combination | why it is refused |\n|---|---|\n";
    for (const Refusal& r : kRefused)
        o += std::string("| ") + part_key(r.a) + " with " + part_key(r.b) + " | " + r.reason +
             " |\n";
    return o;
}

}  // namespace rota
