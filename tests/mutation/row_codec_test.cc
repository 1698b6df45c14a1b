// Row codec: round trips (random rows, extreme and negative timestamps),
// size of time-series rows, and Corruption (never a crash) for every
// truncation and for random byte flips of valid encodings.
#include "engine/mutation/row_codec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "engine/mutation/row_codec_format.h"
#include "engine/util/coding.h"
#include "tests/mutation/mutation_test_util.h"

namespace cassette {
namespace {

using testing::Ck;
using testing::Complex;
using testing::Del;
using testing::ExpiringMarker;
using testing::Generator;
using testing::Marker;
using testing::Simple;

const EncodingStats kZeroStats{};

// A decoded row must be valid whatever bytes it came from.
void ExpectValid(const Row& row) {
  for (size_t i = 0; i < row.columns.size(); ++i) {
    const ColumnData& col = row.columns[i];
    if (i > 0) {
      ASSERT_LT(row.columns[i - 1].column_id, col.column_id);
    }
    if (!col.is_complex) {
      ASSERT_EQ(col.cells.size(), 1u);
      ASSERT_TRUE(col.cells[0].path.empty());
      ASSERT_TRUE(col.complex_deletion.IsLive());
    }
    for (size_t j = 0; j < col.cells.size(); ++j) {
      const Cell& c = col.cells[j];
      if (j > 0) {
        ASSERT_LT(col.cells[j - 1].path, c.path);
      }
      ASSERT_GE(c.ttl, 0);
      if (c.ttl > 0) {
        ASSERT_NE(c.local_deletion_time, kNoDeletionTime);
      }
    }
  }
  if (!row.marker.IsEmpty() && row.marker.IsExpiring()) {
    ASSERT_NE(row.marker.local_expiration_time, kNoDeletionTime);
  }
}

Row RoundTripRow(const Row& row, const EncodingStats& stats) {
  std::string buf;
  EncodeRow(row, stats, &buf);
  buf += "trailer";
  std::string_view in = buf;
  Row out;
  Status s = DecodeRow(&in, stats, &out);
  EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(in, "trailer");
  return out;
}

TEST(RowCodecTest, RoundTripsHandBuiltRows) {
  std::vector<Row> rows;
  rows.push_back(Row{});  // empty
  rows.push_back(Row{Ck(1), Marker(1700000000000000), {}, {}});
  rows.push_back(Row{Ck(2),
                     ExpiringMarker(1700000000000000, 3600, 1700003600),
                     {},
                     {Simple(0, Cell::Expiring(1700000000000000, 3600, 1700000000, "12345678")),
                      Simple(1, Cell::Live(1700000000000001, "x")),
                      Simple(7, Cell::Tombstone(1700000000000000, 1700000000)),
                      Simple(8, Cell::Live(1699999999999999, ""))}});
  rows.push_back(Row{Ck(3), {}, Del(5, 6), {}});  // row deletion only
  rows.push_back(Row{Ck(4),
                     {},
                     {},
                     {Complex(2, {}, Del(9, 100)),  // DELETE m
                      Complex(3,
                              {Cell::Live(10, "a", "\x01"), Cell::Tombstone(11, 101, "\x02"),
                               Cell::Expiring(10, 5, 100, "", "\x03")},
                              Del(9, 100)),
                      Complex(4000000000u, {Cell::Live(1, "z", "p")})}});
  // UPDATE-only rows: the first cell sets the defaults, even a tombstone.
  rows.push_back(
      Row{Ck(5), {}, {}, {Simple(1, Cell::Tombstone(5, 6)), Simple(2, Cell::Live(5, "v"))}});
  rows.push_back(
      Row{Ck(6),
          {},
          {},
          {Simple(1, Cell::Expiring(5, 9, 6, "v")), Simple(2, Cell::Expiring(5, 9, 6, "w"))}});
  for (const EncodingStats& stats :
       {kZeroStats, EncodingStats{1700000000000000, 1700000000, 3600}, EncodingStats{-7, -7, 7}}) {
    for (const Row& row : rows) {
      EXPECT_EQ(RoundTripRow(row, stats), row);
    }
  }
}

// A random plain row: INSERT or UPDATE, with or without a TTL, wide
// timestamps and expiries, ids with gaps, values empty or long.
PlainRow RandomPlainRow(Generator& gen, std::vector<PlainColumn>* columns,
                        std::vector<std::string>* values) {
  Random& rnd = gen.rnd();
  PlainRow row;
  row.has_marker = rnd.OneIn(2);
  row.timestamp = gen.Timestamp();
  if (rnd.OneIn(2)) {
    row.ttl = rnd.OneIn(4) ? INT32_MAX : static_cast<int32_t>(rnd.Range(1, 100000));
    row.expiry = rnd.OneIn(4) ? INT64_MIN : gen.Second() + row.ttl;
  }
  const size_t n = rnd.Uniform(5) + (row.has_marker ? 0 : 1);
  values->clear();
  for (size_t i = 0; i < n; ++i) values->push_back(gen.Value());
  columns->clear();
  // Ids near the top of their range too; at most 5 columns 3 apart end at
  // UINT32_MAX (beyond, the ids would wrap and the row would not be one).
  uint32_t id = rnd.OneIn(8) ? UINT32_MAX - 12 : static_cast<uint32_t>(rnd.Uniform(3));
  for (size_t i = 0; i < n; ++i) {
    columns->push_back({id, (*values)[i]});
    id += 1 + static_cast<uint32_t>(rnd.Uniform(3));
  }
  row.columns = *columns;
  return row;
}

// The plain encoders write exactly the bytes the general ones write for
// the row a PlainRow stands for, so readers (commit-log replay, memtable
// reads) cannot tell which path wrote a row.
TEST(RowCodecTest, PlainRowsEncodeAsTheRowsTheyStandFor) {
  const uint64_t seed = testing::TestSeed();
  SCOPED_TRACE("CASSETTE_SEED=" + std::to_string(seed));
  Generator gen(seed, /*wide=*/true);
  std::vector<PlainColumn> columns;
  std::vector<std::string> values;
  const EncodingStats stats_list[] = {kZeroStats, EncodingStats{1700000000000000, 1700000000, 60},
                                      EncodingStats{INT64_MIN, INT64_MAX, INT32_MAX}};
  for (int i = 0; i < 3000; ++i) {
    const PlainRow plain = RandomPlainRow(gen, &columns, &values);
    const std::string clustering = gen.rnd().OneIn(3) ? std::string() : Ck(i);
    const Row row = plain.ToRow(clustering);
    ASSERT_EQ(row.clustering, clustering);
    for (const EncodingStats& stats : stats_list) {
      std::string want = "prefix";
      std::string got = want;
      EncodeRowBody(row, stats, &want);
      EncodePlainRowBody(plain, stats, &got);
      ASSERT_EQ(got, want) << "row " << i;
      ASSERT_LE(got.size() - 6, MaxEncodedPlainRowBodySize(plain));
    }
    PartitionUpdate update;
    update.table_id = gen.rnd().Uniform(1000);
    update.key = DecoratedKey::FromKey(std::string("key-") + std::to_string(i % 7));
    update.rows.push_back(row);
    std::string want, got;
    EncodePartitionUpdate(update, &want);
    EncodePlainPartitionUpdate(
        update.table_id, PlainRowWrite{update.key.token, update.key.key, clustering, plain}, &got);
    ASSERT_EQ(got, want) << "update " << i;
    std::string_view in = got;
    PartitionUpdate decoded;
    ASSERT_TRUE(DecodePartitionUpdate(&in, &decoded).ok());
    ASSERT_EQ(decoded, update);
  }
}

TEST(RowCodecTest, PlainRowToRowHasTheMarkerAndOneCellPerColumn) {
  const PlainColumn columns[] = {{2, "a"}, {5, ""}};
  PlainRow insert{true, 100, 0, kNoDeletionTime, columns};
  Row want;
  want.clustering = Ck(1);
  want.marker = Marker(100);
  want.columns = {Simple(2, Cell::Live(100, "a")), Simple(5, Cell::Live(100, ""))};
  EXPECT_EQ(insert.ToRow(Ck(1)), want);

  PlainRow update{false, 100, 60, 1000, columns};
  want.marker = LivenessInfo{};
  want.columns = {Simple(2, Cell{100, 60, 1000, "a", {}}), Simple(5, Cell{100, 60, 1000, "", {}})};
  EXPECT_EQ(update.ToRow(Ck(1)), want);

  PlainRow marker_only{true, 7, 60, 1000, {}};
  want.marker = ExpiringMarker(7, 60, 1000);
  want.columns.clear();
  EXPECT_EQ(marker_only.ToRow(Ck(1)), want);
}

TEST(RowCodecTest, ExtremeAndNegativeTimestamps) {
  const int64_t values[] = {INT64_MIN + 1, INT64_MAX, -1, 0, -1700000000000000, INT64_MAX - 1};
  const EncodingStats stats_list[] = {kZeroStats, EncodingStats{INT64_MAX, INT64_MAX, INT32_MAX},
                                      EncodingStats{INT64_MIN, INT64_MIN, INT32_MIN}};
  for (int64_t ts : values) {
    for (int64_t ldt : values) {
      if (ldt == kNoDeletionTime) continue;  // not an expiry
      Row row;
      row.clustering = Ck(1);
      row.marker = ExpiringMarker(ts, INT32_MAX, ldt);
      row.deletion = Del(ts, ldt);
      row.columns = {Simple(1, Cell::Live(ts, "a")), Simple(2, Cell::Tombstone(ts, ldt)),
                     Simple(3, Cell{ts, 1, ldt, "b", {}}),
                     Complex(4, {Cell{ts, INT32_MAX, ldt, "c", "p"}}, Del(ts, INT64_MAX))};
      for (const EncodingStats& stats : stats_list) {
        ASSERT_EQ(RoundTripRow(row, stats), row) << ts << " " << ldt;
      }
      PartitionUpdate u;
      u.key = DecoratedKey::FromKey("k");
      u.partition_deletion = Del(ts, ldt);
      u.rows.push_back(row);
      std::string buf;
      EncodePartitionUpdate(u, &buf);
      std::string_view in = buf;
      PartitionUpdate out;
      ASSERT_TRUE(DecodePartitionUpdate(&in, &out).ok());
      ASSERT_EQ(out, u);
    }
  }
}

TEST(RowCodecTest, RoundTripsRandomRows) {
  uint64_t seed = testing::TestSeed();
  SCOPED_TRACE("CASSETTE_SEED=" + std::to_string(seed));
  for (bool wide : {false, true}) {
    Generator gen(seed, wide);
    for (int i = 0; i < 2000; ++i) {
      Row row = gen.RandomRow(gen.rnd().Bytes(gen.rnd().Uniform(12)));
      EncodingStats stats{gen.Timestamp(), gen.Second(),
                          static_cast<int32_t>(gen.rnd().Range(0, 5))};
      ASSERT_EQ(RoundTripRow(row, stats), row);
      std::string body;
      EncodeRowBody(row, stats, &body);
      std::string_view in = body;
      Row out;
      out.clustering = "kept";
      ASSERT_TRUE(DecodeRowBody(&in, stats, &out).ok());
      ASSERT_TRUE(in.empty());
      EXPECT_EQ(out.clustering, "kept");
      out.clustering = row.clustering;
      ASSERT_EQ(out, row);
    }
  }
}

TEST(RowCodecTest, RoundTripsRandomPartitionUpdates) {
  uint64_t seed = testing::TestSeed();
  SCOPED_TRACE("CASSETTE_SEED=" + std::to_string(seed));
  for (bool wide : {false, true}) {
    Generator gen(seed, wide);
    std::string buf;
    std::vector<PartitionUpdate> updates;
    for (int i = 0; i < 300; ++i) {
      updates.push_back(gen.RandomUpdate());
      EncodePartitionUpdate(updates.back(), &buf);
    }
    // Concatenated updates decode one after the other.
    std::string_view in = buf;
    for (const PartitionUpdate& want : updates) {
      PartitionUpdate got;
      Status s = DecodePartitionUpdate(&in, &got);
      ASSERT_TRUE(s.ok()) << s.message();
      ASSERT_EQ(got, want);
    }
    EXPECT_TRUE(in.empty());
  }
}

TEST(RowCodecTest, DeletionTimeAndRangeTombstoneRoundTrip) {
  EncodingStats stats{100, 50, 0};
  for (DeletionTime d :
       {DeletionTime::Live(), Del(100, 50), Del(INT64_MIN + 1, -5), Del(INT64_MAX, INT64_MAX)}) {
    std::string buf;
    EncodeDeletionTime(d, stats, &buf);
    std::string_view in = buf;
    DeletionTime out{1, 1};
    ASSERT_TRUE(DecodeDeletionTime(&in, stats, &out).ok());
    EXPECT_EQ(out, d);
    EXPECT_TRUE(in.empty());
  }
  std::string live;
  EncodeDeletionTime(DeletionTime::Live(), stats, &live);
  EXPECT_EQ(live.size(), 1u);
  for (bool si : {false, true}) {
    for (bool ei : {false, true}) {
      for (const std::string& start : {std::string(), Ck(1)}) {
        for (const std::string& end : {std::string(), Ck(1) + Ck(2)}) {
          for (DeletionTime d : {DeletionTime::Live(), Del(101, 51)}) {
            RangeTombstone rt{ClusteringRange{{start, si}, {end, ei}}, d};
            std::string buf;
            EncodeRangeTombstone(rt, stats, &buf);
            std::string_view in = buf;
            RangeTombstone out;
            ASSERT_TRUE(DecodeRangeTombstone(&in, stats, &out).ok());
            EXPECT_EQ(out, rt);
            EXPECT_TRUE(in.empty());
          }
        }
      }
    }
  }
}

// The point of the row defaults: a time-series row pays for its marker
// once, and each live cell written with it costs 3 bytes plus its value.
TEST(RowCodecTest, TimeSeriesCellsAreCheap) {
  const int64_t ts = 1700000000123456;
  EncodingStats stats{ts - 1000, 0, 0};
  Row row;
  row.clustering = Ck(1);
  row.marker = Marker(ts);
  for (uint32_t id = 0; id < 5; ++id) row.columns.push_back(Simple(id, Cell::Live(ts, "12345678")));
  std::string body;
  EncodeRowBody(row, stats, &body);
  // flags + marker delta (2 bytes for 1000) + column count, then 5 x (3 + 8).
  EXPECT_EQ(body.size(), 1u + 2u + 1u + 5u * (3u + 8u));

  // With TTL, marker and cells share the expiry too.
  Row ttl_row;
  ttl_row.marker = ExpiringMarker(ts, 86400, 1700086400);
  for (uint32_t id = 0; id < 5; ++id) {
    ttl_row.columns.push_back(Simple(id, Cell::Expiring(ts, 86400, 1700000000, "12345678")));
  }
  std::string ttl_body;
  EncodeRowBody(ttl_row, EncodingStats{ts, 1700086400, 86400}, &ttl_body);
  EXPECT_EQ(ttl_body.size(), 1u + 3u + 1u + 5u * (3u + 8u));

  // An UPDATE-only row (no marker) gets the same price per cell.
  Row update_row;
  for (uint32_t id = 0; id < 5; ++id)
    update_row.columns.push_back(Simple(id, Cell::Live(ts, "12345678")));
  std::string update_body;
  EncodeRowBody(update_row, stats, &update_body);
  EXPECT_EQ(update_body.size(), body.size());
}

// The example in FORMAT.md, byte for byte.
TEST(RowCodecTest, GoldenBytes) {
  const int64_t t = 1700000000000000;
  Row row{Ck(1), Marker(t), {}, {Simple(2, Cell::Live(t, "hello"))}};
  std::string buf;
  EncodeRow(row, EncodingStats{t - 1000, 0, 0}, &buf);
  EXPECT_EQ(buf, std::string("\x04\x80\x00\x00\x01"
                             "\x11"
                             "\xd0\x0f"
                             "\x01"
                             "\x02"
                             "\x04"
                             "\x05hello",
                             17));
}

// Every strict prefix of a valid encoding is Corruption, never OK and never
// a crash, and leaves the input untouched.
TEST(RowCodecTest, EveryTruncationIsCorruption) {
  uint64_t seed = testing::TestSeed();
  SCOPED_TRACE("CASSETTE_SEED=" + std::to_string(seed));
  for (bool wide : {false, true}) {
    Generator gen(seed + 1, wide);
    for (int i = 0; i < 100; ++i) {
      PartitionUpdate u = gen.RandomUpdate();
      std::string buf;
      EncodePartitionUpdate(u, &buf);
      for (size_t len = 0; len < buf.size(); ++len) {
        std::string prefix = buf.substr(0, len);  // own allocation: ASan sees overreads
        std::string_view in = prefix;
        PartitionUpdate out;
        Status s = DecodePartitionUpdate(&in, &out);
        ASSERT_TRUE(s.IsCorruption()) << "len " << len << " of " << buf.size();
        ASSERT_EQ(in.size(), len);
      }
      Row row = gen.RandomRow(Ck(1));
      EncodingStats stats{gen.Timestamp(), gen.Second(), 1};
      std::string rbuf;
      EncodeRow(row, stats, &rbuf);
      for (size_t len = 0; len < rbuf.size(); ++len) {
        std::string prefix = rbuf.substr(0, len);
        std::string_view in = prefix;
        Row out;
        ASSERT_TRUE(DecodeRow(&in, stats, &out).IsCorruption()) << "len " << len;
      }
      std::string rtbuf;
      if (!u.range_tombstones.empty()) {
        EncodeRangeTombstone(u.range_tombstones[0], stats, &rtbuf);
        for (size_t len = 0; len < rtbuf.size(); ++len) {
          std::string prefix = rtbuf.substr(0, len);
          std::string_view in = prefix;
          RangeTombstone out;
          ASSERT_TRUE(DecodeRangeTombstone(&in, stats, &out).IsCorruption()) << "len " << len;
        }
      }
    }
  }
}

// Random byte flips: the decoder either rejects the bytes or returns a valid
// update, and what it returns encodes and decodes to itself.
TEST(RowCodecTest, RandomByteFlipsNeverCrash) {
  uint64_t seed = testing::TestSeed();
  SCOPED_TRACE("CASSETTE_SEED=" + std::to_string(seed));
  int rejected = 0, accepted = 0;
  for (bool wide : {false, true}) {
    Generator gen(seed + 2, wide);
    Random& rnd = gen.rnd();
    for (int i = 0; i < 3000; ++i) {
      PartitionUpdate u = gen.RandomUpdate();
      std::string buf;
      EncodePartitionUpdate(u, &buf);
      int flips = 1 + static_cast<int>(rnd.Uniform(3));
      for (int f = 0; f < flips; ++f) {
        size_t pos = rnd.Uniform(buf.size());
        buf[pos] = static_cast<char>(rnd.OneIn(2) ? rnd.Next() : buf[pos] ^ (1 << rnd.Uniform(8)));
      }
      std::string_view in = buf;
      PartitionUpdate out;
      Status s = DecodePartitionUpdate(&in, &out);
      if (!s.ok()) {
        ASSERT_TRUE(s.IsCorruption());
        EXPECT_NE(s.message().find("offset"), std::string::npos) << s.message();
        ++rejected;
        continue;
      }
      ++accepted;
      ExpectValid(out.static_row);
      for (size_t r = 0; r < out.rows.size(); ++r) {
        ExpectValid(out.rows[r]);
        if (r > 0) {
          ASSERT_LT(out.rows[r - 1].clustering, out.rows[r].clustering);
        }
      }
      std::string again;
      EncodePartitionUpdate(out, &again);
      std::string_view again_in = again;
      PartitionUpdate out2;
      ASSERT_TRUE(DecodePartitionUpdate(&again_in, &out2).ok());
      ASSERT_EQ(out2, out);
    }
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(accepted, 0);
}

// Hand-made malformed bodies, each rejected with Corruption.
TEST(RowCodecTest, RejectsMalformedBodies) {
  using namespace row_format;
  auto body = [](std::initializer_list<int> bytes) {
    std::string s;
    for (int b : bytes) s.push_back(static_cast<char>(b));
    return s;
  };
  struct Case {
    const char* name;
    std::string bytes;
  };
  const Case cases[] = {
      {"empty input", ""},
      {"unknown row flag", body({0x80})},
      {"marker and defaults", body({kRowHasMarker | kRowHasDefault, 0})},
      {"expiring default alone", body({kRowExpiringDefault})},
      {"expiring marker with ttl 0", body({kRowHasMarker | kRowExpiringDefault, 2, 0, 2})},
      {"marker at kNoTimestamp",
       [] {
         std::string s(1, static_cast<char>(kRowHasMarker));
         PutSignedVarint64(&s, INT64_MIN);
         return s;
       }()},
      {"row deletion at kNoTimestamp",
       [] {
         std::string s(1, static_cast<char>(kRowHasDeletion));
         PutSignedVarint64(&s, INT64_MIN);
         PutSignedVarint64(&s, 0);
         return s;
       }()},
      {"zero columns", body({kRowHasColumns, 0})},
      {"cell uses missing defaults", body({kRowHasColumns, 1, 0, kCellUseRowTimestamp, 1, 'v'})},
      {"deleted and expiring",
       body({kRowHasColumns, 1, 0, kCellDeleted | kCellExpiring, 2, 2, 2, 1, 'v'})},
      {"unknown cell flag", body({kRowHasColumns, 1, 0, 0x80, 2, 1, 'v'})},
      {"complex deletion on simple column",
       body({kRowHasColumns, 1, 0, kColumnComplexDeletion, 2, 1, 'v'})},
      {"value without empty flag but empty", body({kRowHasColumns, 1, 0, 0, 2, 0})},
      {"tombstone without expiry",
       [] {
         std::string s = {static_cast<char>(kRowHasColumns), 1, 0, static_cast<char>(kCellDeleted),
                          2};
         PutSignedVarint64(&s, INT64_MAX);  // ldt = kNoDeletionTime with zero stats
         s.push_back(static_cast<char>(0));
         return s;
       }()},
      {"collection cells out of order", body({kRowHasColumns, 1, 0, kColumnComplex, 2,  // two cells
                                              kCellEmptyValue, 1, 'b', 2,  // path b, ts
                                              kCellEmptyValue, 1, 'a', 2})},
      {"duplicate collection path", body({kRowHasColumns, 1, 0, kColumnComplex, 2, kCellEmptyValue,
                                          1, 'a', 2, kCellEmptyValue, 1, 'a', 2})},
      {"column id beyond uint32", body({kRowHasColumns, 2, 0xfe, 0xff, 0xff, 0xff, 0x0f,
                                        kCellEmptyValue, 2, 1, kCellEmptyValue, 2})},
      {"cell count larger than input", body({kRowHasColumns, 1, 0, kColumnComplex, 0x7f})},
      {"value length past the end", body({kRowHasColumns, 1, 0, 0, 2, 100, 'v'})},
      {"overlong varint",
       body({kRowHasColumns, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    std::string_view in = tc.bytes;
    Row row;
    Status s = DecodeRowBody(&in, kZeroStats, &row);
    EXPECT_TRUE(s.IsCorruption()) << s.message();
    EXPECT_EQ(in.size(), tc.bytes.size());
  }
}

TEST(RowCodecTest, RejectsMalformedPartitionUpdates) {
  PartitionUpdate u;
  u.key = DecoratedKey::FromKey("k");
  u.rows.push_back(Row{Ck(1), Marker(5), {}, {}});
  u.rows.push_back(Row{Ck(2), Marker(5), {}, {}});
  std::string good;
  EncodePartitionUpdate(u, &good);
  {
    std::string_view in = good;
    PartitionUpdate out;
    ASSERT_TRUE(DecodePartitionUpdate(&in, &out).ok());
    EXPECT_EQ(out, u);
    EXPECT_EQ(out.key.token, u.key.token);  // recomputed from the key
  }
  // Rows out of order.
  PartitionUpdate bad = u;
  std::swap(bad.rows[0], bad.rows[1]);
  std::string buf;
  EncodePartitionUpdate(bad, &buf);
  std::string_view in = buf;
  PartitionUpdate out;
  Status s = DecodePartitionUpdate(&in, &out);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(s.message().find("order"), std::string::npos) << s.message();
  // Duplicate rows.
  bad = u;
  bad.rows[1].clustering = bad.rows[0].clustering;
  buf.clear();
  EncodePartitionUpdate(bad, &buf);
  in = buf;
  EXPECT_TRUE(DecodePartitionUpdate(&in, &out).IsCorruption());
}

// What ScanRowBody must report for a row, computed from the decoded row
// the way SSTableStats and compaction look at it.
void ExpectScanOf(const Row& row, const RowBodyScan& scan) {
  RowBodyScan want;
  std::vector<int64_t> drop_times;
  auto time = [&](int64_t ts) {
    want.min_timestamp = std::min(want.min_timestamp, ts);
    want.max_timestamp = std::max(want.max_timestamp, ts);
  };
  auto ttl = [&](int32_t v) {
    want.min_ttl = std::min(want.min_ttl, v);
    want.max_ttl = std::max(want.max_ttl, v);
  };
  auto ldt = [&](int64_t v) {
    want.min_local_deletion_time = std::min(want.min_local_deletion_time, v);
    want.max_local_deletion_time = std::max(want.max_local_deletion_time, v);
    if (v != kNoDeletionTime) drop_times.push_back(v);
  };
  if (!row.marker.IsEmpty()) {
    time(row.marker.timestamp);
    ttl(row.marker.ttl);
    ldt(row.marker.IsExpiring() ? row.marker.local_expiration_time : kNoDeletionTime);
  }
  if (!row.deletion.IsLive()) {
    time(row.deletion.marked_for_delete_at);
    ldt(row.deletion.local_deletion_time);
  }
  for (const ColumnData& col : row.columns) {
    if (!col.complex_deletion.IsLive()) {
      ++want.complex_deletions;
      time(col.complex_deletion.marked_for_delete_at);
      ldt(col.complex_deletion.local_deletion_time);
    }
    if (col.cells.empty()) ++want.empty_columns;
    for (const Cell& c : col.cells) {
      ++want.cells;
      if (c.IsTombstone()) ++want.tombstones;
      if (c.IsExpiring()) {
        ++want.expiring_cells;
        want.min_cell_expiry = std::min(want.min_cell_expiry, c.local_deletion_time);
      }
      time(c.timestamp);
      ttl(c.ttl);
      ldt(c.local_deletion_time);
    }
  }
  EXPECT_EQ(scan.marker, row.marker);
  EXPECT_EQ(scan.has_deletion, !row.deletion.IsLive());
  EXPECT_EQ(scan.columns, row.columns.size());
  EXPECT_EQ(scan.empty_columns, want.empty_columns);
  EXPECT_EQ(scan.complex_deletions, want.complex_deletions);
  EXPECT_EQ(scan.cells, want.cells);
  EXPECT_EQ(scan.tombstones, want.tombstones);
  EXPECT_EQ(scan.expiring_cells, want.expiring_cells);
  EXPECT_EQ(scan.min_cell_expiry, want.min_cell_expiry);
  EXPECT_EQ(scan.min_timestamp, want.min_timestamp);
  EXPECT_EQ(scan.max_timestamp, want.max_timestamp);
  EXPECT_EQ(scan.min_local_deletion_time, want.min_local_deletion_time);
  EXPECT_EQ(scan.max_local_deletion_time, want.max_local_deletion_time);
  EXPECT_EQ(scan.min_ttl, want.min_ttl);
  EXPECT_EQ(scan.max_ttl, want.max_ttl);
  EXPECT_EQ(scan.drop_time_count, drop_times.size());
  const bool mixed = std::any_of(drop_times.begin(), drop_times.end(),
                                 [&](int64_t v) { return v != drop_times.front(); });
  EXPECT_EQ(scan.mixed_drop_times, mixed);
  if (!drop_times.empty()) {
    EXPECT_EQ(scan.drop_time, drop_times.front());
  }
  // Compaction's "passes unchanged", at seconds around the row's expiries.
  for (int64_t now : {int64_t{0}, want.min_cell_expiry - 1, want.min_cell_expiry,
                      row.marker.local_expiration_time - 1, int64_t{1} << 40}) {
    bool passes = row.deletion.IsLive() &&
                  (row.marker.IsEmpty() || !row.marker.IsExpiring() || row.marker.IsLive(now)) &&
                  (!row.columns.empty() || !row.marker.IsEmpty());
    for (const ColumnData& col : row.columns) {
      passes = passes && col.complex_deletion.IsLive() && !col.cells.empty();
      for (const Cell& c : col.cells) passes = passes && c.IsLive(now);
    }
    EXPECT_EQ(scan.PassesUnchanged(now), passes) << "now " << now;
  }
}

// The encoded-row path of compaction: ScanRowBody checks a body exactly as
// DecodeRowBody does and summarizes it; RebaseRowBody re-encodes it against
// other bases (exactly RebasedRowBodySize bytes) into a body that decodes
// to the same row.
TEST(RowCodecTest, ScanAndRebaseAgreeWithDecoding) {
  uint64_t seed = testing::TestSeed();
  SCOPED_TRACE("CASSETTE_SEED=" + std::to_string(seed));
  for (bool wide : {false, true}) {
    Generator gen(seed + 3, wide);
    Random& rnd = gen.rnd();
    for (int i = 0; i < 4000; ++i) {
      Row row = gen.RandomRow();
      if (rnd.OneIn(2)) {
        // An INSERT's or UPDATE's row: every cell at the row's timestamp,
        // with its TTL or none (ScanRowBody's shortcut).
        const int64_t ts = row.marker.IsEmpty() ? gen.Timestamp() : row.marker.timestamp;
        const int32_t ttl = rnd.OneIn(2) ? static_cast<int32_t>(rnd.Range(1, 3)) : 0;
        const int64_t expiry = ttl > 0 ? gen.Second() + ttl : kNoDeletionTime;
        if (!row.marker.IsEmpty()) row.marker = LivenessInfo{ts, ttl, expiry};
        row.deletion = DeletionTime::Live();
        std::erase_if(row.columns, [](const ColumnData& col) { return col.is_complex; });
        for (ColumnData& col : row.columns) {
          Cell& c = col.cells.front();
          const bool with_ttl = ttl > 0 && !rnd.OneIn(4);
          c = Cell{
              ts, with_ttl ? ttl : 0, with_ttl ? expiry : kNoDeletionTime, std::move(c.value), {}};
        }
      }
      const EncodingStats from{gen.Timestamp(), gen.Second(),
                               static_cast<int32_t>(rnd.Range(0, 5))};
      const EncodingStats to = rnd.OneIn(4) ? from
                                            : EncodingStats{gen.Timestamp(), gen.Second(),
                                                            static_cast<int32_t>(rnd.Range(0, 5))};
      std::string body;
      EncodeRowBody(row, from, &body);
      std::string_view in = body;
      Row decoded;
      ASSERT_TRUE(DecodeRowBody(&in, from, &decoded).ok());
      RowBodyScan scan;
      ASSERT_TRUE(ScanRowBody(body, from, &scan).ok());
      ExpectScanOf(decoded, scan);

      std::string rebased(RebasedRowBodySize(body, scan, to), '\0');
      EXPECT_EQ(RebaseRowBody(body, scan, to, rebased.data()), rebased.data() + rebased.size());
      in = rebased;
      Row back;
      ASSERT_TRUE(DecodeRowBody(&in, to, &back).ok());
      EXPECT_TRUE(in.empty());
      ASSERT_EQ(back, decoded);
      if (to == from) {
        EXPECT_EQ(rebased, body);
      }

      // Damaged bodies: the same verdict, the same message.
      std::string bad = body;
      const int flips = 1 + static_cast<int>(rnd.Uniform(2));
      for (int f = 0; f < flips; ++f) {
        bad[rnd.Uniform(bad.size())] ^= static_cast<char>(1 << rnd.Uniform(8));
      }
      if (rnd.OneIn(4)) bad.resize(rnd.Uniform(bad.size() + 1));
      in = bad;
      Row damaged;
      Status decode = DecodeRowBody(&in, from, &damaged);
      if (decode.ok() && !in.empty()) decode = Status::Corruption("trailing bytes after row body");
      RowBodyScan bad_scan;
      Status scanned = ScanRowBody(bad, from, &bad_scan);
      ASSERT_EQ(scanned, decode) << scanned.ToString() << " vs " << decode.ToString();
      if (!scanned.ok()) continue;
      ExpectScanOf(damaged, bad_scan);
      std::string out(RebasedRowBodySize(bad, bad_scan, to), '\0');
      EXPECT_EQ(RebaseRowBody(bad, bad_scan, to, out.data()), out.data() + out.size());
      in = out;
      Row rebased_damaged;
      ASSERT_TRUE(DecodeRowBody(&in, to, &rebased_damaged).ok());
      EXPECT_EQ(rebased_damaged, damaged);
    }
  }
}

// The row DecodeRowBody gives for a body ReadPlainRow read in place, as
// PlainRowView documents it.
Row RowOfPlainView(const PlainRowView& view) {
  Row row;
  if (view.has_marker) {
    row.marker = LivenessInfo{view.timestamp, view.ttl, view.local_deletion_time};
  }
  for (const PlainRowView::Column& column : view.columns) {
    ColumnData& data = row.columns.emplace_back();
    data.column_id = column.id;
    data.cells.push_back(Cell{view.timestamp,
                              column.row_ttl ? view.ttl : 0,
                              column.row_ttl ? view.local_deletion_time : kNoDeletionTime,
                              std::string(column.value),
                              {}});
  }
  return row;
}

// The read path takes plain rows in place (ReadPlainRow) and decodes the
// others: whatever ReadPlainRow accepts, sound or damaged, must be what
// DecodeRowBody decodes, and it must accept every INSERT's and UPDATE's row.
TEST(RowCodecTest, ReadPlainRowAgreesWithDecoding) {
  uint64_t seed = testing::TestSeed();
  SCOPED_TRACE("CASSETTE_SEED=" + std::to_string(seed));
  Generator gen(seed + 5, /*wide=*/true);
  Random& rnd = gen.rnd();
  std::vector<PlainColumn> columns;
  std::vector<std::string> values;
  PlainRowView view;  // reused, as the read path reuses it
  int plain_read = 0;
  for (int i = 0; i < 6000; ++i) {
    Row row;
    bool plain = false;
    if (rnd.OneIn(2)) {
      const PlainRow p = RandomPlainRow(gen, &columns, &values);
      row = p.ToRow("");
      plain = !p.columns.empty();
    } else {
      row = gen.RandomRow("");
    }
    const EncodingStats stats{gen.Timestamp(), gen.Second(), static_cast<int32_t>(rnd.Range(0, 5))};
    std::string body;
    EncodeRowBody(row, stats, &body);
    if (plain) {
      ASSERT_TRUE(ReadPlainRow(body, stats, &view)) << "row " << i;
    }
    for (int damage = 0; damage < 2; ++damage) {
      std::string bytes = body;
      if (damage == 1) {
        bytes[rnd.Uniform(bytes.size())] ^= static_cast<char>(1 << rnd.Uniform(8));
        if (rnd.OneIn(4)) bytes.resize(rnd.Uniform(bytes.size() + 1));
      }
      if (!ReadPlainRow(bytes, stats, &view)) continue;
      ++plain_read;
      std::string_view in = bytes;
      Row decoded;
      ASSERT_TRUE(DecodeRowBody(&in, stats, &decoded).ok()) << "row " << i << " damage " << damage;
      EXPECT_TRUE(in.empty());
      ASSERT_EQ(RowOfPlainView(view), decoded) << "row " << i << " damage " << damage;
    }
  }
  EXPECT_GT(plain_read, 3000);
}

}  // namespace
}  // namespace cassette
