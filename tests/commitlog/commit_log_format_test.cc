#include "engine/commitlog/commit_log_format.h"

#include <string>

#include <gtest/gtest.h>

#include "engine/util/checksum.h"
#include "engine/util/coding.h"
#include "tests/commitlog/commit_log_test_util.h"

namespace cassette {
namespace {

TEST(CommitLogFormatTest, FileNames) {
  EXPECT_EQ(CommitLogSegmentFileName(1), "CommitLog-2-1.log");
  EXPECT_EQ(CommitLogSegmentFileName(uint32_t{1}, 1), "CommitLog-1-1.log");
  EXPECT_EQ(CommitLogSegmentFileName(18446744073709551615ull),
            "CommitLog-2-18446744073709551615.log");

  auto p = ParseCommitLogSegmentFileName("CommitLog-1-42.log");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->version, 1u);
  EXPECT_EQ(p->segment_id, 42u);

  p = ParseCommitLogSegmentFileName("CommitLog-7-3.log");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->version, 7u);
  EXPECT_EQ(p->segment_id, 3u);

  for (const char* bad :
       {"CommitLog-1-042.log", "CommitLog-1-.log", "CommitLog--1.log", "CommitLog-1-1.log.repair",
        "CommitLog-x-1.log", "CommitLog-1-+1.log", "CommitLog-1-1-1.log", "CommitLog-1-1.LOG",
        "commitlog-1-1.log", "CommitLog-1-18446744073709551616.log", "nb-1-big-Data.db", ""}) {
    EXPECT_FALSE(ParseCommitLogSegmentFileName(bad).has_value()) << bad;
  }
}

TEST(CommitLogFormatTest, HeaderGoldenBytes) {
  std::string header;
  EncodeCommitLogSegmentHeader(0x0102030405060708ull, &header);
  ASSERT_EQ(header.size(), kCommitLogSegmentHeaderSize);
  // magic "CSCL", version 2, id little-endian, then XXH32 of those 16 bytes.
  EXPECT_EQ(ToHex(header.substr(0, 16)), "4353434c020000000807060504030201");
  EXPECT_EQ(DecodeFixed32(header.data() + 16), Checksum32(header.substr(0, 16)));

  uint64_t id = 0;
  uint32_t version = 0;
  ASSERT_TRUE(DecodeCommitLogSegmentHeader(header, &id, &version).ok());
  EXPECT_EQ(id, 0x0102030405060708ull);
  EXPECT_EQ(version, 2u);
}

TEST(CommitLogFormatTest, DamagedHeadersAreCorruption) {
  std::string header;
  EncodeCommitLogSegmentHeader(9, &header);
  uint64_t id = 0;
  uint32_t version = 0;
  for (size_t n = 0; n < header.size(); ++n) {
    Status s = DecodeCommitLogSegmentHeader(header.substr(0, n), &id, &version);
    EXPECT_TRUE(s.IsCorruption()) << n << ": " << s.ToString();
  }
  for (size_t i = 0; i < header.size(); ++i) {
    std::string bad = header;
    bad[i] ^= 0x10;
    Status s = DecodeCommitLogSegmentHeader(bad, &id, &version);
    EXPECT_TRUE(s.IsCorruption()) << i << ": " << s.ToString();
  }
  EXPECT_TRUE(DecodeCommitLogSegmentHeader(std::string(20, '\0'), &id, &version).IsCorruption());
}

TEST(CommitLogFormatTest, OtherVersionIsNotSupported) {
  for (uint32_t version : {0u, 4u}) {
    std::string header;
    PutFixed32(&header, kCommitLogSegmentMagic);
    PutFixed32(&header, version);
    PutFixed64(&header, 5);
    PutFixed32(&header, Checksum32(header));
    uint64_t id = 0;
    uint32_t got = 0;
    Status s = DecodeCommitLogSegmentHeader(header, &id, &got);
    EXPECT_EQ(s.code(), Status::Code::kNotSupported) << s.ToString();
    EXPECT_NE(s.message().find("version " + std::to_string(version)), std::string::npos)
        << s.message();
  }
}

