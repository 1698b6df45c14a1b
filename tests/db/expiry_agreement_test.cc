// Reads and compaction apply the expiry and purge rules of
// engine/mutation/expiry.h alike (docs/SEMANTICS.md §2, §3). For a row
// holding one dead datum at a rule's edge, a read's live view of it
// (read/live_view.h) scans a tombstone exactly when a compaction with
// nothing outside it (compaction/compaction_iterator.h) keeps the row, and
// reading the compacted row sees what reading the input saw. The edges
// include the one where the two layers once disagreed: an expired cell
// whose expiry minus its TTL leaves int64 (a damaged file), which the read
// path computed without saturating.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/compaction/compaction_controller.h"
#include "engine/compaction/compaction_iterator.h"
#include "engine/mutation/expiry.h"
#include "engine/mutation/partition_source.h"
#include "engine/read/live_view.h"
#include "engine/schema/ttl_limit.h"

namespace cassette {
namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

// One partition of one row, held in memory.
class OneRowPartition final : public PartitionIterator {
 public:
  explicit OneRowPartition(Row row) {
    content_.key = DecoratedKey::FromKey("k");
    std::vector<Row> rows;
    rows.push_back(std::move(row));
    content_.rows = std::make_unique<VectorRowIterator>(std::move(rows));
  }
  bool Valid() const override { return valid_; }
  PartitionContent& partition() override { return content_; }
  void Next() override { valid_ = false; }
  Status status() const override { return Status::OK(); }

 private:
  PartitionContent content_;
  bool valid_ = true;
};

// The row a compaction at now_sec with `gc_before` writes, or nullopt when
// it purges the row away.
std::optional<Row> Compact(const Row& row, int64_t now_sec, int64_t gc_before) {
  CompactionController controller(gc_before, {});
  std::vector<std::unique_ptr<PartitionIterator>> inputs;
  inputs.push_back(std::make_unique<OneRowPartition>(row));
  CompactionIterator compaction(std::move(inputs), &controller, now_sec);
  EXPECT_TRUE(compaction.status().ok());
  if (!compaction.Valid()) return std::nullopt;
  RowIterator& rows = *compaction.partition().rows;
  if (!rows.Valid()) return std::nullopt;
  Row out = rows.row();
  rows.Next();
  EXPECT_FALSE(rows.Valid());
  return out;
}

RowLiveness Read(Row row, int64_t now_sec, int64_t gc_before) {
  return ApplyLiveView(DeletionTime::Live(), now_sec, gc_before, &row);
}

Row WithCell(Cell cell) {
  Row row;
  row.clustering = "c";
  ColumnData column;
  column.column_id = 1;
  column.cells.push_back(std::move(cell));
  row.columns.push_back(std::move(column));
  return row;
}

Row WithMarker(LivenessInfo marker) {
  Row row;
  row.clustering = "c";
  row.marker = marker;
  return row;
}

struct Case {
  std::string name;
  Row row;
  int64_t now_sec;
  int64_t gc_before;
  bool purged;  // what both layers must conclude
};

void ExpectAgreement(const Case& c) {
  SCOPED_TRACE(c.name);
  const RowLiveness before = Read(c.row, c.now_sec, c.gc_before);
  const std::optional<Row> compacted = Compact(c.row, c.now_sec, c.gc_before);
  EXPECT_FALSE(before.live);
  EXPECT_EQ(before.tombstones, c.purged ? 0 : 1);
  EXPECT_EQ(compacted.has_value(), !c.purged);
  if (compacted) {
    const RowLiveness after = Read(*compacted, c.now_sec, c.gc_before);
    EXPECT_EQ(after.live, before.live);
    EXPECT_EQ(after.tombstones, before.tombstones);
  }
}

TEST(ExpiryAgreementTest, ExpiredCellPurgesByItsWriteSecond) {
  // Written at 100 with TTL 10: a tombstone of second 100 from 110 on.
  const Row row = WithCell(Cell::Expiring(5, 10, 100, "v"));
  ExpectAgreement({"at gc_before", row, 200, 100, false});
  ExpectAgreement({"one below gc_before", row, 200, 101, true});
}

TEST(ExpiryAgreementTest, ExpiredCellAtTheWriteOverflowEdge) {
  // now + ttl overflows: the expiry saturates at kMaxExpiryTime, and the
  // deletion time is the TTL before it, in both layers.
  const Row row = WithCell(Cell::Expiring(5, kMaxTtlSeconds, kMax - 10, "v"));
  const int64_t ldt = kMaxExpiryTime - kMaxTtlSeconds;
  ExpectAgreement({"at gc_before", row, kMaxExpiryTime, ldt, false});
  ExpectAgreement({"one below gc_before", row, kMaxExpiryTime, ldt + 1, true});
  ExpectAgreement({"now at INT64_MAX", row, kMax, GcBefore(kMax, 0), true});
}

TEST(ExpiryAgreementTest, ExpiredCellWhoseWriteSecondLeavesInt64) {
  // expiry - ttl is below INT64_MIN: the deletion time saturates at
  // INT64_MIN, purgeable under any gc_before but kPurgeNothing.
  const Row row = WithCell(Cell{5, 100, kMin + 5, "v", {}});
  ExpectAgreement({"purge nothing", row, 0, kPurgeNothing, false});
  ExpectAgreement({"gc_before INT64_MIN + 1", row, 0, kMin + 1, true});
  ExpectAgreement(
      {"gc_before from a clock at INT64_MIN", row, kMin + 6, GcBefore(kMin + 6, 10), false});
}

TEST(ExpiryAgreementTest, TombstoneAtAndBelowGcBefore) {
  const Row row = WithCell(Cell::Tombstone(5, 1000));
  ExpectAgreement({"at gc_before", row, 2000, 1000, false});
  ExpectAgreement({"one below gc_before", row, 2000, 1001, true});
  const Row at_min = WithCell(Cell::Tombstone(5, kMin));
  ExpectAgreement({"INT64_MIN, purge nothing", at_min, 0, kPurgeNothing, false});
  ExpectAgreement({"INT64_MIN", at_min, 0, kMin + 1, true});
}

TEST(ExpiryAgreementTest, ExpiredMarkerPurgesByItsExpiry) {
  const Row row = WithMarker(LivenessInfo{5, 10, ExpiryTime(100, 10)});
  ExpectAgreement({"at gc_before", row, 200, 110, false});
  ExpectAgreement({"one below gc_before", row, 200, 111, true});
  const Row edge =
      WithMarker(LivenessInfo{5, kMaxTtlSeconds, ExpiryTime(kMax - 10, kMaxTtlSeconds)});
  ExpectAgreement({"overflow edge, at gc_before", edge, kMax, kMaxExpiryTime, false});
  ExpectAgreement({"overflow edge, below gc_before", edge, kMax, kMax, true});
}

TEST(ExpiryAgreementTest, RowDeletionAtAndBelowGcBefore) {
  Row row;
  row.clustering = "c";
  row.deletion = DeletionTime{5, kMax - 1};
  ExpectAgreement({"at gc_before", row, kMax, kMax - 1, false});
  ExpectAgreement({"one below gc_before", row, kMax, kMax, true});
}

}  // namespace
}  // namespace cassette
