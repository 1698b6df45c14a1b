#include "engine/sstable/chunk_codec.h"

#include <zstd.h>

namespace cassette {

ChunkCompressor::ChunkCompressor(bool compress, int level) : compress_(compress), level_(level) {
  if (compress_) ctx_ = ZSTD_createCCtx();
}

ChunkCompressor::~ChunkCompressor() { ZSTD_freeCCtx(ctx_); }

BlockType ChunkCompressor::Compress(std::string_view raw, std::string* out) {
  if (compress_ && ctx_ != nullptr && !raw.empty()) {
    scratch_.resize(ZSTD_compressBound(raw.size()));
    const size_t n =
        ZSTD_compressCCtx(ctx_, scratch_.data(), scratch_.size(), raw.data(), raw.size(), level_);
    if (!ZSTD_isError(n) && n < raw.size()) {
      std::string_view payload(scratch_.data(), n);
      out->append(payload);
      AppendBlockTrailer(payload, BlockType::kZstd, out);
      return BlockType::kZstd;
    }
  }
  out->append(raw);
  AppendBlockTrailer(raw, BlockType::kRaw, out);
  return BlockType::kRaw;
}

Status DecompressChunk(std::string_view block, size_t expected_size, const std::string& path,
                       uint64_t offset, std::string* out) {
  std::string_view payload;
  BlockType type;
  CASSETTE_RETURN_IF_ERROR(CheckBlock(block, path, offset, "data chunk", &payload, &type));
  if (type == BlockType::kRaw) {
    if (payload.size() != expected_size) {
      return SSTableCorruption(path, offset, "raw data chunk has the wrong length");
    }
    out->assign(payload);
    return Status::OK();
  }
  const unsigned long long content = ZSTD_getFrameContentSize(payload.data(), payload.size());
  if (content != expected_size) {
    return SSTableCorruption(path, offset, "compressed data chunk has the wrong length");
  }
  out->resize(expected_size);
  // ZSTD_decompress allocates (and frees) a context of about 100 KiB per
  // call; each thread keeps one instead.
  struct ThreadDCtx {
    ZSTD_DCtx* ctx = ZSTD_createDCtx();
    ~ThreadDCtx() { ZSTD_freeDCtx(ctx); }
  };
  thread_local ThreadDCtx dctx;
  const size_t n =
      dctx.ctx != nullptr
          ? ZSTD_decompressDCtx(dctx.ctx, out->data(), out->size(), payload.data(), payload.size())
          : ZSTD_decompress(out->data(), out->size(), payload.data(), payload.size());
  if (ZSTD_isError(n) || n != expected_size) {
    return SSTableCorruption(path, offset,
                             std::string("data chunk does not decompress: ") +
                                 (ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short output"));
  }
  return Status::OK();
}

}  // namespace cassette
