// Options::disk_failure_policy: what open, reads (point, range, full
// scan), compactions and reopens do about a damaged SSTable under stop,
// best_effort and ignore, and that no policy ever deletes the damaged file.
//
// The Cassandra 5.0 facts these cases carry over (docs/RELIABILITY.md,
// "Disk failure policy (SSTables)"):
// - conf/cassandra.yaml: disk_failure_policy defaults to stop ("kill the
//   JVM for errors during startup"); best_effort "stop using the failed
//   disk and respond to requests based on remaining available sstables.
//   This means you WILL see obsolete data at CL.ONE!"; ignore "ignore fatal
//   errors and let requests fail".
// - SSTableReader.openAll: an SSTable that fails to open at startup
//   (CorruptSSTableException, FSError) is logged and skipped, after the
//   error handler ran: DefaultFSErrorHandler.handleStartupFSError kills
//   the JVM under stop / stop_paranoid / die and does nothing under
//   best_effort and ignore, so those start without the file.
// - DefaultFSErrorHandler at run time: a corrupt SSTable makes only
//   stop_paranoid and die act (under stop, best_effort and ignore the
//   request fails); an FSReadError under best_effort marks the directory
//   unreadable and Tracker.removeUnreadableSSTables drops its SSTables
//   from the live set. cassette has one data directory and one file per
//   SSTable, so best_effort takes the one SSTable out of service, for
//   corruption and read errors alike, and keeps the file (Cassandra's
//   drop marks them obsolete).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "engine/sstable/sstable_reader.h"
#include "tests/db/db_test_util.h"
#include "tests/support/fault_injection_file_system.h"
#include "tests/support/file_contents.h"

