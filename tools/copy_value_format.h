// Values as cqlsh's COPY TO writes them (pylib/cqlshlib/formatting.py
// through copyutil.py's ExportProcess.format_value): timestamps in
// DATETIMEFORMAT rounded to milliseconds, floats with FLOATPRECISION /
// DOUBLEPRECISION significant digits, booleans in BOOLSTYLE, thousands and
// decimal separators, blobs as 0x.., collections and tuples in CQL literal
// syntax with text, timestamps and addresses quoted inside them.
//
// Where cqlsh's output cannot be read back to the same value, cassette
// writes what its own COPY FROM and cqlsh's both read back exactly:
// - text is written as stored: cqlsh doubles backslashes and writes control
//   characters as Python escapes (\n), which its COPY FROM does not undo,
//   so every backslash doubles on each round trip;
// - a zero duration is "0s", not the empty text that reads back as null;
// - a null tuple component is `null`, where cqlsh writes None or fails;
// - a time inside a collection is quoted, since its ':' would split a map
//   entry in cqlsh's reader.
#pragma once

#include <cstdint>
#include <string>

#include "cassette/value.h"
#include "tools/copy_options.h"

namespace cassette::tools {

// The text of one CSV field: format.null_text for a null value or an empty
// value of a type where empty means no value (an empty int).
std::string FormatCopyValue(const ValueView& value, const CopyValueFormat& format);

// A timestamp in a strftime format (Python's directives; %f is
// microseconds), its fraction then rounded to milliseconds as cqlsh's
// round_microseconds does; the millisecond count itself outside years
// 1..9999, as cqlsh falls back to.
std::string FormatCopyTimestamp(int64_t millis, const std::string& format);

// Python's '%.*g' as cqlsh's format_floating_point_type applies it, with
// the separators of `format`; `precision` is FLOATPRECISION or
// DOUBLEPRECISION.
std::string FormatCopyFloating(double value, int precision, const CopyValueFormat& format);

}  // namespace cassette::tools
