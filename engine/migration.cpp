// Migration for gang scheduling ([Zhang00] §5.4): moving a job to a row
// where enough columns are free, by option 1 (migrate the jobs on its
// columns in the target row, keep its own columns) or option 2 (move it to
// the free columns of the target row), within Q migrated tasks per slice,
// never migrating a job twice in one pass (no ping-pong).
#include <algorithm>
#include <chrono>

#include "answers.h"
#include "error.h"
#include "walk.h"

namespace rota {

namespace {

std::uint32_t bit(std::int32_t row) {
    return std::uint32_t{1} << row;
}

}  // namespace

MigrationContext MatrixWalk::migration_context() {
    MigrationContext c;
    static_cast<CommonContext&>(c) = common_context();
    c.migration_budget = migration_budget();
    c.migration_cost = static_cast<double>(cfg().migration_cost) / 1e6;
    return c;
}

std::int64_t MatrixWalk::migration_budget() {
    if (cfg().migration_q < 0) return -1;
    const auto slice = static_cast<std::uint64_t>(now() / cfg().slice);
    if (slice != budget_slice_) {
        budget_slice_ = slice;
        migrated_in_slice_ = 0;
    }
    return cfg().migration_q - migrated_in_slice_;
}

// S(A): the jobs of `row` on the columns of job `a`.
void MatrixWalk::overlapping(Slot a, std::int32_t row, std::vector<Slot>& out) const {
    out.clear();
    const Matrix& m = machine().matrix();
    for (const NodeRun& r : job(a).alloc.runs)
        for (std::int32_t c = r.first; c < r.first + r.count; ++c) {
            Slot s = m.at(row, c);
            if (s != Matrix::kEmpty && s != a && std::find(out.begin(), out.end(), s) == out.end())
                out.push_back(s);
        }
}

bool MatrixWalk::migration_ok(Slot a, std::int32_t to, const std::vector<Slot>& overlap) const {
    if (machine().matrix().free(to) < job(a).alloc.procs) return false;
    if (std::find(migrated_.begin(), migrated_.end(), a) != migrated_.end()) return false;
    for (Slot o : overlap)
        if (std::find(migrated_.begin(), migrated_.end(), o) != migrated_.end()) return false;
    return true;
}

void MatrixWalk::emit_migrate(Slot s, std::int32_t row, int option, Time delay,
                              std::int32_t from_row) {
    const Job& j = job(s);
    Action a{ActionType::migrate, j.spec.id, now()};
    a.row = row;
    a.from_row = from_row < 0 ? row : from_row;
    a.option = static_cast<std::int8_t>(option);
    a.delay = delay;
    emit_with_runs(a, j.alloc.runs, j.alloc.procs);
}

// Option 1: the jobs on a's columns in row `to` (each only in that row)
// move to other free columns of it; a keeps its columns and either moves
// there from `from` or, with `replicate`, is replicated there. Overheads
// of eq. (4): a is idle C/2 (checkpoint), each moved job C.
void MatrixWalk::migrate_option1(Slot a, std::int32_t from, std::int32_t to, bool replicate) {
    Job& ja = job(a);
    Matrix& m = machine().matrix();
    const Time c = cfg().migration_cost;
    std::vector<Slot> overlap;
    overlapping(a, to, overlap);
    std::int64_t tasks = 0;
    for (Slot o : overlap) m.clear(to, job(o).alloc.runs);
    if (replicate) {
        m.place(to, ja.alloc.runs, a);
        ja.alloc.row_mask |= bit(to);
    } else {
        move_home(a, to);  // same columns, now free in `to`
    }
    for (Slot o : overlap) {
        Allocation& ao = job(o).alloc;
        ao.runs.clear();
        if (m.free(to) < ao.procs)
            throw Error(Errc::internal, "migration option 1: no room left in the target row");
        m.allocate(to, ao.procs, ao.runs, o);
        tasks += ao.procs;
        migrated_.push_back(o);
        emit_migrate(o, to, 1, c, to);
    }
    migrated_.push_back(a);
    emit_migrate(a, to, 1, c / 2, replicate ? to : from);
    migrated_in_slice_ += tasks;
    counters().migrations += overlap.size();
    counters().migrated_tasks += static_cast<std::uint64_t>(tasks);
    rescan_ = true;
}

// Option 2: a moves to the free columns of row `to`; the jobs there stay.
// Overheads of eq. (5): a is idle C, the jobs on its old columns C/2.
void MatrixWalk::migrate_option2(Slot a, std::int32_t from, std::int32_t to) {
    Job& ja = job(a);
    Allocation& aa = ja.alloc;
    Matrix& m = machine().matrix();
    const Time c = cfg().migration_cost;
    std::vector<Slot> overlap;
    overlapping(a, to, overlap);
    m.clear(from, aa.runs);
    aa.runs.clear();
    m.allocate(to, aa.procs, aa.runs, a);
    machine().move(from, to, demand(ja), now(), ja.estimated_end());
    gained(from);
    aa.home_row = static_cast<std::int16_t>(to);
    aa.row_mask = bit(to);
    migrated_.push_back(a);
    emit_migrate(a, to, 2, c, from);
    for (Slot o : overlap) emit_migrate(o, to, 2, c / 2, to);
    migrated_in_slice_ += aa.procs;
    counters().migrations += 1;
    counters().migrated_tasks += static_cast<std::uint64_t>(aa.procs);
    rescan_ = true;
}

// A CollapseMatrix-2 candidate: a moving from `from` to `to`, with the
// costs of both options, eq. (4) and (5), in processor-seconds.
void MatrixWalk::add_migration_candidate(Slot s, std::int32_t from, std::int32_t to) {
    const Job& j = job(s);
    std::vector<Slot> overlap;
    overlapping(s, to, overlap);
    std::int32_t others = 0;
    for (Slot o : overlap) others += job(o).alloc.procs;
    const double c = static_cast<double>(cfg().migration_cost) / 1e6;
    const std::int32_t procs = j.alloc.procs;
    mig_slots_.push_back(s);
    mig_.id.push_back(j.spec.id);
    mig_.procs.push_back(procs);
    mig_.from_row.push_back(from);
    mig_.to_row.push_back(to);
    mig_.cost1.push_back(c / 2 * procs + c * others);
    mig_.cost2.push_back(c * procs + c / 2 * others);
    mig_.tasks1.push_back(others);
    mig_.tasks2.push_back(procs);
    mig_.user.push_back(j.spec.user);
#define ROTA_X(field, type, value, doc) mig_.field.push_back(j.field);
    ROTA_JOB_COLUMNS_NAMES(ROTA_X)
#undef ROTA_X
}

// The migration_option hook chooses for the whole batch; the engine
// re-checks each choice against the matrix as it changes, reservations
// (MBGS), ping-pong and Q.
void MatrixWalk::apply_migrations() {
    if (!ask<Hook::migration_option>(
            mig_, [&] { return migration_context(); }, mig_choice_))
        return;  // the fallback: no migration in this phase
    std::vector<Slot> overlap;
    for (std::size_t k = 0; k < mig_slots_.size(); ++k) {
        const std::int64_t option = mig_choice_[k];
        if (option == 0) continue;
        const Slot s = mig_slots_[k];
        const std::int32_t from = mig_.from_row[k], to = mig_.to_row[k];
        Job& j = job(s);
        if (j.alloc.home_row != from || j.alloc.row_mask != bit(from)) continue;
        overlapping(s, to, overlap);
        if (!migration_ok(s, to, overlap)) continue;
        if (!machine().row_holds(to, demand(j), now(), j.estimated_end())) continue;
        std::int64_t tasks = j.alloc.procs;
        if (option == 1) {
            tasks = 0;
            for (Slot o : overlap) tasks += job(o).alloc.procs;
        }
        const std::int64_t left = migration_budget();
        if (left >= 0 && tasks > left) continue;  // Q (§5.4)
        if (option == 1)
            migrate_option1(s, from, to, false);
        else
            migrate_option2(s, from, to);
    }
}

}  // namespace rota
