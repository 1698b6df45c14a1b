// Row entry heads of format versions 2 and 3: clusterings as a prefix or
// as a numeric step, and the per-row bases (version 3: the timestamp step
// in the block's steps), round-trip; malformed heads are rejected without
// changing the reader's state.
#include "engine/sstable/partition_codec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "engine/sstable/sstable_format.h"
#include "engine/util/random.h"

namespace cassette {
namespace {

std::string Be64(uint64_t v) {
  std::string out(8, '\0');
  for (int i = 7; i >= 0; --i, v >>= 8) out[static_cast<size_t>(i)] = static_cast<char>(v & 0xff);
  return out;
}

// A head followed by a body of `body_length` placeholder bytes.
std::string Head(std::string_view prev, std::string_view clustering,
                 const EncodingStats& prev_bases, const EncodingStats& bases, size_t body_length) {
  std::string out(MaxRowEntryHeadSize(clustering) + body_length, '\0');
  char* body = EncodeRowEntryHead(prev, clustering, prev_bases, bases, body_length, out.data());
  std::fill(body, body + body_length, 'b');
  char* end = FinishRowEntry(body, body_length, body + body_length);
  out.resize(static_cast<size_t>(end - out.data()));
  return out;
}

TEST(RowEntryHead, TimestampStepIsWrittenAsADelta) {
  // A DESC timestamp clustering (bytes ascending) one second apart, rows
  // sharing their TTL: the head is the step, the timestamp step and zeros.
  const EncodingStats a{1'000'000, 0, 0};
  const EncodingStats b{1'003'300, 0, 0};
  const std::string head = Head(Be64(5'000), Be64(6'000), a, b, 0);
  // 00: delta form; e8 07: 1000; c8 33: zigzag(3300) = 6600; 00 00: ldt,
  // ttl unchanged; 00: empty body.
  EXPECT_EQ(head, std::string("\x00\xe8\x07\xc8\x33\x00\x00\x00", 8));

  RowEntryHeadInput in{head};
  std::string clustering = Be64(5'000);
  EncodingStats bases = a;
  uint64_t body_length = 99;
  ASSERT_EQ(ParseRowEntryHead(in, 2, &clustering, &bases, &body_length), nullptr);
  EXPECT_EQ(clustering, Be64(6'000));
  EXPECT_EQ(bases, b);
  EXPECT_EQ(body_length, 0u);
  EXPECT_TRUE(in.in.empty());
}

TEST(RowEntryHead, ClusteringsTakeTheShorterForm) {
  // The last byte steps by one: 00 01 beats 04 01 '2'.
  const std::string head = Head("abc1", "abc2", {}, {}, 3);
  EXPECT_EQ(head[0], '\0');
  RowEntryHeadInput in{head};
  std::string clustering = "abc1";
  EncodingStats bases;
  uint64_t body_length = 0;
  ASSERT_EQ(ParseRowEntryHead(in, 2, &clustering, &bases, &body_length), nullptr);
  EXPECT_EQ(clustering, "abc2");
  EXPECT_EQ(body_length, 3u);
  // A different length, a change before the last eight bytes, a block's
  // first row, or a step whose varint is longer than the bytes it changes
  // take the prefix form.
  for (auto [prev, next] : {std::pair<std::string, std::string>{"ab", "abc"},
                            {"a" + Be64(1), "b" + Be64(0)},
                            {"", "first"},
                            {Be64(0), Be64(UINT64_MAX)}}) {
    const std::string h = Head(prev, next, {}, {}, 0);
    EXPECT_NE(h[0], '\0') << next;
    RowEntryHeadInput v{h};
    std::string c = prev;
    ASSERT_EQ(ParseRowEntryHead(v, 2, &c, &bases, &body_length), nullptr);
    EXPECT_EQ(c, next);
  }
}

TEST(RowEntryHead, RandomSequencesRoundTrip) {
  Random rnd(42);
  for (int round = 0; round < 200; ++round) {
    // Sorted unique clusterings: a shared prefix, then big-endian counters
    // of 1..12 bytes (carries across bytes, lengths under and over 8), or
    // random tails.
    const std::string prefix = rnd.Bytes(rnd.Uniform(4));
    const size_t width = 1 + rnd.Uniform(12);
    std::set<std::string> keys;
    uint64_t counter = rnd.Next() >> (rnd.Uniform(64) | 1);
    for (int i = 0; i < 50; ++i) {
      if (rnd.OneIn(5)) {
        keys.insert(prefix + rnd.Bytes(rnd.Uniform(14)));
      } else {
        counter += 1 + rnd.Uniform(rnd.OneIn(2) ? 300 : 70000);
        std::string c = Be64(counter);
        c = width >= 8 ? std::string(width - 8, '\x07') + c : c.substr(8 - width);
        keys.insert(prefix + c);
      }
    }
    std::string stream;
    std::vector<EncodingStats> bases_of;
    EncodingStats prev_bases{rnd.Range(-5, 5), rnd.Range(-5, 5), 0};
    const EncodingStats start = prev_bases;
    std::string prev;
    for (const std::string& k : keys) {
      EncodingStats b = prev_bases;
      if (rnd.OneIn(2)) b.min_timestamp = static_cast<int64_t>(rnd.Next());
      if (rnd.OneIn(3)) b.min_local_deletion_time = static_cast<int64_t>(rnd.Next());
      if (rnd.OneIn(3)) b.min_ttl = static_cast<int32_t>(rnd.Range(INT32_MIN, INT32_MAX));
      stream += Head(prev, k, prev_bases, b, rnd.Uniform(3));
      bases_of.push_back(b);
      prev = k;
      prev_bases = b;
    }
    RowEntryHeadInput in{stream};
    std::string clustering;
    EncodingStats bases = start;
    size_t i = 0;
    for (const std::string& k : keys) {
      uint64_t body_length = 0;
      const char* bad = ParseRowEntryHead(in, 2, &clustering, &bases, &body_length);
      ASSERT_EQ(bad, nullptr) << bad;
      ASSERT_EQ(clustering, k) << "round " << round;
      ASSERT_EQ(bases, bases_of[i++]);
      std::string_view body;
      ASSERT_TRUE(in.Bytes(body_length, &body));
    }
    EXPECT_TRUE(in.in.empty());
  }
}

// Each malformed head is rejected and leaves the clustering and bases as
// they were, so a reader may retry it through another path.
// `steps`: the block's unused timestamp steps (version 3), unchanged too.
void ExpectRejected(std::string_view head, uint32_t version, std::string clustering,
                    std::string_view want, std::string_view steps = {}) {
  const std::string before = clustering;
  const EncodingStats start{7, 8, 9};
  EncodingStats bases = start;
  uint64_t body_length = 0;
  RowEntryHeadInput in{head};
  std::string_view unused = steps;
  const char* bad = ParseRowEntryHead(in, version, &clustering, &bases, &body_length, &unused);
  ASSERT_NE(bad, nullptr);
  EXPECT_EQ(std::string(bad), want);
  EXPECT_EQ(clustering, before);
  EXPECT_EQ(bases, start);
  EXPECT_EQ(unused, steps);
}

TEST(RowEntryHead, MalformedHeadsAreRejected) {
  const std::string ok = Head(Be64(1), Be64(2'000), {}, {}, 0);
  ASSERT_EQ(ok[0], '\0');
  // The delta form at a block's start (no previous clustering), or in a
  // version-1 file.
  ExpectRejected(ok, 2, "", "malformed row entry");
  ExpectRejected(ok, 1, Be64(1), "malformed row entry");
  // A zero step, and a step that carries out of the last eight bytes.
  ExpectRejected(std::string("\x00\x00\x00\x00\x00\x00", 6), 2, Be64(1),
                 "row clustering delta out of range");
  ExpectRejected(std::string("\x00\x02\x00\x00\x00\x00", 6), 2, "x" + Be64(UINT64_MAX - 1),
                 "row clustering delta out of range");
  ExpectRejected(std::string("\x00\x80\x02\x00\x00\x00\x00", 7), 2, "\xff",
                 "row clustering delta out of range");
  // A prefix longer than the previous clustering; bytes past the input.
  ExpectRejected(std::string("\x05\x00\x00\x00\x00\x00", 6), 2, "abc", "malformed row entry");
  ExpectRejected(std::string("\x01\x09zz", 4), 2, "abc", "row clustering runs past its block");
  // Bases cut short, and a TTL base leaving int32.
  ExpectRejected(std::string("\x01\x01z\x00", 4), 2, "abc", "malformed row bases");
  ExpectRejected(std::string("\x01\x01z\x00\x00\xfe\xff\xff\xff\x0f\x00", 11), 2, "abc",
                 "malformed row bases");
  // A TTL step beyond any two int32 values' (2^33).
  ExpectRejected(std::string("\x01\x01z\x00\x00\x80\x80\x80\x80\x40\x00", 11), 2, "abc",
                 "malformed row bases");
  // No body length.
  ExpectRejected(std::string("\x01\x01z\x00\x00\x00", 6), 2, "abc", "malformed row entry");
}

TEST(RowEntryHead, Version3TakesTheTimestampStepFromTheBlocksSteps) {
  const EncodingStats a{1'000'000, 0, 0};
  const EncodingStats b{1'003'300, 0, 0};
  const EncodingStats c{1'003'290, 0, 0};
  std::string steps;
  std::string out(2 * MaxRowEntryHeadSize(Be64(6'000)), '\0');
  char* p = EncodeRowEntryHead(Be64(5'000), Be64(6'000), a, b, 0, out.data(), &steps);
  p = FinishRowEntry(p, 0, p);
  p = EncodeRowEntryHead(Be64(6'000), Be64(7'000), b, c, 0, p, &steps);
  p = FinishRowEntry(p, 0, p);
  out.resize(static_cast<size_t>(p - out.data()));
  // The heads hold the clustering step, ldt and ttl steps and the body
  // length; the steps zigzag(3300) = 6600 and zigzag(-10) = 19.
  EXPECT_EQ(out, std::string("\x00\xe8\x07\x00\x00\x00\x00\xe8\x07\x00\x00\x00", 12));
  EXPECT_EQ(steps, std::string("\xc8\x33\x13", 3));

  RowEntryHeadInput in{out};
  std::string_view unused = steps;
  std::string clustering = Be64(5'000);
  EncodingStats bases = a;
  uint64_t body_length = 99;
  ASSERT_EQ(ParseRowEntryHead(in, 3, &clustering, &bases, &body_length, &unused), nullptr);
  EXPECT_EQ(clustering, Be64(6'000));
  EXPECT_EQ(bases, b);
  EXPECT_EQ(unused, "\x13");
  ASSERT_EQ(ParseRowEntryHead(in, 3, &clustering, &bases, &body_length, &unused), nullptr);
  EXPECT_EQ(clustering, Be64(7'000));
  EXPECT_EQ(bases, c);
  EXPECT_TRUE(unused.empty());
  EXPECT_TRUE(in.in.empty());

  // No step left for a head, or a malformed head: nothing changes, the
  // steps included.
  const std::string head = out.substr(0, 6);
  for (std::string_view left : {std::string_view(), std::string_view("\x80", 1)}) {
    ExpectRejected(head, 3, Be64(5'000), "row block has fewer timestamp steps than rows", left);
  }
  ExpectRejected(head.substr(0, 4), 3, Be64(5'000), "malformed row bases", steps);
}

TEST(RowEntryHead, Version1HasNoBases) {
  // A version-1 entry: the prefix form and the body length only.
  const std::string head("\x02\x01z\x04", 4);
  RowEntryHeadInput in{head};
  std::string clustering = "ab";
  EncodingStats bases{1, 2, 3};
  uint64_t body_length = 0;
  ASSERT_EQ(ParseRowEntryHead(in, 1, &clustering, &bases, &body_length), nullptr);
  EXPECT_EQ(clustering, "az");
  EXPECT_EQ(bases, (EncodingStats{1, 2, 3}));
  EXPECT_EQ(body_length, 4u);
}

TEST(RowEncodingBases, FollowTheRowDefaults) {
  const EncodingStats previous{10, 20, 30};
  Row insert;
  insert.marker = LivenessInfo{500, 3600, 9000};
  EXPECT_EQ(RowEncodingBases(insert, previous), (EncodingStats{500, 9000, 3600}));
  // No TTL: the expiry bases stay the previous row's.
  insert.marker = LivenessInfo{600, 0, kNoDeletionTime};
  EXPECT_EQ(RowEncodingBases(insert, previous), (EncodingStats{600, 20, 30}));
  // An UPDATE's row: its first cell's.
  Row update;
  ColumnData col;
  col.column_id = 3;
  col.cells.push_back(Cell::Expiring(700, 60, 1000, "v"));
  update.columns.push_back(col);
  EXPECT_EQ(RowEncodingBases(update, previous), (EncodingStats{700, 1060, 60}));
  // A row deletion alone has no defaults.
  Row deleted;
  deleted.deletion = DeletionTime{800, 900};
  EXPECT_EQ(RowEncodingBases(deleted, previous), previous);
}

}  // namespace
}  // namespace cassette
