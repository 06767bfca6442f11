// A random gang-scheduling run checked against a shadow matrix: every
// action of every pass is applied, in order, to a copy of the matrix, must
// never put a job on a cell another job holds, and must leave the copy equal
// to the engine's matrix (rota_matrix_row). Shared by the gang and buddy
// packing tests.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "support.h"

namespace rota::test {

struct ShadowRun {
    std::uint64_t replicas = 0;  // REPLICATE actions seen
};

// 400 steps of up to 60 s on `eng` (a gang engine of `procs` columns and
// `rows` rows): each step ends the jobs due, submits a job of 1-16
// processors two times in three (estimate 500 s, running 50-450 s) and runs
// a pass. `view` turns a row read from the engine into what the actions
// describe (buddy packing: a job's cells beyond its width are its block's
// idle part); `widths` checks each action's node count against the job's.
inline ShadowRun shadow_matrix_run(
    rota_engine* eng, std::int32_t procs, std::int32_t rows, std::uint64_t seed,
    bool widths = false,
    const std::function<void(std::vector<std::int64_t>&,
                             const std::map<std::int64_t, std::int32_t>&)>& view = {}) {
    constexpr rota_time kS = 1'000'000;
    std::vector<std::vector<std::int64_t>> shadow(rows, std::vector<std::int64_t>(procs, -1));
    std::map<std::int64_t, std::int32_t> width;
    std::map<std::int64_t, rota_time> ends;  // running jobs and when they end
    std::uint64_t rng = seed;
    auto next = [&] {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        return rng;
    };
    ShadowRun run;
    auto apply = [&](const rota_action& a) {
        auto cells = [&](std::int64_t expect, std::int64_t put) {
            if (widths) REQUIRE(a.nnodes == width[a.job]);
            for (std::int32_t k = 0; k < a.nruns; ++k)
                for (std::int32_t c = a.runs[k].first; c < a.runs[k].first + a.runs[k].count; ++c) {
                    INFO("row " << a.row << " col " << c << " action " << a.type << " job "
                                << a.job);
                    REQUIRE(shadow[a.row][c] == expect);
                    shadow[a.row][c] = put;
                }
        };
        if (a.type == ROTA_ACTION_START) {
            cells(-1, a.job);
            ends[a.job] = a.time + static_cast<rota_time>(50 + next() % 400) * kS;
        } else if (a.type == ROTA_ACTION_REPLICATE) {
            ++run.replicas;
            cells(-1, a.job);
        } else if (a.type == ROTA_ACTION_UNREPLICATE) {
            cells(a.job, -1);
        }
    };
    auto drain_into_shadow = [&] {
        rota_action a{};
        a.size = sizeof(rota_action);
        while (rota_next_action(eng, &a) == ROTA_OK) apply(a);
    };
    rota_time now = 0;
    std::int64_t id = 0;
    for (int step = 0; step < 400; ++step) {
        now += static_cast<rota_time>(next() % 60) * kS;
        REQUIRE(rota_advance(eng, now) == ROTA_OK);
        drain_into_shadow();
        for (auto it = ends.begin(); it != ends.end();) {
            if (it->second <= now) {
                REQUIRE(rota_job_end(eng, it->first) == ROTA_OK);
                for (auto& row : shadow)
                    for (auto& c : row)
                        if (c == it->first) c = -1;
                it = ends.erase(it);
            } else {
                ++it;
            }
        }
        if (next() % 3 != 0) {
            rota_job j{};
            j.size = sizeof(rota_job);
            j.id = id++;
            j.procs = 1 + static_cast<std::int32_t>(next() % 16);
            j.estimate = 500 * kS;
            width[j.id] = j.procs;
            REQUIRE(rota_submit(eng, &j) == ROTA_OK);
        }
        REQUIRE(rota_schedule(eng) == ROTA_OK);
        drain_into_shadow();
        for (std::int32_t r = 0; r < rows; ++r) {
            std::vector<std::int64_t> row(procs);
            std::size_t n = 0;
            REQUIRE(rota_matrix_row(eng, r, row.data(), row.size(), &n) == ROTA_OK);
            if (view) view(row, width);
            REQUIRE(row == shadow[r]);
        }
    }
    return run;
}

}  // namespace rota::test