TEST(CommitLogFormatTest, MarkerGoldenBytesAndRoundTrip) {
  std::string framed;
  EncodeCommitLogMarker({0x20, 3, CommitLogMarkerKind::kSeal}, &framed);
  ASSERT_EQ(framed.size(), kCommitLogMarkerSize);
  // The length field no record can have, its checksum, then the body.
  EXPECT_EQ(ToHex(framed.substr(0, 4)), "ffffffff");
  EXPECT_EQ(framed.substr(0, 8), CommitLogMarkerHead());
  EXPECT_EQ(ToHex(framed.substr(8, 20)), "2000000000000000030000000000000002000000");
  EXPECT_EQ(DecodeFixed32(framed.data() + 28), Checksum32(framed.substr(8, 20)));
  uint32_t length = 0;
  ASSERT_EQ(DecodeCommitLogRecordHead(framed, &length), RecordFrameError::kNone);
  EXPECT_EQ(length, kCommitLogMarkerLength);
  CommitLogMarker marker;
  ASSERT_TRUE(DecodeCommitLogMarker(framed, &marker));
  EXPECT_EQ(marker.offset, 0x20u);
  EXPECT_EQ(marker.records, 3u);
  EXPECT_EQ(marker.kind, CommitLogMarkerKind::kSeal);
  // Any damaged byte, a cut, or an unknown kind makes it no marker.
  for (size_t i = 0; i < framed.size(); ++i) {
    std::string bad = framed;
    bad[i] ^= 0x02;
    EXPECT_FALSE(DecodeCommitLogMarker(bad, &marker)) << i;
  }
  EXPECT_FALSE(DecodeCommitLogMarker(framed.substr(0, framed.size() - 1), &marker));
  std::string unknown;
  PutFixed32(&unknown, kCommitLogMarkerLength);
  PutFixed32(&unknown, Checksum32(unknown));
  std::string body;
  PutFixed64(&body, 0x20);
  PutFixed64(&body, 3);
  PutFixed32(&body, 7);
  unknown += body;
  PutFixed32(&unknown, Checksum32(body));
  EXPECT_FALSE(DecodeCommitLogMarker(unknown, &marker));
}

TEST(CommitLogFormatTest, RecordGoldenBytesAndRoundTrip) {
  std::string framed;
  EncodeCommitLogRecord("abc", &framed);
  ASSERT_EQ(framed.size(), 3 + kCommitLogRecordOverhead);
  EXPECT_EQ(ToHex(framed.substr(0, 4)), "03000000");
  EXPECT_EQ(DecodeFixed32(framed.data() + 4), Checksum32(framed.substr(0, 4)));
  EXPECT_EQ(framed.substr(8, 3), "abc");
  EXPECT_EQ(DecodeFixed32(framed.data() + 11), Checksum32("abc"));

  for (std::string payload : {std::string(), std::string("x"), std::string(1000, '\xff')}) {
    std::string f;
    EncodeCommitLogRecord(payload, &f);
    uint32_t length = 0;
    ASSERT_EQ(DecodeCommitLogRecordHead(f, &length), RecordFrameError::kNone);
    ASSERT_EQ(length, payload.size());
    std::string_view got;
    ASSERT_EQ(VerifyCommitLogRecordBody(std::string_view(f).substr(8), &got),
              RecordFrameError::kNone);
    EXPECT_EQ(got, payload);
  }
}

TEST(CommitLogFormatTest, DamagedRecords) {
  std::string framed;
  EncodeCommitLogRecord("payload", &framed);
  uint32_t length = 0;
  for (size_t n = 0; n < kCommitLogRecordHeaderSize; ++n) {
    EXPECT_EQ(DecodeCommitLogRecordHead(framed.substr(0, n), &length),
              RecordFrameError::kTruncated);
  }
  // Zeroed space (a file extended by a crash) fails the length checksum.
  EXPECT_EQ(DecodeCommitLogRecordHead(std::string(8, '\0'), &length),
            RecordFrameError::kBadLengthChecksum);
  for (size_t i = 0; i < framed.size(); ++i) {
    std::string bad = framed;
    bad[i] ^= 0x01;
    RecordFrameError e = DecodeCommitLogRecordHead(bad, &length);
    if (e == RecordFrameError::kNone) {
      std::string_view payload;
      e = VerifyCommitLogRecordBody(std::string_view(bad).substr(8), &payload);
    }
    EXPECT_NE(e, RecordFrameError::kNone) << i;
  }
  std::string_view payload;
  EXPECT_EQ(VerifyCommitLogRecordBody("abc", &payload), RecordFrameError::kTruncated);
  EXPECT_STREQ(RecordFrameErrorName(RecordFrameError::kBadPayloadChecksum),
               "record payload checksum mismatch");
}

}  // namespace
}  // namespace cassette
