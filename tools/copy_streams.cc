#include "tools/copy_streams.h"

#include <cstdlib>

namespace cassette::tools {

std::string ExpandUserPath(const std::string& path) {
  if (path.empty() || path[0] != '~' || (path.size() > 1 && path[1] != '/')) return path;
  const char* home = std::getenv("HOME");
  return home == nullptr ? path : std::string(home) + path.substr(1);
}

}  // namespace cassette::tools
