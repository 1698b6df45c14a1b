// CQL's native aggregates (count, min, max, sum, avg) as SelectorNodes, with
// Cassandra's result types and arithmetic (AggregateFcts): sum and avg of
// an integer type wrap and divide in that type, an empty input sums and
// averages to 0 while min and max give null, and nulls are skipped.
#pragma once

#include <string_view>

#include "cassette/status.h"
#include "engine/cql/selector_node.h"

namespace cassette::cql {

// "count", "min", "max", "sum", "avg" (with or without "system.").
bool IsAggregateFunction(std::string_view name);

// COUNT(*): the number of rows, bigint.
SelectorNodePtr MakeCountRows();

// An aggregate over one argument; InvalidRequest for an argument type it
// does not take (Cassandra's "Invalid call to function ..." shape).
Result<SelectorNodePtr> MakeAggregate(std::string_view name, SelectorNodePtr argument);

}  // namespace cassette::cql
