// Row codec: round trips (random rows, extreme and negative timestamps),
// size of time-series rows, and Corruption (never a crash) for every
// truncation and for random byte flips of valid encodings.
#include "engine/mutation/row_codec.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace cassette
