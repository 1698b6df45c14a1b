#include "engine/memtable/memtable_row.h"

#include <cstring>
#include <new>

namespace cassette {

const MemtableRow* MemtableRow::New(uint64_t seq, std::string_view clustering,
                                    std::string_view body, MemtableArena* arena) {
  char* mem = arena->AllocateAligned(sizeof(MemtableRow) + clustering.size() + body.size());
  auto* row = new (mem) MemtableRow{seq, static_cast<uint32_t>(clustering.size()), body.size()};
  char* p = mem + sizeof(MemtableRow);
  if (!clustering.empty()) std::memcpy(p, clustering.data(), clustering.size());
  if (!body.empty()) std::memcpy(p + clustering.size(), body.data(), body.size());
  return row;
}

Status DecodeMemtableRowBody(std::string_view body, Row* row) {
  // The decoder replaces the row's content and reuses its column storage.
  Status s = DecodeRowBody(&body, kMemtableEncodingStats, row);
  if (s.ok() && !body.empty()) return Status::Corruption("memtable: trailing bytes after a row");
  return s;
}

Status MemtableRow::Decode(Row* row) const {
  row->clustering.assign(clustering());
  return DecodeMemtableRowBody(body(), row);
}

}  // namespace cassette
