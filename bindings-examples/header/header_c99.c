/*
** header_c99.c: rota.h compiles as strict C99 (-std=c99 -pedantic -Werror)
** with no other include before it, and links against librota.
**
** Run with no argument it checks the library version; with --layout it
** prints the size and field offsets of every public struct as the C
** compiler lays them out, which the Python example compares with its
** ctypes declarations (schedule.py --check-layout).
*/
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "rota.h"

#define STRUCT(T) printf("struct %s %lu\n", #T, (unsigned long)sizeof(T))
#define FIELD(T, f) printf("field %s %s %lu\n", #T, #f, (unsigned long)offsetof(T, f))

static void layout(void) {
    STRUCT(rota_job);
    FIELD(rota_job, size);
    FIELD(rota_job, id);
    FIELD(rota_job, estimate);
    FIELD(rota_job, procs);
    FIELD(rota_job, user);
    FIELD(rota_job, priority);
    FIELD(rota_job, npools);
    FIELD(rota_job, pools);
    FIELD(rota_job, ncomponents);
    FIELD(rota_job, components);
    FIELD(rota_job, submitted);
    FIELD(rota_job, min_procs);
    FIELD(rota_job, adapt_bytes);
    FIELD(rota_job, job_class);
    FIELD(rota_job, account);
    FIELD(rota_job, partition);
    FIELD(rota_job, qos);
    FIELD(rota_job, begin);
    FIELD(rota_job, ninclude);
    FIELD(rota_job, include);
    FIELD(rota_job, nexclude);
    FIELD(rota_job, exclude);
    FIELD(rota_job, ndepends);
    FIELD(rota_job, depends);
    STRUCT(rota_dependency);
    FIELD(rota_dependency, job);
    FIELD(rota_dependency, type);
    FIELD(rota_dependency, delay);
    STRUCT(rota_node_run);
    FIELD(rota_node_run, first);
    FIELD(rota_node_run, count);
    STRUCT(rota_action);
    FIELD(rota_action, size);
    FIELD(rota_action, type);
    FIELD(rota_action, job);
    FIELD(rota_action, time);
    FIELD(rota_action, row);
    FIELD(rota_action, nnodes);
    FIELD(rota_action, nruns);
    FIELD(rota_action, runs);
    FIELD(rota_action, reason);
    FIELD(rota_action, option);
    FIELD(rota_action, delay);
    FIELD(rota_action, from_row);
    FIELD(rota_action, run_cluster);
    STRUCT(rota_job_info);
    FIELD(rota_job_info, size);
    FIELD(rota_job_info, id);
    FIELD(rota_job_info, state);
    FIELD(rota_job_info, submit);
    FIELD(rota_job_info, start);
    FIELD(rota_job_info, reserved_start);
    FIELD(rota_job_info, estimate);
    FIELD(rota_job_info, procs);
    FIELD(rota_job_info, jumps);
    FIELD(rota_job_info, nodes);
    FIELD(rota_job_info, min_procs);
    FIELD(rota_job_info, harvests);
    FIELD(rota_job_info, progress);
    FIELD(rota_job_info, job_class);
    FIELD(rota_job_info, preemptions);
    FIELD(rota_job_info, on_disk);
    FIELD(rota_job_info, reserved);
    FIELD(rota_job_info, executed);
    FIELD(rota_job_info, dnd_end);
    FIELD(rota_job_info, wait_since);
    FIELD(rota_job_info, swapping_until);
    FIELD(rota_job_info, account);
    FIELD(rota_job_info, partition);
    FIELD(rota_job_info, qos);
    FIELD(rota_job_info, begin);
    FIELD(rota_job_info, unmet);
    FIELD(rota_job_info, eligible);
    STRUCT(rota_reservation);
    FIELD(rota_reservation, size);
    FIELD(rota_reservation, job);
    FIELD(rota_reservation, start);
    FIELD(rota_reservation, end);
    FIELD(rota_reservation, procs);
    FIELD(rota_reservation, row);
    STRUCT(rota_machine_info);
    FIELD(rota_machine_info, size);
    FIELD(rota_machine_info, procs);
    FIELD(rota_machine_info, rows);
    FIELD(rota_machine_info, npools);
    FIELD(rota_machine_info, reservation_depth);
    FIELD(rota_machine_info, backfill);
    FIELD(rota_machine_info, migration);
    FIELD(rota_machine_info, slice);
    FIELD(rota_machine_info, nclusters);
    FIELD(rota_machine_info, nclasses);
    STRUCT(rota_counters);
    FIELD(rota_counters, size);
    FIELD(rota_counters, passes);
    FIELD(rota_counters, submitted);
    FIELD(rota_counters, started);
    FIELD(rota_counters, backfilled);
    FIELD(rota_counters, finished);
    FIELD(rota_counters, killed);
    FIELD(rota_counters, rejected);
    FIELD(rota_counters, cancelled);
    FIELD(rota_counters, reloads);
    FIELD(rota_counters, reload_failures);
    FIELD(rota_counters, migrations);
    FIELD(rota_counters, migrated_tasks);
    FIELD(rota_counters, window_extensions);
    FIELD(rota_counters, requeued);
    FIELD(rota_counters, adopted);
    FIELD(rota_counters, harvest_attempts);
    FIELD(rota_counters, harvests);
    FIELD(rota_counters, grows);
    FIELD(rota_counters, shrinks);
    FIELD(rota_counters, preemptions);
    FIELD(rota_counters, swap_ins);
    FIELD(rota_counters, class_reservations);
    FIELD(rota_counters, rekeys);
    FIELD(rota_counters, resorts);
    FIELD(rota_counters, reservations_moved);
    STRUCT(rota_user_info);
    FIELD(rota_user_info, size);
    FIELD(rota_user_info, usage);
    FIELD(rota_user_info, procs);
    FIELD(rota_user_info, running);
    STRUCT(rota_hook_stats);
    FIELD(rota_hook_stats, size);
    FIELD(rota_hook_stats, calls);
    FIELD(rota_hook_stats, failures);
    FIELD(rota_hook_stats, nanoseconds);
    FIELD(rota_hook_stats, skipped);
    FIELD(rota_hook_stats, quarantined);
    STRUCT(rota_batch);
    FIELD(rota_batch, size);
    FIELD(rota_batch, n);
    FIELD(rota_batch, id);
    FIELD(rota_batch, procs);
    FIELD(rota_batch, estimate);
    FIELD(rota_batch, submit);
    FIELD(rota_batch, user);
    FIELD(rota_batch, priority);
    FIELD(rota_batch, resources);
    FIELD(rota_batch, R);
    FIELD(rota_batch, job_class);
    FIELD(rota_batch, class_priority);
    FIELD(rota_batch, account);
    FIELD(rota_batch, partition);
    FIELD(rota_batch, qos);
    STRUCT(rota_backfill_context);
    FIELD(rota_backfill_context, size);
    FIELD(rota_backfill_context, now);
    FIELD(rota_backfill_context, machine_procs);
    FIELD(rota_backfill_context, rows);
    FIELD(rota_backfill_context, free_procs);
    FIELD(rota_backfill_context, queue_length);
    FIELD(rota_backfill_context, running);
    FIELD(rota_backfill_context, head_id);
    FIELD(rota_backfill_context, head_procs);
    FIELD(rota_backfill_context, head_jumps);
    FIELD(rota_backfill_context, shadow_time);
    FIELD(rota_backfill_context, head_row);
    FIELD(rota_backfill_context, extra_procs);
    FIELD(rota_backfill_context, resources);
    FIELD(rota_backfill_context, capacity);
    FIELD(rota_backfill_context, usage);
    FIELD(rota_backfill_context, head_demand);
    FIELD(rota_backfill_context, extra);
    FIELD(rota_backfill_context, users);
    FIELD(rota_backfill_context, total_usage);
    FIELD(rota_backfill_context, user_ids);
    FIELD(rota_backfill_context, user_usage);
    FIELD(rota_backfill_context, user_procs);
    FIELD(rota_backfill_context, user_running);
    FIELD(rota_backfill_context, head_user);
    FIELD(rota_backfill_context, head_account);
    FIELD(rota_backfill_context, head_partition);
    FIELD(rota_backfill_context, head_qos);
}

int main(int argc, char** argv) {
    if (argc > 1 && strcmp(argv[1], "--layout") == 0) {
        layout();
        return 0;
    }
    if (strcmp(rota_version(), ROTA_VERSION) != 0 || rota_abi_version() != ROTA_ABI_VERSION) {
        printf("header says %s (ABI %d), library says %s (ABI %d)\n", ROTA_VERSION,
               ROTA_ABI_VERSION, rota_version(), rota_abi_version());
        return 1;
    }
    printf("rota.h compiles as C99; library %s, ABI %d\n", rota_version(), rota_abi_version());
    return 0;
}
