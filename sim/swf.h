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
#include <string_view>
#include <utility>
#include <vector>

#include "clusters.h"
#include "components.h"
#include "pools.h"

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
    // Fields 19, 20, ...: the demand on each pool the header declares
    // ("; Pools:"), in its order; empty when it declares none.
    std::vector<std::int64_t> pools;
    // The field after those, when the header declares components (";
    // Components: widths"): the job's component widths, "6+6+5"; "-1" (one
    // component of all its processors) leaves it empty.
    std::vector<std::int32_t> components;

    bool operator==(const SwfRecord&) const = default;
};

// The most processors a machine may have: the engine's limit on
// machine.procs (docs/config.md).
constexpr std::int32_t kMaxMachineProcs = 1'000'000;

// The most pools a header's "; Pools:" line may declare (each record then
// carries one field per pool; the generator makes at most 63).
constexpr std::size_t kMaxHeaderPools = 1024;

struct SwfHeader {
    // "; MaxProcs: N" and "; MaxNodes: N", -1 if absent. N is a whole
    // number >= 1, the rest of the line commentary; anything else is an
    // error naming the line.
    std::int32_t max_procs = -1;
    std::int32_t max_nodes = -1;
    std::int64_t max_procs_line = 0, max_nodes_line = 0;  // where they are
    std::int64_t max_records = -1;                        // "; MaxRecords: N", -1 if absent
    // "; Pools: name=capacity name=capacity ...": rota's representation of
    // [Leinberger99]'s resources 2..K (docs/workloads.md, "Pools in SWF"); each
    // record then carries one more field per pool, after field 18.
    std::vector<PoolSpec> pools;
    // "; Components: widths": every record carries its component widths
    // in one more field, after the pool demands ([Ngubiri07] §2.2;
    // docs/workloads.md, "Components in SWF").
    bool components = false;
    // "; Clusters: 20 20 20 20 20": the multi-cluster machine the workload
    // was made for; the simulator's default when no clusters are given.
    std::vector<ClusterSpec> clusters;
    // "; TimeUnit: 1000": seconds per time unit of the model that made the
    // workload (0: not declared), so that reports can speak its units.
    double time_unit = 0;
    // "; AdaptBytes: 1=262144 5=262144": the bytes an adaptation (a grow or
    // a shrink) of a job of each executable (field 14) redistributes,
    // [Weissman03] §4.1 (docs/workloads.md, "Applications in SWF"), sorted by
    // executable. Empty when not declared.
    std::vector<std::pair<std::int32_t, std::int64_t>> adapt_bytes;
    // "; UnixStartTime: N" and "; TimeZone: S" (seconds east of UTC): when
    // the log's time 0 was, -1 and 0 when absent.
    std::int64_t unix_start_time = -1;
    std::int64_t time_zone = 0;
    // The raw comment lines before the first record, ';' included: the
    // first ones, at most kHeaderLinesKept of them and kHeaderBytesKept bytes. The
    // fields above are read from every line; the lines themselves are kept
    // for notes, and a header of millions of comment lines must not fill
    // memory. `lines_dropped` counts the lines not kept.
    static constexpr std::size_t kHeaderLinesKept = 1000;
    static constexpr std::size_t kHeaderBytesKept = 64 * 1024;
    std::vector<std::string> lines;
    std::size_t line_bytes = 0;  // held in `lines`
    std::int64_t lines_dropped = 0;
};

// The machine size the header gives: MaxProcs, else MaxNodes; 0 for
// neither. Throws SwfError naming `file` and the header line when it is
// more than kMaxMachineProcs.
std::int32_t header_procs(const SwfHeader&, const std::string& file);

// Name of SWF field k (1-based, 1..18), e.g. "run time"; "?" otherwise.
const char* swf_field_name(int field);
// A token of an input file as a message shows it: at most 40 bytes, then
// "..."; control bytes, backslashes and bytes past ASCII as \xNN, so that
// a byte order mark or an escape sequence is seen, not obeyed.
std::string printable_token(std::string_view t);

