// The simulator's output files: an existing file is replaced only by a
// complete new one, and no output may be an input or another output
// (docs/reliability.md, "Outputs").
#pragma once

#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace rota::sim {

// An output written to a temporary file beside its path and renamed onto
// it by commit(): until then the file at the path, if any, is untouched,
// and a run that fails before commit() removes the temporary. A path that
// is not a regular file (/dev/stdout, /dev/null, a pipe) is written in
// place, as a stream. A symbolic link's target is replaced (or created, if
// it does not exist yet), not the link.
// A file with other hard links is written through once the temporary is
// complete, so that every link sees the new results.
class OutputFile {
  public:
    // Checks that the path can be written (the file itself when it exists,
    // else its directory) by creating the temporary; throws
    // std::runtime_error "cannot write the <what> '<path>'" when it cannot.
    OutputFile(std::string path, std::string what);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    std::ostream& out() { return *out_; }
    const std::string& path() const { return path_; }
    // Closes the stream and puts the file in place; throws
    // std::runtime_error naming the path on a write error (the file at
    // the path is then left as it was).
    void commit();

  private:
    std::string path_, what_;
    std::string target_;  // the path, or the target of the link it is
    std::string temp_;    // empty: written in place
    std::unique_ptr<std::ofstream> out_;
    bool done_ = false;
    bool through_ = false;  // the file has other hard links: commit() copies into it

    void write_through();
};

// A file the command reads or writes, and what it is for the messages
// ("the trace", "the jobs CSV").
struct NamedPath {
    std::string what;
    std::string path;
};

// Throws std::invalid_argument naming both when an output is one of the
// inputs, or two outputs are the same file: the first would be destroyed
// before it is read, the second silently overwritten. Paths are compared
// as files (links and other spellings of one file are the same file);
// "-" and paths that are not regular files (devices, pipes) are streams
// and never clash.
void check_output_paths(const std::vector<NamedPath>& inputs,
                        const std::vector<NamedPath>& outputs);

// Flushes the standard output; throws std::runtime_error when anything
// written to it was lost (a full disk, a closed pipe).
void flush_stdout();

}  // namespace rota::sim
