// A gtest fixture for ExecuteRead: the test table, a FakeReadSource and
// helpers to build commands and read every page of a result.
#pragma once

#include <gtest/gtest.h>

#include "engine/read/execute_read.h"
#include "tests/read/read_test_util.h"

namespace cassette::read_test {

constexpr int64_t kNow = 1000;
using Rows = std::vector<std::string>;

class ReadFixture : public ::testing::Test {
 protected:
  DecoratedKey K(int32_t pk) const { return read_test::Key(schema_, pk); }
  std::string C(int32_t ck) const { return Ck(schema_, {ck}); }
  PartitionMaker P(int32_t pk) const { return PartitionMaker(K(pk)); }

  std::vector<size_t> Select(const std::vector<std::string>& names) const {
    std::vector<size_t> out;
    for (const std::string& name : names) {
      for (size_t i = 0; i < schema_.columns().size(); ++i) {
        if (schema_.columns()[i].name == name) out.push_back(i);
      }
    }
    return out;
  }

  // SELECT pk, ck, s, v, w FROM ks.t WHERE pk IN (pks...)
  ReadCommand Cmd(const std::vector<int32_t>& pks) const {
    ReadCommand cmd;
    cmd.schema = &schema_;
    for (int32_t pk : pks) cmd.keys.push_back(K(pk));
    cmd.selection = Select({"pk", "ck", "s", "v", "w"});
    cmd.now_sec = kNow;
    return cmd;
  }
  ReadCommand ScanCmd() const { return Cmd({}); }

  ResultSet Run(const ReadCommand& cmd) {
    Result<ResultSet> rs = ExecuteRead(cmd, &source_);
    EXPECT_TRUE(rs.ok()) << rs.status().ToString();
    return rs.ok() ? std::move(rs).value() : ResultSet{};
  }
  Rows Read(const ReadCommand& cmd) { return RowStrings(Run(cmd)); }

  // Every page of `cmd` at `page_size`, concatenated.
  Rows ReadPaged(ReadCommand cmd, int32_t page_size) {
    cmd.page_size = page_size;
    Rows all;
    for (int page = 0; page < 1000; ++page) {
      ResultSet rs = Run(cmd);
      EXPECT_LE(rs.rows.size(), static_cast<size_t>(page_size));
      for (std::string& row : RowStrings(rs)) all.push_back(std::move(row));
      if (rs.paging_state.empty()) return all;
      EXPECT_EQ(rs.rows.size(), static_cast<size_t>(page_size)) << "short page before the end";
      cmd.paging_state = rs.paging_state;
    }
    ADD_FAILURE() << "paging did not end";
    return all;
  }

  TableSchema schema_ = read_test::TestSchema();
  FakeReadSource source_;
};

}  // namespace cassette::read_test
