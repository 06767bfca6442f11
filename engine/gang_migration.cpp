// Migration for gang scheduling (seed 000 §5.4): moving a job to a row
// where enough columns are free, by option 1 (migrate the jobs on its
// columns in the target row, keep its own columns) or option 2 (move it to
// the free columns of the target row), within Q migrated tasks per slice,
// never migrating a job twice in one pass (no ping-pong).
#include <algorithm>

#include "error.h"
#include "scheduler.h"

namespace rota {

namespace {

std::uint32_t bit(std::int32_t row) {
    return std::uint32_t{1} << row;
}

}  // namespace

std::int64_t Scheduler::migration_budget() {
    if (cfg_.gang.migration_q < 0) return -1;
    const auto slice = static_cast<std::uint64_t>(now_ / cfg_.gang.slice);
    if (slice != budget_slice_) {
        budget_slice_ = slice;
        migrated_in_slice_ = 0;
    }
    return cfg_.gang.migration_q - migrated_in_slice_;
}

// S(A): the jobs of `row` on the columns of job `a`.
void Scheduler::overlapping(Slot a, std::int32_t row, std::vector<Slot>& out) const {
    out.clear();
    for (const NodeRun& r : job(a).nodes)
        for (std::int32_t c = r.first; c < r.first + r.count; ++c) {
            Slot s = matrix_.at(row, c);
            if (s != Matrix::kEmpty && s != a && std::find(out.begin(), out.end(), s) == out.end())
                out.push_back(s);
        }
}

bool Scheduler::migration_ok(Slot a, std::int32_t to, const std::vector<Slot>& overlap) const {
    if (matrix_.free(to) < job(a).spec.procs) return false;
    if (std::find(migrated_.begin(), migrated_.end(), a) != migrated_.end()) return false;
    for (Slot o : overlap)
        if (std::find(migrated_.begin(), migrated_.end(), o) != migrated_.end()) return false;
    return true;
}

void Scheduler::emit_migrate(Slot s, std::int32_t row, int option, Time delay) {
    const Job& j = job(s);
    Action a{ActionType::migrate, j.spec.id, now_};
    a.row = row;
    a.option = static_cast<std::int8_t>(option);
    a.delay = delay;
    a.run_offset = static_cast<std::uint32_t>(run_arena_.size());
    a.run_count = static_cast<std::uint32_t>(j.nodes.size());
    a.nodes = j.spec.procs;
    run_arena_.insert(run_arena_.end(), j.nodes.begin(), j.nodes.end());
    emit(a);
}

// Option 1: the jobs on a's columns in row `to` (each only in that row)
// move to other free columns of it; a keeps its columns and either moves
// there from `from` or, with `replicate`, is replicated there. Overheads
// of eq. (4): a is idle C/2 (checkpoint), each moved job C.
void Scheduler::migrate_option1(Slot a, std::int32_t from, std::int32_t to, bool replicate) {
    Job& ja = job(a);
    const Time c = cfg_.gang.migration_cost;
    std::vector<Slot> overlap;
    overlapping(a, to, overlap);
    std::int64_t tasks = 0;
    for (Slot o : overlap) matrix_.clear(to, job(o).nodes);
    if (replicate) {
        matrix_.place(to, ja.nodes, a);
        ja.row_mask |= bit(to);
    } else {
        move_home(a, to);  // same columns, now free in `to`
    }
    for (Slot o : overlap) {
        Job& jo = job(o);
        jo.nodes.clear();
        matrix_.lowest_free(to, jo.spec.procs, jo.nodes);
        if (Matrix::count(jo.nodes) != jo.spec.procs)
            throw Error(Errc::internal, "migration option 1: no room left in the target row");
        matrix_.place(to, jo.nodes, o);
        tasks += jo.spec.procs;
        migrated_.push_back(o);
        emit_migrate(o, to, 1, c);
    }
    migrated_.push_back(a);
    emit_migrate(a, to, 1, c / 2);
    (void)from;
    migrated_in_slice_ += tasks;
    counters_.migrations += overlap.size();
    counters_.migrated_tasks += static_cast<std::uint64_t>(tasks);
}

// Option 2: a moves to the free columns of row `to`; the jobs there stay.
// Overheads of eq. (5): a is idle C, the jobs on its old columns C/2.
void Scheduler::migrate_option2(Slot a, std::int32_t from, std::int32_t to) {
    Job& ja = job(a);
    const Time c = cfg_.gang.migration_cost;
    std::vector<Slot> overlap;
    overlapping(a, to, overlap);
    matrix_.clear(from, ja.nodes);
    ja.nodes.clear();
    matrix_.lowest_free(to, ja.spec.procs, ja.nodes);
    matrix_.place(to, ja.nodes, a);
    const Time end = ja.estimated_end();
    if (now_ < end) {
        row_profile_[static_cast<std::size_t>(from)].give(now_, end, {ja.spec.procs});
        row_profile_[static_cast<std::size_t>(to)].take(now_, end, {ja.spec.procs});
    }
    ja.home_row = static_cast<std::int16_t>(to);
    ja.row_mask = bit(to);
    migrated_.push_back(a);
    emit_migrate(a, to, 2, c);
    for (Slot o : overlap) emit_migrate(o, to, 2, c / 2);
    migrated_in_slice_ += ja.spec.procs;
    counters_.migrations += 1;
    counters_.migrated_tasks += static_cast<std::uint64_t>(ja.spec.procs);
}

}  // namespace rota
