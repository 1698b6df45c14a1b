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

void SSTableRowIterator::Fail(Status s) const {
  valid_ = false;
  status_ = std::move(s);
}

void SSTableRowIterator::EnterBlock(uint64_t start, uint64_t end, bool all_in_range) {
  pos_ = start;
  block_end_ = end;
  block_in_range_ = all_in_range;
  row_.clustering.clear();
}

Status SSTableRowIterator::BlockRange(const RowIndexEntryRef& e, uint64_t* start,
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

bool SSTableRowIterator::BlockInRange(const RowIndexEntryRef& e) const {
  return params_.range.AfterStart(e.first) && params_.range.BeforeEnd(e.last);
}

void SSTableRowIterator::Init() {
  if (params_.range.IsEmpty() || params_.rows_start == params_.rows_end) return;
  if (!params_.row_index.empty()) {
    index_.emplace(cursor_->fetcher(), params_.row_index_depth, std::move(params_.row_index),
                   std::move(params_.index_block));
    Status s =
        params_.reversed ? index_->SeekBackward(params_.range) : index_->SeekForward(params_.range);
    if (!s.ok()) return Fail(s);
    if (!index_->Valid()) return;
    uint64_t start = 0, end = 0;
    if (s = BlockRange(index_->entry(), &start, &end); !s.ok()) return Fail(s);
    if (params_.reversed) {
      if (s = LoadBlock(start, end, BlockInRange(index_->entry())); !s.ok()) return Fail(s);
    } else {
      EnterBlock(start, end, BlockInRange(index_->entry()));
    }
  } else {
    const bool all = params_.range == ClusteringRange::All();
    if (params_.reversed) {
      if (Status s = LoadBlock(params_.rows_start, params_.rows_end, all); !s.ok()) return Fail(s);
    } else {
      EnterBlock(params_.rows_start, params_.rows_end, all);
    }
  }
  Next();
}

void SSTableRowIterator::Next() {
  valid_ = false;
  if (!status_.ok()) return;
  Status s = params_.reversed ? AdvanceReversed() : AdvanceForward();
  if (!s.ok()) Fail(s);
}

Status SSTableRowIterator::ReadEntryHead(std::string* clustering, uint64_t* body_length) {
  cursor_->Seek(pos_);
  uint64_t shared_plus_one, unshared;
  CASSETTE_RETURN_IF_ERROR(cursor_->ReadVarint(&shared_plus_one));
  if (shared_plus_one == 0 || shared_plus_one - 1 > clustering->size()) {
    return cursor_->Corruption("malformed row entry");
  }
  CASSETTE_RETURN_IF_ERROR(cursor_->ReadVarint(&unshared));
  if (unshared > block_end_ - std::min(block_end_, cursor_->position())) {
    return cursor_->Corruption("row clustering runs past its block");
  }
  std::string_view bytes;
  CASSETTE_RETURN_IF_ERROR(cursor_->ReadBytes(unshared, &bytes));
  clustering->resize(shared_plus_one - 1);
  clustering->append(bytes);
  CASSETTE_RETURN_IF_ERROR(cursor_->ReadVarint(body_length));
  if (*body_length > block_end_ - std::min(block_end_, cursor_->position())) {
    return cursor_->Corruption("row body runs past its block");
  }
  return Status::OK();
}

Status SSTableRowIterator::TakeBody(uint64_t body_length) {
  body_position_ = cursor_->position();
  CASSETTE_RETURN_IF_ERROR(cursor_->ReadBytes(body_length, &body_));
  decoded_ = false;
  scanned_ = false;
  return Status::OK();
}

Status SSTableRowIterator::BodyCorruption(const Status& s) const {
  return cursor_->fetcher()->DataCorruption(body_position_, "bad row body: " + s.message());
}

void SSTableRowIterator::DecodeCurrent() const {
  decoded_ = true;
  std::string_view body = body_;
  Status s = DecodeRowBody(&body, params_.encoding, &row_);
  if (s.ok() && !body.empty()) s = Status::Corruption("trailing bytes after row body");
  if (s.ok()) return;
  Fail(BodyCorruption(s));
  row_.marker = LivenessInfo{};
  row_.deletion = DeletionTime::Live();
  row_.columns.clear();
}

const EncodedRow* SSTableRowIterator::encoded() const {
  if (!scanned_) {
    scanned_ = true;
    encoded_.body = body_;
    encoded_.encoding = params_.encoding;
    if (Status s = ScanRowBody(body_, params_.encoding, &encoded_.scan); !s.ok()) {
      Fail(BodyCorruption(s));
    }
  }
  return status_.ok() ? &encoded_ : nullptr;
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
      EnterBlock(start, end, BlockInRange(index_->entry()));
      continue;
    }
    uint64_t body_length;
    CASSETTE_RETURN_IF_ERROR(ReadEntryHead(&row_.clustering, &body_length));
    if (!block_in_range_) {
      if (!params_.range.AfterStart(row_.clustering)) {
        pos_ = cursor_->position() + body_length;
        continue;
      }
      if (!params_.range.BeforeEnd(row_.clustering)) return Status::OK();
    }
    CASSETTE_RETURN_IF_ERROR(TakeBody(body_length));
    pos_ = cursor_->position();
    valid_ = true;
    return Status::OK();
  }
}

