#include "engine/sstable/block_fetcher.h"

#include "engine/sstable/chunk_buffer_pool.h"
#include "engine/sstable/chunk_codec.h"

namespace cassette {

namespace {

// Index blocks share the cache key space with data chunks: chunk ids are
// small, index blocks use their file offset with the top bit set.
constexpr uint64_t kIndexBlockBit = uint64_t{1} << 63;

}  // namespace

BlockFetcher::BlockFetcher(std::string path, std::unique_ptr<RandomAccessFile> file,
                           BlockCache* cache, ChunkOffsets chunks, uint64_t blocks_end)
    : path_(std::move(path)),
      file_(std::move(file)),
      cache_(cache),
      owner_(BlockCache::NewOwnerId()),
      chunks_(std::move(chunks)),
      blocks_end_(blocks_end) {}

Status BlockFetcher::ReadExact(uint64_t offset, uint64_t n, std::string* out) const {
  CASSETTE_RETURN_IF_ERROR(file_->Read(offset, n, out));
  if (out->size() != n) {
    return SSTableCorruption(
        path_, offset,
        "truncated read (" + std::to_string(out->size()) + " of " + std::to_string(n) + " bytes)");
  }
  return Status::OK();
}

Status BlockFetcher::LoadChunk(uint64_t index, std::string* out) const {
  if (index >= chunks_.chunks.size()) {
    return SSTableCorruption(path_, blocks_end_,
                             "data chunk " + std::to_string(index) + " does not exist");
  }
  const BlockHandle& h = chunks_.chunks[index];
  // The stored bytes are only needed until decompressed: each thread reads
  // them into one buffer, which stops a cache miss from allocating (and
  // zero-filling) it anew.
  thread_local std::string stored;
  CASSETTE_RETURN_IF_ERROR(ReadExact(h.offset, h.size, &stored));
  return DecompressChunk(stored, chunks_.ChunkSize(index), path_, h.offset, out);
}

Result<BlockRef> BlockFetcher::Chunk(uint64_t index) const {
  if (cache_ != nullptr) {
    if (BlockRef hit = cache_->Lookup(owner_, index)) return hit;
  }
  // Into a recycled buffer: a miss neither allocates nor zero-fills one.
  ChunkBufferPool::Buffer data = ChunkBufferPool::Default().Take();
  CASSETTE_RETURN_IF_ERROR(LoadChunk(index, data.get()));
  BlockRef ref = ChunkBufferPool::Share(std::move(data));
  if (cache_ != nullptr) cache_->Insert(owner_, index, ref);
  return ref;
}

Status BlockFetcher::VerifyChunk(uint64_t index) const {
  std::string data;
  return LoadChunk(index, &data);
}

Status BlockFetcher::LoadIndexBlock(const BlockHandle& handle, std::string_view what,
                                    std::string* out) const {
  if (handle.offset > blocks_end_ || handle.size > blocks_end_ - handle.offset ||
      handle.size < kBlockTrailerSize) {
    return SSTableCorruption(path_, handle.offset, std::string(what) + " handle out of bounds");
  }
  CASSETTE_RETURN_IF_ERROR(ReadExact(handle.offset, handle.size, out));
  std::string_view payload;
  BlockType type;
  CASSETTE_RETURN_IF_ERROR(CheckBlock(*out, path_, handle.offset, what, &payload, &type));
  if (type != BlockType::kRaw) {
    return SSTableCorruption(path_, handle.offset, std::string(what) + " is not a raw block");
  }
  out->resize(payload.size());
  return Status::OK();
}

Result<BlockRef> BlockFetcher::IndexBlock(const BlockHandle& handle, std::string_view what) const {
  const uint64_t key = kIndexBlockBit | handle.offset;
  if (cache_ != nullptr) {
    if (BlockRef hit = cache_->Lookup(owner_, key)) return hit;
  }
  std::string payload;
  CASSETTE_RETURN_IF_ERROR(LoadIndexBlock(handle, what, &payload));
  auto ref = std::make_shared<const std::string>(std::move(payload));
  if (cache_ != nullptr) cache_->Insert(owner_, key, ref);
  return BlockRef(ref);
}

Status BlockFetcher::DataCorruption(uint64_t position, std::string_view what) const {
  const uint64_t chunk = chunks_.chunk_length == 0 ? 0 : position / chunks_.chunk_length;
  const uint64_t offset = chunk < chunks_.chunks.size() ? chunks_.chunks[chunk].offset : 0;
  return Status::Corruption("sstable " + path_ + ": " + std::string(what) + " at data position " +
                            std::to_string(position) + " (chunk " + std::to_string(chunk) +
                            ") at offset " + std::to_string(offset));
}

}  // namespace cassette
