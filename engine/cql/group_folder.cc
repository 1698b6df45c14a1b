#include "engine/cql/group_folder.h"

#include <utility>

namespace cassette::cql {

std::string PartitionIdentity(const ResultRow& row, const std::vector<size_t>& key_slots) {
  std::string identity;
  for (size_t slot : key_slots) {
    const std::string& bytes = row.values[slot].bytes();
    identity += std::to_string(bytes.size()) + ":" + bytes;
  }
  return identity;
}

GroupFolder::GroupFolder(SelectPlan* plan, uint64_t skip, uint64_t keep)
    : plan_(plan), skip_(skip), keep_(keep) {
  ResetSelectors();
  if (plan_->aggregate_everything) group_open_ = true;
}

void GroupFolder::ResetSelectors() {
  for (SelectorNodePtr& selector : plan_->selectors) selector->Reset();
}

Result<std::vector<std::string>> GroupFolder::GroupKey(const ResultRow& row,
                                                       std::string* partition) {
  *partition = PartitionIdentity(row, plan_->partition_key_slots);
  std::vector<std::string> key{*partition};
  // A null sorts apart from every value ("=" + bytes).
  auto part = [](const Value& v) { return v.is_null() ? std::string("\xff", 1) : "=" + v.bytes(); };
  for (size_t i = 0; i < plan_->group_clustering_slots.size(); ++i) {
    const bool last = i + 1 == plan_->group_clustering_slots.size();
    if (last && plan_->group_function) {
      plan_->group_function->Reset();
      CASSETTE_RETURN_IF_ERROR(plan_->group_function->AddInput(row));
      CASSETTE_ASSIGN_OR_RETURN(Value bucket, plan_->group_function->Output());
      key.push_back(part(bucket));
    } else {
      key.push_back(part(row.values[plan_->group_clustering_slots[i]]));
    }
  }
  return key;
}

Status GroupFolder::CloseGroup() {
  if (!group_open_) return Status::OK();
  group_open_ = false;
  ++groups_closed_;
  if (groups_closed_ > skip_) {
    std::vector<Value> values;
    values.reserve(plan_->selectors.size());
    for (SelectorNodePtr& selector : plan_->selectors) {
      CASSETTE_ASSIGN_OR_RETURN(Value value, selector->Output());
      values.push_back(std::move(value));
    }
    groups_.push_back(std::move(values));
    if (keep_ > 0 && groups_.size() >= keep_) done_ = true;
  }
  if (plan_->limit > 0 && groups_closed_ >= static_cast<uint64_t>(plan_->limit)) done_ = true;
  return Status::OK();
}

Status GroupFolder::Add(const ResultRow& row) {
  if (done_) return Status::OK();
  if (plan_->group_by) {
    std::string partition;
    CASSETTE_ASSIGN_OR_RETURN(std::vector<std::string> key, GroupKey(row, &partition));
    if (!current_key_ || *current_key_ != key) {
      CASSETTE_RETURN_IF_ERROR(CloseGroup());
      if (done_) return Status::OK();
      if (partition != current_partition_) {
        current_partition_ = std::move(partition);
        groups_in_partition_ = 0;
      }
      current_key_ = std::move(key);
      if (plan_->per_partition_limit > 0 && groups_in_partition_ >= plan_->per_partition_limit) {
        return Status::OK();  // a group past the per-partition limit
      }
      ++groups_in_partition_;
      ResetSelectors();
      group_open_ = true;
    } else if (!group_open_) {
      return Status::OK();  // a group past the per-partition limit
    }
  }
  for (SelectorNodePtr& selector : plan_->selectors) {
    CASSETTE_RETURN_IF_ERROR(selector->AddInput(row));
  }
  return Status::OK();
}

Status GroupFolder::Finish() {
  if (done_) return Status::OK();
  return CloseGroup();
}

}  // namespace cassette::cql
