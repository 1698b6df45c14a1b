// The fast path of a prepared INSERT ... VALUES (its column layout cached
// with the table: CachedInsertLayout and ExecuteInsertWithLayout in
// engine/cql/modification_statement.cc, engine/cql/plan_cache.h) paired
// with its general twin, the statement planned at every execution
// (PrepareInsert + ExecutePlan + MutationBuilder, which an unprepared
// statement always takes), docs/ARCHITECTURE.md "Fast paths and their
// general twins". Two in-memory databases on equal manual clocks get the
// same random tables; one runs random INSERTs through statements prepared
// once and executed many times, the other runs the same text with the same
// bound values unprepared. Random column lists (whole rows, static-only
// rows), bound USING TTL and TIMESTAMP, nulls, wrongly typed values, null
// keys and negative TTLs, interleaved with ALTER TABLE ADD and DROP (which
// must make a prepared statement resolve again). Both must answer the same
// (status and message) and hold the same rows with the same WRITETIME and
// TTL of every cell, and the same file bytes. The seed is printed on
// failure; CASSETTE_SEED replays it.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cassette/cql.h"
#include "cassette/db.h"
#include "tests/cql/random_table_util.h"

namespace cassette {
namespace {

using random_tables::Column;
using random_tables::Describe;
using random_tables::FirstDifferentFile;
using random_tables::Generator;
using random_tables::Node;
using random_tables::ReadAll;
using random_tables::RegularTypes;
using random_tables::Shape;
using random_tables::TestSeed;

// A prepared INSERT and what its markers stand for, to draw values for it.
struct PreparedInsert {
  std::string cql;
  std::vector<Column> keys;     // partition key, then clustering (may be none)
  std::vector<Column> columns;  // regular and static columns written
  bool ttl_marker = false;
  bool timestamp_marker = false;
  CqlPreparedStatement statement;  // on the cached node
};

// A value of the wrong type for any column the generator makes.
Value WrongValue(Random& rnd) {
  return rnd.OneIn(2) ? Value::Float(0.5f) : Value::Uuid(UuidBytes{});
}

class PreparedLayoutPairing {
 public:
  explicit PreparedLayoutPairing(uint64_t seed) : gen_(seed) {}

  void Run() {
    cached_.Open();
    planned_.Open();
    for (Node* node : {&cached_, &planned_}) {
      ASSERT_TRUE(node->session
                      ->Execute("CREATE KEYSPACE ks WITH replication = {'class': "
                                "'SimpleStrategy', 'replication_factor': 1}")
                      .ok());
      ASSERT_TRUE(node->session->Execute("USE ks").ok());
    }
    for (int t = 0; t < kShapes; ++t) {
      ASSERT_NO_FATAL_FAILURE(RunShape(t));
    }
    EXPECT_GT(errors_, 0);
    EXPECT_GT(executions_ - errors_, executions_ / 2);
    EXPECT_GT(alters_, 0);
    std::printf("prepared layout pairing: %d executions (%d failing alike), %d ALTERs\n",
                executions_, errors_, alters_);
  }

 private:
  static constexpr int kShapes = 15;
  static constexpr int kStepsPerShape = 120;

  Random& rnd() { return gen_.rnd(); }

  void Both(const std::string& cql) {
    const std::string a = Describe(cached_.session->Execute(cql));
    const std::string b = Describe(planned_.session->Execute(cql));
    ASSERT_EQ(a, b) << cql;
  }

  void RunShape(int t) {
    shape_ = gen_.RandomShape(t);
    const std::string create = Generator::CreateTable(shape_);
    SCOPED_TRACE(create);
    ASSERT_NO_FATAL_FAILURE(Both(create));
    statements_.clear();
    for (int step = 0; step < kStepsPerShape; ++step) {
      const uint64_t action = rnd().Uniform(40);
      if (action == 0 && shape_.regular.size() < 8) {
        // A new column (never a dropped name again: Cassandra refuses
        // re-adding a dropped column of another type).
        const Column column{"a" + std::to_string(next_added_++),
                            RegularTypes()[rnd().Uniform(RegularTypes().size())]};
        const bool is_static = !shape_.clustering.empty() && rnd().OneIn(4);
        ASSERT_NO_FATAL_FAILURE(Both("ALTER TABLE " + shape_.table + " ADD " + column.name + " " +
                                     column.type.cql + (is_static ? " static" : "")));
        shape_.regular.push_back(column);
        shape_.is_static.push_back(is_static);
        ++alters_;
      } else if (action == 1 && shape_.regular.size() > 1) {
        const size_t drop = rnd().Uniform(shape_.regular.size());
        const std::string dropped = shape_.regular[drop].name;
        ASSERT_NO_FATAL_FAILURE(Both("ALTER TABLE " + shape_.table + " DROP " + dropped));
        // A statement naming the dropped column now fails, alike on both
        // sides; keep a few such, forget the others.
        std::erase_if(statements_, [&](const PreparedInsert& insert) {
          for (const Column& c : insert.columns) {
            if (c.name == dropped) return !rnd().OneIn(4);
          }
          return false;
        });
        shape_.regular.erase(shape_.regular.begin() + static_cast<std::ptrdiff_t>(drop));
        shape_.is_static.erase(shape_.is_static.begin() + static_cast<std::ptrdiff_t>(drop));
        ++alters_;
      } else if (statements_.empty() || (action < 5 && statements_.size() < 6)) {
        ASSERT_NO_FATAL_FAILURE(AddStatement());
      } else {
        ASSERT_NO_FATAL_FAILURE(ExecuteOne());
      }
      const int64_t step_micros = rnd().Range(0, 1'500'000);
      ASSERT_TRUE(cached_.clock->Advance(step_micros).ok());
      ASSERT_TRUE(planned_.clock->Advance(step_micros).ok());
      if (rnd().OneIn(15)) {
        ASSERT_EQ(ReadAll(*cached_.db, shape_.table), ReadAll(*planned_.db, shape_.table));
      }
      if (rnd().OneIn(60)) {
        ASSERT_TRUE(cached_.db->Flush().ok());
        ASSERT_TRUE(planned_.db->Flush().ok());
      }
    }
    ASSERT_EQ(ReadAll(*cached_.db, shape_.table), ReadAll(*planned_.db, shape_.table));
    ASSERT_EQ(FirstDifferentFile(cached_, planned_), "");
  }

