/*
** schedule.c: embedding rota from C99 through rota.h alone.
**
** The program plays the machine itself. It owns the clock and the nodes,
** feeds the engine events (rota_advance, rota_submit, rota_job_end,
** rota_schedule), carries out the actions it gets back (rota_next_action),
** and looks at the engine's state with the queries. Three runs:
**
**   1. The five jobs of [Zhang00] §3, Figure 4 on 8 nodes under EASY with the
**      shipped first-fit backfill script, plus a job too wide for the
**      machine. Job 5 is backfilled at t=100 into the hole left by job 1,
**      job 3 starts at 200, job 4 at 300. At t=100 the program prints the
**      queue, the running jobs, the idle nodes, the reservations and the
**      counters, and shows that a duplicate id (ROTA_EEXIST) and time going
**      backwards (ROTA_ETIME) are refused with a message and leave the
**      engine unchanged.
**   2. A small case where the backfill order matters, with first fit.
**   3. The same case with a native backfill policy written in C
**      (rota_set_backfill_select): shortest estimate first.
**
** Every status code is checked. The program exits 1 if a call fails
** unexpectedly or if a start time differs from the expected one.
**
** Build: cc -std=c99 -I capi/include schedule.c -L build/lib -lrota
** Run:   LD_LIBRARY_PATH=build/lib ./a.out
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rota.h"

#define SEC ((rota_time)1000000) /* rota_time counts microseconds */
#define NO_TIME INT64_MAX
#define MAX_JOBS 16

/* Print a failed call with the status name and the engine's message. */
static void report(const rota_engine* e, int rc, const char* call) {
    fprintf(stderr, "error: %s: %s (%s): %s\n", call, rota_status_name(rc), rota_strerror(rc),
            rota_errmsg(e));
}

