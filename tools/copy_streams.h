// Where a COPY writes: its messages (cqlsh prints them on standard output),
// its errors, the data of COPY TO STDOUT, and whether a person watches
// (the progress line is drawn only on a terminal).
#pragma once

#include <ostream>
#include <string>

namespace cassette::tools {

struct CopyStreams {
  std::ostream* out = nullptr;
  std::ostream* err = nullptr;
  bool tty = false;
};

// A file name as cqlsh takes it (safe_normpath): a leading ~ is the home
// directory.
std::string ExpandUserPath(const std::string& path);

}  // namespace cassette::tools
