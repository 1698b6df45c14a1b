#include "engine/sstable/sstable_row_iterator.h"

#include <algorithm>

#include "engine/sstable/partition_codec.h"
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

Status SSTableRowIterator::ReadTimestampSteps(uint64_t start, uint64_t end, uint64_t* rows_start) {
  if (params_.format_version < 3) {
    *rows_start = start;
    return Status::OK();
  }
  cursor_->Seek(start);
  uint64_t length;
  CASSETTE_RETURN_IF_ERROR(cursor_->ReadVarint(&length));
  if (length > end - std::min(end, cursor_->position())) {
    return cursor_->Corruption("timestamp steps run past their row block");
  }
  std::string_view steps;
  CASSETTE_RETURN_IF_ERROR(cursor_->ReadBytes(length, &steps));
  // Copied: the rows' reads move the cursor to other chunks.
  timestamp_steps_.assign(steps);
  steps_ = timestamp_steps_;
  *rows_start = cursor_->position();
  return Status::OK();
}

Status SSTableRowIterator::CheckStepsUsed() const {
  if (steps_.empty()) return Status::OK();
  return cursor_->Corruption("row block has more timestamp steps than rows");
}

Status SSTableRowIterator::EnterBlock(uint64_t start, uint64_t end, bool all_in_range) {
  CASSETTE_RETURN_IF_ERROR(ReadTimestampSteps(start, end, &pos_));
  block_end_ = end;
  block_in_range_ = all_in_range;
  row_.clustering.clear();
  bases_ = params_.encoding;
  return Status::OK();
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
    s = params_.reversed ? LoadBlock(start, end, BlockInRange(index_->entry()))
                         : EnterBlock(start, end, BlockInRange(index_->entry()));
    if (!s.ok()) return Fail(s);
  } else {
    const bool all = params_.range == ClusteringRange::All();
    Status s = params_.reversed ? LoadBlock(params_.rows_start, params_.rows_end, all)
                                : EnterBlock(params_.rows_start, params_.rows_end, all);
    if (!s.ok()) return Fail(s);
  }
  Next();
}

void SSTableRowIterator::Next() {
  valid_ = false;
  if (!status_.ok()) return;
  Status s = params_.reversed ? AdvanceReversed() : AdvanceForward();
  if (!s.ok()) Fail(s);
}

namespace {

// Row entry heads read through the cursor (one that may straddle chunks).
// The clustering bytes are copied: a later read may move the cursor to
// another chunk.
struct CursorHeadInput {
  DataCursor* cursor;
  uint64_t block_end;
  std::string* scratch;
  Status status;

  bool Varint(uint64_t* v) {
    status = cursor->ReadVarint(v);
    return status.ok();
  }
  bool Bytes(uint64_t n, std::string_view* out) {
    if (n > block_end - std::min(block_end, cursor->position())) return false;
    std::string_view bytes;
    status = cursor->ReadBytes(n, &bytes);
    if (!status.ok()) return false;
    scratch->assign(bytes);
    *out = *scratch;
    return true;
  }
};

}  // namespace

Status SSTableRowIterator::ReadEntryHead(std::string* clustering, EncodingStats* bases,
                                         uint64_t* body_length) {
  cursor_->Seek(pos_);
  // Parsed in place when the head lies whole in the chunk at pos_ (the
  // parse changes nothing when it does not); through the cursor otherwise.
  std::string_view avail;
  CASSETTE_RETURN_IF_ERROR(cursor_->Peek(block_end_ - pos_, &avail));
  RowEntryHeadInput view{avail};
  if (ParseRowEntryHead(view, params_.format_version, clustering, bases, body_length, &steps_) ==
      nullptr) {
    cursor_->Seek(pos_ + (avail.size() - view.in.size()));
  } else {
    CursorHeadInput in{cursor_, block_end_, &head_scratch_, Status::OK()};
    const char* malformed =
        ParseRowEntryHead(in, params_.format_version, clustering, bases, body_length, &steps_);
    if (!in.status.ok()) return in.status;
    if (malformed != nullptr) return cursor_->Corruption(malformed);
  }
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
  Status s = DecodeRowBody(&body, bases_, &row_);
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
    encoded_.encoding = bases_;
    if (Status s = ScanRowBody(body_, bases_, &encoded_.scan); !s.ok()) {
      Fail(BodyCorruption(s));
    }
  }
  return status_.ok() ? &encoded_ : nullptr;
}

