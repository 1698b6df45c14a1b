#include "engine/db/commit_record.h"

#include "engine/mutation/row_codec.h"
#include "engine/util/coding.h"

namespace cassette {

void PutCommitRecordHeader(size_t update_count, std::string* out) {
  PutVarint64(out, update_count);
}

void EncodeCommitRecord(const std::vector<PartitionUpdate>& updates, std::string* out) {
  PutCommitRecordHeader(updates.size(), out);
  for (const PartitionUpdate& update : updates) EncodePartitionUpdate(update, out);
}

Status DecodeCommitRecord(std::string_view in, std::vector<PartitionUpdate>* updates) {
  uint64_t count;
  if (!GetVarint64(&in, &count) || count > in.size()) {
    return Status::Corruption("commit record: bad update count");
  }
  updates->clear();
  for (uint64_t i = 0; i < count; ++i) {
    PartitionUpdate update;
    CASSETTE_RETURN_IF_ERROR(DecodePartitionUpdate(&in, &update));
    updates->push_back(std::move(update));
  }
  if (!in.empty()) return Status::Corruption("commit record: trailing bytes");
  return Status::OK();
}

}  // namespace cassette