// Any failure to read a trace. what() is
//   "<file>:<line>: field <k> (<name>): <what>"  for a bad field,
//   "<file>:<line>: <what>"                       for a bad line,
//   "<file>: <what>"                              for a bad file (line 0).
class SwfError : public std::runtime_error {
  public:
    SwfError(std::string file, std::int64_t line, int field, const std::string& what);
    // A field past the 18th, named by the caller ("demand on pool 'r2'").
    SwfError(std::string file, std::int64_t line, int field, const std::string& field_name,
             const std::string& what);
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
// lines are skipped. Fields beyond the 18th are ignored, except the pool
// demands and the component widths of a header that declares them.
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

enum class SkipReason {
    runtime_not_positive,
    procs_not_positive,
    // LoadOptions::positive_use: field 6 (average CPU time) or field 7
    // (used memory) not positive ([Leinberger99] §4.1's NAS filter).
    cpu_or_memory_unused,
    submit_negative,  // field 2 below 0 (-1: unknown)
};
const char* skip_reason_name(SkipReason);  // "runtime_not_positive", ...

struct MappingStats {
    std::int64_t records = 0;                      // records offered to the mapping
    std::int64_t kept = 0;                         // jobs produced
    std::map<std::string, std::int64_t> skipped;   // skip_reason_name -> count
    std::vector<std::int64_t> skipped_ids_sample;  // ids of the first 20 skipped records
    std::int64_t runtime_cut_to_estimate = 0;      // runtime lowered to the estimate
    std::int64_t estimate_from_runtime = 0;        // no usable requested time
    std::int64_t substituted = 0;                  // pyss only: records replaced by 1 s / 1 s jobs
    // Memory as a pool (LoadOptions::memory): kept jobs whose demand came
    // from field 10 (requested memory), from field 7 (used memory), or from
    // neither (demand 0); the ids of the first 20 of the last.
    std::int64_t memory_requested = 0;
    std::int64_t memory_used = 0;
    std::int64_t memory_missing = 0;
    std::vector<std::int64_t> memory_missing_ids_sample;
    // Dependencies (fields 17 and 18, LoadOptions::dependencies): kept jobs
    // submitted when an earlier job ends, and jobs whose preceding job was
    // skipped by the mapping, which keep their own submit time instead.
    std::int64_t dependent = 0;
    std::int64_t dependencies_dropped = 0;
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

// Memory as a pool (docs/workloads.md, "Memory as a pool"): which SWF field
// gives a job's memory demand. `none`: no memory pool. `requested`: field
// 10. `used`: field 7. `automatic` ("auto"): field 10, else field 7. A job
// whose chosen field(s) are missing (<= 0) demands 0 and is counted.
enum class MemorySource { none, requested, used, automatic };
// How the fields are read. The SWF standard: KB per processor, so the demand
// is value x processors. The Alea extended SWF of wagap-2013: bytes per job,
// so the demand is ceil(value / 1024). The pool counts KB either way.
enum class MemoryUnits { kb_per_processor, bytes_per_job };
const char* memory_source_name(MemorySource);  // "none", "requested", "used", "auto"
const char* memory_units_name(MemoryUnits);    // "kb-per-processor", "bytes-per-job"
// std::invalid_argument for other names.
MemorySource parse_memory_source(const std::string&);
MemoryUnits parse_memory_units(const std::string&);
inline constexpr const char* kMemoryPool = "memory";

// A record's memory demand in KB for a job of `procs` processors, or -1 when
// the fields `src` reads are missing; counts the source in `st`.
std::int64_t memory_demand(const SwfRecord&, std::int32_t procs, MemorySource src,
                           MemoryUnits units, MappingStats& st);

// SWF fields 17 (preceding job) and 18 (think time) as dependencies
// (docs/workloads.md, "Dependencies: fields 17 and 18"): job i of a
// workload is submitted think[i] seconds after job after[i] ends
// (finishes, is killed or is rejected), instead of at its own submit time.
// after[i] indexes the workload and is below i; -1: no dependency. Empty
// (both vectors) when no job depends on another.
// The applications of a workload being written: SWF field 14 (executable
// number) of every job, and the adaptation bytes of each executable with
// its name for the header ([Weissman03] §4.1; "Applications in SWF").
struct Applications {
    std::vector<std::int32_t> executable;  // per job; empty: every field 14 is -1
    struct Entry {
        std::int32_t executable;
        std::int64_t adapt_bytes;
        std::string name;
    };
    std::vector<Entry> entries;
    bool empty() const { return executable.empty(); }
};

struct Dependencies {
    std::vector<std::int32_t> after;
    std::vector<std::int64_t> think;  // seconds, >= 0
    bool empty() const { return after.empty(); }
    // Makes room for `jobs` jobs without dependencies (the first one added).
    void add(std::size_t job, std::size_t jobs, std::int32_t after_job, std::int64_t think_s);
    std::size_t count() const;  // jobs with a dependency
};

// How load_trace reads fields 17 and 18. follow: as dependencies; a
// preceding job that is not an earlier job of the trace is an error.
// ignore: not at all. automatic ("auto", the default): follow, except for
// the Alea simulator's extended SWF (a .machines file beside the trace),
// whose fields 17 and 18 carry something else.
enum class DependencyMode { follow, ignore, automatic };
const char* dependency_mode_name(DependencyMode);          // "follow", "ignore", "auto"
DependencyMode parse_dependency_mode(const std::string&);  // std::invalid_argument otherwise

struct LoadOptions {
    Mapping mapping = Mapping::standard;
    DependencyMode dependencies = DependencyMode::automatic;
    // pyss mapping only: the machine size (<= 0: the header's MaxProcs).
    std::int32_t machine_procs = 0;
    MemorySource memory = MemorySource::none;
    MemoryUnits memory_units = MemoryUnits::kb_per_processor;
    // The memory pool's capacity in KB; 0: from the .machines file beside
    // the trace (std::invalid_argument if there is none).
    std::int64_t memory_capacity = 0;
    // Keep only jobs with a positive field 6 (average CPU time) and field 7
    // (used memory): [Leinberger99] §4.1's treatment of the NAS traces.
    bool positive_use = false;
};

struct Trace {
    SwfHeader header;
    std::vector<TraceJob> jobs;
    MappingStats stats;
    // The header's pools, then "memory" when LoadOptions::memory is set;
    // one row of demands per job of `jobs`.
    PoolDemands pools;
    // The jobs' component widths when the header declares them (one entry
    // per job of `jobs`), else empty.
    Components components;
    std::optional<MachinesFile> machines;  // the .machines file beside the trace, if any
    // Fields 17 and 18 (LoadOptions::dependencies), one entry per job of
    // `jobs`; empty when no job depends on another.
    Dependencies deps;
    bool deps_followed = false;  // the mode resolved to follow
    // Field 16 (partition number), one entry per job of `jobs`, -1 where
    // missing; empty when every job's is missing. The simulator submits it
    // as the job's partition, in decimal (docs/workloads.md).
    std::vector<std::int32_t> partitions;
    // Bytes an adaptation of each job redistributes (rota_job.adapt_bytes):
    // the header's AdaptBytes entry of the job's field 14, 0 for an
    // executable it does not list. Empty when the header declares none.
    std::vector<std::int64_t> adapt_bytes;
};

// Reads a whole trace. machine_procs is used by the pyss mapping only; if it is
// <= 0 there, the header's MaxProcs is used (std::invalid_argument if absent too).
Trace load_trace(const std::string& path, Mapping m, std::int32_t machine_procs = 0);
// The same with pools: the header's (fields 19..) and memory's.
Trace load_trace(const std::string& path, const LoadOptions& options);

}  // namespace rota::sim
