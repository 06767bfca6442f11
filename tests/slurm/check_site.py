#!/usr/bin/env python3
"""Checks run_site.sh's jobs against Slurm's completion records.

    check_site.py JOBS JOBCOMP

JOBS: one line a job, "NAME ID SUBMIT_EPOCH". JOBCOMP: Slurm's
jobcomp/filetxt records. Each job ran where and when what it asked for
allows (run_site.sh lists them), and no node held two jobs at once.
"""
import sys

from check_schedule import expand, stamp

SLACK = 1  # seconds: Slurm's records are whole seconds


def main(jobs_path, jobcomp_path):
    jobs = {}
    for line in open(jobs_path):
        name, job, submit = line.split()
        jobs[name] = (int(job), int(submit))
    ran = {}
    for line in open(jobcomp_path):
        f = dict(kv.split("=", 1) for kv in line.split() if "=" in kv)
        ran[int(f["JobId"])] = (f["JobState"], stamp(f["StartTime"]), stamp(f["EndTime"]),
                                expand(f["NodeList"]))
    errors = []

    def rec(name):
        job = jobs[name][0]
        if job not in ran:
            errors.append(f"{name} (job {job}): no completion record")
            return None
        return ran[job]

    def within(name, allowed):
        r = rec(name)
        if r and not r[3] <= allowed:
            errors.append(f"{name}: ran on {sorted(r[3])}, outside {sorted(allowed)}")

    within("A", {"n1", "n2"})
    within("B", {"n2", "n3", "n4", "n5"})
    within("C", {"n7", "n8"})
    within("D", {"n8"})
    within("P", {"n6", "n7"})
    e = rec("E")
    if e and e[1] < jobs["E"][1] + 15 - SLACK:
        errors.append(f"E: started {e[1] - jobs['E'][1]:.0f} s after its submission, before --begin=now+15")
    for name, after in (("F", "A"), ("G", "C")):
        r, d = rec(name), rec(after)
        if r and d and r[1] < d[2] - SLACK:
            errors.append(f"{name}: started at {r[1]:.0f}, before {after} ended at {d[2]:.0f}")
    l1, l2 = rec("L1"), rec("L2")
    if l1 and l2 and l1[1] < l2[2] - SLACK and l2[1] < l1[2] - SLACK:
        errors.append(f"L1 [{l1[1]:.0f}, {l1[2]:.0f}) and L2 [{l2[1]:.0f}, {l2[2]:.0f}) held the one licence at once")
    for name in ("H", "I"):
        if jobs[name][0] in ran:
            errors.append(f"{name}: ran, but rota rejected it")
    # No node under two jobs at once.
    runs = sorted(ran.values(), key=lambda r: r[1])
    for i, a in enumerate(runs):
        for b in runs[i + 1:]:
            if b[1] < a[2] - SLACK and a[3] & b[3]:
                errors.append(f"nodes {sorted(a[3] & b[3])} held by two jobs at once")
    for name, (job, _) in sorted(jobs.items()):
        r = ran.get(job)
        if r:
            print(f"check_site: {name} (job {job}) {r[0]} on {','.join(sorted(r[3]))} "
                  f"from +{r[1] - jobs[name][1]:.0f} s to +{r[2] - jobs[name][1]:.0f} s")
    for err in errors:
        print("check_site: " + err)
    if errors:
        sys.exit(1)
    print(f"check_site: {len(ran)} jobs ran where and when they were allowed to")


if __name__ == "__main__":
    main(*sys.argv[1:])
