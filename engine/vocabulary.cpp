#include "vocabulary.h"

#include <algorithm>

#include "job.h"
#include "usage.h"

namespace rota {

const char* hook_name(Hook h) {
    switch (h) {
#define ROTA_X(hook, id, B, C, A, fallback) \
    case Hook::hook:                        \
        return #hook;
        ROTA_HOOKS(ROTA_X)
#undef ROTA_X
    }
    return "?";
}

const char* hook_fallback(Hook h) {
    switch (h) {
#define ROTA_X(hook, id, B, C, A, fallback) \
    case Hook::hook:                        \
        return fallback;
        ROTA_HOOKS(ROTA_X)
#undef ROTA_X
    }
    return "?";
}

const char* job_state_name(JobState s) {
    switch (s) {
        case JobState::pending:
            return "pending";
        case JobState::held:
            return "held";
        case JobState::waiting:
            return "waiting";
        case JobState::queued:
            return "queued";
        case JobState::running:
            return "running";
        case JobState::suspended:
            return "suspended";
        case JobState::finished:
            return "finished";
        case JobState::killed:
            return "killed";
        case JobState::rejected:
            return "rejected";
        case JobState::cancelled:
            return "cancelled";
    }
    return "?";
}

double UserFigures::value(std::int32_t user) const {
    if (!book) return 0.0;
    switch (figure) {
        case UserFigure::usage:
            return book->usage(user, now);
        case UserFigure::procs:
            return book->procs(user);
        case UserFigure::running:
            return book->running(user);
    }
    return 0.0;
}

void JobBatch::clear() {
    // Called at every pass and admission, mostly on an empty batch.
    if (id.empty() && R.empty() && width.empty() && first.size() == 1) return;
#define ROTA_X(name, type, value, doc) name.clear();
    ROTA_JOB_COLUMNS_ALL(ROTA_X)
#undef ROTA_X
    R.clear();
    first.resize(1);
    width.clear();
}

void JobBatch::push(const Job& j) {
#define ROTA_X(name, type, value, doc) name.push_back(value);
    ROTA_JOB_COLUMNS_ALL(ROTA_X)
#undef ROTA_X
    if (with_components) {
        width.insert(width.end(), j.spec.components.begin(), j.spec.components.end());
        first.push_back(static_cast<std::int32_t>(width.size()));
    }
    if (inv_capacity.empty()) return;
    R.push_back(static_cast<double>(j.spec.procs) * inv_capacity[0]);
    for (std::size_t k = 1; k < inv_capacity.size(); ++k)
        R.push_back(static_cast<double>(j.spec.pools[k - 1]) * inv_capacity[k]);
}

void JobBatch::refresh_classes(std::size_t k, const Job& j) {
#define ROTA_X(name, type, value, doc) name[k] = value;
    ROTA_JOB_COLUMNS_CLASSES(ROTA_X)
#undef ROTA_X
}

void JobBatch::keep_rows(const std::vector<std::uint8_t>& keep) {
    const std::size_t n = size();
    std::size_t gap = 0;  // the first row to go: rows before it stay where they are
    while (gap < n && keep[gap]) ++gap;
    if (gap == n) return;
    const auto squeeze = [&](auto& v, std::size_t per) {
        std::size_t to = gap * per;
        for (std::size_t i = gap; i < n; ++i)
            if (keep[i])
                for (std::size_t c = 0; c < per; ++c) v[to++] = v[i * per + c];
        v.resize(to);
    };
#define ROTA_X(name, type, value, doc) squeeze(name, 1);
    ROTA_JOB_COLUMNS_ALL(ROTA_X)
#undef ROTA_X
    if (!inv_capacity.empty()) squeeze(R, inv_capacity.size());
    if (!with_components) return;
    // Row i's widths are width[first[i], first[i + 1]); a kept row's move
    // down, and first[] is rewritten behind the reading.
    std::size_t to = gap;
    auto w = static_cast<std::size_t>(first[gap]);
    for (std::size_t i = gap; i < n; ++i) {
        if (!keep[i]) continue;
        const auto a = static_cast<std::size_t>(first[i]),
                   b = static_cast<std::size_t>(first[i + 1]);
        std::copy(width.begin() + static_cast<std::ptrdiff_t>(a),
                  width.begin() + static_cast<std::ptrdiff_t>(b),
                  width.begin() + static_cast<std::ptrdiff_t>(w));
        w += b - a;
        first[++to] = static_cast<std::int32_t>(w);
    }
    first.resize(to + 1);
    width.resize(w);
}

void MigrationBatch::clear() {
#define ROTA_X(name, type, doc) name.clear();
    ROTA_MIGRATION_COLUMNS(ROTA_X)
#undef ROTA_X
}

void MalleableBatch::clear() {
#define ROTA_X(name, type, doc) name.clear();
    ROTA_MALLEABLE_COLUMNS(ROTA_X)
#undef ROTA_X
}

void PreemptBatch::clear() {
#define ROTA_X(name, type, doc) name.clear();
    ROTA_PREEMPT_COLUMNS(ROTA_X)
#undef ROTA_X
}

}  // namespace rota
