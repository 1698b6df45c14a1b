// Format stability: a file of every format version, written by the code of
// its time, is committed in tests/sstable/testdata/sstable-v<N>/ and must
// keep opening and reading back the same content. CASSETTE_REWRITE=1
// regenerates the current version's file (only for a deliberate format
// change, with a version bump; older versions are never rewritten).
#include <gtest/gtest.h>

#include <cstdlib>

#include "engine/sstable/sstable_scanner.h"
#include "tests/sstable/sstable_test_util.h"

namespace cassette {
namespace {

// The fixture's content, spelled out so that changes to the shared random
// generators cannot change it.
std::vector<PartitionUpdate> FixturePartitions() {
  std::vector<PartitionUpdate> out;
  for (int k = 0; k < 12; ++k) {
    PartitionUpdate p;
    p.key = DecoratedKey::FromKey("sensor-" + std::to_string(k));
    const int64_t ts = 1'700'000'000'000'000 + k * 1000;
    if (k % 5 == 1) p.partition_deletion = DeletionTime{ts - 1, 1'700'000'000};
    if (k % 3 == 0) {
      p.static_row.columns.push_back(
          sstable_test::SimpleColumn(7, Cell::Live(ts, "static-" + std::to_string(k))));
    }
    if (k % 4 == 2) {
      p.range_tombstones.push_back(
          {ClusteringRange{Bound{sstable_test::Be32(3), true}, Bound{sstable_test::Be32(5), false}},
           DeletionTime{ts + 5, 1'700'000'100}});
    }
    const uint32_t rows = k == 7 ? 2000 : static_cast<uint32_t>(k * 3);
    for (uint32_t r = 0; r < rows; ++r) {
      Row row;
      row.clustering = sstable_test::Ck(r / 10, r % 10);
      switch (r % 4) {
        case 0:
          row.marker = LivenessInfo{ts + r, 0, kNoDeletionTime};
          row.columns.push_back(
              sstable_test::SimpleColumn(1, Cell::Live(ts + r, "v" + std::to_string(r))));
          break;
        case 1:
          row.marker = LivenessInfo{ts + r, 3600, 1'700'003'600};
          row.columns.push_back(
              sstable_test::SimpleColumn(1, Cell::Expiring(ts + r, 3600, 1'700'000'000, "e")));
          break;
        case 2: {
          ColumnData set;
          set.column_id = 2;
          set.is_complex = true;
          set.complex_deletion = DeletionTime{ts + r - 1, 1'700'000'000};
          set.cells.push_back(Cell::Live(ts + r, "", "a"));
          set.cells.push_back(Cell::Tombstone(ts + r, 1'700'000'000, "b"));
          row.columns.push_back(std::move(set));
          break;
        }
        default:
          row.deletion = DeletionTime{ts + r, 1'700'000'050};
      }
      p.rows.push_back(std::move(row));
    }
    out.push_back(std::move(p));
  }
  std::sort(out.begin(), out.end(),
            [](const PartitionUpdate& a, const PartitionUpdate& b) { return a.key < b.key; });
  return out;
}

std::string SourceDir() {
  const char* env = std::getenv("CASSETTE_SOURCE_DIR");
  return env != nullptr ? env : CASSETTE_SOURCE_DIR;
}

class SSTableFixture : public ::testing::TestWithParam<uint32_t> {};

TEST_P(SSTableFixture, FileReadsBack) {
  const uint32_t version = GetParam();
  const std::string dir =
      SourceDir() + "/tests/sstable/testdata/sstable-v" + std::to_string(version);
  const std::string path = dir + "/basic.sst";
  auto fs = NewPosixFileSystem();
  const std::vector<PartitionUpdate> partitions = FixturePartitions();
  const char* rewrite = std::getenv("CASSETTE_REWRITE");
  if (version == kSSTableFormatVersion && rewrite != nullptr && std::string(rewrite) == "1") {
    ASSERT_TRUE(fs->CreateDirs(dir).ok());
    SSTableWriterOptions options;
    options.chunk_length = 4096;
    options.row_index_interval = 1024;
    options.creation_time_micros = 1'700'000'000'000'000;
    options.encoding_stats = {1'700'000'000'000'000, 1'700'000'000, 3600};
    ASSERT_TRUE(sstable_test::WriteTable(fs.get(), path, partitions, options).ok());
  }
  auto reader = SSTableReader::Open(fs.get(), path, nullptr);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->footer().format_version, version);
  ASSERT_TRUE((*reader)->VerifyChecksums().ok());
  EXPECT_EQ((*reader)->stats().partition_count, partitions.size());
  EXPECT_EQ((*reader)->stats().creation_time_micros, 1'700'000'000'000'000);
  for (const PartitionUpdate& p : partitions) {
    auto got = sstable_test::ReadWhole(**reader, p.key);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ASSERT_TRUE(got->has_value());
    EXPECT_EQ(**got, p);
  }
  // The big partition has a row index: a reversed slice through it.
  const PartitionUpdate& big = *std::max_element(
      partitions.begin(), partitions.end(), [](const PartitionUpdate& a, const PartitionUpdate& b) {
        return a.rows.size() < b.rows.size();
      });
  const ClusteringRange slice{Bound{sstable_test::Be32(100), true},
                              Bound{sstable_test::Be32(120), false}};
  auto content = (*reader)->ReadPartition(big.key, slice, true, nullptr);
  ASSERT_TRUE(content.ok() && content->has_value());
  EXPECT_EQ(sstable_test::Drain((*content)->rows.get()),
            sstable_test::Filter(big.rows, slice, true));
}

// What a compaction does with a file of any version: its rows pass to the
// current writer still encoded (re-based where their bases differ, copied
// where they match), and the new file reads back the same.
TEST_P(SSTableFixture, EncodedRowsCopyIntoTheCurrentVersion) {
  const uint32_t version = GetParam();
  const std::string path =
      SourceDir() + "/tests/sstable/testdata/sstable-v" + std::to_string(version) + "/basic.sst";
  auto posix = NewPosixFileSystem();
  auto reader = SSTableReader::Open(posix.get(), path, nullptr);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto mem = NewMemFileSystem();
  SSTableWriterOptions options;
  options.chunk_length = 4096;
  options.row_index_interval = 1024;
  // Other bases than the input's, so that version-1 rows are re-based.
  options.encoding_stats = {1'600'000'000'000'000, 1'600'000'000, 1};
  auto writer = SSTableWriter::Create(mem.get(), "/copy.sst", options);
  ASSERT_TRUE(writer.ok());
  SSTableScanner scanner(*reader, TokenInterval::All(), nullptr);
  uint64_t encoded_rows = 0;
  for (; scanner.Valid(); scanner.Next()) {
    PartitionContent& p = scanner.partition();
    ASSERT_TRUE((*writer)
                    ->BeginPartition(p.key, p.partition_deletion, p.static_row, p.range_tombstones)
                    .ok());
    for (; p.rows->Valid(); p.rows->Next()) {
      const EncodedRow* encoded = p.rows->encoded();
      ASSERT_NE(encoded, nullptr) << p.rows->status().ToString();
      ASSERT_TRUE((*writer)->AddEncodedRow(p.rows->clustering(), *encoded).ok());
      ++encoded_rows;
    }
    ASSERT_TRUE(p.rows->status().ok());
    ASSERT_TRUE((*writer)->EndPartition().ok());
  }
  ASSERT_TRUE(scanner.status().ok()) << scanner.status().ToString();
  ASSERT_TRUE((*writer)->Finish().ok());
  auto copy = SSTableReader::Open(mem.get(), "/copy.sst", nullptr);
  ASSERT_TRUE(copy.ok()) << copy.status().ToString();
  EXPECT_EQ((*copy)->footer().format_version, kSSTableFormatVersion);
  const std::vector<PartitionUpdate> partitions = FixturePartitions();
  uint64_t rows = 0;
  for (const PartitionUpdate& p : partitions) {
    rows += p.rows.size();
    auto got = sstable_test::ReadWhole(**copy, p.key);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ASSERT_TRUE(got->has_value());
    EXPECT_EQ(**got, p);
  }
  EXPECT_EQ(encoded_rows, rows);
  EXPECT_EQ((*copy)->stats().row_count, rows);
}

INSTANTIATE_TEST_SUITE_P(EveryVersion, SSTableFixture,
                         ::testing::Range(kOldestSSTableFormatVersion, kSSTableFormatVersion + 1),
                         [](const ::testing::TestParamInfo<uint32_t>& info) {
                           return "Version" + std::to_string(info.param);
                         });

}  // namespace
}  // namespace cassette
