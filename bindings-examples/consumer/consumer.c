/*
** consumer.c: built against an installed rota (find_package or
** pkg-config), it runs EASY with the shipped first-fit script named by a
** relative path, which the installed library finds in its own
** share/rota/policies. Exits non-zero on any mismatch.
**
** Usage: consumer [expected policy directory]
*/
#include <stdio.h>
#include <string.h>

#include <rota.h>

static int fail(const char* what, rota_engine* e) {
    fprintf(stderr, "consumer: %s: %s\n", what, rota_errmsg(e));
    return 1;
}

int main(int argc, char** argv) {
    const char* config =
        "[machine]\nprocs = 8\n[scheduler]\npreset = \"easy\"\n";
    rota_engine* e = NULL;
    rota_job j;
    rota_action a;
    int started = 0;
    if (rota_abi_version() != ROTA_ABI_VERSION) {
        fprintf(stderr, "consumer: library ABI %d, header %d\n", rota_abi_version(),
                ROTA_ABI_VERSION);
        return 1;
    }
    if (rota_engine_new(config, NULL, &e) != ROTA_OK) return fail("engine", e);
    memset(&j, 0, sizeof j);
    j.size = sizeof j;
    j.id = 1;
    j.estimate = 1000000;
    j.procs = 8;
    j.user = -1;
    if (rota_submit(e, &j) != ROTA_OK || rota_schedule(e) != ROTA_OK) return fail("submit", e);
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    while (rota_next_action(e, &a) == ROTA_OK)
        if (a.type == ROTA_ACTION_START && a.job == 1 && a.nnodes == 8) started = 1;
    rota_engine_free(e);
    if (!started) {
        fprintf(stderr, "consumer: job 1 did not start\n");
        return 1;
    }
    if (argc > 1) {
        /* A script that does not exist: the message lists the directories
        ** searched, which must include the installed policies. */
        const char* missing =
            "[machine]\nprocs = 8\n[scheduler]\npreset = \"easy\"\n"
            "[policy.backfill_select]\nscript = \"no/such_policy.lua\"\n";
        e = NULL;
        if (rota_engine_new(missing, NULL, &e) != ROTA_ESCRIPT) return fail("missing script", e);
        if (!strstr(rota_errmsg(e), argv[1])) {
            fprintf(stderr, "consumer: '%s' not searched: %s\n", argv[1], rota_errmsg(e));
            rota_engine_free(e);
            return 1;
        }
        rota_engine_free(e);
    }
    printf("consumer: rota %s (ABI %d) from the installed tree: ok\n", rota_version(),
           rota_abi_version());
    return 0;
}