/* Run a call that must return ROTA_OK; otherwise report it and jump to `fail`. */
#define TRY(e, call)                 \
    do {                             \
        int rc_ = (call);            \
        if (rc_ != ROTA_OK) {        \
            report((e), rc_, #call); \
            goto fail;               \
        }                            \
    } while (0)

/* ------------------------------------------------------------------------ */
/* The workload and the machine                                              */

typedef struct demo_job {
    int64_t id;
    rota_time submit; /* when the machine submits it */
    int32_t procs;
    rota_time estimate; /* requested walltime: killed when it runs this long */
    rota_time runtime;  /* how long it really runs; >= estimate: killed at its walltime */
    rota_time expected; /* expected start time, or -1 for an expected REJECT */
} demo_job;

typedef struct job_state {
    rota_time start; /* -1 until started */
    rota_time end;   /* when it ends on its own (reported with rota_job_end), or -1 */
    int running;
    int rejected;
} job_state;

typedef struct machine {
    rota_engine* e;
    const demo_job* jobs;
    size_t njobs;
    job_state st[MAX_JOBS];
    int64_t node_owner[64]; /* the job on each node, -1 if idle */
    int32_t procs;
    int ok; /* cleared when the engine asks for something impossible */
} machine;

static double secs(rota_time t) {
    return (double)t / (double)SEC;
}

static int index_of(const machine* m, int64_t id) {
    size_t i;
    for (i = 0; i < m->njobs; ++i)
        if (m->jobs[i].id == id) return (int)i;
    return -1;
}

/* Carry out every pending action. The `nodes` and `reason` pointers are only
** valid until the next event call, so each action is handled completely here. */
static int drain(machine* m) {
    rota_action a;
    int rc;
    int32_t k;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    while ((rc = rota_next_action(m->e, &a)) == ROTA_OK) {
        int i = index_of(m, a.job);
        if (i < 0) {
            fprintf(stderr, "error: action for unknown job %" PRId64 "\n", a.job);
            m->ok = 0;
            continue;
        }
        switch (a.type) {
            case ROTA_ACTION_START:
                printf("  t=%6.0fs  START   job %" PRId64 " on %d nodes:", secs(a.time), a.job,
                       (int)a.nnodes);
                /* Nodes come as runs of consecutive numbers. */
                for (k = 0; k < a.nruns; ++k) {
                    int32_t first = a.runs[k].first, last = first + a.runs[k].count - 1, n;
                    if (first == last)
                        printf(" %d", (int)first);
                    else
                        printf(" %d-%d", (int)first, (int)last);
                    for (n = first; n <= last; ++n) {
                        if (n < 0 || n >= m->procs || m->node_owner[n] != -1) {
                            fprintf(stderr, "error: node %d is not idle\n", (int)n);
                            m->ok = 0;
                        } else {
                            m->node_owner[n] = a.job;
                        }
                    }
                }
                printf("\n");
                if (a.nnodes != m->jobs[i].procs) m->ok = 0;
                m->st[i].start = a.time;
                m->st[i].running = 1;
                /* A job that would outlive its estimate is left to the engine,
                ** which kills it at its walltime (a KILL action). */
                m->st[i].end =
                    m->jobs[i].runtime < m->jobs[i].estimate ? a.time + m->jobs[i].runtime : -1;
                break;
            case ROTA_ACTION_KILL:
                printf("  t=%6.0fs  KILL    job %" PRId64 " (its estimate expired)\n", secs(a.time),
                       a.job);
                if (!m->st[i].running || a.time != m->st[i].start + m->jobs[i].estimate) m->ok = 0;
                for (k = 0; k < m->procs; ++k)
                    if (m->node_owner[k] == a.job) m->node_owner[k] = -1;
                m->st[i].running = 0;
                m->st[i].end = -1;
                break;
            case ROTA_ACTION_REJECT:
                printf("  t=%6.0fs  REJECT  job %" PRId64 ": %s\n", secs(a.time), a.job,
                       a.reason ? a.reason : "(no reason)");
                m->st[i].rejected = 1;
                break;
            default:
                fprintf(stderr, "error: unknown action type %d\n", a.type);
                m->ok = 0;
        }
    }
    if (rc != ROTA_DONE) {
        report(m->e, rc, "rota_next_action");
        return 0;
    }
    return 1;
}

/* Called after each pass; returns 0 on failure. */
typedef int (*after_pass_fn)(machine* m, rota_time now);

/* The embedder's event loop: advance to the next event (a job's arrival, a
** job's end, or the engine's wakeup), report what happened, run one pass,
** carry out the actions. */
static int play(machine* m, after_pass_fn after_pass) {
    rota_machine_info mi;
    size_t next = 0, i;
    int steps;
    memset(&mi, 0, sizeof mi);
    mi.size = sizeof mi;
    TRY(m->e, rota_machine_info_get(m->e, &mi));
    m->procs = mi.procs;
    if (m->procs > 64 || m->njobs > MAX_JOBS) {
        fprintf(stderr, "error: the example machine is too small\n");
        return 0;
    }
    for (i = 0; i < 64; ++i) m->node_owner[i] = -1;
    for (i = 0; i < m->njobs; ++i) {
        m->st[i].start = m->st[i].end = -1;
        m->st[i].running = m->st[i].rejected = 0;
    }
    m->ok = 1;

    for (steps = 0; steps < 1000; ++steps) {
        rota_time t = NO_TIME, w;
        int rc;
        if (next < m->njobs) t = m->jobs[next].submit;
        for (i = 0; i < m->njobs; ++i)
            if (m->st[i].running && m->st[i].end >= 0 && m->st[i].end < t) t = m->st[i].end;
        rc = rota_next_wakeup(m->e, &w);
        if (rc == ROTA_OK && w < t) t = w;
        if (rc != ROTA_OK && rc != ROTA_DONE) {
            report(m->e, rc, "rota_next_wakeup");
            return 0;
        }
        if (t == NO_TIME) return m->ok; /* nothing left to happen */

        TRY(m->e, rota_advance(m->e, t));
        if (!drain(m)) return 0; /* walltime kills */
        for (i = 0; i < m->njobs; ++i) {
            if (m->st[i].running && m->st[i].end == t) {
                int32_t k;
                TRY(m->e, rota_job_end(m->e, m->jobs[i].id));
                printf("  t=%6.0fs  END     job %" PRId64 " (reported with rota_job_end)\n",
                       secs(t), m->jobs[i].id);
                for (k = 0; k < m->procs; ++k)
                    if (m->node_owner[k] == m->jobs[i].id) m->node_owner[k] = -1;
                m->st[i].running = 0;
                m->st[i].end = -1;
            }
        }
        for (; next < m->njobs && m->jobs[next].submit == t; ++next) {
            rota_job j;
            memset(&j, 0, sizeof j);
            j.size = sizeof j;
            j.id = m->jobs[next].id;
            j.estimate = m->jobs[next].estimate;
            j.procs = m->jobs[next].procs;
            j.user = -1;
            TRY(m->e, rota_submit(m->e, &j));
        }
        TRY(m->e, rota_schedule(m->e));
        if (!drain(m)) return 0;
        if (after_pass && !after_pass(m, t)) return 0;
    }
    fprintf(stderr, "error: the schedule did not finish\n");
fail:
    return 0;
}

/* Compare the start times with the expected ones. */
static int check_starts(const machine* m) {
    size_t i;
    int ok = 1;
    for (i = 0; i < m->njobs; ++i) {
        const demo_job* j = &m->jobs[i];
        if (j->expected < 0 ? !m->st[i].rejected : m->st[i].start != j->expected) {
            fprintf(stderr, "MISMATCH: job %" PRId64 " started at %.0fs, expected %.0fs\n", j->id,
                    secs(m->st[i].start), secs(j->expected));
            ok = 0;
        }
    }
    if (ok) printf("  start times as expected\n");
    return ok;
}

/* ------------------------------------------------------------------------ */
/* Queries                                                                   */

typedef int (*id_list_fn)(const rota_engine*, int64_t*, size_t, size_t*);

/* A list query: ask with a small buffer; on ROTA_ERANGE, *n is the count
** needed, so allocate that and ask again. */
static int print_ids(const rota_engine* e, id_list_fn fn, const char* label) {
    int64_t small[2];
    int64_t* buf = small;
    size_t n = 0, i;
    int rc = fn(e, small, 2, &n);
    if (rc == ROTA_ERANGE) {
        buf = malloc(n * sizeof *buf);
        if (!buf) return 0;
        rc = fn(e, buf, n, &n);
    }
    if (rc != ROTA_OK) {
        report(e, rc, label);
        if (buf != small) free(buf);
        return 0;
    }
    printf("    %-13s", label);
    for (i = 0; i < n; ++i) printf(" %" PRId64, buf[i]);
    printf(n ? "\n" : " (none)\n");
    if (buf != small) free(buf);
    return 1;
}

/* What run 1 looks at when t=100 (job 3 is the reserved head then). */
static int print_state(rota_engine* e) {
    int32_t nodes[64];
    rota_reservation res[8];
    rota_job_info info;
    rota_counters c;
    size_t n, i;

    printf("  -- state at t=%.0fs --\n", secs(rota_now(e)));
    if (!print_ids(e, rota_queue, "queue:") || !print_ids(e, rota_held, "held:") ||
        !print_ids(e, rota_running, "running:"))
        return 0;
    TRY(e, rota_free_nodes(e, nodes, 64, &n));
    printf("    %-13s", "idle nodes:");
    for (i = 0; i < n; ++i) printf(" %d", (int)nodes[i]);
    printf(n ? "\n" : " (none)\n");

    TRY(e, rota_job_nodes(e, 5, nodes, 64, &n));
    printf("    %-13s", "job 5 holds:");
    for (i = 0; i < n; ++i) printf(" %d", (int)nodes[i]);
    printf("\n");

    res[0].size = sizeof res[0]; /* the element stride the library uses */
    TRY(e, rota_reservations(e, res, 8, &n));
    for (i = 0; i < n; ++i)
        printf("    reservation: job %" PRId64 " on %d procs from %.0fs to %.0fs\n", res[i].job,
               (int)res[i].procs, secs(res[i].start), secs(res[i].end));

    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    TRY(e, rota_job_info_get(e, 3, &info));
    printf("    job 3: %s, submitted at %.0fs, reserved start %.0fs\n",
           info.state == ROTA_JOB_QUEUED ? "queued" : "not queued?", secs(info.submit),
           secs(info.reserved_start));
    if (info.state != ROTA_JOB_QUEUED || info.reserved_start != 200 * SEC) {
        fprintf(stderr, "MISMATCH: job 3 should be queued with a reservation at 200s\n");
        return 0;
    }

    memset(&c, 0, sizeof c);
    c.size = sizeof c;
    TRY(e, rota_counters_get(e, &c));
    printf("    counters: passes %" PRIu64 ", submitted %" PRIu64 ", started %" PRIu64
           ", backfilled %" PRIu64 ", finished %" PRIu64 ", killed %" PRIu64 ", rejected %" PRIu64
           "\n",
           c.passes, c.submitted, c.started, c.backfilled, c.finished, c.killed, c.rejected);
    return 1;
fail:
    return 0;
}

/* Expect a call to fail with `want`; print its message. */
static int expect_status(rota_engine* e, int rc, int want, const char* call) {
    if (rc != want) {
        fprintf(stderr, "error: %s returned %s, expected %s (%s)\n", call, rota_status_name(rc),
                rota_status_name(want), rota_errmsg(e));
        return 0;
    }
    printf("    %s -> %s: %s\n", call, rota_status_name(rc), rota_errmsg(e));
    return 1;
}

/* Run 1's look at the engine at t=100, and its refused calls. */
static int figure4_after_pass(machine* m, rota_time now) {
    rota_job dup;
    rota_time before;
    if (now != 100 * SEC) return 1;
    if (!print_state(m->e)) return 0;

    printf("  -- refused calls (the engine is left unchanged) --\n");
    memset(&dup, 0, sizeof dup);
    dup.size = sizeof dup;
    dup.id = 3; /* already waiting */
    dup.estimate = 10 * SEC;
    dup.procs = 1;
    dup.user = -1;
    if (!expect_status(m->e, rota_submit(m->e, &dup), ROTA_EEXIST, "rota_submit(job 3 again)"))
        return 0;
    before = rota_now(m->e);
    if (!expect_status(m->e, rota_advance(m->e, 50 * SEC), ROTA_ETIME, "rota_advance(50s)"))
        return 0;
    if (rota_now(m->e) != before) {
        fprintf(stderr, "error: a refused rota_advance moved the clock\n");
        return 0;
    }
    if (!expect_status(m->e, rota_job_end(m->e, 42), ROTA_ENOTFOUND, "rota_job_end(job 42)") ||
        !expect_status(m->e, rota_job_end(m->e, 4), ROTA_ESTATE, "rota_job_end(job 4)"))
        return 0;
    return 1;
}

/* ------------------------------------------------------------------------ */
/* A native backfill policy                                                  */

/* backfill_select in C: start the candidates with the shortest estimate
** first (ties in queue order). The candidates all fit now without delaying
** a reservation; the engine starts each pick that still fits. */
static int shortest_first(void* ud, const rota_batch* c, const rota_backfill_context* ctx,
                          uint32_t* picks) {
    size_t i, j;
    int* calls = ud;
    ++*calls;
    for (i = 0; i < c->n; ++i) { /* insertion sort of the indices: stable */
        uint32_t k = (uint32_t)i;
        for (j = i; j > 0 && c->estimate[picks[j - 1]] > c->estimate[k]; --j)
            picks[j] = picks[j - 1];
        picks[j] = k;
    }
    printf("  t=%6.0fs  (shortest_first: %u candidates, head job %" PRId64, secs(ctx->now),
           (unsigned)c->n, ctx->head_id);
    if (ctx->shadow_time >= 0) printf(" reserved at %.0fs", secs(ctx->shadow_time));
    printf("; order:");
    for (i = 0; i < c->n; ++i) printf(" %" PRId64, c->id[picks[i]]);
    printf(")\n");
    return (int)c->n;
}

/* Log lines (hook failures, reloads) go to stdout here; rota's default is stderr. */
static void log_line(void* ud, int level, const char* line) {
    (void)ud;
    printf("  rota log (%s): %s\n", level <= ROTA_LOG_WARNING ? "warning" : "info", line);
}

/* ------------------------------------------------------------------------ */

/* EASY: backfilling with a reservation for the first waiting job only. */
static const char* const easy_toml =
    "[machine]\n"
    "procs = 8\n"
    "[scheduler]\n"
    "preset = \"easy\"\n";

/* A new engine, or NULL after printing why not. */
static rota_engine* new_engine(void) {
    rota_engine* e = NULL;
    int rc = rota_engine_new(easy_toml, NULL, &e);
    if (rc != ROTA_OK) {
        report(e, rc, "rota_engine_new");
        rota_engine_free(e); /* set even on failure, like sqlite3_open() */
        return NULL;
    }
    if (rota_set_log(e, log_line, NULL) != ROTA_OK) {
        rota_engine_free(e);
        return NULL;
    }
    return e;
}

static int run(const char* title, const demo_job* jobs, size_t njobs,
               rota_backfill_select_fn select, after_pass_fn after_pass) {
    machine m;
    int calls = 0, ok;
    memset(&m, 0, sizeof m);
    printf("\n%s\n", title);
    m.e = new_engine();
    if (!m.e) return 0;
    m.jobs = jobs;
    m.njobs = njobs;
    if (select) TRY(m.e, rota_set_backfill_select(m.e, select, &calls, 0));
    ok = play(&m, after_pass) && check_starts(&m);
    if (ok && select) {
        rota_hook_stats st;
        memset(&st, 0, sizeof st);
        st.size = sizeof st;
        TRY(m.e, rota_hook_stats_get(m.e, ROTA_HOOK_BACKFILL_SELECT, &st));
        printf("  native policy called %d times (%s: %" PRIu64 " calls, %" PRIu64 " failures)\n",
               calls, rota_hook_name(ROTA_HOOK_BACKFILL_SELECT), st.calls, st.failures);
        ok = calls > 0 && st.calls == (uint64_t)calls && st.failures == 0;
        /* NULL puts the configured policy back. */
        TRY(m.e, rota_set_backfill_select(m.e, NULL, NULL, 0));
    }
    rota_engine_free(m.e);
    return ok;
fail:
    rota_engine_free(m.e);
    return 0;
}

/* A bad configuration: the handle carries the message and must be freed. */
static int bad_config(void) {
    rota_engine* e = NULL;
    int rc = rota_engine_new("[machine]\nprocs = 8\nnodes = 4\n", NULL, &e);
    int ok;
    printf("\nBad configuration\n");
    ok = expect_status(e, rc, ROTA_ECONFIG, "rota_engine_new(machine.nodes)") &&
         strstr(rota_errmsg(e), "machine.nodes") != NULL;
    rota_engine_free(e);
    return ok;
}

int main(void) {
    /* [Zhang00] §3, Figure 4 (ids 1-5, all at t=0), and a job wider than the
    ** machine. Jobs 4 and 5 end before their estimate (rota_job_end); the
    ** others run to it and are killed by the engine at their walltime. */
    static const demo_job figure4[] = {
        {1, 0, 4, 100 * SEC, 100 * SEC, 0},         {2, 0, 4, 200 * SEC, 200 * SEC, 0},
        {3, 0, 8, 100 * SEC, 100 * SEC, 200 * SEC}, {4, 0, 6, 100 * SEC, 70 * SEC, 300 * SEC},
        {5, 0, 4, 100 * SEC, 60 * SEC, 100 * SEC},  {6, 0, 16, 100 * SEC, 100 * SEC, -1},
    };
    /* Job 12 (the whole machine) waits for job 11 and is reserved at 100;
    ** jobs 13 and 14 both fit in the 2 idle nodes until then, not together. */
    static const demo_job order_matters_ff[] = {
        {11, 0, 6, 100 * SEC, 100 * SEC, 0},
        {12, 0, 8, 100 * SEC, 100 * SEC, 100 * SEC},
        {13, 0, 2, 90 * SEC, 80 * SEC, 0},
        {14, 0, 2, 50 * SEC, 40 * SEC, 200 * SEC},
    };
    static const demo_job order_matters_sf[] = {
        {11, 0, 6, 100 * SEC, 100 * SEC, 0},
        {12, 0, 8, 100 * SEC, 100 * SEC, 100 * SEC},
        {13, 0, 2, 90 * SEC, 80 * SEC, 200 * SEC},
        {14, 0, 2, 50 * SEC, 40 * SEC, 0},
    };
    int ok = 1;

    if (rota_abi_version() != ROTA_ABI_VERSION) {
        fprintf(stderr, "error: librota has ABI %d, this program was built for %d\n",
                rota_abi_version(), ROTA_ABI_VERSION);
        return 1;
    }
    printf("rota %s (ABI %d)\n", rota_version(), rota_abi_version());

    ok &= run("Run 1: [Zhang00] Figure 4, EASY with backfill/first_fit.lua", figure4,
              sizeof figure4 / sizeof figure4[0], NULL, figure4_after_pass);
    ok &= run("Run 2: backfill order matters, first fit", order_matters_ff,
              sizeof order_matters_ff / sizeof order_matters_ff[0], NULL, NULL);
    ok &= run("Run 3: the same jobs, native shortest_first (rota_set_backfill_select)",
              order_matters_sf, sizeof order_matters_sf / sizeof order_matters_sf[0],
              shortest_first, NULL);
    ok &= bad_config();

    printf("\n%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
