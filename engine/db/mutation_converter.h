// Converts a public Mutation into the internal PartitionUpdate for one
// table: checks every value against the schema, assigns the write timestamp
// and TTL, encodes keys, and turns INSERT/UPDATE/DELETE semantics into cells,
// markers and deletions as Cassandra does. Either the whole update is built or
// an InvalidRequest explains why not; nothing is applied here.
#pragma once

#include <atomic>
#include <cstdint>

#include "cassette/mutation.h"
#include "cassette/schema.h"
#include "cassette/status.h"
#include "engine/mutation/partition_update.h"
#include "engine/mutation/plain_row.h"
#include "engine/util/small_vector.h"

namespace cassette {

struct ConversionContext {
  uint64_t table_id = 0;
  int64_t timestamp = 0;  // the write timestamp (micros) to give every cell
  int64_t now_sec = 0;    // local deletion / expiry base
  // Numbers every list element written, so that elements appended or
  // prepended at one timestamp (the statements of a BATCH, or writes
  // USING the same TIMESTAMP) stay distinct and in the order written; the
  // database's, shared by all its writes. Null: a count from 0 for this
  // mutation alone.
  std::atomic<uint64_t>* list_sequence = nullptr;
};

// Builds the update in *update, which must be empty (default-constructed):
// the caller owns where it lives, so it is built in place. On error *update
// holds part of the conversion and is to be dropped.
Status ConvertMutation(const TableSchema& schema, const Mutation& mutation,
                       const ConversionContext& context, PartitionUpdate* update);

// A mutation that is one INSERT or UPDATE of plain values (plain_row.h),
// converted without building its PartitionUpdate: what most writes are.
// Holds its key and clustering; the column values stay the Mutation's,
// which must outlive it.
struct PlainMutation {
  int64_t token = 0;
  std::string key;
  std::string clustering;
  bool has_marker = false;
  int64_t timestamp = 0;
  int32_t ttl = 0;
  int64_t expiry = kNoDeletionTime;
  SmallVector<PlainColumn, 8> columns;  // sorted by id

  PlainRowWrite write() const {
    return {token, key, clustering, PlainRow{has_marker, timestamp, ttl, expiry, columns}};
  }
};

// Converts `mutation` into *out when it is a single plain row that
// ConvertMutation accepts; then ConvertMutation would build exactly the
// update holding only out->write().row.ToRow(out->clustering). Returns
// false for any other mutation, valid or not (*out is then unspecified):
// ConvertMutation converts it, or says what is wrong with it.
bool ConvertPlainMutation(const TableSchema& schema, const Mutation& mutation,
                          const ConversionContext& context, PlainMutation* out);

}  // namespace cassette
