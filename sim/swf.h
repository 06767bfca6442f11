// Standard Workload Format (SWF) reader and the mappings from SWF records to
// simulator jobs. Plain C++, independent of the scheduling engine.
//
// Format: https://www.cs.huji.ac.il/labs/parallel/workload/swf.html
// Mappings and their rationale: docs/workloads.md.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rota::sim {

// One SWF line, fields 1-18 in order; -1 means "missing" as in the format.
struct SwfRecord {
    std::int64_t id = -1;           // 1 job number
    std::int64_t submit = -1;       // 2 submit time (s)
    std::int64_t wait = -1;         // 3 wait time (s)
    std::int64_t run_time = -1;     // 4 run time (s)
    std::int32_t alloc_procs = -1;  // 5 allocated processors
    double avg_cpu = -1;            // 6 average CPU time (s), may be fractional
    std::int64_t used_mem = -1;     // 7 used memory (KB)
    std::int32_t req_procs = -1;    // 8 requested processors
    std::int64_t req_time = -1;     // 9 requested time (s)
    std::int64_t req_mem = -1;      // 10 requested memory
    std::int32_t status = -1;       // 11
    std::int32_t user = -1;         // 12
    std::int32_t group = -1;        // 13
    std::int32_t executable = -1;   // 14
    std::int32_t queue = -1;        // 15
    std::int32_t partition = -1;    // 16
    std::int64_t preceding = -1;    // 17 preceding job number
    std::int64_t think = -1;        // 18 think time (s)

    bool operator==(const SwfRecord&) const = default;
};

struct SwfHeader {
    std::int32_t max_procs = -1;     // "; MaxProcs: N", -1 if absent
    std::int32_t max_nodes = -1;     // "; MaxNodes: N", -1 if absent
    std::vector<std::string> lines;  // the raw comment lines before the first record, ';' included
};

// Name of SWF field k (1-based, 1..18), e.g. "run time"; "?" otherwise.
const char* swf_field_name(int field);

// Any failure to read a trace. what() is
//   "<file>:<line>: field <k> (<name>): <what>"  for a bad field,
//   "<file>:<line>: <what>"                       for a bad line,
//   "<file>: <what>"                              for a bad file (line 0).
class SwfError : public std::runtime_error {
  public:
    SwfError(std::string file, std::int64_t line, int field, const std::string& what);
    const std::string& file() const { return file_; }
    std::int64_t line() const { return line_; }  // 1-based; 0 if not about a line
    int field() const { return field_; }         // 1-based; 0 if not about a field

  private:
    std::string file_;
    std::int64_t line_;
    int field_;
};

// Streams the records of a plain or gzip-compressed SWF file (recognised by
// its magic bytes, not its name). Comment lines before the first record make
// the header, which is parsed by the constructor; later comment lines and blank
// lines are skipped. Fields beyond the 18th are ignored.
class SwfReader {
  public:
    explicit SwfReader(const std::string& path);  // throws SwfError
    ~SwfReader();
    SwfReader(SwfReader&&) noexcept;
    SwfReader& operator=(SwfReader&&) noexcept;
    SwfReader(const SwfReader&) = delete;
    SwfReader& operator=(const SwfReader&) = delete;

    const SwfHeader& header() const;
    // Reads the next record; false at the end. Throws SwfError on a malformed line.
    bool next(SwfRecord& out);
    // Physical line number (1-based) of the last line read.
    std::int64_t line_number() const;
    const std::string& path() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// A job as the simulator sees it; times in seconds. 40 bytes: a million-job
// trace is held in memory.
struct TraceJob {
    std::int64_t id;
    std::int64_t submit;
    std::int64_t runtime;   // actual (dedicated) execution time
    std::int64_t estimate;  // user's requested time, >= runtime
    std::int32_t procs;
    std::int32_t user;  // -1 if unknown

    bool operator==(const TraceJob&) const = default;
};
static_assert(sizeof(TraceJob) <= 40, "TraceJob is held for every job of a trace");

enum class SkipReason { runtime_not_positive, procs_not_positive };
const char* skip_reason_name(SkipReason);  // "runtime_not_positive", ...

struct MappingStats {
    std::int64_t records = 0;                      // records offered to the mapping
    std::int64_t kept = 0;                         // jobs produced
    std::map<std::string, std::int64_t> skipped;   // skip_reason_name -> count
    std::vector<std::int64_t> skipped_ids_sample;  // ids of the first 20 skipped records
    std::int64_t runtime_cut_to_estimate = 0;      // runtime lowered to the estimate
    std::int64_t estimate_from_runtime = 0;        // no usable requested time
    std::int64_t substituted = 0;                  // pyss only: records replaced by 1 s / 1 s jobs
    std::int64_t skipped_total() const;
};

// rota's mapping (docs/workloads.md):
//   procs    = field 5 if > 0, else field 8;
//   estimate = field 9 if > 0, else the runtime (counted);
//   runtime  = field 4, cut to the estimate if above it (counted);
//   runtime <= 0 or procs <= 0: skipped (never ran), counted by reason.
// Jobs larger than the machine are kept: admission rejects them later.
std::optional<TraceJob> map_default(const SwfRecord&, MappingStats&);

// pyss's mapping (traces/reference/README.md), P = machine_procs; never skips:
//   run <= 0, alloc <= 0 or submit < 0: estimate = runtime = 1,
//       procs = max(1, alloc), submit = max(submit, 1);
//   else estimate = max(req, run, 1), runtime = max(min(req, run), 1),
//       procs = max(min(alloc, P), 1).
std::optional<TraceJob> map_pyss(const SwfRecord&, std::int32_t machine_procs, MappingStats&);

enum class Mapping { standard, pyss };

struct Trace {
    SwfHeader header;
    std::vector<TraceJob> jobs;
    MappingStats stats;
};

// Reads a whole trace. machine_procs is used by the pyss mapping only; if it is
// <= 0 there, the header's MaxProcs is used (std::invalid_argument if absent too).
Trace load_trace(const std::string& path, Mapping m, std::int32_t machine_procs = 0);

}  // namespace rota::sim
