// TwcsWindowReport: one time window of a TWCS table as `cassette stats`
// and the API show it, to explain expiry: which SSTables the window holds,
// how many of their bytes could be dropped whole right now, from when on
// the window's data is past TTL + gc_grace, and which SSTables (or the
// memtable) keep it on disk. Built by TimeWindowCompactionStrategy::
// ReportWindows from a snapshot; a plain value.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace cassette {

struct TwcsWindowReport {
  // [start, end) in microseconds since the epoch.
  int64_t window_start_micros = 0;
  int64_t window_end_micros = 0;
  // The SSTables whose newest timestamp falls in the window, by generation.
  std::vector<uint64_t> generations;
  // The ones the strategy's next expiry check drops whole (fully expired,
  // and nothing that may hold data as old as theirs is left: Cassandra's
  // TWCS check, over the whole table), and their bytes.
  std::vector<uint64_t> droppable_generations;
  uint64_t droppable_bytes = 0;
  // Bytes of the window's other SSTables.
  uint64_t live_bytes = 0;
  // The first instant (microseconds, a whole second) at which every
  // SSTable of the window is past its last expiry + gc_grace_seconds:
  // (max local deletion time + gc_grace + 1) seconds. nullopt when one of
  // them holds data that never expires (no TTL), so the window is only
  // ever dropped by deletes and compaction, not whole.
  std::optional<int64_t> droppable_at_micros;
  // What keeps the window's SSTables on disk past that time: SSTables
  // outside the window holding data at least as old as theirs that will
  // not themselves be expired by then. Their data might be shadowed by the
  // window's tombstones, so the window cannot go first (the overlap check;
  // for TWCS Cassandra runs it over the whole table, so every such SSTable
  // counts, whatever its key range). Empty with
  // unsafe_aggressive_sstable_expiration.
  std::vector<uint64_t> blocking_generations;
  // An expired SSTable of the window is held back by the memtable, whose
  // oldest timestamp is not newer than the SSTable's newest one.
  bool blocked_by_memtable = false;
};

}  // namespace cassette
