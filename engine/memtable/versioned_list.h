// VersionedList: the versions of one partition-level item (partition
// deletion, static row, range tombstones), newest first, each tagged with
// the sequence number of the Apply that wrote it. Readers holding snapshot
// S skip versions newer than S, which is what makes an Apply atomic for
// them even though its parts are linked one by one.
//
// Thread safety: Push needs external synchronization (the memtable's
// writer); readers run concurrently with it. A version is built before the
// release-store that links it.
#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>

#include "engine/memtable/memtable_arena.h"

namespace cassette {

class VersionedList {
 public:
  struct Version {
    uint64_t seq;
    const Version* older;
    uint64_t size;
    // Payload bytes follow the header.
    std::string_view data() const {
      return {reinterpret_cast<const char*>(this) + sizeof(Version), size};
    }
  };

  // Writer. Copies `data` into the arena as the newest version.
  void Push(uint64_t seq, std::string_view data, MemtableArena* arena);

  // The newest version of any sequence number; nullptr when empty.
  const Version* Newest() const { return newest_.load(std::memory_order_acquire); }
  // The newest version with seq <= snapshot; nullptr when none.
  const Version* NewestVisible(uint64_t snapshot) const {
    return SkipInvisible(Newest(), snapshot);
  }
  // The next older version with seq <= snapshot after `v`; nullptr when none.
  static const Version* OlderVisible(const Version* v, uint64_t snapshot) {
    return SkipInvisible(v->older, snapshot);
  }

 private:
  static const Version* SkipInvisible(const Version* v, uint64_t snapshot) {
    while (v != nullptr && v->seq > snapshot) v = v->older;
    return v;
  }

  std::atomic<const Version*> newest_{nullptr};
};

}  // namespace cassette
