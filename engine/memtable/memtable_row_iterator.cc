#include "engine/memtable/memtable_row_iterator.h"

#include <cassert>
#include <utility>

namespace cassette {

MemtableRowIterator::MemtableRowIterator(const MemtableRowList* rows, uint64_t snapshot,
                                         const ClusteringRange& range, bool reversed)
    : it_(rows),
      snapshot_(snapshot),
      interval_(ClusteringInterval::FromRange(range)),
      reversed_(reversed) {
  if (interval_.empty) return;
  if (!reversed_) {
    if (interval_.lo.empty()) {
      it_.SeekToFirst();
    } else {
      it_.Seek(interval_.lo);
    }
    SettleForward();
  } else {
    if (interval_.unbounded_end) {
      it_.SeekToLast();
    } else {
      it_.SeekBefore(interval_.hi);
    }
    SettleReverse();
  }
}

MemtableRowIterator::MemtableRowIterator(Status error) : it_(nullptr), status_(std::move(error)) {
  assert(!status_.ok());
}

void MemtableRowIterator::Next() {
  assert(valid_);
  if (!reversed_) {
    // Skip the older versions of the clustering just emitted.
    do {
      it_.Next();
    } while (it_.Valid() && it_.key()->clustering() == row_.clustering);
    SettleForward();
  } else {
    it_.SeekBefore(row_.clustering);
    SettleReverse();
  }
}

void MemtableRowIterator::SettleForward() {
  valid_ = false;
  // Versions of one clustering are adjacent, newest first: the first one
  // at or below the snapshot is the one to emit.
  while (it_.Valid()) {
    const MemtableRow* version = it_.key();
    if (!interval_.BeforeEnd(version->clustering())) return;
    if (version->seq <= snapshot_) {
      Emit(version);
      return;
    }
    it_.Next();
  }
}

void MemtableRowIterator::SettleReverse() {
  valid_ = false;
  // it_ is on the last (oldest) version of some clustering; the newest
  // visible version, if any, is found from the start of its run.
  while (it_.Valid()) {
    std::string_view clustering = it_.key()->clustering();
    if (!interval_.AtOrAfterStart(clustering)) return;
    MemtableRowList::Iterator run = it_;
    run.Seek(clustering);
    while (run.Valid() && run.key()->seq > snapshot_ && run.key()->clustering() == clustering) {
      run.Next();
    }
    if (run.Valid() && run.key()->clustering() == clustering) {
      Emit(run.key());
      return;
    }
    it_.SeekBefore(clustering);
  }
}

void MemtableRowIterator::Emit(const MemtableRow* version) {
  // A flush reads every row of a partition in order: fetch the next ones
  // while this one is decoded and written.
  if (!reversed_) it_.PrefetchAhead();
  Status s = version->Decode(&row_);
  if (!s.ok()) {
    status_ = std::move(s);
    return;
  }
  valid_ = true;
}

}  // namespace cassette