Status SSTableRowIterator::LoadBlock(uint64_t start, uint64_t end, bool all_in_range) {
  // Only the entries' heads are read here, in place in the cached chunks
  // (retained by the cursor); the bodies of the rows actually returned are
  // decoded one by one (a reversed "newest N" read returns the tail of one
  // block).
  CASSETTE_RETURN_IF_ERROR(cursor_->Retain(start, end));
  pos_ = start;
  block_end_ = end;
  clustering_.clear();
  clusterings_.clear();
  buffered_.clear();
  // False once past the range's end.
  auto buffer = [&](uint64_t body_position, uint64_t body_length) {
    if (!all_in_range) {
      if (!params_.range.AfterStart(clustering_)) return true;
      if (!params_.range.BeforeEnd(clustering_)) return false;
    }
    if (buffered_.empty()) {
      // A block's rows are of similar size: size the lists from the first
      // (within bounds: the first row may be unusually small).
      const uint64_t rows =
          std::min<uint64_t>(4096, (end - start) / std::max<uint64_t>(1, pos_ - start) + 1);
      buffered_.reserve(rows);
      clusterings_.reserve(std::min<uint64_t>(rows * clustering_.size(), end - start));
    }
    buffered_.push_back({clusterings_.size(), clustering_.size(), body_position, body_length});
    clusterings_.append(clustering_);
    return true;
  };
  while (pos_ < block_end_) {
    // The entries lying whole in the chunk at pos_ are parsed straight
    // from it; one that straddles two chunks (or is malformed, to report
    // it) goes through ReadEntryHead.
    cursor_->Seek(pos_);
    std::string_view avail;
    CASSETTE_RETURN_IF_ERROR(cursor_->Peek(block_end_ - pos_, &avail));
    for (;;) {
      std::string_view in = avail;
      uint64_t shared_plus_one, body_length;
      std::string_view unshared;
      if (!GetVarint64(&in, &shared_plus_one) || shared_plus_one == 0 ||
          shared_plus_one - 1 > clustering_.size() || !GetLengthPrefixed(&in, &unshared) ||
          !GetVarint64(&in, &body_length) || body_length > in.size()) {
        break;
      }
      clustering_.resize(shared_plus_one - 1);
      clustering_.append(unshared);
      const uint64_t body_position = pos_ + static_cast<uint64_t>(in.data() - avail.data());
      in.remove_prefix(body_length);
      pos_ += static_cast<uint64_t>(in.data() - avail.data());
      avail = in;
      if (!buffer(body_position, body_length)) {
        buffered_pos_ = buffered_.size();
        return Status::OK();
      }
    }
    if (pos_ >= block_end_) break;
    uint64_t body_length;
    CASSETTE_RETURN_IF_ERROR(ReadEntryHead(&clustering_, &body_length));
    const uint64_t body_position = cursor_->position();
    pos_ = body_position + body_length;
    if (!buffer(body_position, body_length)) break;
  }
  buffered_pos_ = buffered_.size();
  return Status::OK();
}

Status SSTableRowIterator::AdvanceReversed() {
  for (;;) {
    if (buffered_pos_ > 0) {
      const BufferedRow& b = buffered_[--buffered_pos_];
      cursor_->Seek(b.body_position);
      CASSETTE_RETURN_IF_ERROR(TakeBody(b.body_length));
      // Reversed reads decode at once: their rows are all wanted.
      DecodeCurrent();
      CASSETTE_RETURN_IF_ERROR(status_);
      row_.clustering.assign(clusterings_, b.clustering_offset, b.clustering_length);
      valid_ = true;
      return Status::OK();
    }
    if (!index_.has_value()) return Status::OK();
    CASSETTE_RETURN_IF_ERROR(index_->Prev());
    if (!index_->Valid()) return Status::OK();
    if (!params_.range.AfterStart(index_->entry().last)) return Status::OK();
    uint64_t start = 0, end = 0;
    CASSETTE_RETURN_IF_ERROR(BlockRange(index_->entry(), &start, &end));
    CASSETTE_RETURN_IF_ERROR(LoadBlock(start, end, BlockInRange(index_->entry())));
  }
}

}  // namespace cassette
