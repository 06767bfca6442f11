"""rota.h transcribed for ctypes: the structs and every function signature
the package calls. Field order and types must match the header exactly;
tests/test_layout.py compares them with the C compiler's layout."""

from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    c_char_p,
    c_double,
    c_int,
    c_int32,
    c_int64,
    c_size_t,
    c_uint64,
    c_void_p,
)

# The ABI this package is written against (ROTA_ABI_VERSION in rota.h).
ABI_VERSION = 10

rota_time = c_int64
rota_engine_p = c_void_p  # opaque


class RotaNodeRun(Structure):
    _fields_ = [("first", c_int32), ("count", c_int32)]


class RotaDependency(Structure):
    _fields_ = [("job", c_int64), ("type", c_int), ("delay", rota_time)]  # ROTA_AFTER_*


class RotaJob(Structure):
    _fields_ = [
        ("size", c_size_t),
        ("id", c_int64),
        ("estimate", rota_time),
        ("procs", c_int32),
        ("user", c_int32),
        ("priority", c_int32),
        ("npools", c_int32),
        ("pools", POINTER(c_int64)),
        ("ncomponents", c_int32),
        ("components", POINTER(c_int32)),
        ("submitted", rota_time),
        ("min_procs", c_int32),
        ("adapt_bytes", c_int64),
        ("job_class", c_int32),
        ("account", c_char_p),  # ABI 7: NULL or b"" for none, copied by the engine
        ("partition", c_char_p),
        ("qos", c_char_p),
        # ABI 10: constraints
        ("begin", rota_time),
        ("ninclude", c_int32),
        ("include", POINTER(RotaNodeRun)),
        ("nexclude", c_int32),
        ("exclude", POINTER(RotaNodeRun)),
        ("ndepends", c_int32),
        ("depends", POINTER(RotaDependency)),
    ]


class RotaAction(Structure):
    _fields_ = [
        ("size", c_size_t),
        ("type", c_int),
        ("job", c_int64),
        ("time", rota_time),
        ("row", c_int32),
        ("nnodes", c_int32),
        ("nruns", c_int32),
        ("runs", POINTER(RotaNodeRun)),
        ("reason", c_char_p),
        ("option", c_int32),
        ("delay", rota_time),
        ("from_row", c_int32),
        ("run_cluster", POINTER(c_int32)),
    ]


class RotaJobInfo(Structure):
    _fields_ = [
        ("size", c_size_t),
        ("id", c_int64),
        ("state", c_int),
        ("submit", rota_time),
        ("start", rota_time),
        ("reserved_start", rota_time),
        ("estimate", rota_time),
        ("procs", c_int32),
        ("jumps", c_int32),
        ("nodes", c_int32),
        ("min_procs", c_int32),
        ("harvests", c_int32),
        ("progress", c_double),
        ("job_class", c_int32),
        ("preemptions", c_int32),
        ("on_disk", c_int32),
        ("reserved", c_int32),
        ("executed", rota_time),
        ("dnd_end", rota_time),
        ("wait_since", rota_time),
        ("swapping_until", rota_time),
        ("account", c_char_p),  # ABI 7: b"" for none
        ("partition", c_char_p),
        ("qos", c_char_p),
        ("begin", rota_time),  # ABI 10
        ("unmet", c_int32),
        ("eligible", rota_time),
    ]


class RotaReservation(Structure):
    _fields_ = [
        ("size", c_size_t),
        ("job", c_int64),
        ("start", rota_time),
        ("end", rota_time),
        ("procs", c_int32),
        ("row", c_int32),
    ]


class RotaMachineInfo(Structure):
    _fields_ = [
        ("size", c_size_t),
        ("procs", c_int32),
        ("rows", c_int32),
        ("npools", c_int32),
        ("reservation_depth", c_int32),
        ("backfill", c_int32),
        ("migration", c_int32),
        ("slice", rota_time),
        ("nclusters", c_int32),
        ("nclasses", c_int32),
    ]


