#include "engine/sstable/sstable_row_iterator.h"

#include <algorithm>

#include "engine/util/coding.h"

namespace cassette {

std::unique_ptr<SSTableRowIterator> SSTableRowIterator::Create(RowIteratorParams params) {
  std::unique_ptr<SSTableRowIterator> it(new SSTableRowIterator(std::move(params)));
  it->Init();
  return it;
}

SSTableRowIterator::SSTableRowIterator(RowIteratorParams params)
    : params_(std::move(params)), cursor_(params_.cursor.get()) {}

void SSTableRowIterator::Fail(Status s) {
  valid_ = false;
  status_ = std::move(s);
}

void SSTableRowIterator::EnterBlock(uint64_t start, uint64_t end) {
  pos_ = start;
  block_end_ = end;
  clustering_.clear();
}

Status SSTableRowIterator::BlockRange(const RowIndexEntry& e, uint64_t* start,
                                      uint64_t* end) const {
  // rows_start and rows_end lie inside the partition (checked by the reader).
  const uint64_t rows_from = params_.rows_start - params_.partition_start;
  const uint64_t rows_to = params_.rows_end - params_.partition_start;
  if (e.offset < rows_from || e.offset > rows_to || e.size == 0 || e.size > rows_to - e.offset) {
    return cursor_->Corruption("row index block outside its partition");
  }
  *start = params_.partition_start + e.offset;
  *end = *start + e.size;
  return Status::OK();
}

void SSTableRowIterator::Init() {
  if (params_.range.IsEmpty() || params_.rows_start == params_.rows_end) return;
  if (params_.row_index.has_value()) {
    index_.emplace(cursor_->fetcher(), std::move(*params_.row_index));
    params_.row_index.reset();
    Status s =
        params_.reversed ? index_->SeekBackward(params_.range) : index_->SeekForward(params_.range);
    if (!s.ok()) return Fail(s);
    if (!index_->Valid()) return;
    uint64_t start = 0, end = 0;
    if (s = BlockRange(index_->entry(), &start, &end); !s.ok()) return Fail(s);
    if (params_.reversed) {
      if (s = LoadBlock(start, end); !s.ok()) return Fail(s);
    } else {
      EnterBlock(start, end);
    }
  } else if (params_.reversed) {
    if (Status s = LoadBlock(params_.rows_start, params_.rows_end); !s.ok()) return Fail(s);
  } else {
    pos_ = params_.rows_start;
    block_end_ = params_.rows_end;
  }
  Next();
}

void SSTableRowIterator::Next() {
  valid_ = false;
  if (!status_.ok()) return;
  Status s = params_.reversed ? AdvanceReversed() : AdvanceForward();
  if (!s.ok()) Fail(s);
}

Status SSTableRowIterator::ReadEntryHead(uint64_t block_end, uint64_t* body_length) {
  cursor_->Seek(pos_);
  uint64_t shared_plus_one, unshared;
  CASSETTE_RETURN_IF_ERROR(cursor_->ReadVarint(&shared_plus_one));
  if (shared_plus_one == 0 || shared_plus_one - 1 > clustering_.size()) {
    return cursor_->Corruption("malformed row entry");
  }
  clustering_.resize(shared_plus_one - 1);
  CASSETTE_RETURN_IF_ERROR(cursor_->ReadVarint(&unshared));
  if (unshared > block_end - std::min(block_end, cursor_->position())) {
    return cursor_->Corruption("row clustering runs past its block");
  }
  std::string_view bytes;
  CASSETTE_RETURN_IF_ERROR(cursor_->ReadBytes(unshared, &bytes));
  clustering_.append(bytes);
  CASSETTE_RETURN_IF_ERROR(cursor_->ReadVarint(body_length));
  if (*body_length > block_end - std::min(block_end, cursor_->position())) {
    return cursor_->Corruption("row body runs past its block");
  }
  return Status::OK();
}

Status SSTableRowIterator::DecodeBody(uint64_t body_length, Row* row) {
  std::string_view body;
  const uint64_t at = cursor_->position();
  CASSETTE_RETURN_IF_ERROR(cursor_->ReadBytes(body_length, &body));
  CASSETTE_RETURN_IF_ERROR(DecodeBodyBytes(body, at, row));
  row->clustering = clustering_;
  return Status::OK();
}

Status SSTableRowIterator::DecodeBodyBytes(std::string_view body, uint64_t at, Row* row) {
  Status s = DecodeRowBody(&body, params_.encoding, row);
  if (s.ok() && !body.empty()) s = Status::Corruption("trailing bytes after row body");
  if (!s.ok()) return cursor_->fetcher()->DataCorruption(at, "bad row body: " + s.message());
  return Status::OK();
}

Status SSTableRowIterator::AdvanceForward() {
  for (;;) {
    if (pos_ >= block_end_) {
      if (!index_.has_value()) return Status::OK();
      CASSETTE_RETURN_IF_ERROR(index_->Next());
      if (!index_->Valid()) return Status::OK();
      if (!params_.range.BeforeEnd(index_->entry().first)) return Status::OK();
      uint64_t start = 0, end = 0;
      CASSETTE_RETURN_IF_ERROR(BlockRange(index_->entry(), &start, &end));
      EnterBlock(start, end);
      continue;
    }
    uint64_t body_length;
    CASSETTE_RETURN_IF_ERROR(ReadEntryHead(block_end_, &body_length));
    if (!params_.range.AfterStart(clustering_)) {
      pos_ = cursor_->position() + body_length;
      continue;
    }
    if (!params_.range.BeforeEnd(clustering_)) return Status::OK();
    CASSETTE_RETURN_IF_ERROR(DecodeBody(body_length, &row_));
    pos_ = cursor_->position();
    valid_ = true;
    return Status::OK();
  }
}

Status SSTableRowIterator::LoadBlock(uint64_t start, uint64_t end) {
  // The block is copied once and its entries parsed in place; only the
  // bodies of rows actually returned get decoded (a reversed "newest N"
  // read returns the tail of one block).
  cursor_->Seek(start);
  block_.clear();
  CASSETTE_RETURN_IF_ERROR(cursor_->AppendBytes(end - start, &block_));
  block_start_ = start;
  buffered_.clear();
  std::string_view in(block_);
  std::string clustering;
  while (!in.empty()) {
    const uint64_t entry_at = start + (block_.size() - in.size());
    uint64_t shared_plus_one, body_length;
    std::string_view unshared;
    if (!GetVarint64(&in, &shared_plus_one) || shared_plus_one == 0 ||
        shared_plus_one - 1 > clustering.size() || !GetLengthPrefixed(&in, &unshared) ||
        !GetVarint64(&in, &body_length) || body_length > in.size()) {
      return cursor_->fetcher()->DataCorruption(entry_at, "malformed row entry");
    }
    clustering.resize(shared_plus_one - 1);
    clustering.append(unshared);
    const size_t body_offset = block_.size() - in.size();
    in.remove_prefix(body_length);
    if (!params_.range.AfterStart(clustering)) continue;
    if (!params_.range.BeforeEnd(clustering)) break;
    buffered_.push_back({clustering, body_offset, body_length});
  }
  buffered_pos_ = buffered_.size();
  return Status::OK();
}

Status SSTableRowIterator::AdvanceReversed() {
  for (;;) {
    if (buffered_pos_ > 0) {
      BufferedRow& b = buffered_[--buffered_pos_];
      CASSETTE_RETURN_IF_ERROR(
          DecodeBodyBytes(std::string_view(block_).substr(b.body_offset, b.body_length),
                          block_start_ + b.body_offset, &row_));
      row_.clustering = std::move(b.clustering);
      valid_ = true;
      return Status::OK();
    }
    if (!index_.has_value()) return Status::OK();
    CASSETTE_RETURN_IF_ERROR(index_->Prev());
    if (!index_->Valid()) return Status::OK();
    if (!params_.range.AfterStart(index_->entry().last)) return Status::OK();
    uint64_t start = 0, end = 0;
    CASSETTE_RETURN_IF_ERROR(BlockRange(index_->entry(), &start, &end));
    CASSETTE_RETURN_IF_ERROR(LoadBlock(start, end));
  }
}

}  // namespace cassette