Status SSTableRowIterator::AdvanceForward() {
  for (;;) {
    if (pos_ >= block_end_) {
      CASSETTE_RETURN_IF_ERROR(CheckStepsUsed());
      if (!index_.has_value()) return Status::OK();
      CASSETTE_RETURN_IF_ERROR(index_->Next());
      if (!index_->Valid()) return Status::OK();
      if (!params_.range.BeforeEnd(index_->entry().first)) return Status::OK();
      uint64_t start = 0, end = 0;
      CASSETTE_RETURN_IF_ERROR(BlockRange(index_->entry(), &start, &end));
      CASSETTE_RETURN_IF_ERROR(EnterBlock(start, end, BlockInRange(index_->entry())));
      continue;
    }
    // Most entries lie whole in the chunk at pos_: their head and body are
    // taken straight from it. The others (and a malformed head, to report
    // it) go through ReadEntryHead and the cursor.
    cursor_->Seek(pos_);
    std::string_view avail;
    CASSETTE_RETURN_IF_ERROR(cursor_->Peek(block_end_ - pos_, &avail));
    RowEntryHeadInput in{avail};
    uint64_t body_length;
    uint64_t body_position;
    bool body_in_chunk = false;
    if (ParseRowEntryHead(in, params_.format_version, &row_.clustering, &bases_, &body_length,
                          &steps_) == nullptr) {
      body_position = pos_ + static_cast<uint64_t>(in.in.data() - avail.data());
      if (body_length > block_end_ - body_position) {
        cursor_->Seek(body_position);
        return cursor_->Corruption("row body runs past its block");
      }
      body_in_chunk = body_length <= in.in.size();
    } else {
      CASSETTE_RETURN_IF_ERROR(ReadEntryHead(&row_.clustering, &bases_, &body_length));
      body_position = cursor_->position();
    }
    pos_ = body_position + body_length;
    if (!block_in_range_) {
      if (!params_.range.AfterStart(row_.clustering)) continue;
      if (!params_.range.BeforeEnd(row_.clustering)) return Status::OK();
    }
    if (body_in_chunk) {
      body_ = in.in.substr(0, body_length);
      body_position_ = body_position;
      decoded_ = false;
      scanned_ = false;
    } else {
      cursor_->Seek(body_position);
      CASSETTE_RETURN_IF_ERROR(TakeBody(body_length));
    }
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
  CASSETTE_RETURN_IF_ERROR(ReadTimestampSteps(start, end, &pos_));
  block_end_ = end;
  clustering_.clear();
  clusterings_.clear();
  buffered_.clear();
  EncodingStats bases = params_.encoding;
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
    buffered_.push_back(
        {clusterings_.size(), clustering_.size(), body_position, body_length, bases});
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
      RowEntryHeadInput in{avail};
      uint64_t body_length;
      if (ParseRowEntryHead(in, params_.format_version, &clustering_, &bases, &body_length,
                            &steps_) != nullptr) {
        break;  // unchanged: retried through the cursor, which reports what is wrong
      }
      const uint64_t body_position = pos_ + static_cast<uint64_t>(in.in.data() - avail.data());
      if (body_length > block_end_ - body_position) {
        cursor_->Seek(body_position);
        return cursor_->Corruption("row body runs past its block");
      }
      pos_ = body_position + body_length;
      // A body may run on into the next chunk: only its position counts
      // here, and the next head is then read through the cursor.
      const bool body_in_chunk = body_length <= in.in.size();
      if (body_in_chunk) {
        in.in.remove_prefix(body_length);
        avail = in.in;
      }
      if (!buffer(body_position, body_length)) {
        buffered_pos_ = buffered_.size();
        return Status::OK();
      }
      if (!body_in_chunk) break;
    }
    if (pos_ >= block_end_) break;
    uint64_t body_length;
    CASSETTE_RETURN_IF_ERROR(ReadEntryHead(&clustering_, &bases, &body_length));
    const uint64_t body_position = cursor_->position();
    pos_ = body_position + body_length;
    if (!buffer(body_position, body_length)) break;
  }
  buffered_pos_ = buffered_.size();
  return pos_ >= block_end_ ? CheckStepsUsed() : Status::OK();
}

Status SSTableRowIterator::AdvanceReversed() {
  for (;;) {
    if (buffered_pos_ > 0) {
      const BufferedRow& b = buffered_[--buffered_pos_];
      cursor_->Seek(b.body_position);
      CASSETTE_RETURN_IF_ERROR(TakeBody(b.body_length));
      bases_ = b.bases;
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
