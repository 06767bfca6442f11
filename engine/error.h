// Errors raised inside the engine. The C ABI turns each into a status code
// and a message, so no exception ever crosses the library boundary.
#pragma once

#include <stdexcept>
#include <string>

namespace rota {

// Mirrors the ROTA_E* codes of rota.h one to one.
enum class Errc {
    invalid = 2,    // bad argument or malformed input
    config = 3,     // bad configuration (unknown key, wrong type, bad value)
    not_found = 4,  // unknown job id
    exists = 5,     // duplicate job id
    time = 6,       // time going backwards
    script = 7,     // a policy script failed to load or compile
    state = 8,      // call not valid in the current state
    internal = 9,   // a broken invariant: a bug in rota
};

class Error : public std::runtime_error {
  public:
    Error(Errc code, const std::string& what) : std::runtime_error(what), code_(code) {}
    Errc code() const noexcept { return code_; }

  private:
    Errc code_;
};

}  // namespace rota
