// A program embedding cassette as a user would: it sees only the installed
// public headers (include/cassette/) and links libcassette. It checks that
// the headers and the library are the same release, opens a database in a
// fresh directory, creates a table with CQL, writes a row with CQL and one
// with the C++ API, flushes, reopens and reads both back through each.
//
//   consumer DATA_DIR EXPECTED_VERSION     (exit status 0 when all held)
#include <cassette/cql.h>
#include <cassette/db.h>
#include <cassette/version.h>

#include <cstdio>
#include <string>
#include <string_view>

static_assert(CASSETTE_VERSION_MAJOR >= 0 && CASSETTE_VERSION_MINOR >= 0 &&
              CASSETTE_VERSION_PATCH >= 0);

namespace {

int Fail(const std::string& what) {
  std::fprintf(stderr, "consumer: %s\n", what.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return Fail("usage: consumer DATA_DIR EXPECTED_VERSION");
  const std::string dir = argv[1];
  const std::string_view expected_version = argv[2];
  if (expected_version != CASSETTE_VERSION_STRING) {
    return Fail(std::string("headers are version ") + CASSETTE_VERSION_STRING + ", expected " +
                std::string(expected_version));
  }
  if (cassette::Version() != CASSETTE_VERSION_STRING) {
    return Fail("library is version " + std::string(cassette::Version()) + ", headers " +
                CASSETTE_VERSION_STRING);
  }

  {
    auto opened = cassette::Database::Open(cassette::Options(), dir);
    if (!opened.ok()) return Fail("open: " + opened.status().ToString());
    cassette::CqlSession session(opened->get());
    for (const char* statement :
         {"CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 1}",
          "CREATE TABLE app.notes (id int, at int, body text, PRIMARY KEY (id, at))",
          "INSERT INTO app.notes (id, at, body) VALUES (1, 10, 'written with CQL')"}) {
      auto result = session.Execute(statement);
      if (!result.ok()) return Fail(std::string(statement) + ": " + result.status().ToString());
    }
    cassette::Mutation row("app", "notes", {cassette::Value::Int(1)});
    row.Insert({cassette::Value::Int(20)}).Set("body", cassette::Value::Text("written in C++"));
    cassette::Status applied = (*opened)->Apply(row);
    if (!applied.ok()) return Fail("apply: " + applied.ToString());
    cassette::Status flushed = (*opened)->Flush();
    if (!flushed.ok()) return Fail("flush: " + flushed.ToString());
  }

  // Reopened: the rows come back from the SSTable, through CQL and the C++ API.
  auto reopened = cassette::Database::Open(cassette::Options(), dir);
  if (!reopened.ok()) return Fail("reopen: " + reopened.status().ToString());
  cassette::CqlSession session(reopened->get());
  auto selected =
      session.Execute("SELECT at, body FROM app.notes WHERE id = ?", {cassette::Value::Int(1)});
  if (!selected.ok()) return Fail("select: " + selected.status().ToString());
  if (selected->rows.size() != 2 || selected->rows[0][0].AsInt64() != 10 ||
      selected->rows[0][1].AsString() != "written with CQL" ||
      selected->rows[1][0].AsInt64() != 20 || selected->rows[1][1].AsString() != "written in C++") {
    return Fail("SELECT returned other rows than were written");
  }
  cassette::ReadQuery query;
  query.keyspace = "app";
  query.table = "notes";
  query.partition_keys = {{cassette::Value::Int(1)}};
  query.columns = {"body"};
  auto read = (*reopened)->Read(query);
  if (!read.ok()) return Fail("read: " + read.status().ToString());
  if (read->rows.size() != 2 || read->rows[1].values[0].AsString() != "written in C++") {
    return Fail("Read returned other rows than were written");
  }
  std::printf("consumer: cassette %s, 2 rows written and read back\n",
              std::string(cassette::Version()).c_str());
  return 0;
}
