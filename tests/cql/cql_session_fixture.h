// The fixture of the CQL tests that run statements through a CqlSession:
// a fresh in-memory database on a manual clock (2024-01-01T00:00:00Z)
// with keyspace ks created and in use, and helpers that run a statement
// and render what it returns as cqlsh prints values.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cassette/clock.h"
#include "cassette/cql.h"
#include "cassette/db.h"
#include "cassette/file_system.h"
#include "cassette/scheduler.h"

namespace cassette::cql {

class CqlSessionTest : public ::testing::Test {
 protected:
  static constexpr int64_t kStartMicros = 1'704'067'200'000'000;  // 2024-01-01

  void SetUp() override { OpenDatabase(Options()); }

  // Replaces the database by a fresh in-memory one opened with `options`
  // (their file system, clock and scheduler are the fixture's).
  void OpenDatabase(Options options) {
    session_.reset();
    db_.reset();
    clock_ = std::make_shared<ManualClock>(kStartMicros);
    options.file_system = NewMemFileSystem();
    options.clock = clock_;
    options.scheduler = std::make_shared<ManualScheduler>();
    auto db = Database::Open(options, "/db");
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    session_ = std::make_unique<CqlSession>(db_.get());
    Run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}");
    Run("USE ks");
  }

  // Runs a statement that must succeed (a test failure otherwise).
  CqlResult Run(const std::string& cql, const std::vector<Value>& values = {},
                const CqlQueryOptions& options = {}) {
    auto result = session_->Execute(cql, values, options);
    EXPECT_TRUE(result.ok()) << cql << "\n" << result.status().ToString();
    return result.ok() ? std::move(result).value() : CqlResult{};
  }

  // The error of a statement that must fail ("<ok>", and a test failure,
  // when it succeeds).
  Status Failure(const std::string& cql, const std::vector<Value>& values = {}) {
    auto result = session_->Execute(cql, values);
    EXPECT_FALSE(result.ok()) << cql;
    return result.ok() ? Status(Status::Code::kOk, "<ok>") : result.status();
  }
  std::string Error(const std::string& cql, const std::vector<Value>& values = {}) {
    return Failure(cql, values).message();
  }

  // Each row of the result, its values joined by " | ".
  std::vector<std::string> Rows(const std::string& cql) {
    std::vector<std::string> rows;
    for (const auto& row : Run(cql).rows) {
      std::string text;
      for (size_t i = 0; i < row.size(); ++i) text += (i > 0 ? " | " : "") + row[i].ToString();
      rows.push_back(std::move(text));
    }
    return rows;
  }
  // The first row so rendered, or "<no row>".
  std::string Row(const std::string& cql) {
    std::vector<std::string> rows = Rows(cql);
    return rows.empty() ? "<no row>" : rows[0];
  }

  std::shared_ptr<ManualClock> clock_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<CqlSession> session_;
};

}  // namespace cassette::cql
