// Writes the seed corpora of the fuzz targets, fuzz/corpus/<target>/, from
// files the engine itself writes:
//   - sstable_*, partition_update: SSTables written by SSTableWriter from generated partitions
//     (the same template the component targets use, seed 1, and variants),
//     whole or split into the components FORMAT.md defines;
//   - commitlog_replay, manifest, schema: the commit-log segments, MANIFEST
//     and schema records of a database on the in-memory file system that
//     created tables of many column types and wrote, deleted and expired
//     rows in them;
//   - types: every CQL type of those tables (and nested ones) with values
//     parsed from literals.
// Usage: make_fuzz_corpus <fuzz/corpus directory>. Rewrites only the
// directories named above; scripts/fuzz.sh --seeds runs it.
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "cassette/db.h"
#include "engine/db/manifest.h"
#include "engine/mutation/row_codec.h"
#include "engine/schema/key_codec.h"
#include "engine/schema/schema_codec.h"
#include "engine/types/type_codec.h"
#include "engine/util/coding.h"
#include "fuzz/sstable_fuzz_support.h"

namespace cassette::fuzz {
namespace {

std::string root;

void Check(const Status& s, const char* what) {
  if (!s.ok()) {
    std::fprintf(stderr, "%s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

void Seed(const std::string& target, const std::string& name, std::string_view bytes) {
  const std::string dir = root + "/" + target;
  ::mkdir(dir.c_str(), 0755);
  std::ofstream out(dir + "/" + name, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    std::fprintf(stderr, "cannot write %s/%s\n", dir.c_str(), name.c_str());
    std::exit(1);
  }
}

std::string ReadAll(FileSystem* fs, const std::string& path) {
  auto file = fs->NewRandomAccessFile(path);
  Check(file.status(), path.c_str());
  std::string out;
  Check((*file)->Read(0, (*file)->Size(), &out), path.c_str());
  return out;
}

void SSTableSeeds() {
  auto base = MakeSSTable(1, 24, true);
  Check(base.status(), "template sstable");
  auto raw = MakeSSTable(1, 24, false);
  Check(raw.status(), "raw template sstable");
  Seed("sstable_data", "template", base->data_stream);
  Seed("sstable_index", "template-block0", base->index_blocks.front());
  if (base->index_blocks.size() > 1) {
    Seed("sstable_index", "template-block-last", base->index_blocks.back());
  }
  const char* names[] = {"sstable_chunk_offsets", "sstable_summary", "sstable_bloom",
                         "sstable_statistics"};
  for (size_t i = 0; i < kSectionOrder.size(); ++i) {
    Seed(names[i], "template", base->sections[i]);
  }
  // The same data with raw chunks: other chunk offsets that still agree
  // with the template's statistics.
  Seed("sstable_chunk_offsets", "raw-chunks", raw->sections[0]);
  Seed("sstable_toc", "template",
       std::string_view(base->file).substr(base->file.size() - kFooterSize));
  // Partition updates (commit-log records and SSTable rows share the row
  // codec): a few of the template's partitions.
  for (size_t i = 0; i < base->partitions.size(); i += 6) {
    std::string update;
    EncodePartitionUpdate(base->partitions[i], &update);
    Seed("partition_update", "template-" + std::to_string(i), update);
  }
  // Whole files: small ones, compressed and raw, a file without rows.
  for (uint64_t seed : {2, 3}) {
    for (bool compress : {true, false}) {
      auto parts = MakeSSTable(seed, 4, compress);
      Check(parts.status(), "small sstable");
      Seed("sstable_file", "seed" + std::to_string(seed) + (compress ? "-zstd" : "-raw"),
           parts->file);
    }
  }
}

TableSchema WideTable() {
  TableSchema t("ks", "wide");
  t.AddPartitionKey("id", DataType::Uuid())
      .AddPartitionKey("day", DataType::Date())
      .AddClustering("at", DataType::Timestamp())
      .AddClustering("seq", DataType::Varint(), ClusteringOrder::kDesc)
      .AddStatic("owner", DataType::Text())
      .AddRegular("f", DataType::Float())
      .AddRegular("d", DataType::Decimal())
      .AddRegular("ip", DataType::Inet())
      .AddRegular("dur", DataType::Duration())
      .AddRegular("tags", DataType::Set(DataType::Text()))
      .AddRegular("scores", DataType::Map(DataType::Ascii(), DataType::Bigint()))
      .AddRegular("hist", DataType::List(DataType::Smallint()))
      .AddRegular("pair", DataType::Tuple({DataType::Int(), DataType::Blob()}))
      .AddRegular("nested", DataType::List(DataType::Map(DataType::Tinyint(), DataType::Time()),
                                           /*frozen=*/true));
  return t;
}

TableSchema SensorTable() {
  TableSchema t("ks", "sensor");
  t.AddPartitionKey("sensor", DataType::Text())
      .AddClustering("ts", DataType::Timeuuid())
      .AddRegular("v", DataType::Double())
      .AddRegular("ok", DataType::Boolean());
  t.mutable_options().default_time_to_live = 3600;
  return t;
}

Value Lit(const DataType& type, std::string_view literal) {
  auto v = Value::Parse(type, literal);
  Check(v.status(), std::string(literal).c_str());
  return *v;
}

void DatabaseSeeds() {
  std::shared_ptr<MemFileSystem> fs = NewMemFileSystem();
  Options options;
  options.file_system = fs;
  options.clock = std::make_shared<ManualClock>(1'704'067'200'000'000);
  options.scheduler = std::make_shared<ManualScheduler>();
  options.commitlog_segment_size = 64 << 10;  // the smallest allowed
  options.max_mutation_size = 32 << 10;
  auto opened = Database::Open(options, "/db");
  Check(opened.status(), "open");
  Database& db = **opened;
  Check(db.CreateKeyspace({.name = "ks"}), "keyspace");
  Check(db.CreateTable(WideTable()), "wide");
  Check(db.CreateTable(SensorTable()), "sensor");
  const TableSchema wide = WideTable();
  auto col = [&](const char* name) { return wide.Find(name)->type; };
  for (int i = 0; i < 400; ++i) {
    Mutation m("ks", "wide",
               {Lit(col("id"), "6ab09bec-e68e-48d9-a5f8-97e6fb4c9b4" + std::to_string(i % 10)),
                Value::Date(19000 + i % 3)});
    m.Insert({Value::Timestamp(1'700'000'000'000 + i * 1000),
              Lit(col("seq"), std::to_string(i * 7919 - 100))})
        .Set("f", Value::Float(static_cast<float>(i) / 3))
        .Set("d", Lit(col("d"), std::to_string(i) + ".25"))
        .Set("ip", Lit(col("ip"), i % 2 ? "'10.0.0." + std::to_string(i % 250) + "'" : "'::1'"))
        .Set("dur", Value::Duration(i, 2, 3'000'000'000))
        .Set("tags", Lit(col("tags"), "{'a', 'b" + std::to_string(i) + "'}"))
        .Set("scores", Lit(col("scores"), "{'x': 1, 'y': " + std::to_string(i) + "}"))
        .Set("hist", Lit(col("hist"), "[1, 2, " + std::to_string(i) + "]"))
        .Set("pair", Lit(col("pair"), "(" + std::to_string(i) + ", 0xcafe)"))
        .Set("nested", Lit(col("nested"), "[{1: '10:00:00'}, {2: '23:59:59.999'}]"));
    if (i % 5 == 0) m.UsingTtl(600);
    Check(db.Apply(m), "insert");
    if (i % 7 == 3) {
      Mutation d("ks", "wide", m.partition_key());
      d.DeleteRow({Value::Timestamp(1'700'000'000'000 + i * 1000),
                   Lit(col("seq"), std::to_string(i * 7919 - 100))});
      Check(db.Apply(d), "delete row");
    }
    if (i == 20) Check(db.Flush(), "flush");
  }
  for (int i = 0; i < 30; ++i) {
    Mutation m("ks", "sensor", {Value::Text("s" + std::to_string(i % 4))});
    m.Insert({Lit(DataType::Timeuuid(),
                  "5a6c8c40-" + std::to_string(1000 + i) + "-11ee-8000-000000000001")})
        .Set("v", Value::Double(i * 0.5))
        .Set("ok", Value::Boolean(i % 3 == 0));
    Check(db.Apply(m), "sensor");
  }
  Mutation gone("ks", "sensor", {Value::Text("s3")});
  gone.DeletePartition();
  Check(db.Apply(gone), "delete partition");
  Check(db.Close(), "close");

  Seed("manifest", "database", ReadAll(fs.get(), "/db/MANIFEST"));
  auto children = fs->GetChildren("/db/commitlog");
  Check(children.status(), "commitlog dir");
  std::vector<std::string> segments;
  for (const std::string& name : *children) {
    if (name.rfind("CommitLog-", 0) == 0)
      segments.push_back(ReadAll(fs.get(), "/db/commitlog/" + name));
  }
  if (segments.size() < 2) Check(Status::Corruption("expected two segments or more"), "segments");
  // One segment (first byte even), and two (odd, then the first's length).
  for (size_t i = 0; i < segments.size() && i < 3; ++i) {
    Seed("commitlog_replay", "one-segment-" + std::to_string(i),
         std::string(1, '\0') + segments[i]);
  }
  std::string two(1, '\1');
  PutFixed32(&two, static_cast<uint32_t>(segments[0].size()));
  Seed("commitlog_replay", "two-segments", two + segments[0] + segments[1]);

  // Schema records, as the manifest holds them, each followed by a key and
  // a clustering of the table.
  std::string ks(1, '\0');
  EncodeKeyspaceSchema(KeyspaceSchema{.name = "ks"}, &ks);
  Seed("schema", "keyspace", ks);
  for (const char* name : {"wide", "sensor"}) {
    auto table = db.GetTable("ks", name);
    Check(table.status(), name);
    std::string record(1, '\1');
    EncodeTableSchema(*table, &record);
    Seed("schema", std::string("table-") + name, record);
  }
  std::string keyed(1, '\1');
  EncodeTableSchema(SensorTable(), &keyed);
  auto key = SerializePartitionKey(SensorTable(), {Value::Text("s1").bytes()});
  Check(key.status(), "key");
  keyed += *key;
  keyed += EncodeClustering(
      SensorTable(), {Lit(DataType::Timeuuid(), "5a6c8c40-1000-11ee-8000-000000000001").bytes()});
  Seed("schema", "table-with-keys", keyed);
}

// Segments of a compressed commit log (format 3): blocks of sensor rows,
// one segment ended by a flush's roll and one by Close. Seeds for
// commitlog_replay with the first byte's bit 1 set (files named version 3).
void CompressedLogSeeds() {
  std::shared_ptr<MemFileSystem> fs = NewMemFileSystem();
  Options options;
  options.file_system = fs;
  options.clock = std::make_shared<ManualClock>(1'704'067'200'000'000);
  options.scheduler = std::make_shared<ManualScheduler>();
  options.commitlog_compression = CommitLogCompression::kZstd;
  options.commitlog_compression_block_size = 2048;
  options.commitlog_segment_size = 64 << 10;
  options.max_mutation_size = 32 << 10;
  auto opened = Database::Open(options, "/db");
  Check(opened.status(), "open compressed");
  Database& db = **opened;
  Check(db.CreateKeyspace({.name = "ks"}), "keyspace");
  Check(db.CreateTable(SensorTable()), "sensor");
  for (int i = 0; i < 300; ++i) {
    Mutation m("ks", "sensor", {Value::Text("s" + std::to_string(i % 6))});
    m.Insert({Lit(DataType::Timeuuid(),
                  "5a6c8c40-" + std::to_string(1000 + i) + "-11ee-8000-000000000001")})
        .Set("v", Value::Double(20 + (i % 17) * 0.25))
        .Set("ok", Value::Boolean(i % 3 == 0));
    Check(db.Apply(m), "sensor");
    if (i == 149) Check(db.Flush(), "flush");
  }
  Check(db.Close(), "close");
  auto children = fs->GetChildren("/db/commitlog");
  Check(children.status(), "commitlog dir");
  std::vector<std::string> segments;
  for (const std::string& name : *children) {
    if (name.rfind("CommitLog-3-", 0) == 0) {
      segments.push_back(ReadAll(fs.get(), "/db/commitlog/" + name));
    }
  }
  if (segments.empty()) Check(Status::Corruption("no compressed segment"), "segments");
  for (size_t i = 0; i < segments.size(); ++i) {
    Seed("commitlog_replay", "zstd-one-segment-" + std::to_string(i),
         std::string(1, '\2') + segments[i]);
  }
  if (segments.size() >= 2) {
    std::string two(1, '\3');
    PutFixed32(&two, static_cast<uint32_t>(segments[0].size()));
    Seed("commitlog_replay", "zstd-two-segments", two + segments[0] + segments[1]);
  }
}

void TypeSeeds() {
  struct Case {
    const char* type;
    const char* a;
    const char* b;
  };
  const Case cases[] = {
      {"ascii", "'abc'", "'abd'"},
      {"bigint", "-9223372036854775808", "42"},
      {"blob", "0x00ff", "0x"},
      {"boolean", "true", "false"},
      {"counter", "7", "-7"},
      {"date", "'2024-02-29'", "'1970-01-01'"},
      {"decimal", "1.50", "-0.0001"},
      {"double", "-0.0", "1e300"},
      {"duration", "1y2mo3w4d5h6m7s8ms9us10ns", "-1d"},
      {"float", "3.5", "NaN"},
      {"inet", "'192.168.0.1'", "'2001:db8::1'"},
      {"int", "-1", "2147483647"},
      {"smallint", "-32768", "1"},
      {"text", "'zoë'", "''"},
      {"time", "'23:59:59.999999999'", "'00:00:00'"},
      {"timestamp", "'2024-01-15 10:15:00+0000'", "-1"},
      {"timeuuid", "5a6c8c40-1000-11ee-8000-000000000001", "5a6c8c40-1001-11ee-8000-000000000001"},
      {"tinyint", "-128", "127"},
      {"uuid", "6ab09bec-e68e-48d9-a5f8-97e6fb4c9b40", "00000000-0000-0000-0000-000000000000"},
      {"varint", "-123456789012345678901234567890", "255"},
      {"frozen<list<int>>", "[1, 2, 3]", "[]"},
      {"frozen<set<text>>", "{'a', 'b'}", "{'a'}"},
      {"frozen<map<int, text>>", "{1: 'a', 2: 'b'}", "{}"},
      {"tuple<int, text, double>", "(1, 'a', 2.5)", "(1, null, null)"},
      {"frozen<list<frozen<map<text, frozen<set<int>>>>>>", "[{'a': {1, 2}}]", "[{}]"},
      {"list<varint>", "[1, -1]", "[0]"},
      {"map<timestamp, decimal>", "{'2024-01-01': 1.0}", "{0: -2}"},
  };
  for (const Case& c : cases) {
    auto type = DataType::Parse(c.type);
    Check(type.status(), c.type);
    auto a = Value::Parse(*type, c.a);
    auto b = Value::Parse(*type, c.b);
    Check(a.status(), c.a);
    Check(b.status(), c.b);
    std::string seed;
    EncodeDataType(*type, &seed);
    seed.push_back(static_cast<char>(std::min<size_t>(a->bytes().size(), 255)));
    seed += a->bytes();
    seed += b->bytes();
    std::string name = c.type;
    for (char& ch : name) {
      if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    }
    Seed("types", name, seed);
  }
}

}  // namespace
}  // namespace cassette::fuzz

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <fuzz/corpus directory>\n", argv[0]);
    return 2;
  }
  cassette::fuzz::root = argv[1];
  cassette::fuzz::SSTableSeeds();
  cassette::fuzz::DatabaseSeeds();
  cassette::fuzz::CompressedLogSeeds();
  cassette::fuzz::TypeSeeds();
  return 0;
}
