// The fast path of a CQL BATCH of INSERTs setting the same columns
// (TakeInsertBatch, engine/cql/batch_inserts.cc: one InsertBatch for
// Database::ApplyInserts) paired with its general twin (MutationBuilder +
// ApplyBatch), docs/ARCHITECTURE.md "Fast paths and their general twins".
// Two in-memory databases on equal manual clocks get the same random
// tables and the same random batches, one with the fast path on, one with
// it off (SetInsertBatchFastPathForTesting); both must answer the same
// (status, message, warnings), hold the same rows with the same WRITETIME
// and TTL of every cell, and leave byte-identical files: commit log, and
// SSTables after flushes. Random table shapes (one or two partition key
// columns, none to two clustering columns, regular, static and collection
// columns of several types); random batches (USING TIMESTAMP and TTL on
// the batch or the statements, nulls, INSERT JSON with DEFAULT UNSET,
// repeated keys, a wrongly typed value now and then, sometimes statements
// of different column lists, which the fast path refuses). The seed is
// printed on failure; CASSETTE_SEED replays it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cassette/cql.h"
#include "cassette/db.h"
#include "engine/cql/batch_inserts.h"
#include "tests/cql/random_table_util.h"

namespace cassette {
namespace {

using random_tables::Column;
using random_tables::Describe;
using random_tables::FirstDifferentFile;
using random_tables::Generator;
using random_tables::Node;
using random_tables::ReadAll;
using random_tables::Shape;
using random_tables::TestSeed;

// Restores the fast path however the test ends.
struct FastPathRestorer {
  ~FastPathRestorer() { cql::SetInsertBatchFastPathForTesting(true); }
};

// One statement of a batch: its text and bound values.
struct Statement {
  std::string cql;
  std::vector<Value> values;
};

// A random batch over `shape`: mostly INSERTs of one column list (the fast
// path's case), sometimes other lists, JSON inserts or a bad value.
Statement RandomBatch(Generator& gen, const Shape& shape) {
  Random& rnd = gen.rnd();
  std::vector<const Column*> keys;
  for (const Column& c : shape.partition_key) keys.push_back(&c);
  for (const Column& c : shape.clustering) keys.push_back(&c);
  auto column_list = [&] {
    std::vector<size_t> set;
    for (size_t i = 0; i < shape.regular.size(); ++i) {
      if (!rnd.OneIn(3)) set.push_back(i);
    }
    for (size_t i = set.size(); i > 1; --i) std::swap(set[i - 1], set[rnd.Uniform(i)]);
    return set;
  };
  const std::vector<size_t> common = column_list();
  const bool key_first = !rnd.OneIn(4);
  std::string using_batch;
  if (rnd.OneIn(4)) using_batch = " USING TIMESTAMP " + std::to_string(rnd.Range(1, 1'000'000));
  std::string using_each;
  switch (rnd.Uniform(4)) {
    case 0:
      using_each = " USING TTL " + std::to_string(rnd.Range(1, 5));
      break;
    case 1:
      if (using_batch.empty()) {
        using_each = " USING TTL " + std::to_string(rnd.Range(1, 5)) + " AND TIMESTAMP " +
                     std::to_string(rnd.Range(1, 1'000'000));
      }
      break;
    default:
      break;
  }
  Statement batch;
  batch.cql = std::string("BEGIN ") + (rnd.OneIn(2) ? "UNLOGGED " : "") + "BATCH" + using_batch;
  const size_t statements = 1 + rnd.Uniform(rnd.OneIn(5) ? 40 : 6);
  for (size_t s = 0; s < statements; ++s) {
    if (rnd.OneIn(15)) {
      // JSON, with the columns it leaves out unset.
      std::string json = "{";
      for (size_t k = 0; k < keys.size(); ++k) {
        json += (k ? ", \"" : "\"") + keys[k]->name + "\": " + gen.KeyValue(keys[k]->type).second;
      }
      for (size_t i : column_list()) {
        json += ", \"" + shape.regular[i].name +
                "\": " + gen.RegularValue(shape.regular[i].type).second;
      }
      json += "}";
      batch.cql +=
          " INSERT INTO " + shape.table + " JSON '" + json + "' DEFAULT UNSET" + using_each + ";";
      continue;
    }
    const std::vector<size_t> set = rnd.OneIn(10) ? column_list() : common;
    std::vector<std::string> names;
    std::vector<Value> values;
    for (const Column* key : keys) {
      names.push_back(key->name);
      values.push_back(rnd.OneIn(200) ? Value::Null() : gen.KeyValue(key->type).first);
    }
    for (size_t i : set) {
      names.push_back(shape.regular[i].name);
      values.push_back(gen.RegularValue(shape.regular[i].type).first);
    }
    if (!key_first) {
      std::rotate(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(keys.size()),
                  names.end());
      std::rotate(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(keys.size()),
                  values.end());
    }
    if (rnd.OneIn(150)) values[rnd.Uniform(values.size())] = Value::Float(1.5f);  // wrong type
    batch.cql += " INSERT INTO " + shape.table + " (";
    for (size_t i = 0; i < names.size(); ++i) batch.cql += (i ? ", " : "") + names[i];
    batch.cql += ") VALUES (";
    for (size_t i = 0; i < names.size(); ++i) batch.cql += i ? ", ?" : "?";
    batch.cql += ")" + using_each + ";";
    batch.values.insert(batch.values.end(), values.begin(), values.end());
  }
  batch.cql += " APPLY BATCH";
  return batch;
}

TEST(BatchFastPathTest, SameRowsCellsAndBytesAsTheGeneralPath) {
  const uint64_t seed = TestSeed();
  SCOPED_TRACE("CASSETTE_SEED=" + std::to_string(seed));
  FastPathRestorer restorer;
  Generator gen(seed);
  Node fast, general;
  fast.Open();
  general.Open();
  for (Node* node : {&fast, &general}) {
    ASSERT_TRUE(node->session
                    ->Execute("CREATE KEYSPACE ks WITH replication = {'class': "
                              "'SimpleStrategy', 'replication_factor': 1}")
                    .ok());
    ASSERT_TRUE(node->session->Execute("USE ks").ok());
  }
  constexpr int kShapes = 25;
  constexpr int kBatchesPerShape = 30;
  int failed = 0;
  for (int t = 0; t < kShapes; ++t) {
    const Shape shape = gen.RandomShape(t);
    const std::string create = Generator::CreateTable(shape);
    SCOPED_TRACE(create);
    for (Node* node : {&fast, &general}) {
      auto created = node->session->Execute(create);
      ASSERT_TRUE(created.ok()) << created.status().ToString();
    }
    for (int b = 0; b < kBatchesPerShape; ++b) {
      const Statement batch = RandomBatch(gen, shape);
      const bool prepared = gen.rnd().OneIn(2);
      auto run = [&](Node& node, bool fast_path) {
        cql::SetInsertBatchFastPathForTesting(fast_path);
        if (!prepared) return node.session->Execute(batch.cql, batch.values);
        auto statement = node.session->Prepare(batch.cql);
        if (!statement.ok()) return Result<CqlResult>(statement.status());
        return node.session->Execute(*statement, batch.values);
      };
      const std::string via_fast = Describe(run(fast, true));
      const std::string via_general = Describe(run(general, false));
      ASSERT_EQ(via_fast, via_general) << batch.cql;
      if (via_fast.rfind("error", 0) == 0) ++failed;
      const int64_t step = gen.rnd().Range(0, 2'000'000);
      ASSERT_TRUE(fast.clock->Advance(step).ok());
      ASSERT_TRUE(general.clock->Advance(step).ok());
      if (gen.rnd().OneIn(12)) {
        ASSERT_EQ(ReadAll(*fast.db, shape.table), ReadAll(*general.db, shape.table)) << batch.cql;
      }
      if (gen.rnd().OneIn(40)) {
        ASSERT_TRUE(fast.db->Flush().ok());
        ASSERT_TRUE(general.db->Flush().ok());
      }
    }
    ASSERT_EQ(ReadAll(*fast.db, shape.table), ReadAll(*general.db, shape.table));
    ASSERT_EQ(FirstDifferentFile(fast, general), "");
  }
  ASSERT_TRUE(fast.db->Flush().ok());
  ASSERT_TRUE(general.db->Flush().ok());
  EXPECT_EQ(FirstDifferentFile(fast, general), "");
  // Some batches fail (a null key, a wrong type) and most do not.
  EXPECT_LT(failed, kShapes * kBatchesPerShape / 3);
}

}  // namespace
}  // namespace cassette
