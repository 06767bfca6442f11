// qos.h: a site's Slurm QOS as the engine's job classes ([Feitelson97]
// §4.2-4.3, docs/config.md "[classes]"). When the configuration file has a
// [classes] table, every QOS of the accounting database becomes a class of
// the same name: its priority is the QOS's, it is preemptable when another
// QOS lists it in Preempt=, and its do-not-disturb multiplier is the
// QOS's PreemptExemptTime plus GraceTime, in seconds per node. The engine's
// SWAP_OUT is carried out as a requeue (actions.h).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace rota_slurm {

struct Qos {
    std::string name;
    uint32_t priority = 0;
    std::vector<std::string> preempts;  // the QOS it may preempt (Preempt=)
    uint16_t preempt_mode = 0;          // PREEMPT_MODE_*, the cluster's applied already
    uint32_t exempt_s = 0;              // PreemptExemptTime (the cluster's if unset)
    uint32_t grace_s = 0;               // GraceTime
};

// What the controller and the accounting database say about preemption.
struct QosSite {
    bool accounting = false;   // AccountingStorageType=accounting_storage/slurmdbd
    bool preempt_qos = false;  // PreemptType=preempt/qos
    std::vector<Qos> qos;      // in the database's order
};

// Reads slurm.conf's preemption settings and, with accounting, every QOS
// (slurmdb_qos_get). False with `err` set when the database cannot be read.
bool load_qos(QosSite& site, std::string& err);

// The [[classes.class]] tables of `site`'s QOS as TOML to append to the
// configuration file's text, leaving out the QOS in `file_classes` (the
// file's own table of that name is used whole). "" with `err` set if a QOS
// asks for what the engine cannot carry out on Slurm (PreemptMode=SUSPEND
// or CANCEL on a preemptable QOS).
std::string classes_config(const QosSite& site, const std::set<std::string>& file_classes,
                           std::string& err);

}  // namespace rota_slurm
