// journal.h: an optional log of what the daemon told the engine and what
// the engine decided, one line each, in engine time (microseconds since
// the epoch):
//
//   SUBMIT <t> <job> <nodes> <walltime us>   a held job handed to the engine
//   ADOPT  <t> <job> <node,node,...>         a running job taken over
//   START  <t> <job> <node,node,...>         the engine's decision, applied
//   SUSPEND, RESUME <t> <job>                gang scheduling's context switches
//   REQUEUE <t> <job>                        back to the queue: a node of it went down
//   SWAP_OUT <t> <job> <node,...>            preempted for a job of a higher class
//                                            (requeued in Slurm, held)
//   SWAP_IN <t> <job> <node,...>             a preempted job loaded again, anywhere
//   DOWN, DRAIN, UP <t> <node>               a node left or rejoined service
//   END    <t> <job>                         Slurm reported the job over
//
// It is enough to replay the run offline: the test feeds it to
// `rota simulate` and expects the same schedule.
#pragma once

#include <cstdarg>
#include <cstdio>

namespace rota_slurm {

class Journal {
  public:
    explicit Journal(std::FILE* f) : f_(f) {}
    // printf-style; a line is flushed at once so that it survives a crash.
    __attribute__((format(printf, 2, 3))) void line(const char* fmt, ...) {
        if (!f_) return;
        va_list ap;
        va_start(ap, fmt);
        std::vfprintf(f_, fmt, ap);
        va_end(ap);
        std::fputc('\n', f_);
        std::fflush(f_);
    }

  private:
    std::FILE* f_;
};

}  // namespace rota_slurm
