// qos.cpp: Slurm's QOS as the engine's job classes (qos.h).
#include "qos.h"

#include <slurm/slurm.h>
#include <slurm/slurmdb.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>

// libslurm exports its bitstring test, which slurmdb_qos_rec_t's
// preempt_bitstr needs, without declaring it in the public headers.
extern "C" int slurm_bit_test(bitstr_t* b, bitoff_t bit);
extern "C" bitoff_t slurm_bit_size(bitstr_t* b);

namespace rota_slurm {

namespace {

// A time Slurm leaves unset (NO_VAL, INFINITE) as 0 seconds.
uint32_t seconds_or_0(uint32_t s) {
    return s == NO_VAL || s == INFINITE ? 0 : s;
}

// Preemption's mode without the flags that say how it combines with gang
// scheduling and within a QOS. A QOS's 0 (sacctmgr shows "cluster")
// stands for the cluster's, PreemptMode in slurm.conf, as in Slurm.
uint16_t mode_of(uint16_t qos_mode, uint16_t cluster_mode) {
    const uint16_t m = qos_mode ? qos_mode : cluster_mode;
    return m & ~(PREEMPT_MODE_GANG | PREEMPT_MODE_WITHIN);
}

bool load_conf(QosSite& site, uint16_t& mode, uint32_t& exempt, std::string& err) {
    slurm_conf_t* conf = nullptr;
    if (slurm_load_ctl_conf((time_t)0, &conf) != SLURM_SUCCESS) {
        err = std::string("slurm_load_ctl_conf: ") + slurm_strerror(slurm_get_errno());
        return false;
    }
    site.accounting =
        conf->accounting_storage_type &&
        std::strcmp(conf->accounting_storage_type, "accounting_storage/slurmdbd") == 0;
    site.preempt_qos = conf->preempt_type && std::strcmp(conf->preempt_type, "preempt/qos") == 0;
    mode = conf->preempt_mode;
    exempt = seconds_or_0(conf->preempt_exempt_time);
    slurm_free_ctl_conf(conf);
    return true;
}

// TOML's basic string: QOS names are plain words, but a quote or a
// backslash must not end the string early, and a control character (which
// TOML refuses raw) is written as its escape.
std::string quoted(const std::string& s) {
    std::string q = "\"";
    for (char c : s) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\u%04x", static_cast<unsigned char>(c));
            q += esc;
            continue;
        }
        if (c == '"' || c == '\\') q += '\\';
        q += c;
    }
    return q + '"';
}

}  // namespace

bool load_qos(QosSite& site, std::string& err) {
    uint16_t cluster_mode = 0;
    uint32_t cluster_exempt = 0;
    if (!load_conf(site, cluster_mode, cluster_exempt, err)) return false;
    site.qos.clear();
    if (!site.accounting) return true;
    // A connection for each read: slurmdbd answers a connection's reads
    // inside one database transaction, so a connection kept open would see
    // the QOS as they were at its first read, whatever sacctmgr changed since.
    uint16_t flags = 0;
    void* db = slurmdb_connection_get(&flags);
    if (!db) {
        err = std::string("slurmdb_connection_get: ") + slurm_strerror(slurm_get_errno());
        return false;
    }
    slurmdb_qos_cond_t cond = {};
    List list = slurmdb_qos_get(db, &cond);
    if (!list) {
        err = std::string("slurmdb_qos_get: ") + slurm_strerror(slurm_get_errno());
        slurmdb_connection_close(&db);
        return false;
    }
    // Preempt= is a bitmap of QOS ids: names once every QOS is known.
    std::map<uint32_t, std::string> names;
    std::vector<bitstr_t*> preempt;
    ListIterator it = slurm_list_iterator_create(list);
    while (auto* q = static_cast<slurmdb_qos_rec_t*>(slurm_list_next(it))) {
        Qos out;
        out.name = q->name ? q->name : "";
        // The engine's priorities are 32-bit signed.
        out.priority = q->priority == NO_VAL || q->priority == INFINITE
                           ? 0
                           : std::min(q->priority, (uint32_t)INT32_MAX);
        out.preempt_mode = mode_of(q->preempt_mode, cluster_mode);
        out.exempt_s = q->preempt_exempt_time == NO_VAL || q->preempt_exempt_time == INFINITE
                           ? cluster_exempt
                           : q->preempt_exempt_time;
        out.grace_s = seconds_or_0(q->grace_time);
        names[q->id] = out.name;
        preempt.push_back(q->preempt_bitstr);
        site.qos.push_back(std::move(out));
    }
    for (size_t i = 0; i < site.qos.size(); ++i) {
        if (!preempt[i]) continue;
        for (auto& [id, name] : names)
            if ((bitoff_t)id < slurm_bit_size(preempt[i]) && slurm_bit_test(preempt[i], id))
                site.qos[i].preempts.push_back(name);
    }
    slurm_list_iterator_destroy(it);
    slurm_list_destroy(list);
    slurmdb_connection_close(&db);
    return true;
}

std::string classes_config(const QosSite& site, const std::set<std::string>& file_classes,
                           std::string& err) {
    // Preemptable: some other QOS lists it in Preempt=, and Slurm's
    // preemption is by QOS at all (PreemptType=preempt/qos).
    std::set<std::string> victims;
    if (site.preempt_qos)
        for (const Qos& q : site.qos)
            for (const std::string& v : q.preempts)
                if (v != q.name) victims.insert(v);
    std::string toml;
    for (const Qos& q : site.qos) {
        if (file_classes.count(q.name)) continue;
        bool preemptable = victims.count(q.name) && q.preempt_mode != PREEMPT_MODE_OFF;
        if (preemptable && q.preempt_mode != PREEMPT_MODE_REQUEUE) {
            // The engine loads a swapped-out job on whatever nodes are
            // free when its turn comes; Slurm resumes a suspended job only
            // on its own nodes, and a cancelled one never comes back.
            err = "QOS '" + q.name + "' has PreemptMode=" +
                  (q.preempt_mode & PREEMPT_MODE_SUSPEND ? "SUSPEND" : "CANCEL") +
                  ": rota-slurm preempts by requeueing only (a swapped-out job is loaded again "
                  "on whatever nodes are free, which slurm_resume cannot do); set "
                  "PreemptMode=REQUEUE";
            return "";
        }
        char buf[160];
        std::snprintf(buf, sizeof buf, "priority = %u\npreemptable = %s\ndnd = %u\n", q.priority,
                      preemptable ? "true" : "false", q.exempt_s + q.grace_s);
        toml += "\n[[classes.class]]\nname = " + quoted(q.name) + "\n" + buf;
    }
    return toml;
}

}  // namespace rota_slurm
