#include "jobs_npy.h"

#include <fmt/format.h>

#include <bit>
#include <cstring>
#include <ostream>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "outputs.h"

namespace rota::sim {

static_assert(std::endian::native == std::endian::little,
              "the .npy records are written in the host's byte order, declared little-endian");

namespace {

constexpr const char* kDescr =
    "[('job_id', '<i8'), ('submission_time', '<i8'), ('requested_number_of_resources', '<i4'), "
    "('requested_time', '<i8'), ('success', '|i1'), ('final_state', '|u1'), "
    "('starting_time', '<i8'), ('execution_time', '<i8'), ('finish_time', '<i8'), "
    "('waiting_time', '<i8'), ('turnaround_time', '<i8'), ('stretch', '<f8'), "
    "('allocated_resources', '<u4'), ('consumed_energy', '<i8')]";
constexpr std::size_t kRecord = 8 + 8 + 4 + 8 + 1 + 1 + 8 * 5 + 8 + 4 + 8;

template <class T>
char* put(char* at, T v) {
    std::memcpy(at, &v, sizeof v);
    return at + sizeof v;
}

}  // namespace

std::string jobs_npy_header(std::size_t n) {
    std::string dict =
        fmt::format("{{'descr': {}, 'fortran_order': False, 'shape': ({},), }}", kDescr, n);
    const std::size_t fixed = 6 + 2 + 2;  // magic, version, header length
    std::size_t total = fixed + dict.size() + 1;
    total = (total + 63) / 64 * 64;
    if (total - fixed > 0xffff) throw std::logic_error("jobs_npy_header: the header is too long");
    dict.append(total - fixed - dict.size() - 1, ' ');
    dict.push_back('\n');
    std::string h("\x93NUMPY\x01\x00", 8);
    const auto len = static_cast<std::uint16_t>(dict.size());
    h.push_back(static_cast<char>(len & 0xff));
    h.push_back(static_cast<char>(len >> 8));
    return h + dict;
}

void write_jobs_npy(std::ostream& records, std::ostream* nodes_out,
                    const std::vector<JobOutcome>& jobs, const NodeTexts& nodes) {
    if (!nodes.empty() && nodes.size() != jobs.size())
        throw std::invalid_argument("write_jobs_npy: the nodes do not cover every job");
    BatsimRow r;
    std::size_t n = 0;
    for (const JobOutcome& j : jobs) n += batsim_row(j, r) ? 1 : 0;
    records << jobs_npy_header(n);
    std::vector<char> buf;
    buf.reserve(std::min<std::size_t>(n, 1u << 14) * kRecord);
    fmt::memory_buffer text;
    // Each distinct text once, numbered in the order first met (0: "").
    std::unordered_map<std::string_view, std::uint32_t> line;
    line.reserve(1024);
    line.emplace(std::string_view(), 0);
    if (nodes_out) text.push_back('\n');
    auto flush = [&](bool all) {
        if (all || buf.size() >= (1u << 20)) {
            records.write(buf.data(), static_cast<std::streamsize>(buf.size()));
            buf.clear();
        }
        if (nodes_out && (all || text.size() >= (1u << 20))) {
            nodes_out->write(text.data(), static_cast<std::streamsize>(text.size()));
            text.clear();
        }
    };
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        if (!batsim_row(jobs[i], r)) continue;
        const std::size_t at = buf.size();
        buf.resize(at + kRecord);
        char* p = buf.data() + at;
        p = put(p, r.job_id);
        p = put(p, r.submission_time);
        p = put(p, r.requested_number_of_resources);
        p = put(p, r.requested_time);
        p = put(p, r.success);
        p = put(p, r.final_state);
        p = put(p, r.starting_time);
        p = put(p, r.execution_time);
        p = put(p, r.finish_time);
        p = put(p, r.waiting_time);
        p = put(p, r.turnaround_time);
        p = put(p, r.stretch);
        const std::string_view t =
            r.final_state != 3 && !nodes.empty() ? nodes[i] : std::string_view();
        const auto [it, added] = line.emplace(t, static_cast<std::uint32_t>(line.size()));
        if (added && nodes_out) {
            text.append(t);
            text.push_back('\n');
        }
        p = put(p, it->second);
        put(p, r.consumed_energy);
        flush(false);
    }
    flush(true);
}

}  // namespace rota::sim
