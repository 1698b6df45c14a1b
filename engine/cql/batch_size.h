// What Cassandra measures of a BATCH before writing it
// (BatchStatement.verifyBatchSize): the partitions it writes, the tables,
// and the size of the data, as IMutation.dataSize adds it up (each cell's
// value plus its timestamp, TTL and deletion time, clustering values, row
// liveness and deletions; partition keys are not counted).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "cassette/insert_batch.h"
#include "cassette/mutation.h"
#include "cassette/options.h"
#include "cassette/schema.h"
#include "cassette/status.h"

namespace cassette::cql {

struct BatchSize {
  uint64_t partitions = 0;  // distinct keyspace and partition key pairs
  uint64_t data_size = 0;
  std::set<std::string> tables;  // "keyspace.table"
};

BatchSize MeasureBatch(const std::vector<Mutation>& mutations);
BatchSize MeasureBatch(const InsertBatch& batch, const TableSchema& schema);

// Over several partitions: past batch_size_fail_threshold InvalidRequest
// "Batch too large", past batch_size_warn_threshold Cassandra's client
// warning added to `warnings`. Then the whole batch, one commit-log
// record here, must fit max_mutation_size (the engine's message).
Status CheckBatchSize(const BatchSize& size, const Options& options,
                      std::vector<std::string>* warnings);

}  // namespace cassette::cql
