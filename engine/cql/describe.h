// DESCRIBE's CQL text: the CREATE KEYSPACE and CREATE TABLE statements
// Cassandra 5's server-side DESCRIBE returns (and cqlsh prints), every
// table option spelled out, so that re-running the text on an empty
// database recreates the same schema.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cassette/schema.h"

namespace cassette::cql {

// CREATE KEYSPACE ks WITH replication = {...}  AND durable_writes = true;
// (two spaces before AND, as Cassandra prints it).
std::string DescribeKeyspaceCql(const KeyspaceSchema& keyspace);

// The name as CQL must spell it: unchanged when it is a lower-case
// identifier that is not a reserved word, else in double quotes.
std::string QuoteIdentifierIfNeeded(std::string_view name);

// The CREATE TYPE statement DESCRIBE prints for a user type
// (UserType.toCqlString): one field a line.
std::string DescribeUserTypeCql(const DataType& type);

// The keyspace's user types in the order DESCRIBE lists them: by name,
// each after the types it uses.
std::vector<const DataType*> UserTypesInDescribeOrder(const KeyspaceSchema& keyspace);

// DescribeTableCql (schema_statement.h) is defined in describe.cc too.

}  // namespace cassette::cql
