#include "engine/sstable/sstable_row_iterator.h"

#include <algorithm>

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
    uint64_t start, end;
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
  *row = Row{};
  Status s = DecodeRowBody(&body, params_.encoding, row);
  if (s.ok() && !body.empty()) s = Status::Corruption("trailing bytes after row body");
  if (!s.ok()) return cursor_->fetcher()->DataCorruption(at, "bad row body: " + s.message());
  row->clustering = clustering_;
  return Status::OK();
}

Status SSTableRowIterator::AdvanceForward() {
  for (;;) {
    if (pos_ >= block_end_) {
      if (!index_.has_value()) return Status::OK();
      CASSETTE_RETURN_IF_ERROR(index_->Next());
      if (!index_->Valid()) return Status::OK();
      if (!params_.range.BeforeEnd(index_->entry().first)) return Status::OK();
      uint64_t start, end;
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
  buffer_.clear();
  pos_ = start;
  clustering_.clear();
  while (pos_ < end) {
    uint64_t body_length;
    CASSETTE_RETURN_IF_ERROR(ReadEntryHead(end, &body_length));
    if (!params_.range.AfterStart(clustering_)) {
      pos_ = cursor_->position() + body_length;
      continue;
    }
    if (!params_.range.BeforeEnd(clustering_)) break;
    buffer_.emplace_back();
    CASSETTE_RETURN_IF_ERROR(DecodeBody(body_length, &buffer_.back()));
    pos_ = cursor_->position();
  }
  buffer_pos_ = buffer_.size();
  return Status::OK();
}

Status SSTableRowIterator::AdvanceReversed() {
  for (;;) {
    if (buffer_pos_ > 0) {
      --buffer_pos_;
      valid_ = true;
      return Status::OK();
    }
    if (!index_.has_value()) return Status::OK();
    CASSETTE_RETURN_IF_ERROR(index_->Prev());
    if (!index_->Valid()) return Status::OK();
    if (!params_.range.AfterStart(index_->entry().last)) return Status::OK();
    uint64_t start, end;
    CASSETTE_RETURN_IF_ERROR(BlockRange(index_->entry(), &start, &end));
    CASSETTE_RETURN_IF_ERROR(LoadBlock(start, end));
  }
}

}  // namespace cassette
