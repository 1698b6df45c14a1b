// `cassette simulate --from-data DIR ks.table`: a workload derived from an
// existing table, so users compare strategies on the shape of their own
// data. The table's schema (its CREATE TABLE, options and all), the
// identifier and time-bucket columns, the write rate per identifier, the
// row size and the TTL mix come from the table (read-only, as `cassette
// advise --data` reads it: tools/advise_observed.h); what the data cannot
// tell (reads, lateness, deletes) takes the defaults docs/LAB.md lists.
#pragma once

#include <string>

#include "cassette/db.h"
#include "tools/lab_workload.h"

namespace cassette::tools {

// InvalidArgument naming what the lab cannot replay (a partition key with
// a hash sub-bucket or several identifier columns, no timestamp
// clustering column first, no rate in the data).
Result<WorkloadSpec> WorkloadFromTable(Database* db, const std::string& keyspace,
                                       const std::string& table);

}  // namespace cassette::tools