namespace cassette::testing {
namespace {

Mutation Row(int32_t pk, int32_t ck, int32_t v) {
  Mutation m("ks", "t", {Value::Int(pk)});
  m.Insert({Value::Int(ck)}).Set("v", Value::Int(v));
  return m;
}

// Every partition, or those in the token range, as "pk,ck,v;...".
std::string Scan(Database& db, std::optional<TokenRange> range = std::nullopt) {
  ReadQuery query;
  query.keyspace = "ks";
  query.table = "t";
  query.columns = {"pk", "ck", "v"};
  query.token_range = range;
  auto result = db.Read(query);
  return result.ok() ? Render(*result) : result.status().ToString();
}

std::string Point(Database& db, int32_t pk) {
  auto result = db.Read(ReadPartition(pk, {"ck", "v"}));
  return result.ok() ? Render(*result) : result.status().ToString();
}

// The table's SSTable files, oldest generation first.
std::vector<std::string> SSTableFiles(TestDb& t) {
  std::vector<std::string> out;
  auto dirs = t.fs->GetChildren("/db/ks");
  if (!dirs.ok()) return out;
  for (const std::string& dir : *dirs) {
    auto files = t.fs->GetChildren("/db/ks/" + dir);
    if (!files.ok()) continue;
    for (const std::string& file : *files) {
      if (file.ends_with(".sst")) out.push_back("/db/ks/" + dir + "/" + file);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

Options PolicyOptions(const TestDb& t, DiskFailurePolicy policy) {
  Options options = t.MakeOptions();
  options.auto_compaction = false;  // compactions run when a case asks
  options.disk_failure_policy = policy;
  return options;
}

// Two SSTables of ks.t: the older holds (pk, 1, 10 + pk), the newer
// (pk, 2, 20 + pk), for pk 1 to 3. Returns their paths, oldest first.
std::vector<std::string> BuildTwoSSTables(TestDb& t) {
  EXPECT_TRUE(t.Open(PolicyOptions(t, DiskFailurePolicy::kStop)).ok());
  EXPECT_TRUE(t.db->CreateKeyspace({.name = "ks"}).ok());
  EXPECT_TRUE(t.db->CreateTable(SimpleTable()).ok());
  for (int32_t ck : {1, 2}) {
    for (int32_t pk = 1; pk <= 3; ++pk) EXPECT_TRUE(t.db->Apply(Row(pk, ck, ck * 10 + pk)).ok());
    EXPECT_TRUE(t.db->Flush().ok());
  }
  EXPECT_TRUE(t.db->Close().ok());
  t.db.reset();
  return SSTableFiles(t);
}

// Partition 1 read back when the older SSTable no longer answers.
constexpr char kNewerOnly[] = "2,21";

// A way to damage an SSTable, aimed with its reader (as the corruption
// campaign in tests/reliability aims), and whether opening it finds it.
struct DamageKind {
  std::string name;
  bool found_at_open;
  std::function<void(const SSTableReader&, std::string*)> apply;
};

void FlipAt(std::string* bytes, uint64_t offset) {
  ASSERT_LT(offset, bytes->size());
  (*bytes)[offset] = static_cast<char>((*bytes)[offset] ^ 0x5a);
}

std::vector<DamageKind> DamageKinds() {
  return {{"data chunk", false,
           [](const SSTableReader& r, std::string* bytes) {
             const BlockHandle& h = r.fetcher().chunks().chunks.front();
             FlipAt(bytes, h.offset + h.size / 2);
           }},
          {"partition index", false,
           [](const SSTableReader& r, std::string* bytes) {
             const BlockHandle& h = r.summary()[0].handle;
             FlipAt(bytes, h.offset + h.size / 2);
           }},
          {"statistics", true,
           [](const SSTableReader& r, std::string* bytes) {
             const SectionEntry* e = r.footer().Find(SectionType::kStatistics);
             ASSERT_NE(e, nullptr);
             FlipAt(bytes, e->offset + e->length / 2);
           }},
          {"truncation", true,
           [](const SSTableReader&, std::string* bytes) { bytes->resize(bytes->size() / 2); }}};
}

// Damages `path` in place; returns the damaged bytes.
std::string Damage(TestDb& t, const std::string& path, const DamageKind& kind) {
  auto reader = SSTableReader::Open(t.fs.get(), path, nullptr);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  std::string bytes = *ReadFileToString(*t.fs, path);
  kind.apply(**reader, &bytes);
  EXPECT_TRUE(WriteStringToFile(*t.fs, path, bytes, true).ok());
  return bytes;
}

// `s` is the error that names `path` and an offset in it.
void ExpectNamesFileAndOffset(const std::string& s, const std::string& path) {
  EXPECT_NE(s.find(path), std::string::npos) << s;
  EXPECT_NE(s.find("at offset "), std::string::npos) << s;
}

// The damaged file is where it was, byte for byte.
void ExpectKept(TestDb& t, const std::string& path, const std::string& damaged) {
  auto bytes = ReadFileToString(*t.fs, path);
  ASSERT_TRUE(bytes.ok()) << path << " was deleted";
  EXPECT_EQ(*bytes, damaged) << path << " was changed";
}

std::optional<SSTableFailure> FindFailure(const std::vector<SSTableFailure>& failures,
                                          const std::string& path) {
  for (const SSTableFailure& f : failures) {
    if (f.path == path) return f;
  }
  return std::nullopt;
}

std::vector<SSTableFailure> TableFailures(Database& db) {
  auto stats = db.GetTableStats("ks", "t");
  EXPECT_TRUE(stats.ok()) << stats.status().ToString();
  return stats.ok() ? stats->sstable_failures : std::vector<SSTableFailure>{};
}

// stop (the default): damage found at open refuses the open with the file
// and offset, as Cassandra refuses to start; damage found by a read or a
// compaction fails it and leaves the file live. Nothing is deleted.
TEST(DiskFailurePolicyTest, StopRefusesTheOpenOrFailsTheRequest) {
  for (const DamageKind& kind : DamageKinds()) {
    SCOPED_TRACE(kind.name);
    TestDb t;
    const std::vector<std::string> files = BuildTwoSSTables(t);
    ASSERT_EQ(files.size(), 2u);
    const std::string damaged = Damage(t, files[0], kind);

    Status opened = t.Open(PolicyOptions(t, DiskFailurePolicy::kStop));
    if (kind.found_at_open) {
      ASSERT_TRUE(opened.IsCorruption()) << opened.ToString();
      ExpectNamesFileAndOffset(opened.message(), files[0]);
      EXPECT_NE(opened.message().find("disk_failure_policy stop"), std::string::npos);
      EXPECT_EQ(SSTableFiles(t), files);
      ExpectKept(t, files[0], damaged);
      continue;
    }
    ASSERT_OK(opened);
    const std::string point = Point(*t.db, 1);
    EXPECT_TRUE(point.starts_with("Corruption")) << point;
    ExpectNamesFileAndOffset(point, files[0]);
    // Scans (and compactions) walk the partitions through the partition
    // index and read the one data chunk: they meet either damage.
    for (const std::string& scanned : {Scan(*t.db), Scan(*t.db, TokenRange{})}) {
      EXPECT_TRUE(scanned.starts_with("Corruption")) << scanned;
      ExpectNamesFileAndOffset(scanned, files[0]);
    }
    const std::optional<SSTableFailure> failure = FindFailure(TableFailures(*t.db), files[0]);
    ASSERT_TRUE(failure.has_value());
    EXPECT_FALSE(failure->out_of_service);
    EXPECT_EQ(failure->found_by, "read");

    // The same read fails again: stop never takes the file away.
    EXPECT_EQ(Point(*t.db, 1), point);
    ASSERT_OK(t.Reopen());
    EXPECT_EQ(Point(*t.db, 1), point);
    EXPECT_EQ(SSTableFiles(t), files);
    ExpectKept(t, files[0], damaged);
  }
}

// stop: a compaction that meets the damage fails with the file and
// offset; background compaction then leaves the file out (Compact is what
// the compaction threads would do) instead of failing again after every
// flush, while a major compaction, asked for by the user, tries again.
TEST(DiskFailurePolicyTest, StopCompactionFailsThenLeavesTheFileOut) {
  TestDb t;
  const std::vector<std::string> files = BuildTwoSSTables(t);
  const std::string damaged = Damage(t, files[0], DamageKinds()[0]);  // data chunk
  ASSERT_OK(t.Open(PolicyOptions(t, DiskFailurePolicy::kStop)));
  TableOptions options = t.db->GetTable("ks", "t")->options();
  options.compaction = {{"class", "SizeTieredCompactionStrategy"}, {"min_threshold", "2"}};
  ASSERT_OK(t.db->AlterTableOptions("ks", "t", options));

  Status compacted = t.db->Compact("ks", "t");
  ASSERT_TRUE(compacted.IsCorruption()) << compacted.ToString();
  ExpectNamesFileAndOffset(compacted.message(), files[0]);
  const std::optional<SSTableFailure> failure = FindFailure(TableFailures(*t.db), files[0]);
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->found_by, "compaction");
  EXPECT_FALSE(failure->out_of_service);

  // Two more SSTables: without the damaged file the strategy still has
  // work (three files), and does it.
  for (int32_t pk = 4; pk <= 5; ++pk) {
    ASSERT_OK(t.db->Apply(Row(pk, 1, pk)));
    ASSERT_OK(t.db->Flush());
  }
  ASSERT_OK(t.db->Compact("ks", "t"));
  EXPECT_EQ(SSTableFiles(t).size(), 2u);  // the damaged one and the output
  Status major = t.db->CompactMajor("ks", "t");
  EXPECT_TRUE(major.IsCorruption()) << major.ToString();
  ExpectKept(t, files[0], damaged);
  EXPECT_EQ(Point(*t.db, 4), "1,4");
}

// best_effort, damage found at open: the open succeeds without the file,
// reports it and records it in the manifest, so any later open (even
// under stop) finds the table as this one left it; reads answer from the
// other SSTable; compaction leaves the file alone; it is never deleted.
TEST(DiskFailurePolicyTest, BestEffortTakesAnSSTableThatDoesNotOpenOutOfService) {
  for (const DamageKind& kind : DamageKinds()) {
    if (!kind.found_at_open) continue;
    SCOPED_TRACE(kind.name);
    TestDb t;
    const std::vector<std::string> files = BuildTwoSSTables(t);
    const std::string damaged = Damage(t, files[0], kind);

    ASSERT_OK(t.Open(PolicyOptions(t, DiskFailurePolicy::kBestEffort)));
    const RecoveryReport report = t.db->GetRecoveryReport();
    ASSERT_EQ(report.sstable_failures.size(), 1u);
    const SSTableFailure& failure = report.sstable_failures[0];
    EXPECT_EQ(failure.path, files[0]);
    EXPECT_TRUE(failure.out_of_service);
    EXPECT_EQ(failure.found_by, "open");
    ExpectNamesFileAndOffset(failure.error, files[0]);
    EXPECT_TRUE(report.removed_files.empty());

    EXPECT_EQ(Point(*t.db, 1), kNewerOnly);
    EXPECT_EQ(Scan(*t.db), "1,2,21;2,2,22;3,2,23");
    EXPECT_EQ(Scan(*t.db, TokenRange{}), "1,2,21;2,2,22;3,2,23");
    auto stats = t.db->GetTableStats("ks", "t");
    ASSERT_TRUE(stats.ok());
    EXPECT_EQ(stats->sstable_count, 1);
    ASSERT_EQ(stats->sstable_failures.size(), 1u);
    EXPECT_TRUE(stats->sstable_failures[0].out_of_service);

    // New data, a flush and a major compaction: the damaged file is in
    // none of them, and stays.
    ASSERT_OK(t.db->Apply(Row(1, 3, 31)));
    ASSERT_OK(t.db->Flush());
    ASSERT_OK(t.db->CompactMajor("ks", "t"));
    EXPECT_EQ(Point(*t.db, 1), "2,21;3,31");
    ExpectKept(t, files[0], damaged);

    // Out of service for good: a reopen under stop opens (the decision is
    // in the manifest) and reports the file again.
    ASSERT_OK(t.db->Close());
    ASSERT_OK(t.Open(PolicyOptions(t, DiskFailurePolicy::kStop)));
    ASSERT_EQ(t.db->GetRecoveryReport().sstable_failures.size(), 1u);
    EXPECT_TRUE(t.db->GetRecoveryReport().sstable_failures[0].out_of_service);
    EXPECT_EQ(t.db->GetRecoveryReport().sstable_failures[0].error, failure.error);
    EXPECT_TRUE(t.db->GetRecoveryReport().removed_files.empty());
    EXPECT_EQ(Point(*t.db, 1), "2,21;3,31");
    ExpectKept(t, files[0], damaged);
  }
}

// best_effort, damage found by a read (point, range or full scan) or a
// compaction: that request fails once, naming the file and offset and
// saying the file is now out of service; the requests after it answer
// from the other SSTable, before and after a reopen.
TEST(DiskFailurePolicyTest, BestEffortTakesAnSSTableARequestFindsDamagedOutOfService) {
  const std::vector<std::pair<std::string, std::function<Status(Database&)>>> requests = {
      {"point read",
       [](Database& db) {
         return db.Read(ReadPartition(1, {"ck", "v"})).status();
       }},
      {"range read",
       [](Database& db) {
         ReadQuery query;
         query.keyspace = "ks";
         query.table = "t";
         query.token_range = TokenRange{};
         return db.Read(query).status();
       }},
      {"streamed scan",
       [](Database& db) {
         ReadQuery query;
         query.keyspace = "ks";
         query.table = "t";
         return db.ReadEach(query, [](const RowView&) { return Status::OK(); }).status();
       }},
      {"compaction", [](Database& db) { return db.CompactMajor("ks", "t"); }},
  };
  for (const DamageKind& kind : DamageKinds()) {
    if (kind.found_at_open) continue;
    for (const auto& [request_name, request] : requests) {
      SCOPED_TRACE(kind.name + ", " + request_name);
      TestDb t;
      const std::vector<std::string> files = BuildTwoSSTables(t);
      const std::string damaged = Damage(t, files[0], kind);
      ASSERT_OK(t.Open(PolicyOptions(t, DiskFailurePolicy::kBestEffort)));
      EXPECT_TRUE(t.db->GetRecoveryReport().sstable_failures.empty());

      Status first = request(*t.db);
      // Every request reads the one data chunk and the partition index
      // (scans and compactions walk partitions through it).
      ASSERT_TRUE(first.IsCorruption()) << first.ToString();
      ExpectNamesFileAndOffset(first.message(), files[0]);
      EXPECT_NE(first.message().find("is out of service from now on"), std::string::npos)
          << first.message();
      const std::optional<SSTableFailure> failure = FindFailure(TableFailures(*t.db), files[0]);
      ASSERT_TRUE(failure.has_value());
      EXPECT_TRUE(failure->out_of_service);
      EXPECT_EQ(failure->found_by, request_name == "compaction" ? "compaction" : "read");

      ASSERT_OK(request(*t.db));
      EXPECT_EQ(Point(*t.db, 1), kNewerOnly);
      EXPECT_EQ(Scan(*t.db), "1,2,21;2,2,22;3,2,23");
      ExpectKept(t, files[0], damaged);

      ASSERT_OK(t.db->Close());
      ASSERT_OK(t.Open(PolicyOptions(t, DiskFailurePolicy::kStop)));
      EXPECT_EQ(Point(*t.db, 1), kNewerOnly);
      ASSERT_EQ(t.db->GetRecoveryReport().sstable_failures.size(), 1u);
      EXPECT_EQ(t.db->GetRecoveryReport().sstable_failures[0].error, failure->error);
      EXPECT_TRUE(t.db->GetRecoveryReport().removed_files.empty());
      ExpectKept(t, files[0], damaged);
    }
  }
}

// A read error is damage too: under best_effort the SSTable that could
// not be read is taken out of service (Cassandra's FSReadError under
// best_effort drops the unreadable SSTables) and stays out once the disk
// reads again; under stop the read fails and the file stays in service.
TEST(DiskFailurePolicyTest, AReadErrorIsTreatedAsDamage) {
  for (DiskFailurePolicy policy : {DiskFailurePolicy::kStop, DiskFailurePolicy::kBestEffort}) {
    SCOPED_TRACE(policy == DiskFailurePolicy::kStop ? "stop" : "best_effort");
    TestDb t;
    const std::vector<std::string> files = BuildTwoSSTables(t);
    const std::string original = *ReadFileToString(*t.fs, files[0]);
    auto faulty = std::make_shared<FaultInjectionFileSystem>(t.fs);
    Options options = PolicyOptions(t, policy);
    options.file_system = faulty;
    auto db = Database::Open(options, "/db");
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    faulty->AddRule({.op = FaultOp::kRead, .glob = files[0]});

    const std::string point = Point(**db, 1);
    EXPECT_TRUE(point.starts_with("IOError")) << point;
    EXPECT_NE(point.find(files[0]), std::string::npos) << point;
    const std::optional<SSTableFailure> failure = FindFailure(TableFailures(**db), files[0]);
    ASSERT_TRUE(failure.has_value());
    EXPECT_EQ(failure->found_by, "read");
    faulty->ClearRules();
    if (policy == DiskFailurePolicy::kStop) {
      EXPECT_FALSE(failure->out_of_service);
      EXPECT_EQ(Point(**db, 1), "1,11;2,21");  // the disk reads again
      // Compacted now (every row rewritten, then the file deleted as any
      // input is): it is no longer reported.
      ASSERT_OK((*db)->CompactMajor("ks", "t"));
      EXPECT_TRUE(TableFailures(**db).empty());
    } else {
      EXPECT_TRUE(failure->out_of_service);
      EXPECT_NE(point.find("is out of service from now on"), std::string::npos) << point;
      EXPECT_EQ(Point(**db, 1), kNewerOnly);
    }
    ASSERT_OK((*db)->Close());
    db->reset();
    ASSERT_OK(t.Open(PolicyOptions(t, DiskFailurePolicy::kStop)));
    if (policy == DiskFailurePolicy::kStop) {
      EXPECT_EQ(Point(*t.db, 1), "1,11;2,21");
    } else {
      EXPECT_EQ(Point(*t.db, 1), kNewerOnly);
      ExpectKept(t, files[0], original);
    }
  }
}

// ignore: the open skips what does not load, this time only (the
// manifest still names it: a stop open refuses again, and an ignore open
// skips it again); a read that meets damage fails, as under stop.
TEST(DiskFailurePolicyTest, IgnoreSkipsWhatDoesNotLoadAndLetsRequestsFail) {
  for (const DamageKind& kind : DamageKinds()) {
    SCOPED_TRACE(kind.name);
    TestDb t;
    const std::vector<std::string> files = BuildTwoSSTables(t);
    const std::string damaged = Damage(t, files[0], kind);
    ASSERT_OK(t.Open(PolicyOptions(t, DiskFailurePolicy::kIgnore)));
    if (kind.found_at_open) {
      const RecoveryReport report = t.db->GetRecoveryReport();
      ASSERT_EQ(report.sstable_failures.size(), 1u);
      EXPECT_EQ(report.sstable_failures[0].path, files[0]);
      EXPECT_FALSE(report.sstable_failures[0].out_of_service);
      ExpectNamesFileAndOffset(report.sstable_failures[0].error, files[0]);
      EXPECT_EQ(Point(*t.db, 1), kNewerOnly);
      EXPECT_EQ(Scan(*t.db, TokenRange{}), "1,2,21;2,2,22;3,2,23");
      ASSERT_OK(t.db->CompactMajor("ks", "t"));
      ASSERT_OK(t.db->Close());
      EXPECT_TRUE(t.Open(PolicyOptions(t, DiskFailurePolicy::kStop)).IsCorruption());
      ASSERT_OK(t.Open(PolicyOptions(t, DiskFailurePolicy::kIgnore)));
      EXPECT_EQ(t.db->GetRecoveryReport().sstable_failures.size(), 1u);
      EXPECT_EQ(Point(*t.db, 1), kNewerOnly);
    } else {
      EXPECT_TRUE(t.db->GetRecoveryReport().sstable_failures.empty());
      const std::string point = Point(*t.db, 1);
      EXPECT_TRUE(point.starts_with("Corruption")) << point;
      ExpectNamesFileAndOffset(point, files[0]);
      EXPECT_EQ(Point(*t.db, 1), point);  // never taken away
      for (const std::string& scanned : {Scan(*t.db), Scan(*t.db, TokenRange{})}) {
        EXPECT_TRUE(scanned.starts_with("Corruption")) << scanned;
        ExpectNamesFileAndOffset(scanned, files[0]);
      }
      Status major = t.db->CompactMajor("ks", "t");
      EXPECT_TRUE(major.IsCorruption()) << major.ToString();
      ExpectNamesFileAndOffset(major.message(), files[0]);
      ASSERT_OK(t.Reopen());
      EXPECT_EQ(Point(*t.db, 1), point);
      EXPECT_EQ(SSTableFiles(t), files);
    }
    EXPECT_TRUE(t.db->GetRecoveryReport().removed_files.empty());
    ExpectKept(t, files[0], damaged);
  }
}

// Cassandra's warning, as it shows here: a deletion held only by the
// SSTable taken out of service stops shadowing the older data it deleted
// ("you WILL see obsolete data"). While a table has an SSTable out of
// service, compactions purge no deletion: what they shadow may be in it.
TEST(DiskFailurePolicyTest, BestEffortCanBringBackDeletedDataAndPurgesNothing) {
  TestDb t;
  ASSERT_OK(t.Open(PolicyOptions(t, DiskFailurePolicy::kBestEffort)));
  ASSERT_OK(t.db->CreateKeyspace({.name = "ks"}));
  TableSchema schema = SimpleTable();
  schema.mutable_options().gc_grace_seconds = 0;
  ASSERT_OK(t.db->CreateTable(schema));
  ASSERT_OK(t.db->Apply(Row(1, 1, 11)));
  ASSERT_OK(t.db->Apply(Row(2, 1, 12)));
  ASSERT_OK(t.db->Flush());
  Mutation deletion("ks", "t", {Value::Int(1)});
  deletion.DeleteRow({Value::Int(1)});
  ASSERT_OK(t.db->Apply(deletion));
  ASSERT_OK(t.db->Flush());
  Mutation other_deletion("ks", "t", {Value::Int(2)});
  other_deletion.DeleteRow({Value::Int(1)});
  ASSERT_OK(t.db->Apply(other_deletion));
  ASSERT_OK(t.db->Apply(Row(3, 1, 13)));
  ASSERT_OK(t.db->Flush());
  EXPECT_EQ(Point(*t.db, 1), "");
  ASSERT_OK(t.db->Close());
  const std::vector<std::string> files = SSTableFiles(t);
  ASSERT_EQ(files.size(), 3u);
  Damage(t, files[1], DamageKinds()[2]);  // the deletion's file, found at open

  ASSERT_OK(t.Open());
  EXPECT_EQ(Point(*t.db, 1), "1,11");  // deleted, and back
  EXPECT_EQ(Point(*t.db, 2), "");
  t.Advance(10);
  ASSERT_OK(t.db->CompactMajor("ks", "t"));
  auto stats = t.db->GetTableStats("ks", "t");
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->tombstones_purged, 0);  // pk 2's deletion is past gc_grace, and kept
  EXPECT_EQ(Point(*t.db, 2), "");
}

// TRUNCATE removes every row of the table, those of an SSTable out of
// service included: the manifest stops naming it, and the report with it.
TEST(DiskFailurePolicyTest, TruncateDropsAnSSTableOutOfService) {
  TestDb t;
  const std::vector<std::string> files = BuildTwoSSTables(t);
  Damage(t, files[0], DamageKinds()[3]);
  ASSERT_OK(t.Open(PolicyOptions(t, DiskFailurePolicy::kBestEffort)));
  ASSERT_EQ(TableFailures(*t.db).size(), 1u);
  ASSERT_OK(t.db->Truncate("ks", "t"));
  EXPECT_TRUE(TableFailures(*t.db).empty());
  ASSERT_OK(t.db->Apply(Row(1, 5, 15)));
  ASSERT_OK(t.Reopen());
  EXPECT_TRUE(t.db->GetRecoveryReport().sstable_failures.empty());
  // Named by no manifest any more: an orphan, deleted like a truncated
  // table's other files.
  const std::vector<std::string> removed = t.db->GetRecoveryReport().removed_files;
  EXPECT_NE(std::find(removed.begin(), removed.end(), files[0]), removed.end());
  EXPECT_EQ(Point(*t.db, 1), "5,15");
}

}  // namespace
}  // namespace cassette::testing