  // A random INSERT over the current columns, prepared on the cached node.
  void AddStatement() {
    PreparedInsert insert;
    for (const Column& c : shape_.partition_key) insert.keys.push_back(c);
    // A static-only row: the partition key and static columns only.
    bool static_only = false;
    if (!shape_.clustering.empty() && rnd().OneIn(6)) {
      for (bool s : shape_.is_static) static_only = static_only || s;
    }
    if (!static_only) {
      for (const Column& c : shape_.clustering) insert.keys.push_back(c);
    }
    for (size_t i = 0; i < shape_.regular.size(); ++i) {
      if (static_only && !shape_.is_static[i]) continue;
      if (!rnd().OneIn(3)) insert.columns.push_back(shape_.regular[i]);
    }
    std::vector<std::string> names;
    for (const Column& c : insert.keys) names.push_back(c.name);
    for (const Column& c : insert.columns) names.push_back(c.name);
    // Columns in any order: the layout maps each to its place.
    for (size_t i = names.size(); i > 1; --i) std::swap(names[i - 1], names[rnd().Uniform(i)]);
    std::vector<Column> ordered;
    for (const std::string& name : names) {
      for (const Column& c : insert.keys) {
        if (c.name == name) ordered.push_back(c);
      }
      for (const Column& c : insert.columns) {
        if (c.name == name) ordered.push_back(c);
      }
    }
    insert.keys.clear();
    insert.columns = std::move(ordered);  // every marker, in order
    insert.cql = "INSERT INTO " + shape_.table + " (";
    for (size_t i = 0; i < names.size(); ++i) insert.cql += (i ? ", " : "") + names[i];
    insert.cql += ") VALUES (";
    for (size_t i = 0; i < names.size(); ++i) insert.cql += i ? ", ?" : "?";
    insert.cql += ")";
    insert.ttl_marker = rnd().OneIn(3);
    insert.timestamp_marker = rnd().OneIn(4);
    if (insert.ttl_marker && insert.timestamp_marker) {
      insert.cql += " USING TTL ? AND TIMESTAMP ?";
    } else if (insert.ttl_marker) {
      insert.cql += " USING TTL ?";
    } else if (insert.timestamp_marker) {
      insert.cql += " USING TIMESTAMP ?";
    } else if (rnd().OneIn(3)) {
      insert.cql += " USING TTL " + std::to_string(rnd().Range(1, 4));
    }
    auto prepared = cached_.session->Prepare(insert.cql);
    ASSERT_TRUE(prepared.ok()) << insert.cql << ": " << prepared.status().ToString();
    insert.statement = std::move(prepared).value();
    statements_.push_back(std::move(insert));
  }

  bool IsKey(const std::string& name) const {
    for (const Column& c : shape_.partition_key) {
      if (c.name == name) return true;
    }
    for (const Column& c : shape_.clustering) {
      if (c.name == name) return true;
    }
    return false;
  }

  void ExecuteOne() {
    const PreparedInsert& insert = statements_[rnd().Uniform(statements_.size())];
    std::vector<Value> values;
    for (const Column& c : insert.columns) {
      if (rnd().OneIn(120)) {
        values.push_back(WrongValue(rnd()));
      } else if (IsKey(c.name)) {
        values.push_back(rnd().OneIn(150) ? Value::Null() : gen_.KeyValue(c.type).first);
      } else {
        values.push_back(gen_.RegularValue(c.type).first);
      }
    }
    if (insert.ttl_marker) {
      values.push_back(rnd().OneIn(40)   ? Value::Int(-1)
                       : rnd().OneIn(40) ? Value::Null()
                                         : Value::Int(static_cast<int32_t>(rnd().Range(0, 4))));
    }
    if (insert.timestamp_marker) {
      values.push_back(rnd().OneIn(40) ? Value::Null() : Value::Bigint(rnd().Range(1, 1'000'000)));
    }
    const std::string via_layout = Describe(cached_.session->Execute(insert.statement, values));
    const std::string via_plan = Describe(planned_.session->Execute(insert.cql, values));
    ASSERT_EQ(via_layout, via_plan) << insert.cql;
    ++executions_;
    if (via_layout.rfind("error", 0) == 0) ++errors_;
  }

  Generator gen_;
  Node cached_;
  Node planned_;
  Shape shape_;
  std::vector<PreparedInsert> statements_;
  int next_added_ = 0;
  int executions_ = 0;
  int errors_ = 0;
  int alters_ = 0;
};

TEST(PreparedLayoutPairingTest, CachedLayoutWritesWhatPlanningWrites) {
  const uint64_t seed = TestSeed();
  SCOPED_TRACE("CASSETTE_SEED=" + std::to_string(seed));
  PreparedLayoutPairing pairing(seed);
  pairing.Run();
}

}  // namespace
}  // namespace cassette
