#include "stopping.h"

#include <limits>
#include <stdexcept>

namespace rota::sim {

std::vector<bool> watched_series(const GroupLayout& layout, bool groups) {
    std::vector<bool> w(layout.series(), groups);
    w[0] = true;
    return w;
}

StopMonitor::StopMonitor(std::vector<JobShape> shapes, GroupLayout layout,
                         std::vector<std::uint32_t> order, StopRule rule)
    : shapes_(std::move(shapes)),
      layout_(std::move(layout)),
      order_(std::move(order)),
      rule_(rule),
      bm_(layout_.series(), rule.batches, watched_series(layout_, rule.groups)) {
    if (!(rule_.rel_error > 0))
        throw std::invalid_argument("stopping rule: the relative error must be > 0");
    if (rule_.warmup < 0) throw std::invalid_argument("stopping rule: the warm-up must be >= 0");
    last_.max_rel_error = std::numeric_limits<double>::infinity();
    next_ = std::min(order_.size(), static_cast<std::size_t>(rule_.warmup));
}

bool StopMonitor::update(const std::vector<JobOutcome>& outcomes) {
    if (stopped_) return true;
    while (next_ < order_.size()) {
        const std::uint32_t i = order_[next_];
        const JobOutcome& o = outcomes[i];
        if (o.state == FinalState::unfinished) return false;
        ++next_;
        const bool done = (o.state == FinalState::finished || o.state == FinalState::killed) &&
                          o.start >= 0 && o.finish >= o.start;
        if (done) {
            const auto series = layout_.of(shapes_[i]);
            bm_.add(series.data(), series.size(), static_cast<double>(o.finish - o.submit));
        } else {
            bm_.skip();
        }
        if (!bm_.batch_closed() || bm_.batches() < rule_.batches.min_batches) continue;
        last_ = bm_.result();
        if (last_.max_rel_error <= rule_.rel_error) {
            stopped_ = true;
            measured_ = last_.observations;
            return true;
        }
    }
    return false;
}

}  // namespace rota::sim
