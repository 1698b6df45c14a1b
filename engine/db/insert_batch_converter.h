// Converts a public InsertBatch (include/cassette/insert_batch.h) into plain
// row writes (engine/mutation/plain_row.h): the batch's columns are looked
// up once, then each row's values are checked and its key and clustering
// encoded. A batch the shortcut does not cover, valid or not, is applied as
// the Mutations it stands for (InsertBatchMutations), which also say what
// is wrong with it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cassette/insert_batch.h"
#include "cassette/mutation.h"
#include "cassette/schema.h"
#include "engine/db/mutation_converter.h"
#include "engine/mutation/plain_row.h"

namespace cassette {

struct ConvertedInserts {
  // Every row's partition key, then its clustering, back to back; the
  // writes point into it.
  std::string keys;
  // Each row's columns sorted by id, row after row; values borrowed from
  // the batch.
  std::vector<PlainColumn> columns;
  std::vector<PlainRowWrite> writes;  // one per row, in order
};

// Fills *out (empty on entry) when every row of `batch` is a plain row of
// regular columns that ApplyBatch(InsertBatchMutations(batch)) would accept
// with the same `context` (table, timestamp, now); each write is then the
// plain row that mutation converts to. False otherwise, *out unspecified.
bool ConvertInsertBatch(const TableSchema& schema, const InsertBatch& batch,
                        const ConversionContext& context, ConvertedInserts* out);

// The mutations `batch` stands for, one per row, as `schema` reads its
// columns, each written at `timestamp` (the batch's USING TIMESTAMP, or
// the one ApplyBatch would have given them all).
std::vector<Mutation> InsertBatchMutations(const TableSchema& schema, const InsertBatch& batch,
                                           int64_t timestamp);

}  // namespace cassette
