// SHA-256 (FIPS 180-4) of a file or a byte string, as 64 lowercase hex
// digits: the summary JSON names the trace it simulated by its digest.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rota::sim {

class Sha256 {
  public:
    Sha256();
    void update(const void* data, std::size_t n);
    std::string hex();  // finishes; the object is spent afterwards

  private:
    void block(const unsigned char* p);
    std::uint32_t h_[8];
    unsigned char buf_[64];
    std::size_t used_ = 0;
    std::uint64_t bytes_ = 0;
};

std::string sha256_hex(std::string_view data);
// Throws std::runtime_error("<path>: cannot read ...") when the file cannot be read.
std::string sha256_file(const std::string& path);

}  // namespace rota::sim
