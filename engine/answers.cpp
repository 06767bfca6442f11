#include "answers.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace rota {

namespace {

std::string count_mismatch(std::size_t got, const char* what, std::size_t want, const char* of) {
    return std::to_string(got) + " " + what + " for " + std::to_string(want) + " " + of;
}

// A 0-based index as the policy wrote it. A script's smallest integer
// stays itself when made 0-based (lua/decode.cpp): it is shown as given.
std::string one_based(std::int64_t i) {
    return i == std::numeric_limits<std::int64_t>::min() ? std::to_string(i)
                                                         : std::to_string(i + 1);
}

// Answers are read by position; "job 2" would read as a job id.
std::string at_position(std::size_t i) {
    return "the job at position " + std::to_string(i);
}

}  // namespace

std::string number_text(double v) {
    if (std::isnan(v)) return "NaN";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.14g", v);
    return buf;
}

std::string check_admission(const std::vector<Admission>& a, std::size_t jobs) {
    if (a.size() != jobs) return count_mismatch(a.size(), "decisions", jobs, "jobs");
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].kind == AdmissionKind::reject && a[i].reason.empty())
            return "a reject without a non-empty reason for " + at_position(i + 1);
        // The engine would wake at that time, which no clock can reach.
        if (a[i].kind == AdmissionKind::hold && a[i].until != kForever && a[i].until > kTimeAxisEnd)
            return "hold time " + std::to_string(a[i].until) + " for " + at_position(i + 1) +
                   " is beyond the time axis (at most " + std::to_string(kTimeAxisEnd) +
                   " us; \"hold\" holds without a time)";
    }
    return {};
}

std::string check_keys(const std::vector<double>& keys, std::size_t jobs) {
    if (keys.size() != jobs) return count_mismatch(keys.size(), "keys", jobs, "jobs");
    for (std::size_t i = 0; i < keys.size(); ++i)
        if (!std::isfinite(keys[i]))
            return number_text(keys[i]) + " as the key of " + at_position(i + 1);
    return {};
}

std::string check_picks(const std::vector<std::int64_t>& picks, std::size_t candidates,
                        std::vector<std::uint8_t>& seen, std::int64_t first) {
    // The smallest integer stays itself as given (see one_based).
    const auto shown = [first](std::int64_t i) {
        return first == 1 ? one_based(i) : std::to_string(i);
    };
    if (picks.size() > candidates)
        return count_mismatch(picks.size(), "picks", candidates, "candidates");
    if (seen.size() < candidates) seen.resize(candidates);
    std::string why;
    std::size_t k = 0;
    for (; k < picks.size(); ++k) {
        const std::int64_t p = picks[k];
        if (p < 0 || static_cast<std::uint64_t>(p) >= candidates) {
            why = "index " + shown(p) + " is outside the candidates " + std::to_string(first) +
                  ".." + std::to_string(static_cast<std::int64_t>(candidates) - 1 + first);
            break;
        }
        if (seen[static_cast<std::size_t>(p)] != 0) {
            why = "index " + std::to_string(p + first) + " appears twice";
            break;
        }
        seen[static_cast<std::size_t>(p)] = 1;
    }
    if (!why.empty()) why += " (at position " + std::to_string(k + 1) + ")";
    for (std::size_t i = 0; i < k; ++i) seen[static_cast<std::size_t>(picks[i])] = 0;
    return why;
}

std::string check_options(const std::vector<std::int64_t>& options, std::size_t moves) {
    if (options.size() != moves) return count_mismatch(options.size(), "options", moves, "moves");
    for (std::size_t i = 0; i < options.size(); ++i)
        if (options[i] < 0 || options[i] > 2)
            return "option " + std::to_string(i + 1) + " is " + std::to_string(options[i]) +
                   ", not 0, 1 or 2";
    return {};
}

std::string check_placement(const std::vector<std::int64_t>& a, const JobBatch& jobs,
                            std::int32_t clusters) {
    std::size_t want = 0;
    for (std::size_t j = 0; j < jobs.size(); ++j)
        want += static_cast<std::size_t>(jobs.components(j));
    if (a.size() != want) return count_mismatch(a.size(), "clusters", want, "components");
    std::size_t at = 0;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        const auto k = static_cast<std::size_t>(jobs.components(j));
        for (std::size_t i = 0; i < k; ++i) {
            const std::int64_t c = a[at + i];
            if (c < 0 || c >= clusters)
                return at_position(j + 1) + ": cluster " + one_based(c) + " is outside 1.." +
                       std::to_string(clusters);
            for (std::size_t o = 0; o < i; ++o)
                if (a[at + o] == c)
                    return at_position(j + 1) + ": cluster " + one_based(c) +
                           " holds two of its components";
        }
        at += k;
    }
    return {};
}

HookOutcome invalid_answer(Hook h, const Policy& p, const std::string& why) {
    return HookOutcome::failure(std::string(hook_name(h)) + ": " + p.source(h) +
                                " returned an invalid answer: " + why);
}

std::string check_preempt(const std::vector<std::int64_t>& pick, std::size_t sets) {
    if (pick.size() > 1)
        return std::to_string(pick.size()) + " sets chosen; a job gets one set, or none (nil)";
    if (!pick.empty() && (pick[0] < 0 || pick[0] >= static_cast<std::int64_t>(sets)))
        return "set " + one_based(pick[0]) + " out of range 1.." + std::to_string(sets);
    return {};
}

std::string check_harvest(const std::vector<std::int64_t>& take, const MalleableBatch& victims,
                          std::int64_t needed) {
    if (take.empty()) return {};
    if (take.size() != victims.size())
        return count_mismatch(take.size(), "amounts", victims.size(), "victims");
    std::int64_t sum = 0;
    for (std::size_t i = 0; i < take.size(); ++i) {
        const std::int64_t most = victims.procs[i] - victims.min[i];
        if (take[i] < 0 || take[i] > most)
            return std::to_string(take[i]) + " processors from the victim at position " +
                   std::to_string(i + 1) + ", which can give 0.." + std::to_string(most) +
                   " (it holds " + std::to_string(victims.procs[i]) + ", its min is " +
                   std::to_string(victims.min[i]) + ")";
        sum += take[i];
    }
    if (sum != needed)
        return "takes " + std::to_string(sum) + " processors in all; " + std::to_string(needed) +
               " are needed";
    return {};
}

std::string check_distribution(const std::vector<std::int64_t>& give, const MalleableBatch& jobs,
                               std::int64_t avail) {
    if (give.size() != jobs.size())
        return count_mismatch(give.size(), "amounts", jobs.size(), "jobs");
    std::int64_t sum = 0;
    for (std::size_t i = 0; i < give.size(); ++i) {
        const std::int64_t g = give[i];
        // Spelled only for an error: this runs on every distribution.
        const auto who = [&] { return "job at position " + std::to_string(i + 1); };
        if (jobs.queued[i]) {
            if (g != 0 && (g < jobs.min[i] || g > jobs.ideal[i]))
                return std::to_string(g) + " processors for the queued " + who() +
                       ", whose min..ideal is " + std::to_string(jobs.min[i]) + ".." +
                       std::to_string(jobs.ideal[i]) + " (or 0)";
        } else if (g < 0 || g > jobs.ideal[i] - jobs.procs[i]) {
            return std::to_string(g) + " more processors for the running " + who() +
                   ", which can take 0.." + std::to_string(jobs.ideal[i] - jobs.procs[i]);
        }
        sum += g;
    }
    if (sum > avail)
        return "gives " + std::to_string(sum) + " processors in all; " + std::to_string(avail) +
               " are free";
    return {};
}

}  // namespace rota
