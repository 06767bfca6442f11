#!/usr/bin/env python3
"""How long nodes stay idle between one job and the next on a Slurm cluster.

    bench/slurm_handoff.py SLURMCTLD_LOG [ROTA_SLURM_JOURNAL]

Reads slurmctld's log (written with LogTimeFormat=iso8601_ms, as
tests/slurm/cluster.sh sets it) and prints the hand-off: for every job
start, the time since the last job end before it ("_job_complete: JobId=N
done" to "sched: Allocate JobId=M" or backfill's "Started JobId=M"), as
median, 90th percentile and count. Starts with no end before them (the
first wave) are left out.

With rota-slurm's journal (--journal), the hand-off of each pass's first
START after an END is split in two (the journal stamps both with the
pass's clock, taken just before the pass reads the controller):
  poll     Slurm's end of the job -> the pass that reads it;
  release  that pass -> Slurm allocates the job it started: reading the
           controller, the engine's pass, the slurm_update_job RPC, then
           slurmctld's own wait (an update only queues its scheduler, which
           its background loop runs at most once a second).
"""
import re
import statistics
import sys
from datetime import datetime

STAMP = re.compile(r"^\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})\] (.*)$")
DONE = re.compile(r"_job_complete: JobId=(\d+) done")
START = re.compile(r"(?:sched: Allocate|Started) JobId=(\d+)")


def slurm_events(path):
    """(ends, starts): job id -> seconds since the epoch, from the log."""
    ends, starts = {}, {}
    for line in open(path, errors="replace"):
        m = STAMP.match(line)
        if not m:
            continue
        t = datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S.%f").timestamp()
        if d := DONE.search(m.group(2)):
            ends.setdefault(int(d.group(1)), t)
        elif s := START.search(m.group(2)):
            starts.setdefault(int(s.group(1)), t)
    return ends, starts


def journal_events(path):
    """The daemon's END and START lines: (kind, seconds, job) in order."""
    out = []
    for line in open(path):
        f = line.split()
        if len(f) >= 3 and f[0] in ("END", "START"):
            out.append((f[0], int(f[1]) / 1e6, int(f[2])))
    return out


def summary(name, xs):
    if not xs:
        return f"{name:<40} no samples"
    xs = sorted(xs)
    p90 = xs[min(len(xs) - 1, int(0.9 * len(xs)))]
    return f"{name:<40} median {statistics.median(xs):6.3f} s  p90 {p90:6.3f} s  n {len(xs)}"


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    ends, starts = slurm_events(sys.argv[1])
    end_times = sorted(ends.values())
    gaps = []
    for t in starts.values():
        before = [e for e in end_times if e <= t]
        if before:
            gaps.append(t - before[-1])
    print(summary("hand-off (last end -> start)", gaps))
    if len(sys.argv) < 3:
        return
    poll, release = [], []
    ended = False  # an END since the last START: the next START is a hand-off
    for kind, t, job in journal_events(sys.argv[2]):
        if kind == "END":
            if job in ends:
                poll.append(t - ends[job])
                ended = True
        elif ended and job in starts:
            release.append(starts[job] - t)
            ended = False
    print(summary("  poll: Slurm's end -> the pass reading it", poll))
    print(summary("  release: that pass -> Slurm starts", release))


if __name__ == "__main__":
    main()
