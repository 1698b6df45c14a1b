// cqlsh's text output, reproduced exactly (pylib/cqlshlib/cqlshmain.py:
// print_result, print_static_result, print_formatted_result,
// print_formatted_result_vertically, print_warnings, and the driver's
// error strings): column names left-aligned, values right-aligned, widths
// in terminal cells, "(N rows)" after a SELECT.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/cql.h"
#include "cassette/status.h"

namespace cassette::tools {

// What cqlsh's layout depends on besides the rows.
struct TableLayout {
  // cqlsh prints one blank line fewer after an empty SELECT on a terminal.
  bool tty = false;
  bool expand = false;  // EXPAND ON: one block per row
};

// A result as cqlsh shows it: column names and each cell's text.
struct TextTable {
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> rows;
};

// Cells rendered with Value::ToString (cqlsh's rendering).
TextTable ToTextTable(const CqlResult& result);

// A SELECT's output: a blank line, the rows, "(N rows)".
std::string FormatSelectTable(const TextTable& table, const TableLayout& layout);
// The same, a page at a time as cqlsh prints a paged result (print_all):
// FormatSelectStart, then FormatSelectPage for each page in order (each
// page's widths are its own, the header is printed for the first page
// only unless on a terminal, EXPAND numbers rows on from `rows_before`),
// then FormatSelectEnd with the total. One page prints as
// FormatSelectTable does.
std::string FormatSelectStart();
std::string FormatSelectPage(const TextTable& page, const TableLayout& layout, bool first_page,
                             size_t rows_before);
std::string FormatSelectEnd(size_t rows, const TableLayout& layout);
// Rows of another statement (a conditional update's [applied] row): no
// row count.
std::string FormatStatementRows(const TextTable& table, const TableLayout& layout);
// TRACING ON after a SELECT: cqlsh's "Tracing session:" block, holding
// the read statistics cassette records instead of Cassandra's event list.
std::string FormatReadTrace(const ReadStats& stats, const TableLayout& layout);
// "\nWarnings :\n<warning>\n\n" for each warning.
std::string FormatWarnings(const std::vector<std::string>& warnings);
// The line cqlsh prints for a failed statement, e.g.
// `InvalidRequest: Error from server: code=2200 [Invalid query] message="..."`.
std::string FormatCqlshError(const Status& status);

// Terminal cells taken by UTF-8 text (East Asian wide characters take two,
// combining marks none), as cqlsh measures with wcwidth.
size_t DisplayWidth(std::string_view utf8);

}  // namespace cassette::tools
