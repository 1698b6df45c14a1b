// ExecuteRead: runs one ReadCommand over a ReadSource and returns its CQL
// result. For each partition (the command's keys in order, else the
// partitions of the token range in token order) it merges what every
// source holds, applies the partition deletion, range tombstones, row
// deletions, cell tombstones and TTL as of cmd.now_sec, and keeps the
// visible rows; then it selects columns, applies LIMIT, PER
// PARTITION LIMIT and paging and counts what it scanned (as Cassandra's
// ReadCommand counts tombstones: engine/read/live_view.h).
//
// Rules worth knowing:
//   - a partition with no live row in the slice but live static data
//     yields one row (key + statics) unless cmd.restricts_rows;
//   - DISTINCT yields one row per partition with live data;
//   - the pages of a paged read concatenate to its unpaged result; a full
//     page always carries a paging state (as Cassandra does), so the last
//     page may come back empty;
//   - tombstones past cmd.tombstone_warn_threshold add a warning; past
//     cmd.tombstone_failure_threshold the read fails with ReadFailure.
#pragma once

#include "cassette/query.h"
#include "cassette/status.h"
#include "engine/read/read_command.h"
#include "engine/read/read_source.h"

namespace cassette {

// InvalidArgument for a malformed command, InvalidRequest for a paging
// state that does not belong to it, ReadFailure past the tombstone failure
// threshold, and any error of the sources.
Result<ResultSet> ExecuteRead(const ReadCommand& cmd, ReadSource* source);
// The same read with each result row passed to `visit` instead of
// collected (the result's rows stay empty); a visitor's error stops the
// read and is returned.
Result<ResultSet> ExecuteRead(const ReadCommand& cmd, ReadSource* source, const RowVisitor& visit);

}  // namespace cassette
