#include "engine/memtable/versioned_list.h"

#include <cstring>
#include <new>

namespace cassette {

void VersionedList::Push(uint64_t seq, std::string_view data, MemtableArena* arena) {
  char* mem = arena->AllocateAligned(sizeof(Version) + data.size());
  auto* v = new (mem)
      Version{seq, newest_.load(std::memory_order_relaxed), static_cast<uint64_t>(data.size())};
  if (!data.empty()) std::memcpy(mem + sizeof(Version), data.data(), data.size());
  newest_.store(v, std::memory_order_release);
}

}  // namespace cassette
