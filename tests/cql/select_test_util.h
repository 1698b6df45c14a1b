// A fixture for SELECT tests: an in-memory database with keyspace "ks",
// tables made and filled through the C++ API (independent of the INSERT
// executor), and helpers that run a SELECT through CqlSession and render
// its rows as cqlsh does ("1, a, null").
#pragma once

#include <gtest/gtest.h>

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

class SelectTest : public ::testing::Test {
 protected:
  // 2024-01-01T00:00:00Z
  static constexpr int64_t kStartMicros = 1'704'067'200'000'000;

  void SetUp() override {
    clock_ = std::make_shared<ManualClock>(kStartMicros);
    Options options;
    options.file_system = NewMemFileSystem();
    options.clock = clock_;
    options.scheduler = std::make_shared<ManualScheduler>();
    auto db = Database::Open(options, "/db");
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    ASSERT_TRUE(db_->CreateKeyspace({.name = "ks"}).ok());
    session_ = std::make_unique<CqlSession>(db_.get());
  }

  void CreateTable(const TableSchema& schema) {
    Status status = db_->CreateTable(schema);
    ASSERT_TRUE(status.ok()) << status.ToString();
  }

  void Apply(const Mutation& mutation) {
    Status status = db_->Apply(mutation);
    ASSERT_TRUE(status.ok()) << status.ToString();
  }

  static std::string Render(const std::vector<Value>& row) {
    std::string out;
    for (const Value& value : row) out += (out.empty() ? "" : ", ") + value.ToString();
    return out;
  }

  Result<CqlResult> Execute(const std::string& cql, const CqlQueryOptions& options = {}) {
    return session_->Execute(cql, {}, options);
  }

  // The rows of a successful SELECT, each rendered by Render.
  std::vector<std::string> Rows(const std::string& cql) {
    auto result = Execute(cql);
    EXPECT_TRUE(result.ok()) << cql << "\n" << result.status().ToString();
    std::vector<std::string> rows;
    if (!result.ok()) return rows;
    for (const auto& row : result->rows) rows.push_back(Render(row));
    return rows;
  }

  std::vector<std::string> Columns(const std::string& cql) {
    auto result = Execute(cql);
    EXPECT_TRUE(result.ok()) << cql << "\n" << result.status().ToString();
    std::vector<std::string> names;
    if (!result.ok()) return names;
    for (const ColumnSpec& column : result->columns) names.push_back(column.name);
    return names;
  }

  // Every page of a paged SELECT, concatenated; also checks that no page
  // holds more than `page_size` rows.
  std::vector<std::string> PagedRows(const std::string& cql, int32_t page_size,
                                     int* pages = nullptr) {
    std::vector<std::string> rows;
    CqlQueryOptions options;
    options.page_size = page_size;
    int count = 0;
    while (true) {
      auto result = Execute(cql, options);
      EXPECT_TRUE(result.ok()) << cql << "\n" << result.status().ToString();
      if (!result.ok()) break;
      EXPECT_LE(static_cast<int32_t>(result->rows.size()), page_size) << cql;
      for (const auto& row : result->rows) rows.push_back(Render(row));
      ++count;
      if (result->paging_state.empty() || count > 1000) break;
      options.paging_state = result->paging_state;
    }
    if (pages != nullptr) *pages = count;
    return rows;
  }

  // The error of a failing statement, as "<class>: <message>".
  std::string Error(const std::string& cql, const CqlQueryOptions& options = {}) {
    auto result = Execute(cql, options);
    EXPECT_FALSE(result.ok()) << cql;
    return result.ok() ? "OK" : result.status().ToString();
  }

  std::shared_ptr<ManualClock> clock_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<CqlSession> session_;
};

}  // namespace cassette::cql
