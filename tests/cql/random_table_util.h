// Random CQL tables and rows for the tests that pair a CQL fast path with
// its general twin (batch_fast_path_test.cc, prepared_layout_pairing_test.cc):
// an in-memory database on a manual clock, random table shapes (partition
// key, clustering, regular, static and collection columns of several
// types), random values, and renderings that compare two databases
// exactly (rows with each cell's write time and TTL; every file's bytes).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cassette/cql.h"
#include "cassette/db.h"
#include "engine/util/random.h"
#include "tests/support/file_contents.h"

namespace cassette::random_tables {

inline constexpr int64_t kStartMicros = 1'704'067'200'000'000;  // 2024-01-01T00:00:00Z

inline uint64_t TestSeed() {
  const char* env = std::getenv("CASSETTE_SEED");
  return env != nullptr ? std::strtoull(env, nullptr, 10) : 20240101;
}

struct Node {
  std::shared_ptr<MemFileSystem> fs = NewMemFileSystem();
  std::shared_ptr<ManualClock> clock = std::make_shared<ManualClock>(kStartMicros);
  std::unique_ptr<Database> db;
  std::unique_ptr<CqlSession> session;

  void Open() {
    Options options;
    options.file_system = fs;
    options.clock = clock;
    options.scheduler = std::make_shared<ManualScheduler>();
    auto opened = Database::Open(options, "/db");
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    db = std::move(opened).value();
    session = std::make_unique<CqlSession>(db.get());
  }
};

inline void Snapshot(FileSystem& fs, const std::string& dir,
                     std::map<std::string, std::string>* files) {
  auto children = fs.GetChildren(dir);
  ASSERT_TRUE(children.ok()) << dir << ": " << children.status().ToString();
  for (const std::string& child : *children) {
    const std::string path = dir + "/" + child;
    auto contents = ReadFileToString(fs, path);
    if (contents.ok()) {
      (*files)[path] = std::move(contents).value();
    } else {
      Snapshot(fs, path, files);
    }
  }
}

inline std::map<std::string, std::string> Snapshot(Node& node) {
  std::map<std::string, std::string> files;
  Snapshot(*node.fs, "/db", &files);
  return files;
}

// Empty when both databases hold the same files with the same bytes, else
// the first file that differs (the bytes themselves would flood the log).
inline std::string FirstDifferentFile(Node& a, Node& b) {
  const std::map<std::string, std::string> files_a = Snapshot(a);
  const std::map<std::string, std::string> files_b = Snapshot(b);
  for (const auto& [path, bytes] : files_a) {
    auto other = files_b.find(path);
    if (other == files_b.end()) return path + " only in the first";
    if (other->second != bytes) {
      size_t at = 0;
      while (at < bytes.size() && at < other->second.size() && bytes[at] == other->second[at]) {
        ++at;
      }
      return path + " differs at byte " + std::to_string(at) + " (sizes " +
             std::to_string(bytes.size()) + ", " + std::to_string(other->second.size()) + ")";
    }
  }
  for (const auto& [path, bytes] : files_b) {
    if (!files_a.count(path)) return path + " only in the second";
  }
  return "";
}

// A CQL type and how to draw a value of it (as a bound Value and as a JSON
// literal for INSERT JSON).
struct ColumnType {
  std::string cql;
  int kind;  // index into the generators below
};

inline const std::vector<ColumnType>& KeyTypes() {
  static const std::vector<ColumnType> types = {
      {"int", 0}, {"text", 1}, {"bigint", 2}, {"blob", 3}, {"boolean", 4}};
  return types;
}
inline const std::vector<ColumnType>& RegularTypes() {
  static const std::vector<ColumnType> types = {
      {"int", 0},       {"text", 1},           {"bigint", 2},
      {"blob", 3},      {"boolean", 4},        {"set<int>", 5},
      {"list<int>", 6}, {"map<text, int>", 7}, {"frozen<list<text>>", 8}};
  return types;
}

struct Column {
  std::string name;
  ColumnType type;
};

struct Shape {
  std::string table;
  std::vector<Column> partition_key;
  std::vector<Column> clustering;
  std::vector<Column> regular;  // statics included, flagged below
  std::vector<bool> is_static;
};

class Generator {
 public:
  explicit Generator(uint64_t seed) : rnd_(seed) {}
  Random& rnd() { return rnd_; }

  Shape RandomShape(int index) {
    Shape shape;
    shape.table = "t" + std::to_string(index);
    const size_t keys = 1 + rnd_.Uniform(2);
    for (size_t i = 0; i < keys; ++i) {
      shape.partition_key.push_back(
          {"p" + std::to_string(i), KeyTypes()[rnd_.Uniform(KeyTypes().size())]});
    }
    const size_t clusterings = rnd_.Uniform(3);
    for (size_t i = 0; i < clusterings; ++i) {
      shape.clustering.push_back(
          {"c" + std::to_string(i), KeyTypes()[rnd_.Uniform(KeyTypes().size())]});
    }
    const size_t regulars = 1 + rnd_.Uniform(5);
    for (size_t i = 0; i < regulars; ++i) {
      shape.regular.push_back(
          {"r" + std::to_string(i), RegularTypes()[rnd_.Uniform(RegularTypes().size())]});
      shape.is_static.push_back(clusterings > 0 && rnd_.OneIn(4));
    }
    return shape;
  }

