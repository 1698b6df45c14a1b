// Bytes for a compaction lab run's outcome, so that a run made in a child
// process (tools/lab_processes) reaches the parent whole: every field of a
// LabResult (its samples, windows, maps and notes; doubles bit for bit),
// or the Status the run failed with.
//
// The format is private to one build of cassette (parent and child are
// the same binary), so it carries no version: fields in declaration order,
// integers as varints (zigzag for signed ones), doubles as their 64 bits
// fixed, strings and lists length-prefixed. Decoding checks every length
// and rejects trailing bytes: malformed or truncated input is a Corruption
// error, never a crash or an allocation the input did not pay for.
#pragma once

#include <string>
#include <string_view>

#include "cassette/status.h"
#include "tools/lab_run.h"

namespace cassette::tools {

std::string EncodeLabResult(const LabResult& result);

// What EncodeLabResult wrote; Corruption when `bytes` is anything else.
Result<LabResult> DecodeLabResult(std::string_view bytes);

// A failed run's error: its code and message. REQUIRES: !error.ok().
std::string EncodeLabError(const Status& error);

// What EncodeLabError wrote, in *error; Corruption when `bytes` is
// malformed or holds no error (*error is then left alone).
Status DecodeLabError(std::string_view bytes, Status* error);

}  // namespace cassette::tools
