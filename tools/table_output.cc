#include "tools/table_output.h"

#include <algorithm>
#include <cstdio>

namespace cassette::tools {

namespace {

std::string PadRight(const std::string& text, size_t width) {
  const size_t used = DisplayWidth(text);
  return used >= width ? text : text + std::string(width - used, ' ');
}

std::string PadLeft(const std::string& text, size_t width) {
  const size_t used = DisplayWidth(text);
  return used >= width ? text : std::string(width - used, ' ') + text;
}

std::vector<size_t> ColumnWidths(const TextTable& table) {
  std::vector<size_t> widths;
  for (const std::string& name : table.names) widths.push_back(DisplayWidth(name));
  for (const auto& row : table.rows) {
    for (size_t i = 0; i < row.size() && i < widths.size(); ++i) {
      widths[i] = std::max(widths[i], DisplayWidth(row[i]));
    }
  }
  return widths;
}

std::string Separator(const std::vector<size_t>& widths) {
  std::string line = "-";
  for (size_t i = 0; i < widths.size(); ++i) {
    if (i > 0) line += "-+-";
    line += std::string(widths[i], '-');
  }
  return line + "-\n";
}

std::string HeaderLine(const TextTable& table, const std::vector<size_t>& widths) {
  std::string line = " ";
  for (size_t i = 0; i < table.names.size(); ++i) {
    if (i > 0) line += " | ";
    line += PadRight(table.names[i], widths[i]);
  }
  // cqlsh strips the padding after the last name.
  line.erase(line.find_last_not_of(" \t") + 1);
  return line + "\n";
}

// print_formatted_result: header, separator, right-aligned rows; the
// widths are those of this table (a page, when paging) alone.
std::string Horizontal(const TextTable& table, const TableLayout& layout, bool with_header) {
  const std::vector<size_t> widths = ColumnWidths(table);
  std::string out;
  if (with_header || table.rows.empty()) out = HeaderLine(table, widths) + Separator(widths);
  if (table.rows.empty()) return out + "\n";
  for (const auto& row : table.rows) {
    std::string line = " ";
    for (size_t i = 0; i < widths.size(); ++i) {
      if (i > 0) line += " | ";
      line += PadLeft(i < row.size() ? row[i] : std::string(), widths[i]);
    }
    out += line + "\n";
  }
  if (layout.tty) out += "\n";
  return out;
}

// print_formatted_result_vertically: one "@ Row n" block per row,
// numbered from `row_offset` + 1.
std::string Vertical(const TextTable& table, size_t row_offset) {
  size_t name_width = 0;
  size_t value_width = 0;
  for (const std::string& name : table.names) name_width = std::max(name_width, DisplayWidth(name));
  for (const auto& row : table.rows) {
    for (const std::string& cell : row) value_width = std::max(value_width, DisplayWidth(cell));
  }
  std::string out;
  for (size_t r = 0; r < table.rows.size(); ++r) {
    out += "@ Row " + std::to_string(row_offset + r + 1) + "\n";
    out += "-" + std::string(name_width, '-') + "-+-" + std::string(value_width, '-') + "-\n";
    for (size_t i = 0; i < table.names.size(); ++i) {
      const std::string& cell = i < table.rows[r].size() ? table.rows[r][i] : std::string();
      out += " " + PadRight(table.names[i], name_width) + " | " + cell + "\n";
    }
    out += "\n";
  }
  return out;
}

// print_static_result.
std::string StaticResult(const TextTable& table, const TableLayout& layout, bool with_header,
                         size_t row_offset) {
  if (table.names.empty()) return "";
  if (layout.expand && !table.rows.empty()) return Vertical(table, row_offset);
  return Horizontal(table, layout, with_header);
}

std::string ServerError(std::string_view driver_class, const char* code, std::string_view summary,
                        const std::string& message) {
  return std::string(driver_class) + ": Error from server: code=" + code + " [" +
         std::string(summary) + "] message=\"" + message + "\"";
}

// The driver turns Cassandra's AlreadyExists error into its own text from
// the keyspace and table it carries: "Table 'ks.t' already exists".
std::string AlreadyExistsText(const std::string& message) {
  auto quoted = [&](size_t from, size_t* end) -> std::string {
    const size_t open = message.find('"', from);
    if (open == std::string::npos) return {};
    const size_t close = message.find('"', open + 1);
    if (close == std::string::npos) return {};
    *end = close + 1;
    return message.substr(open + 1, close - open - 1);
  };
  size_t end = 0;
  if (message.rfind("Cannot add existing keyspace ", 0) == 0) {
    const std::string keyspace = quoted(0, &end);
    if (!keyspace.empty()) return "Keyspace '" + keyspace + "' already exists";
  }
  if (message.rfind("Cannot add already existing table ", 0) == 0) {
    const std::string table = quoted(0, &end);
    const std::string keyspace = quoted(end, &end);
    if (!table.empty() && !keyspace.empty()) {
      return "Table '" + keyspace + "." + table + "' already exists";
    }
  }
  return message;
}

}  // namespace

TextTable ToTextTable(const CqlResult& result) {
  TextTable table;
  for (const ColumnSpec& column : result.columns) table.names.push_back(column.name);
  table.rows.reserve(result.rows.size());
  for (const auto& row : result.rows) {
    std::vector<std::string> cells;
    cells.reserve(row.size());
    for (const Value& value : row) cells.push_back(value.ToString());
    table.rows.push_back(std::move(cells));
  }
  return table;
}

std::string FormatSelectTable(const TextTable& table, const TableLayout& layout) {
  return FormatSelectStart() + FormatSelectPage(table, layout, true, 0) +
         FormatSelectEnd(table.rows.size(), layout);
}

std::string FormatSelectStart() { return "\n"; }

std::string FormatSelectPage(const TextTable& page, const TableLayout& layout, bool first_page,
                             size_t rows_before) {
  // print_all: the first page always (an empty result shows its header),
  // later ones when they hold rows; the header again only on a terminal.
  if (!first_page && page.rows.empty()) return "";
  return StaticResult(page, layout, first_page || layout.tty, rows_before);
}

std::string FormatSelectEnd(size_t rows, const TableLayout& layout) {
  std::string out;
  if (!layout.tty) out += "\n";
  return out + "(" + std::to_string(rows) + " rows)\n";
}

std::string FormatStatementRows(const TextTable& table, const TableLayout& layout) {
  return "\n" + StaticResult(table, layout, true, 0);
}

std::string FormatReadTrace(const ReadStats& stats, const TableLayout& layout) {
  TextTable table;
  table.names = {"partitions_read", "sstables_read",   "sstables_skipped", "memtables_read",
                 "live_rows",       "tombstone_cells", "blocks_read"};
  table.rows.push_back({std::to_string(stats.partitions_read), std::to_string(stats.sstables_read),
                        std::to_string(stats.sstables_skipped),
                        std::to_string(stats.memtables_read), std::to_string(stats.live_rows),
                        std::to_string(stats.tombstone_cells), std::to_string(stats.blocks_read)});
  return "\nTracing session: read statistics\n\n" + Horizontal(table, layout, true) + "\n";
}

std::string FormatWarnings(const std::vector<std::string>& warnings) {
  if (warnings.empty()) return "";
  std::string out = "\nWarnings :\n";
  for (const std::string& warning : warnings) out += warning + "\n\n";
  return out;
}

std::string FormatCqlshError(const Status& status) {
  const std::string& message = status.message();
  switch (status.code()) {
    case Status::Code::kInvalidRequest:
      return ServerError("InvalidRequest", "2200", "Invalid query", message);
    case Status::Code::kUnavailable:
      return ServerError("Unavailable", "1000", "Unavailable exception", message);
    case Status::Code::kReadFailure:
      return ServerError("ReadFailure", "1300", "Replica(s) failed to execute read", message);
    case Status::Code::kWriteFailure:
      return ServerError("WriteFailure", "1500", "Replica(s) failed to execute write", message);
    case Status::Code::kFunctionFailure:
      return ServerError("FunctionFailure", "1400", "User Defined Function failure", message);
    case Status::Code::kAlreadyExists:
      return "AlreadyExists: " + AlreadyExistsText(message);
    default:
      // SyntaxException and ConfigurationException reach cqlsh as the
      // server's bare message; cassette's own classes follow suit.
      return std::string(status.ClassName()) + ": " + message;
  }
}

size_t DisplayWidth(std::string_view utf8) {
  size_t width = 0;
  size_t i = 0;
  while (i < utf8.size()) {
    const auto lead = static_cast<unsigned char>(utf8[i]);
    uint32_t cp = lead;
    size_t length = 1;
    if (lead >= 0xF0) {
      cp = lead & 0x07;
      length = 4;
    } else if (lead >= 0xE0) {
      cp = lead & 0x0F;
      length = 3;
    } else if (lead >= 0xC0) {
      cp = lead & 0x1F;
      length = 2;
    }
    for (size_t k = 1; k < length && i + k < utf8.size(); ++k) {
      cp = (cp << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3F);
    }
    i += length;
    const bool combining = (cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x200B && cp <= 0x200F);
    const bool wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
                      (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
                      (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
                      (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
                      (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD);
    width += combining ? 0 : wide ? 2 : 1;
  }
  return width;
}

}  // namespace cassette::tools
