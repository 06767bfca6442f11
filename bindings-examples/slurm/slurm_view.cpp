// slurm_view.cpp: reading the controller's nodes and jobs (slurm_view.h).
#include "slurm_view.h"

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>

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

// Each part of the view from its message, which it frees; false with
// `err` set (and the part to be loaded whole next time) if it does not fit.
static bool read_nodes(View& v, node_info_msg_t* nodes, std::map<std::string, int32_t>& numbers,
                       std::string& err) {
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
        v.nodes_at = 0;
        return false;
    }
    v.node_names.assign(ns.size(), "");
    v.service.assign(ns.size(), Service::up);
    for (auto& [name, state] : ns) {
        auto it = numbers.find(name);
        if (it == numbers.end()) {
            err = "unknown node " + name + "; restart rota-slurm to take it";
            v.nodes_at = 0;
            return false;
        }
        v.node_names[it->second] = name;
        v.service[it->second] = service_of(state);
    }

    return true;
}

static bool read_partitions(View& v, partition_info_msg_t* parts,
                            const std::map<std::string, int32_t>& numbers, std::string& err) {
    v.partitions.clear();
    for (uint32_t i = 0; i < parts->record_count; ++i) {
        const partition_info_t& p = parts->partition_array[i];
        Partition part;
        part.name = p.name ? p.name : "";
        part.is_default = (p.flags & PART_FLAG_DEFAULT) != 0;
        if (!expand(p.nodes, numbers, part.nodes)) {
            err = "partition " + part.name + " names unknown nodes " + (p.nodes ? p.nodes : "");
            slurm_free_partition_info_msg(parts);
            v.partitions_at = 0;
            return false;
        }
        v.partitions.push_back(std::move(part));
    }
    slurm_free_partition_info_msg(parts);
    return true;
}

static void read_licenses(View& v, license_info_msg_t* lics) {
    v.licenses.clear();
    for (uint32_t i = 0; i < lics->num_lic; ++i)
        if (lics->lic_array[i].name && !lics->lic_array[i].remote)
            v.licenses.push_back({lics->lic_array[i].name, lics->lic_array[i].total});
    slurm_free_license_info_msg(lics);
}

static bool read_jobs(View& v, job_info_msg_t* jobs, const std::map<std::string, int32_t>& numbers,
                      std::string& err) {
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
        j.req_nodes = s.req_nodes ? s.req_nodes : "";
        j.exc_nodes = s.exc_nodes ? s.exc_nodes : "";
        j.admin_comment = s.admin_comment ? s.admin_comment : "";
        j.succeeded = j.state == JOB_COMPLETE && s.exit_code == 0;
        if (j.state == JOB_PENDING) {
            int skipped = 0;
            j.depends = parse_dependencies(s.dependency, skipped);
            j.licenses = parse_licenses(s.licenses, v.licenses);
            if (!expand(s.exc_nodes, numbers, j.exclude)) {
                err = "job " + std::to_string(j.id) + " excludes unknown nodes " + j.exc_nodes;
                slurm_free_job_info_msg(jobs);
                v.jobs_at = 0;
                return false;
            }
        }
        const char* where = j.state == JOB_PENDING ? s.req_nodes : s.nodes;
        if (j.state == JOB_RUNNING || j.state == JOB_SUSPENDED || j.state == JOB_PENDING) {
            if (!expand(where, numbers, j.nodes)) {
                err =
                    "job " + std::to_string(j.id) + " names unknown nodes " + (where ? where : "");
                slurm_free_job_info_msg(jobs);
                v.jobs_at = 0;
                return false;
            }
        }
        v.jobs.push_back(std::move(j));
    }
    slurm_free_job_info_msg(jobs);
    // Slurm sets a requeued job's submit time to the requeue, so that a
    // daemon restarted while it waits would queue it behind every job
    // submitted before that, where the engine that requeued it kept its
    // place. Slurm numbers jobs in submission order: it was submitted no
    // later than any job with a higher id (whose submit time is a bound
    // even if that one was requeued too). With ties broken by id below,
    // it comes back between the jobs submitted before and after it.
    std::sort(v.jobs.begin(), v.jobs.end(), [](const Job& a, const Job& b) { return a.id > b.id; });
    std::time_t later = 0;  // the earliest submit time among higher ids
    for (Job& j : v.jobs) {
        if (j.restarts > 0 && later > 0 && later < j.submit) j.submit = later;
        if (later == 0 || j.submit < later) later = j.submit;
    }
    // Oldest first, so that jobs new to the engine arrive in submission order.
    std::sort(v.jobs.begin(), v.jobs.end(), [](const Job& a, const Job& b) {
        return a.submit != b.submit ? a.submit < b.submit : a.id < b.id;
    });
    return true;
}

// A libslurm load since `at`: true with `msg` set if the part changed
// (`at` then becomes the controller's time for it), true with `msg` NULL
// if it did not, false with `err` set if it failed. The controller counts
// a change in the same second as `at` as a change (it answers "no change"
// only when its last one is before at - 1 s), so nothing made just after
// a load is missed by the next.
template <class Msg, class Load>
static bool load_since(std::time_t& at, Msg*& msg, Load load, const char* what, std::string& err) {
    msg = nullptr;
    if (load(at, &msg, SHOW_ALL) == SLURM_SUCCESS) {
        at = msg->last_update;
        return true;
    }
    if (slurm_get_errno() == SLURM_NO_CHANGE_IN_DATA) return true;
    err = std::string(what) + ": " + slurm_strerror(slurm_get_errno());
    at = 0;
    return false;
}

