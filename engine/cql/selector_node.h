// SelectorNode: one item of a SELECT clause, evaluated over the rows of a
// group the way Cassandra's Selector is: Reset, AddInput for each row, then
// Output. A plain (non-aggregate) selector outputs what it computed from
// the first row of the group, so a non-aggregated column next to an
// aggregate shows the first row's value, as Cassandra does. A query
// without aggregates is a sequence of one-row groups.
#pragma once

#include <memory>
#include <optional>
#include <utility>

#include "cassette/query.h"
#include "cassette/status.h"
#include "cassette/value.h"

namespace cassette::cql {

class SelectorNode {
 public:
  explicit SelectorNode(DataType type) : type_(std::move(type)) {}
  virtual ~SelectorNode() = default;
  SelectorNode(const SelectorNode&) = delete;
  SelectorNode& operator=(const SelectorNode&) = delete;

  // The type of Output().
  const DataType& type() const { return type_; }
  // Whether this selector or one of its arguments aggregates rows.
  virtual bool IsAggregate() const { return false; }

  virtual void Reset() = 0;
  // `row` holds the values (and WRITETIME/TTL) of the columns the query
  // reads, by slot (see ColumnSlots).
  virtual Status AddInput(const ResultRow& row) = 0;
  virtual Result<Value> Output() = 0;
  // The slot whose value this selector outputs unchanged (a plain column),
  // if it is one: a query made only of those can move each row's values
  // into its result instead of copying them through Output().
  virtual std::optional<size_t> ColumnSlot() const { return std::nullopt; }

 private:
  DataType type_;
};

using SelectorNodePtr = std::unique_ptr<SelectorNode>;

}  // namespace cassette::cql
