// Fast line-by-line reading of plain or gzip-compressed text files.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rota::sim {

// Reads lines from a file that may be gzip-compressed; compression is
// recognised by the magic bytes 1f 8b, not by the file name. Lines are
// returned without their "\n" or "\r\n". Data is read in large blocks and
// lines are views into the block, so no per-line allocation happens.
// Errors throw std::runtime_error whose message starts with "<path>: ".
class LineReader {
  public:
    explicit LineReader(const std::string& path);
    ~LineReader();
    LineReader(LineReader&&) noexcept;
    LineReader& operator=(LineReader&&) noexcept;
    LineReader(const LineReader&) = delete;
    LineReader& operator=(const LineReader&) = delete;

    // The view stays valid until the next call. False at the end of the file.
    bool next(std::string_view& line);
    std::int64_t line_number() const { return line_; }  // of the last line returned
    bool compressed() const;
    const std::string& path() const { return path_; }

    class Source;  // plain or gzip byte stream

  private:
    bool fill();  // false if no more data
    [[noreturn]] void too_long() const;

    std::string path_;
    std::unique_ptr<Source> src_;
    std::vector<char> buf_;
    std::size_t pos_ = 0;  // start of unconsumed data
    std::size_t end_ = 0;  // end of valid data
    bool eof_ = false;
    std::int64_t line_ = 0;
};

}  // namespace rota::sim
