// The payload of one commit-log record: the partition updates of one batch,
// applied together on replay. Format: engine/db/FORMAT.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cassette/status.h"
#include "engine/mutation/partition_update.h"

namespace cassette {

// The record starts with the number of updates; each update follows in
// EncodePartitionUpdate form.
void PutCommitRecordHeader(size_t update_count, std::string* out);
void EncodeCommitRecord(const std::vector<PartitionUpdate>& updates, std::string* out);
Status DecodeCommitRecord(std::string_view in, std::vector<PartitionUpdate>* updates);

}  // namespace cassette
