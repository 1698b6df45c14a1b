// Binary records of keyspace and table definitions for the schema file.
// Encoders append one record; decoders consume one record from the front
// of *in and return Corruption (naming the byte offset within the record)
// on malformed input, never reading past the end. Layout: FORMAT.md here.
#pragma once

#include <string>
#include <string_view>

#include "cassette/schema.h"
#include "cassette/status.h"

namespace cassette {

void EncodeKeyspaceSchema(const KeyspaceSchema& keyspace, std::string* out);
Status DecodeKeyspaceSchema(std::string_view* in, KeyspaceSchema* keyspace);

void EncodeTableSchema(const TableSchema& table, std::string* out);
Status DecodeTableSchema(std::string_view* in, TableSchema* table);

}  // namespace cassette
