// What each user's jobs have consumed: processor-seconds, running jobs
// counted up to now, optionally decayed with a half-life as Slurm's fair
// share does (PriorityDecayHalfLife). Every hook's context reads it
// (vocabulary.h, ROTA_CONTEXT_USERS); docs/design.md, "Usage".
//
// Each user's account is settled only when the processors its jobs hold
// change (a start, an end, a resize); in between its usage is a closed
// form of the time since, so reading it costs O(1) and changes nothing.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "types.h"

namespace rota {

class UsageBook {
  public:
    // half_life 0: no decay, usage only grows.
    explicit UsageBook(Time half_life = 0);

    // A job of `user` holds `procs` processors from `since` (<= now) on;
    // `since` before now counts the time it already ran (an adopted job).
    void started(std::int32_t user, std::int32_t procs, Time since, Time now);
    // A running job of `user` holds `delta` processors more (or fewer).
    void resized(std::int32_t user, std::int32_t delta, Time now);
    // A job of `user` holding `procs` processors stopped running.
    void stopped(std::int32_t user, std::int32_t procs, Time now);

    // Processor-seconds of the user's jobs up to `now` (>= the last event),
    // decayed; 0 for a user never seen.
    double usage(std::int32_t user, Time now) const;
    std::int32_t procs(std::int32_t user) const;    // held now by its running jobs
    std::int32_t running(std::int32_t user) const;  // its running jobs
    double total(Time now) const;                   // of every user
    std::int32_t users() const { return static_cast<std::int32_t>(ids_.size()); }
    bool known(std::int32_t user) const { return find(user) != nullptr; }
    // Changes at every event that changes an account.
    std::uint64_t version() const { return version_; }
    // The users with an account (usage or running jobs), in the order seen.
    const std::vector<std::int32_t>& ids() const { return ids_; }
    // For the users at `positions` (indices into ids()), in that order:
    // usage at `now`, processors held and running jobs. One pass over the
    // accounts, no lookup: a C policy reads every user at every call.
    void figures(const std::vector<std::uint32_t>& positions, Time now, double* usage,
                 std::int32_t* procs, std::int32_t* running) const;
    // This book's own number, never another's in the process: what a
    // cache of its figures is keyed on, as a book may reuse a freed one's
    // address.
    std::uint64_t serial() const { return serial_; }

    // Snapshots (engine/snapshot.cpp): the accounts as text lines, and
    // back, exactly (floating point in hexadecimal).
    void save(std::string& out) const;
    void load_line(const std::string& line);

  private:
    struct Account {
        double settled = 0.0;  // processor-seconds as of `at`
        Time at = 0;
        std::int32_t procs = 0;
        std::int32_t jobs = 0;
    };
    double lambda_ = 0.0;  // decay rate per microsecond (ln 2 / half-life); 0: none
    // Where each user's account is: users -1..kDense-2 (the SWF's are small
    // numbers, -1 when unknown) by a table at user + 1, position + 1 (0:
    // none), since every start, end and resize looks its user up; others by
    // a hash.
    static constexpr std::int32_t kDense = 1 << 16;
    std::vector<std::uint32_t> dense_;
    std::unordered_map<std::int32_t, std::uint32_t> index_;
    std::vector<std::int32_t> ids_;
    std::vector<Account> accounts_;
    Account total_;
    std::uint64_t version_ = 0;
    std::uint64_t serial_;

    const Account* find(std::int32_t user) const;
    Account& account(std::int32_t user);
    double value(const Account& a, Time now) const;
    // Processor-seconds of `procs` processors held over `dt` microseconds
    // ending now, decayed to now.
    double held(std::int32_t procs, Time dt) const;
    void settle(Account& a, Time now) const;
};

}  // namespace rota
