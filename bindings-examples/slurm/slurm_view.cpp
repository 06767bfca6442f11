// slurm_view.cpp: reading the controller's nodes and jobs (slurm_view.h).
#include "slurm_view.h"

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace rota_slurm {

bool node_name_less(const std::string& a, const std::string& b) {
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (std::isdigit((unsigned char)a[i]) && std::isdigit((unsigned char)b[j])) {
            size_t ie = i, je = j;
            while (ie < a.size() && std::isdigit((unsigned char)a[ie])) ++ie;
            while (je < b.size() && std::isdigit((unsigned char)b[je])) ++je;
            unsigned long long x = std::strtoull(a.substr(i, ie - i).c_str(), nullptr, 10);
            unsigned long long y = std::strtoull(b.substr(j, je - j).c_str(), nullptr, 10);
            if (x != y) return x < y;
            i = ie;
            j = je;
        } else {
            if (a[i] != b[j]) return a[i] < b[j];
            ++i;
            ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

// DOWN (or failing) nodes lose their job; DRAIN takes no new one. A node
// that does not respond is left as it is: Slurm marks it DOWN itself after
// SlurmdTimeout if it stays silent.
static Service service_of(uint32_t s) {
    if ((s & NODE_STATE_BASE) == NODE_STATE_DOWN || (s & NODE_STATE_FAIL)) return Service::down;
    if (s & NODE_STATE_DRAIN) return Service::drain;
    return Service::up;
}

// Expands a Slurm hostlist ("n[1-3],n7") into rota node numbers.
static bool expand(const char* hosts, const std::map<std::string, int32_t>& numbers,
                   std::vector<int32_t>& out) {
    out.clear();
    if (!hosts || !*hosts) return true;
    hostlist_t hl = slurm_hostlist_create(hosts);
    if (!hl) return false;
    bool ok = true;
    while (char* h = slurm_hostlist_shift(hl)) {
        auto it = numbers.find(h);
        if (it == numbers.end())
            ok = false;
        else
            out.push_back(it->second);
        free(h);  // slurm_hostlist_shift's result is malloc()ed
    }
    slurm_hostlist_destroy(hl);
    std::sort(out.begin(), out.end());
    return ok;
}

bool load_view(View& v, std::map<std::string, int32_t>& numbers, std::string& err) {
    node_info_msg_t* nodes = nullptr;
    if (slurm_load_node(0, &nodes, SHOW_ALL) != SLURM_SUCCESS) {
        err = std::string("slurm_load_node: ") + slurm_strerror(slurm_get_errno());
        return false;
    }
    std::vector<std::pair<std::string, uint32_t>> ns;
    for (uint32_t i = 0; i < nodes->record_count; ++i)
        if (nodes->node_array[i].name)
            ns.emplace_back(nodes->node_array[i].name, nodes->node_array[i].node_state);
    slurm_free_node_info_msg(nodes);
    std::sort(ns.begin(), ns.end(),
              [](const auto& a, const auto& b) { return node_name_less(a.first, b.first); });
    if (numbers.empty())
        for (size_t i = 0; i < ns.size(); ++i) numbers[ns[i].first] = (int32_t)i;
    if (ns.size() != numbers.size()) {
        err = "the controller's node list changed; restart rota-slurm to take it";
        return false;
    }
    v.node_names.assign(ns.size(), "");
    v.service.assign(ns.size(), Service::up);
    for (auto& [name, state] : ns) {
        auto it = numbers.find(name);
        if (it == numbers.end()) {
            err = "unknown node " + name + "; restart rota-slurm to take it";
            return false;
        }
        v.node_names[it->second] = name;
        v.service[it->second] = service_of(state);
    }

    job_info_msg_t* jobs = nullptr;
    if (slurm_load_jobs(0, &jobs, SHOW_ALL) != SLURM_SUCCESS) {
        err = std::string("slurm_load_jobs: ") + slurm_strerror(slurm_get_errno());
        return false;
    }
    v.jobs.clear();
    for (uint32_t i = 0; i < jobs->record_count; ++i) {
        const slurm_job_info_t& s = jobs->job_array[i];
        Job j;
        j.id = s.job_id;
        j.state = s.job_state & JOB_STATE_BASE;
        j.held = j.state == JOB_PENDING && s.priority == 0;
        j.num_nodes = s.num_nodes;
        j.limit_s =
            (s.time_limit == INFINITE || s.time_limit == NO_VAL) ? -1 : (int64_t)s.time_limit * 60;
        j.submit = s.submit_time;
        j.start = s.start_time;
        j.restarts = s.restart_cnt;
        j.user = s.user_id <= INT32_MAX ? (int32_t)s.user_id : -1;
        j.begin = s.eligible_time;
        j.account = s.account ? s.account : "";
        j.partition = s.partition ? s.partition : "";
        j.qos = s.qos ? s.qos : "";
        const char* where = j.state == JOB_PENDING ? s.req_nodes : s.nodes;
        if (j.state == JOB_RUNNING || j.state == JOB_SUSPENDED || j.state == JOB_PENDING) {
            if (!expand(where, numbers, j.nodes)) {
                err =
                    "job " + std::to_string(j.id) + " names unknown nodes " + (where ? where : "");
                slurm_free_job_info_msg(jobs);
                return false;
            }
        }
        v.jobs.push_back(std::move(j));
    }
    slurm_free_job_info_msg(jobs);
    // Oldest first, so that jobs new to the engine arrive in submission order.
    std::sort(v.jobs.begin(), v.jobs.end(), [](const Job& a, const Job& b) {
        return a.submit != b.submit ? a.submit < b.submit : a.id < b.id;
    });
    return true;
}

std::string node_list(const View& v, const std::vector<int32_t>& nodes) {
    std::string s;
    for (int32_t n : nodes) {
        if (!s.empty()) s += ',';
        s += v.node_names.at(n);
    }
    return s;
}

}  // namespace rota_slurm
