// cassette::Version(): the version compiled into the library, for a program
// to compare with the CASSETTE_VERSION_STRING of the headers it was built
// against (include/cassette/version.h).
#include "cassette/version.h"

namespace cassette {

std::string_view Version() { return CASSETTE_VERSION_STRING; }

}  // namespace cassette