  static std::string CreateTable(const Shape& shape) {
    std::string cql = "CREATE TABLE " + shape.table + " (";
    for (const Column& c : shape.partition_key) cql += c.name + " " + c.type.cql + ", ";
    for (const Column& c : shape.clustering) cql += c.name + " " + c.type.cql + ", ";
    for (size_t i = 0; i < shape.regular.size(); ++i) {
      cql += shape.regular[i].name + " " + shape.regular[i].type.cql +
             (shape.is_static[i] ? " static" : "") + ", ";
    }
    cql += "PRIMARY KEY ((";
    for (size_t i = 0; i < shape.partition_key.size(); ++i) {
      cql += (i ? ", " : "") + shape.partition_key[i].name;
    }
    cql += ")";
    for (const Column& c : shape.clustering) cql += ", " + c.name;
    return cql + "))";
  }

  // A key value from a small domain (so that rows repeat), as a Value and
  // as JSON.
  std::pair<Value, std::string> KeyValue(const ColumnType& type) {
    const int32_t n = static_cast<int32_t>(rnd_.Uniform(4));
    switch (type.kind) {
      case 0:
        return {Value::Int(n), std::to_string(n)};
      case 1:
        return {Value::Text(std::string(n, 'k')), "\"" + std::string(n, 'k') + "\""};
      case 2:
        return {Value::Bigint(n * 1'000'000'007LL), std::to_string(n * 1'000'000'007LL)};
      case 3:
        return {Value::Blob(std::string(n, '\x07')), "\"0x" + [&] {
                  std::string hex;
                  for (int i = 0; i < n; ++i) hex += "07";
                  return hex;
                }() + "\""};
      default:
        return {Value::Boolean(n % 2 == 1), n % 2 == 1 ? "true" : "false"};
    }
  }

  std::pair<Value, std::string> RegularValue(const ColumnType& type) {
    if (rnd_.OneIn(8)) return {Value::Null(), "null"};
    if (type.kind <= 4) return KeyValue(type);
    const size_t n = rnd_.Uniform(4);  // an empty collection is a null too
    std::vector<Value> elements;
    std::string json = type.kind == 7 ? "{" : "[";
    std::vector<std::pair<Value, Value>> entries;
    for (size_t i = 0; i < n; ++i) {
      const int32_t v = static_cast<int32_t>(rnd_.Uniform(5));
      if (i) json += ", ";
      switch (type.kind) {
        case 5:
        case 6:
          elements.push_back(Value::Int(v));
          json += std::to_string(v);
          break;
        case 7:
          entries.emplace_back(Value::Text(std::string(1, static_cast<char>('a' + v))),
                               Value::Int(static_cast<int32_t>(i)));
          json += "\"" + std::string(1, static_cast<char>('a' + v)) + "\": " + std::to_string(i);
          break;
        default:
          elements.push_back(Value::Text(std::to_string(v)));
          json += "\"" + std::to_string(v) + "\"";
      }
    }
    json += type.kind == 7 ? "}" : "]";
    switch (type.kind) {
      case 5:
        return {Value::Set(DataType::Int(), elements), json};
      case 6:
        return {Value::List(DataType::Int(), elements), json};
      case 7:
        return {Value::Map(DataType::Text(), DataType::Int(), entries), json};
      default:
        return {Value::List(DataType::Text(), elements), json};
    }
  }

 private:
  Random rnd_;
};

inline std::string Describe(const Result<CqlResult>& result) {
  if (!result.ok()) return "error: " + result.status().ToString();
  std::string out = "ok";
  for (const std::string& warning : result->warnings) out += "; warning: " + warning;
  return out;
}

inline std::string ToHex(const std::string& bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

// Every row of the table with the write time and TTL of each cell.
inline std::string ReadAll(Database& db, const std::string& table) {
  ReadQuery query;
  query.keyspace = "ks";
  query.table = table;
  query.with_cell_metadata = true;
  auto result = db.Read(query);
  if (!result.ok()) return "error: " + result.status().ToString();
  std::string out;
  for (const ResultRow& row : result->rows) {
    for (const Value& v : row.values) out += v.ToString() + ",";
    out += " writetimes";
    for (const auto& w : row.writetimes) out += " " + (w ? std::to_string(*w) : "-");
    out += " ttls";
    for (const auto& t : row.ttls) out += " " + (t ? std::to_string(*t) : "-");
    // Each collection element's own write time and TTL (a list element's
    // path too: the timeuuid both paths must have drawn alike).
    for (const auto& elements : row.elements) {
      out += " [";
      for (const ElementCell& e : elements) {
        out += ToHex(e.path) + "@" + std::to_string(e.writetime) + "/" +
               (e.ttl ? std::to_string(*e.ttl) : "-") + " ";
      }
      out += "]";
    }
    out += "\n";
  }
  return out;
}

}  // namespace cassette::random_tables