class RotaCounters(Structure):
    _fields_ = [
        ("size", c_size_t),
        ("passes", c_uint64),
        ("submitted", c_uint64),
        ("started", c_uint64),
        ("backfilled", c_uint64),
        ("finished", c_uint64),
        ("killed", c_uint64),
        ("rejected", c_uint64),
        ("cancelled", c_uint64),
        ("reloads", c_uint64),
        ("reload_failures", c_uint64),
        ("migrations", c_uint64),
        ("migrated_tasks", c_uint64),
        ("window_extensions", c_uint64),
        ("requeued", c_uint64),
        ("adopted", c_uint64),
        ("harvest_attempts", c_uint64),
        ("harvests", c_uint64),
        ("grows", c_uint64),
        ("shrinks", c_uint64),
        ("preemptions", c_uint64),
        ("swap_ins", c_uint64),
        ("class_reservations", c_uint64),
        ("rekeys", c_uint64),
        ("resorts", c_uint64),
        ("reservations_moved", c_uint64),
    ]


class RotaUserInfo(Structure):
    _fields_ = [
        ("size", c_size_t),
        ("usage", c_double),
        ("procs", c_int32),
        ("running", c_int32),
    ]


class RotaHookStats(Structure):
    _fields_ = [
        ("size", c_size_t),
        ("calls", c_uint64),
        ("failures", c_uint64),
        ("nanoseconds", c_uint64),
        ("skipped", c_uint64),
        ("quarantined", c_int32),
    ]


class RotaBatch(Structure):  # filled in by the library, size included
    _fields_ = [
        ("size", c_size_t),
        ("n", c_size_t),
        ("id", POINTER(c_int64)),
        ("procs", POINTER(c_int32)),
        ("estimate", POINTER(rota_time)),
        ("submit", POINTER(rota_time)),
        ("user", POINTER(c_int32)),
        ("priority", POINTER(c_int32)),
        ("resources", c_int32),
        ("R", POINTER(c_double)),
        ("job_class", POINTER(c_int32)),
        ("class_priority", POINTER(c_int32)),
        ("account", POINTER(c_char_p)),  # ABI 7: interned strings, b"" for none
        ("partition", POINTER(c_char_p)),
        ("qos", POINTER(c_char_p)),
    ]


class RotaBackfillContext(Structure):  # filled in by the library
    _fields_ = [
        ("size", c_size_t),
        ("now", rota_time),
        ("machine_procs", c_int32),
        ("rows", c_int32),
        ("free_procs", c_int32),
        ("queue_length", c_int32),
        ("running", c_int32),
        ("head_id", c_int64),
        ("head_procs", c_int32),
        ("head_jumps", c_int32),
        ("shadow_time", rota_time),
        ("head_row", c_int32),
        ("extra_procs", c_int32),
        ("resources", c_int32),
        ("capacity", POINTER(c_int64)),
        ("usage", POINTER(c_double)),
        ("head_demand", POINTER(c_double)),
        ("extra", POINTER(c_double)),
        ("users", c_int32),
        ("total_usage", c_double),
        ("user_ids", POINTER(c_int32)),
        ("user_usage", POINTER(c_double)),
        ("user_procs", POINTER(c_int32)),
        ("user_running", POINTER(c_int32)),
        ("head_user", c_int32),  # ABI 7
        ("head_account", c_char_p),
        ("head_partition", c_char_p),
        ("head_qos", c_char_p),
    ]


class RotaEngineOptions(Structure):
    _fields_ = [
        ("size", c_size_t),
        ("log", c_void_p),  # a LOG_FN, passed as a pointer so that NULL is expressible
        ("log_ud", c_void_p),
        ("log_level", c_int),
        ("alloc", c_void_p),
        ("alloc_ud", c_void_p),
    ]


STRUCTS = {
    "rota_node_run": RotaNodeRun,
    "rota_dependency": RotaDependency,
    "rota_job": RotaJob,
    "rota_action": RotaAction,
    "rota_job_info": RotaJobInfo,
    "rota_reservation": RotaReservation,
    "rota_machine_info": RotaMachineInfo,
    "rota_counters": RotaCounters,
    "rota_user_info": RotaUserInfo,
    "rota_hook_stats": RotaHookStats,
    "rota_batch": RotaBatch,
    "rota_backfill_context": RotaBackfillContext,
}

# Status codes.
(OK, DONE, EINVAL, ECONFIG, ENOTFOUND, EEXIST, ETIME, ESCRIPT, ESTATE, EINTERNAL, ENOMEM,
 ERANGE, EABORT) = range(13)

# Column and field types of the rota_call_* functions.
TYPE_INT32, TYPE_INT64, TYPE_DOUBLE, TYPE_STRING = 1, 2, 3, 4

