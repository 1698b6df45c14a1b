// The WITH properties of CREATE KEYSPACE / ALTER KEYSPACE (replication and
// durable_writes), checked as Cassandra's KeyspaceAttributes and
// replication strategies check them. There is one node, so replication is
// only recorded; it is still validated so that a script Cassandra refuses
// fails here too.
#pragma once

#include <vector>

#include "cassette/schema.h"
#include "cassette/status.h"
#include "engine/cql/ast.h"

namespace cassette::cql {

// The data center name of the single node (Cassandra's default).
inline constexpr char kLocalDatacenter[] = "datacenter1";

// Applies `properties` over `base`. CREATE requires replication (InvalidRequest
// "Missing mandatory option 'replication'"); ALTER keeps the current one when
// absent.
Result<KeyspaceSchema> ApplyKeyspaceProperties(const std::vector<Property>& properties,
                                               KeyspaceSchema base, bool require_replication);

}  // namespace cassette::cql
