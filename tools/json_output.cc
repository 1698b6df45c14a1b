#include "tools/json_output.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/types/type_codec.h"

namespace cassette::tools {

std::string JsonRowsLine(const CqlResult& result) {
  std::string line = "[";
  for (size_t r = 0; r < result.rows.size(); ++r) {
    if (r > 0) line += ",";
    line += JsonRowObject(result.columns, result.rows[r]);
  }
  return line + "]";
}

std::string JsonRowObject(const std::vector<ColumnSpec>& columns, const std::vector<Value>& row) {
  std::string object = "{";
  for (size_t c = 0; c < columns.size(); ++c) {
    if (c > 0) object += ",";
    object += JsonQuote(columns[c].name);
    object += ":";
    object += c < row.size() ? row[c].ToJson() : "null";
  }
  return object + "}";
}

std::string JsonErrorLine(const Status& status) {
  return "{\"error\":" + JsonQuote(status.ClassName()) +
         ",\"message\":" + JsonQuote(status.message()) + "}";
}

std::string JsonTraceLine(const ReadStats& stats) {
  const std::pair<const char*, int64_t> fields[] = {
      {"partitions_read", stats.partitions_read},
      {"sstables_read", stats.sstables_read},
      {"live_rows", stats.live_rows},
      {"tombstone_cells", stats.tombstone_cells},
      {"sstables_skipped", stats.sstables_skipped},
      {"memtables_read", stats.memtables_read},
      {"blocks_read", stats.blocks_read},
  };
  std::string line = "{\"trace\":{";
  bool first = true;
  for (const auto& [name, value] : fields) {
    if (!first) line += ",";
    first = false;
    line += "\"" + std::string(name) + "\":" + std::to_string(value);
  }
  return line + "}}";
}

}  // namespace cassette::tools
