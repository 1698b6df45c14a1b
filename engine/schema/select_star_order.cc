#include "engine/schema/select_star_order.h"

#include <algorithm>

namespace cassette {

std::vector<size_t> SelectStarOrder(const TableSchema& schema) {
  std::vector<size_t> order(schema.partition_key());
  order.insert(order.end(), schema.clustering().begin(), schema.clustering().end());
  for (ColumnKind kind : {ColumnKind::kStatic, ColumnKind::kRegular}) {
    std::vector<size_t> group;
    for (size_t i = 0; i < schema.columns().size(); ++i) {
      if (schema.columns()[i].kind == kind) group.push_back(i);
    }
    std::sort(group.begin(), group.end(), [&](size_t a, size_t b) {
      return schema.columns()[a].name < schema.columns()[b].name;
    });
    order.insert(order.end(), group.begin(), group.end());
  }
  return order;
}

}  // namespace cassette
