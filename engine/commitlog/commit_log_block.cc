#include "engine/commitlog/commit_log_block.h"

#include <zstd.h>

#include "engine/util/coding.h"

namespace cassette {
CommitLogBlockBuilder::CommitLogBlockBuilder(int compression_level)
    : ctx_(ZSTD_createCCtx()), level_(compression_level) {}

CommitLogBlockBuilder::~CommitLogBlockBuilder() { ZSTD_freeCCtx(ctx_); }

uint64_t CommitLogBlockBuilder::ContentCost(uint64_t payload_size) {
  return VarintLength(payload_size) + payload_size;
}

uint64_t CommitLogBlockBuilder::MaxFramedSize(uint64_t content_size) {
  // Stored when zstd does not make it smaller, so never above the content.
  return kCommitLogRecordOverhead + kCommitLogBlockHeaderMax + content_size;
}

void CommitLogBlockBuilder::Add(std::string_view payload) {
  PutVarint64(&content_, payload.size());
  content_.append(payload);
  ++records_;
}

void CommitLogBlockBuilder::TruncateTo(uint64_t records, uint64_t content_size) {
  content_.resize(content_size);
  records_ = records;
}

void CommitLogBlockBuilder::Clear() {
  content_.clear();
  records_ = 0;
  // A block of one huge record must not pin its memory until the next one.
  if (block_.capacity() > (4u << 20)) std::string().swap(block_);
  if (content_.capacity() > (4u << 20)) std::string().swap(content_);
}

void CommitLogBlockBuilder::FrameTo(std::string* out) {
  block_.clear();
  block_.push_back(static_cast<char>(CommitLogBlockCodec::kZstd));
  PutVarint64(&block_, content_.size());
  const size_t header = block_.size();
  bool compressed = false;
  if (ctx_ != nullptr) {
    block_.resize(header + ZSTD_compressBound(content_.size()));
    const size_t n = ZSTD_compressCCtx(ctx_, block_.data() + header, block_.size() - header,
                                       content_.data(), content_.size(), level_);
    if (!ZSTD_isError(n) && n < content_.size()) {
      block_.resize(header + n);
      compressed = true;
    }
  }
  if (!compressed) {
    block_[0] = static_cast<char>(CommitLogBlockCodec::kStored);
    block_.resize(header);
    block_.append(content_);
  }
  EncodeCommitLogRecord(block_, out);
}

RecordFrameError DecodeCommitLogBlock(std::string_view block, std::string* content,
                                      uint64_t* records) {
  if (block.empty()) return RecordFrameError::kBadBlock;
  const uint8_t codec = static_cast<uint8_t>(block[0]);
  block.remove_prefix(1);
  uint64_t size = 0;
  if (!GetVarint64(&block, &size) || size == 0 || size > kMaxCommitLogBlockContent) {
    return RecordFrameError::kBadBlock;
  }
  if (codec == static_cast<uint8_t>(CommitLogBlockCodec::kStored)) {
    if (block.size() != size) return RecordFrameError::kBadBlock;
    content->assign(block);
  } else if (codec == static_cast<uint8_t>(CommitLogBlockCodec::kZstd)) {
    if (ZSTD_getFrameContentSize(block.data(), block.size()) != size) {
      return RecordFrameError::kBadBlock;
    }
    content->resize(size);
    const size_t n = ZSTD_decompress(content->data(), content->size(), block.data(), block.size());
    if (ZSTD_isError(n) || n != size) return RecordFrameError::kBadBlock;
  } else {
    return RecordFrameError::kBadBlock;
  }
  // Whole records only, so that a block is replayed entirely or not at all.
  std::string_view rest = *content;
  uint64_t n = 0;
  while (!rest.empty()) {
    uint64_t length = 0;
    if (!GetVarint64(&rest, &length) || length > rest.size()) return RecordFrameError::kBadBlock;
    rest.remove_prefix(length);
    ++n;
  }
  *records = n;
  return RecordFrameError::kNone;
}

std::string_view NextCommitLogBlockRecord(std::string_view* content) {
  uint64_t length = 0;
  GetVarint64(content, &length);
  const std::string_view record = content->substr(0, length);
  content->remove_prefix(record.size());
  return record;
}

}  // namespace cassette
