// Time slicing ([Zhang00] §4): what the embedder is told after a pass with
// more than one row, and the rotation of the active row every slice.
#include <algorithm>

#include "walk.h"

namespace rota {

namespace {

std::uint32_t bit(std::int32_t row) {
    return std::uint32_t{1} << row;
}

bool same_runs(const std::vector<NodeRun>& x, const std::vector<NodeRun>& y) {
    return x.size() == y.size() &&
           std::equal(x.begin(), x.end(), y.begin(), [](const NodeRun& a, const NodeRun& b) {
               return a.first == b.first && a.count == b.count;
           });
}

}  // namespace

// The net result of the pass for the embedder, whatever clean, collapse,
// migration and fill did in between: first every release (UNREPLICATE,
// with the columns the job held), then home-row changes (MOVE), the new
// jobs (START, in start order) and every new placement (REPLICATE, with
// the columns it now holds); applied in this order no action puts a job on
// cells another still holds. MIGRATE actions then say what was
// checkpointed and restarted and for how long (they place nothing).
// Under buddy packing the columns named are those the job runs on, the
// first of its block (emit_job_runs); the rest of the block stays idle.
void MatrixWalk::announce_placements() {
    auto on = [](std::uint32_t mask, std::int32_t r) { return (mask & bit(r)) != 0; };
    const std::int32_t rows = cfg().rows;
    std::size_t b = 0;
    for (Slot s : running()) {  // releases
        if (b >= before_pass_.size() || before_pass_[b].slot != s) continue;
        const Placement& p = before_pass_[b++];
        const Allocation& a = job(s).alloc;
        const bool moved_columns = !same_runs(p.runs, a.runs);
        for (std::int32_t r = 0; r < rows; ++r)
            if (on(p.mask, r) && (!on(a.row_mask, r) || moved_columns)) {
                Action act{ActionType::unreplicate, job(s).spec.id, now()};
                act.row = r;
                emit_job_runs(act, job(s), p.runs);
            }
    }
    b = 0;
    for (Slot s : running()) {  // home rows
        if (b >= before_pass_.size() || before_pass_[b].slot != s) continue;
        const Placement& p = before_pass_[b++];
        const Allocation& a = job(s).alloc;
        if (p.home != a.home_row) {
            Action act{ActionType::move, job(s).spec.id, now()};
            act.row = a.home_row;
            emit_job_runs(act, job(s), a.runs);
        }
    }
    for (Slot s : started_in_pass_) {  // new jobs, in their final place
        const Allocation& a = job(s).alloc;
        Action act{ActionType::start, job(s).spec.id, now()};
        act.row = a.home_row;
        emit_job_runs(act, job(s), a.runs);
    }
    b = 0;
    for (Slot s : running()) {  // placements
        const Allocation& a = job(s).alloc;
        std::uint32_t held = bit(a.home_row);  // a new job: START gave its home row
        if (b < before_pass_.size() && before_pass_[b].slot == s) {
            const Placement& p = before_pass_[b++];
            held = same_runs(p.runs, a.runs) ? p.mask : 0;
        }
        for (std::int32_t r = 0; r < rows; ++r)
            if (on(a.row_mask, r) && !on(held, r)) {
                Action act{ActionType::replicate, job(s).spec.id, now()};
                act.row = r;
                emit_job_runs(act, job(s), a.runs);
            }
    }
    append_held_actions();
}

// Suspend what left the active row, resume what entered it, timed `at`.
// Marks by epoch keep it linear in the columns and running jobs.
void MatrixWalk::announce_active(Time at) {
    if (in_row_.size() < jobs().size()) {
        in_row_.resize(jobs().size(), 0);
        was_executing_.resize(jobs().size(), 0);
    }
    ++mark_epoch_;
    for (Slot s : executing_) was_executing_[s] = mark_epoch_;
    for (Slot s : unannounced_) was_executing_[s] = 0;  // a RESUME if in the active row
    unannounced_.clear();
    std::vector<Slot> now_running;
    const Matrix& m = machine().matrix();
    for (std::int32_t c = 0; c < m.cols(); ++c) {
        const Slot s = m.at(active_row(), c);
        if (s == Matrix::kEmpty || in_row_[s] == mark_epoch_) continue;
        in_row_[s] = mark_epoch_;
        now_running.push_back(s);
    }
    for (Slot s : executing_)
        if (in_row_[s] != mark_epoch_) {
            Action a{ActionType::suspend, job(s).spec.id, at};
            a.row = active_row();
            emit(a);
        }
    for (Slot s : now_running)
        if (was_executing_[s] != mark_epoch_) {
            Action a{ActionType::resume, job(s).spec.id, at};
            a.row = active_row();
            emit(a);
        }
    executing_ = std::move(now_running);
}

// The next non-empty row after the active one, cyclically (the active row
// itself when it is the only one), -1 when every row is empty; `nonempty`
// gets how many rows have work.
std::int32_t MatrixWalk::next_busy_row(std::int32_t& nonempty) const {
    const Matrix& m = machine().matrix();
    const std::int32_t rows = m.rows();
    std::int32_t next = -1;
    nonempty = 0;
    for (std::int32_t k = 1; k <= rows; ++k) {
        const std::int32_t r = (active_row() + k) % rows;
        if (m.used(r) == 0) continue;
        ++nonempty;
        if (next < 0) next = r;
    }
    return next;
}

// SWITCH if the active row is another than `from`, then SUSPEND and RESUME
// for the jobs that left or entered it since the last announcement.
void MatrixWalk::announce_switch(std::int32_t from, Time at) {
    if (active_row() != from) {
        Action a{ActionType::switch_row, -1, at};
        a.row = active_row();
        emit(a);
    }
    announce_active(at);
}

// The next non-empty row becomes active for a new slice.
void MatrixWalk::rotate_slices() {
    const std::int32_t from = active_row();
    std::int32_t nonempty = 0;
    if (const std::int32_t next = next_busy_row(nonempty); next >= 0) set_active_row(next);
    slice_end_ = nonempty >= 2 ? now() + cfg().slice : kForever;
    announce_switch(from, now());
}

// Every slice boundary from now (the first) up to `until`, for one advance
// of the clock. No pass runs between them, so the same rows have work at
// each and the active row steps through them in turn: the row after n
// boundaries is found in n mod (rows with work) steps, not n. Only the net
// change is told, timed at the last boundary: a SWITCH if the active row
// is another than before, SUSPEND and RESUME for the jobs that left or
// entered it. A job switched out and in again within one advance was
// never told to stop, and the embedder, which applies the actions after
// the advance, could not have stopped it: at most one SWITCH and one
// action per running job, however many boundaries (before, three actions
// a boundary: 6,000,000 for 2 s of 1 us slices).
void MatrixWalk::pass_slices(Time until) {
    const std::int32_t from = active_row();
    std::int32_t nonempty = 0;
    if (const std::int32_t next = next_busy_row(nonempty); next >= 0) set_active_row(next);
    Time last = now();
    slice_end_ = kForever;
    if (nonempty >= 2) {
        const Time more = until > now() ? (until - now()) / cfg().slice : 0;
        last = now() + more * cfg().slice;
        for (Time k = more % nonempty; k > 0; --k) set_active_row(next_busy_row(nonempty));
        slice_end_ = last + cfg().slice;
    }
    announce_switch(from, last);
}

}  // namespace rota