bool load_view(View& v, std::map<std::string, int32_t>& numbers, std::string& err) {
    node_info_msg_t* nodes = nullptr;
    if (!load_since(v.nodes_at, nodes, slurm_load_node, "slurm_load_node", err)) return false;
    if (nodes && !read_nodes(v, nodes, numbers, err)) return false;
    partition_info_msg_t* parts = nullptr;
    if (!load_since(v.partitions_at, parts, slurm_load_partitions, "slurm_load_partitions", err))
        return false;
    if (parts && !read_partitions(v, parts, numbers, err)) return false;
    license_info_msg_t* lics = nullptr;
    if (!load_since(v.licenses_at, lics, slurm_load_licenses, "slurm_load_licenses", err))
        return false;
    if (lics) read_licenses(v, lics);
    job_info_msg_t* jobs = nullptr;
    if (!load_since(v.jobs_at, jobs, slurm_load_jobs, "slurm_load_jobs", err)) return false;
    return !jobs || read_jobs(v, jobs, numbers, err);
}

std::string node_ranges(const std::vector<int32_t>& nodes) {
    std::string s;
    for (size_t i = 0; i < nodes.size();) {
        size_t k = i;
        while (k + 1 < nodes.size() && nodes[k + 1] == nodes[k] + 1) ++k;
        if (!s.empty()) s += ',';
        s += std::to_string(nodes[i]);
        if (k > i) {
            s += '-';
            s += std::to_string(nodes[k]);
        }
        i = k + 1;
    }
    return s;
}

// TOML basic strings: names as Slurm allows them hold no quote or control
// byte, but one that did would end the string.
static std::string quoted(const std::string& s) {
    std::string q = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') q += '\\';
        if (c < 0x20) continue;
        q += (char)c;
    }
    return q + "\"";
}

std::string site_config(const View& v) {
    std::string t;
    const bool one = v.partitions.size() == 1 &&
                     v.partitions[0].nodes.size() == v.node_names.size() &&
                     v.partitions[0].is_default;
    if (!one)
        for (const Partition& p : v.partitions) {
            t += "\n[[machine.partitions]]\nname = " + quoted(p.name) + "\nnodes = \"" +
                 node_ranges(p.nodes) + "\"\n";
            if (p.is_default) t += "default = true\n";
        }
    for (const License& l : v.licenses)
        t += "\n[[machine.pools]]\nname = " + quoted(l.name) +
             "\ncapacity = " + std::to_string(l.total) + "\n";
    return t.empty() ? t : "\n# The site, as Slurm has it (rota-slurm)." + t;
}

std::vector<Job::Dependency> parse_dependencies(const char* text, int& skipped) {
    std::vector<Job::Dependency> out;
    skipped = 0;
    if (!text || !*text) return out;
    const std::string all = text;
    if (all.find('?') != std::string::npos) {  // any one of: not a set of conditions
        ++skipped;
        return out;
    }
    size_t at = 0;
    while (at < all.size()) {
        size_t end = all.find(',', at);
        if (end == std::string::npos) end = all.size();
        const std::string term = all.substr(at, end - at);
        at = end + 1;
        const size_t colon = term.find(':');
        const std::string type = term.substr(0, colon);
        if (colon == std::string::npos || (type != "afterok" && type != "afterany")) {
            ++skipped;
            continue;
        }
        // "12+5(unfulfilled)", or several ids "12:13".
        size_t k = colon + 1;
        while (k < term.size()) {
            char* stop = nullptr;
            const unsigned long id = std::strtoul(term.c_str() + k, &stop, 10);
            size_t next = (size_t)(stop - term.c_str());
            if (next == k) {
                ++skipped;
                break;
            }
            int64_t minutes = 0;
            if (next < term.size() && term[next] == '+') {
                char* m = nullptr;
                minutes = (int64_t)std::strtoul(term.c_str() + next + 1, &m, 10);
                next = (size_t)(m - term.c_str());
            }
            std::string state;
            if (next < term.size() && term[next] == '(') {
                const size_t close = term.find(')', next);
                state = term.substr(
                    next + 1, close == std::string::npos ? std::string::npos : close - next - 1);
                next = close == std::string::npos ? term.size() : close + 1;
            }
            if (state.empty() || state == "unfulfilled")
                out.push_back({(uint32_t)id, type == "afterok", minutes * 60});
            else if (state != "fulfilled")
                ++skipped;  // failed: Slurm tells the user itself
            k = next < term.size() && term[next] == ':' ? next + 1 : term.size();
        }
    }
    return out;
}

std::vector<int64_t> parse_licenses(const char* text, const std::vector<License>& licenses) {
    std::vector<int64_t> out;
    if (!text || !*text || licenses.empty()) return out;
    out.assign(licenses.size(), 0);
    const std::string all = text;
    size_t at = 0;
    while (at < all.size()) {
        size_t end = all.find_first_of(",", at);
        if (end == std::string::npos) end = all.size();
        const std::string term = all.substr(at, end - at);
        at = end + 1;
        const size_t sep = term.find_first_of(":=");
        const std::string name = term.substr(0, sep);
        const int64_t n =
            sep == std::string::npos ? 1 : std::strtoll(term.c_str() + sep + 1, nullptr, 10);
        for (size_t i = 0; i < licenses.size(); ++i)
            if (licenses[i].name == name) out[i] += n;
    }
    return out;
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
