// The bytes a lab run's child process sends its parent: every field of a
// LabResult and of a failed run's Status comes back as it left, doubles
// bit for bit; truncated or corrupt bytes are a Corruption error.
#include "tools/lab_result_codec.h"

#include "engine/util/coding.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

namespace cassette::tools {
namespace {

// The fields of each struct, by structured binding: a field added to one
// of them stops this from compiling until it is named here, which sends
// its author to EveryFieldSet below and to tools/lab_result_codec.cc.
auto Fields(const LabSample& s) {
  const auto& [f0, f1, f2, f3, f4, f5] = s;
  return std::tie(f0, f1, f2, f3, f4, f5);
}
auto Fields(const LabWindow& w) {
  const auto& [f0, f1, f2, f3, f4, f5] = w;
  return std::tie(f0, f1, f2, f3, f4, f5);
}
auto Fields(const LabWindowSample& w) {
  const auto& [f0, f1] = w;
  return std::tie(f0, f1);
}
auto Fields(const LabResult& r) {
  const auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18,
               f19, f20, f21, f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34,
               f35] = r;
  return std::tie(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17,
                  f18, f19, f20, f21, f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33,
                  f34, f35);
}

// Field i of `a` and `b` compared with `same`; the indices where it fails.
template <class T, class Same>
std::vector<size_t> FieldsWhere(const T& a, const T& b, Same same) {
  const auto fa = Fields(a);
  const auto fb = Fields(b);
  std::vector<size_t> indices;
  [&]<size_t... I>(std::index_sequence<I...>) {
    ((same(std::get<I>(fa), std::get<I>(fb)) ? void() : indices.push_back(I)), ...);
  }
  (std::make_index_sequence<std::tuple_size_v<decltype(fa)>>());
  return indices;
}

template <class T>
std::vector<size_t> FieldsLeftDefault(const T& value) {
  return FieldsWhere(value, T{}, [](const auto& a, const auto& b) { return a != b; });
}

template <class T>
std::vector<size_t> FieldsThatDiffer(const T& a, const T& b) {
  return FieldsWhere(a, b, [](const auto& x, const auto& y) { return x == y; });
}

LabSample EverySampleFieldSet(int64_t second) {
  return {second, 1u << 20, 7, 1.0 / 3, std::nextafter(2.0, 3.0), 4097};
}

LabWindow EveryWindowFieldSet(int64_t start) { return {start, 3, 5000, 700, true, true}; }

// A result with every field away from its default; doubles that decimal
// text would round (a third, the double after 2, a subnormal), and a
// negative zero, which only its bits tell from zero.
LabResult EveryFieldSet() {
  LabResult r;
  r.strategy = "twcs:compaction_window_unit=HOURS,compaction_window_size=1";
  r.compaction = {{"class", "TimeWindowCompactionStrategy"}, {"compaction_window_unit", "HOURS"}};
  r.user_bytes = 1;
  r.logical_bytes = 2;
  r.sstable_bytes_written = 3;
  r.device_bytes_written = 4;
  r.write_amplification = 0.1 + 0.2;
  r.total_write_amplification = std::numeric_limits<double>::denorm_min();
  r.peak_disk_bytes = 5;
  r.peak_temporary_bytes = 6;
  r.final_disk_bytes = 7;
  r.live_logical_bytes = std::numeric_limits<uint64_t>::max();
  r.space_amplification = 2.5;
  r.sstable_count = -8;
  r.max_sstable_count = std::numeric_limits<int64_t>::min();
  r.reads = std::numeric_limits<int64_t>::max();
  r.read_amplification_p50 = {{"all", 1.5}, {"point", 1.0 / 7}, {"missing", -0.0}};
  r.read_amplification_p99 = {{"all", 3.25}, {"range", 1e300}};
  r.tombstones_per_read_p99 = 9.5;
  r.compactions = 10;
  r.compaction_bytes_read = 11;
  r.compaction_bytes_written = 12;
  r.expired_bytes_dropped_whole = 13;
  r.expired_bytes_rewritten = 14;
  r.expiry_lag_p50_seconds = 15;
  r.expiry_lag_p99_seconds = -16;
  r.expiry_lag_max_seconds = 17;
  r.expired_bytes_waiting = 18;
  r.writes = 19;
  r.deletes = 20;
  r.series = {EverySampleFieldSet(600), EverySampleFieldSet(1200)};
  r.windows = {{600, {EveryWindowFieldSet(-3600), EveryWindowFieldSet(0)}}, {1200, {}}};
  r.notes = {"sampled: 1 of 10 identifiers", std::string("a note with \0 inside", 20)};
  r.wall_seconds = 0.123456789;
  r.compaction_cpu_seconds = std::nextafter(0.05, 1.0);
  r.simulated_days_per_minute = 1.0 / 3;
  return r;
}

TEST(LabResultCodecTest, TheTestFillsEveryField) {
  const LabResult r = EveryFieldSet();
  EXPECT_EQ(FieldsLeftDefault(r), std::vector<size_t>{});
  EXPECT_EQ(FieldsLeftDefault(r.series[0]), std::vector<size_t>{});
  EXPECT_EQ(FieldsLeftDefault(r.windows[0]), std::vector<size_t>{});
  EXPECT_EQ(FieldsLeftDefault(r.windows[0].windows[0]), std::vector<size_t>{});
}

TEST(LabResultCodecTest, EveryFieldComesBackAsItLeft) {
  const LabResult sent = EveryFieldSet();
  const std::string bytes = EncodeLabResult(sent);
  Result<LabResult> received = DecodeLabResult(bytes);
  ASSERT_TRUE(received.ok()) << received.status().ToString();
  EXPECT_EQ(FieldsThatDiffer(sent, *received), std::vector<size_t>{});
  EXPECT_TRUE(sent == *received);
  // Bit for bit: negative zero equals zero, but not in its bits.
  EXPECT_TRUE(std::signbit(received->read_amplification_p50.at("missing")));
  EXPECT_EQ(EncodeLabResult(*received), bytes);
}

TEST(LabResultCodecTest, ADefaultResultComesBack) {
  Result<LabResult> received = DecodeLabResult(EncodeLabResult(LabResult{}));
  ASSERT_TRUE(received.ok()) << received.status().ToString();
  EXPECT_TRUE(*received == LabResult{});
}

TEST(LabResultCodecTest, EveryTruncationIsCorruption) {
  const std::string bytes = EncodeLabResult(EveryFieldSet());
  for (size_t size = 0; size < bytes.size(); ++size) {
    Result<LabResult> received = DecodeLabResult(std::string_view(bytes).substr(0, size));
    ASSERT_FALSE(received.ok()) << "decoded " << size << " of " << bytes.size() << " bytes";
    EXPECT_TRUE(received.status().IsCorruption()) << received.status().ToString();
  }
  Result<LabResult> longer = DecodeLabResult(bytes + "x");
  ASSERT_FALSE(longer.ok());
  EXPECT_NE(longer.status().message().find("after its last field"), std::string::npos)
      << longer.status().ToString();
}

// A corrupt list length is refused before anything is reserved for it.
TEST(LabResultCodecTest, AListLongerThanItsBytesIsCorruption) {
  // A default result ends: series count, windows count, notes count
  // (each the one byte 0), then three doubles.
  std::string bytes = EncodeLabResult(LabResult{});
  const size_t series_count = bytes.size() - 3 * 8 - 3;
  ASSERT_EQ(bytes[series_count], '\0');
  std::string huge;
  PutVarint64(&huge, uint64_t{1} << 60);
  bytes.replace(series_count, 1, huge);
  Result<LabResult> received = DecodeLabResult(bytes);
  ASSERT_FALSE(received.ok());
  EXPECT_TRUE(received.status().IsCorruption());
}

// Every single-bit flip of a result decodes to a result or to Corruption
// (never a crash, an ASan report or a runaway allocation); flips in the
// lengths and tags make most of the structure unreadable.
TEST(LabResultCodecTest, BitFlipsNeverCrashTheDecoder) {
  const std::string bytes = EncodeLabResult(EveryFieldSet());
  size_t refused = 0;
  for (size_t at = 0; at < bytes.size(); ++at) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string flipped = bytes;
      flipped[at] = static_cast<char>(flipped[at] ^ (1 << bit));
      Result<LabResult> received = DecodeLabResult(flipped);
      if (!received.ok()) {
        EXPECT_TRUE(received.status().IsCorruption()) << received.status().ToString();
        ++refused;
      }
    }
  }
  EXPECT_GT(refused, 0u);
  EXPECT_LT(refused, bytes.size() * 8);  // flips inside a double's bits decode
}

