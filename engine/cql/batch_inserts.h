// A BATCH of plain INSERTs into one table, each setting the same columns
// (what an ingest client sends: one prepared INSERT bound per row), taken
// as one InsertBatch, so that Database::ApplyInserts writes it without a
// Mutation per statement. It writes exactly what the statements'
// Mutations would (insert_batch.h); any other batch stays on the general
// path.
#pragma once

#include <optional>
#include <vector>

#include "cassette/insert_batch.h"
#include "engine/cql/write_plan.h"

namespace cassette::cql {

// The batch's rows when every plan is an unconditional INSERT of one row
// of the same table, with the same USING attributes, setting the same
// columns in the same order to plain values; nullopt otherwise. The values
// are moved out of `plans`.
std::optional<InsertBatch> TakeInsertBatch(std::vector<WritePlan>& plans);

// For tests only (tests/cql/batch_fast_path_test.cc): while false,
// TakeInsertBatch takes nothing, so every batch goes the general way
// (MutationBuilder + ApplyBatch) and the test can pair the two. True
// unless a test sets it; production code never does.
void SetInsertBatchFastPathForTesting(bool enabled);

}  // namespace cassette::cql