POLICY_FN = CFUNCTYPE(c_int, c_void_p, c_void_p)  # ud, rota_call*
LOG_FN = CFUNCTYPE(None, c_void_p, c_int, c_char_p)  # ud, level, line
WRITER_FN = CFUNCTYPE(c_int, c_void_p, c_void_p, c_size_t)  # ud, data, len

_E = rota_engine_p
_LIST64 = (_E, POINTER(c_int64), c_size_t, POINTER(c_size_t))
_LIST32 = (_E, POINTER(c_int32), c_size_t, POINTER(c_size_t))
_CALL = c_void_p

# name: (restype, argtypes)
FUNCTIONS = {
    "rota_version": (c_char_p, ()),
    "rota_version_number": (c_int, ()),
    "rota_abi_version": (c_int, ()),
    "rota_status_name": (c_char_p, (c_int,)),
    "rota_strerror": (c_char_p, (c_int,)),
    "rota_errmsg": (c_char_p, (_E,)),
    "rota_engine_new_v2": (c_int, (c_char_p, c_char_p, POINTER(RotaEngineOptions), POINTER(_E))),
    "rota_engine_free": (None, (_E,)),
    "rota_preset_name": (c_char_p, (c_int,)),
    "rota_advance": (c_int, (_E, rota_time)),
    "rota_now": (rota_time, (_E,)),
    "rota_submit": (c_int, (_E, POINTER(RotaJob))),
    "rota_job_end": (c_int, (_E, c_int64)),
    "rota_job_exit": (c_int, (_E, c_int64, c_int)),
    "rota_cancel": (c_int, (_E, c_int64)),
    "rota_schedule": (c_int, (_E,)),
    "rota_next_wakeup": (c_int, (_E, POINTER(rota_time))),
    "rota_next_action": (c_int, (_E, POINTER(RotaAction))),
    "rota_job_info_get": (c_int, (_E, c_int64, POINTER(RotaJobInfo))),
    "rota_queue": (c_int, _LIST64),
    "rota_held": (c_int, _LIST64),
    "rota_running": (c_int, _LIST64),
    "rota_job_nodes": (c_int, (_E, c_int64, POINTER(c_int32), c_size_t, POINTER(c_size_t))),
    "rota_free_nodes": (c_int, _LIST32),
    "rota_reservations": (c_int, (_E, POINTER(RotaReservation), c_size_t, POINTER(c_size_t))),
    "rota_machine_info_get": (c_int, (_E, POINTER(RotaMachineInfo))),
    "rota_counters_get": (c_int, (_E, POINTER(RotaCounters))),
    "rota_user_info_get": (c_int, (_E, c_int32, POINTER(RotaUserInfo))),
    "rota_hook_name": (c_char_p, (c_int,)),
    "rota_hook_stats_get": (c_int, (_E, c_int, POINTER(RotaHookStats))),
    "rota_hook_script": (c_char_p, (_E, c_int)),
    "rota_reload_policies": (c_int, (_E,)),
    "rota_reconfigure": (c_int, (_E, c_char_p)),
    "rota_set_policy": (c_int, (_E, c_int, POLICY_FN, c_void_p, c_int)),
    "rota_set_log": (c_int, (_E, LOG_FN, c_void_p)),
    "rota_set_log_level": (c_int, (_E, c_int)),
    "rota_snapshot": (c_int, (_E, WRITER_FN, c_void_p)),
    "rota_restore": (c_int, (c_char_p, c_char_p, POINTER(RotaEngineOptions), c_void_p, c_size_t,
                             POINTER(_E))),
    "rota_call_hook": (c_int, (_CALL,)),
    "rota_call_rows": (c_size_t, (_CALL,)),
    "rota_call_column": (c_void_p, (_CALL, c_char_p, POINTER(c_int))),
    "rota_call_int": (c_int, (_CALL, c_char_p, POINTER(c_int64))),
    "rota_call_double": (c_int, (_CALL, c_char_p, POINTER(c_double))),
    "rota_call_string": (c_char_p, (_CALL, c_char_p)),
    "rota_call_array": (c_void_p, (_CALL, c_char_p, POINTER(c_int), POINTER(c_size_t))),
    "rota_call_user": (c_int, (_CALL, c_char_p, c_int32, POINTER(c_double))),
    "rota_call_answer": (c_int, (_CALL, c_void_p, c_size_t)),  # int64 array
    "rota_call_answer_keys": (c_int, (_CALL, c_void_p, c_size_t)),  # double array
    "rota_call_answer_admission": (c_int, (_CALL, c_size_t, c_int, c_char_p, rota_time)),
}