TEST(LabResultCodecTest, EveryErrorCodeComesBack) {
  for (int code = 1; code <= static_cast<int>(Status::Code::kInvalidArgument); ++code) {
    const Status sent(static_cast<Status::Code>(code),
                      "compaction_window_unit FORTNIGHTS is not valid");
    Status received;
    ASSERT_TRUE(DecodeLabError(EncodeLabError(sent), &received).ok()) << code;
    EXPECT_EQ(received, sent);
  }
}

TEST(LabResultCodecTest, AMalformedErrorIsCorruptionAndLeavesTheOutputAlone) {
  const std::string bytes = EncodeLabError(Status::IOError("disk gone"));
  Status untouched = Status::NotFound("before");
  for (size_t size = 0; size < bytes.size(); ++size) {
    Status decoded = DecodeLabError(std::string_view(bytes).substr(0, size), &untouched);
    EXPECT_TRUE(decoded.IsCorruption()) << size;
  }
  EXPECT_TRUE(DecodeLabError(bytes + "x", &untouched).IsCorruption());
  for (uint64_t code : {uint64_t{0}, uint64_t{200}, uint64_t{1} << 40}) {
    std::string bad;
    PutVarint64(&bad, code);
    PutLengthPrefixed(&bad, "message");
    EXPECT_TRUE(DecodeLabError(bad, &untouched).IsCorruption()) << code;
  }
  EXPECT_EQ(untouched, Status::NotFound("before"));
}

}  // namespace
}  // namespace cassette::tools
