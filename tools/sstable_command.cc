#include "tools/sstable_command.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "engine/compaction/time_window_options.h"
#include "engine/sstable/sstable_format.h"
#include "engine/types/type_codec.h"
#include "tools/sstable_inspect.h"
#include "tools/time_text.h"

namespace cassette::tools {

namespace {

using Action = SSTableSettings::Action;

Result<Action> ParseAction(const std::string& text) {
  if (text == "dump") return Action::kDump;
  if (text == "meta") return Action::kMeta;
  if (text == "verify") return Action::kVerify;
  if (text == "expired-blockers") return Action::kExpiredBlockers;
  if (text == "layout") return Action::kLayout;
  return Status::InvalidArgument(
      "cassette sstable needs dump, meta, verify, expired-blockers or layout, not '" + text + "'");
}

std::string Fixed(double value, int digits) {
  if (!std::isfinite(value)) return "null";
  char buffer[48];
  std::snprintf(buffer, sizeof(buffer), "%.*f", digits, value);
  return buffer;
}

// An int64 bound that may be "nothing" (INT64_MAX / INT64_MIN).
std::string Bound(int64_t value, bool seconds, bool json) {
  if (value == INT64_MAX || value == INT64_MIN) return json ? "null" : "(none)";
  const std::string iso = seconds ? FormatLocalSeconds(value) : FormatTimestampMicros(value);
  if (json) return std::to_string(value);
  return std::to_string(value) + " (" + iso + ")";
}

// The histogram's non-empty buckets: "upper bound: count" lines, or a JSON
// array of [upper bound, count] (the last bucket, overflow, has no bound).
std::string Histogram(const EstimatedHistogram& histogram, bool json) {
  std::string out;
  const std::vector<uint64_t>& offsets = histogram.bucket_offsets();
  const std::vector<uint64_t>& counts = histogram.buckets();
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0) continue;
    const std::string bound = i < offsets.size() ? std::to_string(offsets[i]) : "null";
    if (json) {
      if (!out.empty()) out += ",";
      out += "[" + bound + "," + std::to_string(counts[i]) + "]";
    } else {
      out += "\t" + (i < offsets.size() ? "<= " + bound : std::string("overflow")) + ": " +
             std::to_string(counts[i]) + "\n";
    }
  }
  return json ? "[" + out + "]" : (out.empty() ? "\t(empty)\n" : out);
}

// The TWCS window [start, end) of the file (the window of its newest
// timestamp, as TWCS buckets it), when the table uses TWCS.
std::optional<std::pair<int64_t, int64_t>> TwcsWindow(const TableSchema& schema,
                                                      const SSTableStats& stats) {
  const auto& compaction = schema.options().compaction;
  auto cls = compaction.find("class");
  if (cls == compaction.end() || (cls->second != "TimeWindowCompactionStrategy" &&
                                  cls->second != "org.apache.cassandra.db.compaction."
                                                 "TimeWindowCompactionStrategy")) {
    return std::nullopt;
  }
  if (stats.max_timestamp == INT64_MIN) return std::nullopt;
  std::map<std::string, std::string> options(compaction.begin(), compaction.end());
  options.erase("class");
  std::set<std::string> unconsumed;
  for (const auto& [key, value] : options) unconsumed.insert(key);
  Result<TimeWindowOptions> window = ParseTimeWindowOptions(options, &unconsumed);
  if (!window.ok()) return std::nullopt;
  const int64_t start = window->WindowStartSeconds(stats.max_timestamp);
  return std::make_pair(start * 1000000, (start + window->window_seconds()) * 1000000);
}

int RunMeta(const SSTableSettings& settings, std::shared_ptr<FileSystem> fs, std::ostream& out,
            std::ostream& err) {
  Result<std::shared_ptr<SSTableReader>> reader = SSTableReader::Open(fs.get(), settings.path);
  if (!reader.ok()) {
    err << "cassette sstable meta: " << reader.status().ToString() << "\n";
    return 1;
  }
  const SSTableStats& s = (*reader)->stats();
  std::string why;
  std::optional<TableSchema> schema = ResolveSchema(settings, fs, settings.path, &why);
  const int64_t gc_before_micros = NowMicros(settings);
  const double droppable = s.DroppableTombstoneRatio(gc_before_micros / 1000000);
  const double ratio = s.uncompressed_size == 0 ? 1.0
                                                : static_cast<double>(s.compressed_size) /
                                                      static_cast<double>(s.uncompressed_size);
  std::optional<std::pair<int64_t, int64_t>> window;
  if (schema) window = TwcsWindow(*schema, s);
  const bool json = settings.format == OutputFormat::kJson;
  if (json) {
    std::string o = "{\"sstable\":" + JsonQuote(settings.path);
    o += ",\"table\":" +
         (schema ? JsonQuote(schema->keyspace() + "." + schema->name()) : std::string("null"));
    o += ",\"file_size\":" + std::to_string((*reader)->file_size());
    o += ",\"partitions\":" + std::to_string(s.partition_count);
    o += ",\"rows\":" + std::to_string(s.row_count);
    o += ",\"cells\":" + std::to_string(s.cell_count);
    o += ",\"tombstone_cells\":" + std::to_string(s.tombstone_cell_count);
    o += ",\"expiring_cells\":" + std::to_string(s.expiring_cell_count);
    o += ",\"range_tombstones\":" + std::to_string(s.range_tombstone_count);
    o += ",\"partition_deletions\":" + std::to_string(s.partition_deletion_count);
    o += ",\"min_timestamp\":" + Bound(s.min_timestamp, false, true);
    o += ",\"max_timestamp\":" + Bound(s.max_timestamp, false, true);
    o += ",\"min_local_deletion_time\":" + Bound(s.min_local_deletion_time, true, true);
    o += ",\"max_local_deletion_time\":" + Bound(s.max_local_deletion_time, true, true);
    o += ",\"min_ttl\":" + (s.min_ttl == INT32_MAX ? "null" : std::to_string(s.min_ttl));
    o += ",\"max_ttl\":" + std::to_string(s.max_ttl);
    o += ",\"gc_before\":" + JsonQuote(FormatIsoMicros(gc_before_micros));
    o += ",\"estimated_droppable_tombstones\":" + Fixed(droppable, 6);
    o += ",\"uncompressed_bytes\":" + std::to_string(s.uncompressed_size);
    o += ",\"compressed_bytes\":" + std::to_string(s.compressed_size);
    o += ",\"compression_ratio\":" + Fixed(ratio, 6);
    o += ",\"partition_size_histogram\":" + Histogram(s.partition_sizes, true);
    o += ",\"cell_count_histogram\":" + Histogram(s.cells_per_partition, true);
    o += ",\"twcs_window\":" +
         (window ? "{\"start\":" + JsonQuote(FormatIsoMicros(window->first)) +
                       ",\"end\":" + JsonQuote(FormatIsoMicros(window->second)) + "}"
                 : std::string("null"));
    out << o << "}\n";
    return 0;
  }
  out << "SSTable: " << settings.path << "\n";
  out << "Table: " << (schema ? schema->keyspace() + "." + schema->name() : "unknown (" + why + ")")
      << "\n";
  out << "File size: " << (*reader)->file_size() << " bytes\n";
  out << "Partitions: " << s.partition_count << "; rows: " << s.row_count
      << "; cells: " << s.cell_count << " (" << s.tombstone_cell_count << " tombstones, "
      << s.expiring_cell_count << " expiring)\n";
  out << "Deletions: " << s.partition_deletion_count << " partition, " << s.range_tombstone_count
      << " range, " << s.row_deletion_count << " row, " << s.complex_deletion_count
      << " collection\n";
  out << "Minimum timestamp: " << Bound(s.min_timestamp, false, false) << "\n";
  out << "Maximum timestamp: " << Bound(s.max_timestamp, false, false) << "\n";
  out << "SSTable min local deletion time: " << Bound(s.min_local_deletion_time, true, false)
      << "\n";
  // kNoDeletionTime there: a cell or marker without a TTL, which never expires.
  out << "SSTable max local deletion time: "
      << (s.max_local_deletion_time == INT64_MAX ? "never (holds data without a TTL)"
                                                 : Bound(s.max_local_deletion_time, true, false))
      << "\n";
  out << "TTL min: " << (s.min_ttl == INT32_MAX ? "(none)" : std::to_string(s.min_ttl))
      << "; TTL max: " << s.max_ttl << "\n";
  out << "Estimated droppable tombstones at " << FormatIsoMicros(gc_before_micros) << ": "
      << Fixed(droppable, 6) << "\n";
  out << "Compression ratio: " << Fixed(ratio, 3) << " (" << s.compressed_size << " of "
      << s.uncompressed_size << " bytes)\n";
  if (window) {
    out << "TWCS window: " << FormatIsoMicros(window->first) << " .. "
        << FormatIsoMicros(window->second) << "\n";
  }
  out << "Partition size (bytes):\n" << Histogram(s.partition_sizes, false);
  out << "Cells per partition:\n" << Histogram(s.cells_per_partition, false);
  out << "Details:\n" << (*reader)->Describe();
  return 0;
}

// The index against the data: every partition the index lists is where it
// says, in order, back to back, and the data holds no other; every row
// decodes.
Status VerifyIndexAgainstData(const SSTableReader& reader) {
  CASSETTE_ASSIGN_OR_RETURN(std::vector<IndexedPartition> index, ReadPartitionIndex(reader));
  uint64_t expected_position = 0;
  for (size_t i = 0; i < index.size(); ++i) {
    const IndexedPartition& entry = index[i];
    if (i > 0 && entry.sort_key <= index[i - 1].sort_key) {
      return SSTableCorruption(reader.path(), entry.index_block_offset,
                               "partition index out of order");
    }
    if (entry.data_position != expected_position) {
      return SSTableCorruption(reader.path(), entry.index_block_offset,
                               "partition index entry points at data position " +
                                   std::to_string(entry.data_position) + ", expected " +
                                   std::to_string(expected_position));
    }
    expected_position += entry.partition_length;
  }
  if (expected_position != reader.stats().uncompressed_size) {
    return SSTableCorruption(reader.path(), 0,
                             "partition index covers " + std::to_string(expected_position) +
                                 " bytes of data, the data stream holds " +
                                 std::to_string(reader.stats().uncompressed_size));
  }
  std::unique_ptr<PartitionIterator> scanner = reader.NewScanner(TokenInterval::All(), nullptr);
  size_t i = 0;
  for (; scanner->Valid(); scanner->Next(), ++i) {
    PartitionContent& content = scanner->partition();
    if (i >= index.size() || content.key.SortKey() != index[i].sort_key) {
      const uint64_t at = i < index.size() ? index[i].data_position : expected_position;
      return SSTableCorruption(reader.path(), at,
                               "data holds a partition the index does not list there");
    }
    for (RowIterator& rows = *content.rows; rows.Valid(); rows.Next()) {
      (void)rows.row();
    }
    CASSETTE_RETURN_IF_ERROR(content.rows->status());
  }
  CASSETTE_RETURN_IF_ERROR(scanner->status());
  if (i != index.size()) {
    return SSTableCorruption(reader.path(), index[i].data_position,
                             "index lists a partition the data does not hold");
  }
  return Status::OK();
}

// Every *.sst under `path` (recursively), or `path` itself.
Result<std::vector<std::string>> SSTableFiles(FileSystem* fs, const std::string& path) {
  if (path.size() > 4 && path.substr(path.size() - 4) == ".sst") return std::vector{path};
  Result<std::vector<std::string>> children = fs->GetChildren(path);
  if (!children.ok()) return std::vector{path};  // a file: Open names the problem
  std::vector<std::string> files;
  std::sort(children->begin(), children->end());
  for (const std::string& child : *children) {
    if (child == "." || child == "..") continue;
    const std::string full = path + "/" + child;
    if (child.size() > 4 && child.substr(child.size() - 4) == ".sst") {
      files.push_back(full);
    } else if (fs->GetChildren(full).ok()) {
      CASSETTE_ASSIGN_OR_RETURN(std::vector<std::string> nested, SSTableFiles(fs, full));
      files.insert(files.end(), nested.begin(), nested.end());
    }
  }
  return files;
}

int RunVerify(const SSTableSettings& settings, std::shared_ptr<FileSystem> fs, std::ostream& out,
              std::ostream& err) {
  Result<std::vector<std::string>> files = SSTableFiles(fs.get(), settings.path);
  if (!files.ok()) {
    err << "cassette sstable verify: " << files.status().ToString() << "\n";
    return 1;
  }
  if (files->empty()) {
    err << "cassette sstable verify: no .sst files under " << settings.path << "\n";
    return 1;
  }
  for (const std::string& file : *files) {
    Result<std::shared_ptr<SSTableReader>> reader = SSTableReader::Open(fs.get(), file);
    Status status = reader.ok() ? (*reader)->VerifyChecksums() : reader.status();
    if (status.ok()) status = VerifyIndexAgainstData(**reader);
    if (!status.ok()) {
      err << "cassette sstable verify: " << file << ": " << status.ToString() << "\n";
      return 1;
    }
    const SSTableStats& s = (*reader)->stats();
    out << file << ": OK, " << (*reader)->file_size() << " bytes, " << s.partition_count
        << " partitions, " << s.row_count << " rows\n";
  }
  return 0;
}

}  // namespace

Result<SSTableSettings> ParseSSTableArguments(const std::vector<std::string>& args) {
  if (args.empty()) {
    return Status::InvalidArgument(
        "cassette sstable needs dump, meta, verify, expired-blockers or layout");
  }
  SSTableSettings settings;
  CASSETTE_ASSIGN_OR_RETURN(settings.action, ParseAction(args[0]));
  std::vector<std::string> positional;
  for (size_t i = 1; i < args.size(); ++i) {
    std::string flag = args[i];
    std::optional<std::string> inline_value;
    const size_t eq = flag.find('=');
    if (flag.rfind("--", 0) == 0 && eq != std::string::npos) {
      inline_value = flag.substr(eq + 1);
      flag.resize(eq);
    }
    auto value = [&]() -> Result<std::string> {
      if (inline_value) return *inline_value;
      if (i + 1 >= args.size()) return Status::InvalidArgument(flag + " needs a value");
      return args[++i];
    };
    if (flag == "--key" || flag == "-k") {
      if (settings.action != Action::kDump) {
        return Status::InvalidArgument("--key is for cassette sstable dump");
      }
      CASSETTE_ASSIGN_OR_RETURN(settings.key, value());
    } else if (flag == "--data") {
      CASSETTE_ASSIGN_OR_RETURN(settings.data_dir, value());
      if (settings.data_dir->empty()) return Status::InvalidArgument("--data needs a directory");
    } else if (flag == "--format") {
      CASSETTE_ASSIGN_OR_RETURN(std::string text, value());
      if (text == "table") {
        settings.format = OutputFormat::kTable;
      } else if (text == "json") {
        settings.format = OutputFormat::kJson;
      } else {
        return Status::InvalidArgument("--format must be table or json, not '" + text + "'");
      }
    } else if (flag == "--gc-before" || flag == "--now") {
      CASSETTE_ASSIGN_OR_RETURN(std::string text, value());
      CASSETTE_ASSIGN_OR_RETURN(settings.at_micros, ParseIsoMicros(text));
    } else if (!flag.empty() && flag[0] == '-') {
      return Status::InvalidArgument("unknown argument to cassette sstable: '" + flag + "'");
    } else {
      positional.push_back(args[i]);
    }
  }
  const bool table_tool =
      settings.action == Action::kExpiredBlockers || settings.action == Action::kLayout;
  if (table_tool) {
    if (!settings.data_dir || positional.size() != 1) {
      return Status::InvalidArgument("cassette sstable " + args[0] + " needs --data DIR ks.table");
    }
    settings.table = positional[0];
  } else if (positional.size() == 1) {
    settings.path = positional[0];
  } else if (positional.size() == 2 && settings.data_dir) {
    settings.path = positional[0];  // FILE --data DIR ks.table
    settings.table = positional[1];
  } else {
    return Status::InvalidArgument(
        "cassette sstable " + args[0] +
        (settings.action == Action::kVerify ? " needs FILE or DIR" : " needs one FILE"));
  }
  return settings;
}

int RunSSTableCommand(const SSTableSettings& settings, std::shared_ptr<FileSystem> file_system,
                      std::ostream& out, std::ostream& err) {
  switch (settings.action) {
    case Action::kDump:
      return RunDump(settings, std::move(file_system), out, err);
    case Action::kMeta:
      return RunMeta(settings, std::move(file_system), out, err);
    case Action::kVerify:
      return RunVerify(settings, std::move(file_system), out, err);
    case Action::kExpiredBlockers:
      return RunExpiredBlockers(settings, std::move(file_system), out, err);
    case Action::kLayout:
      return RunLayout(settings, std::move(file_system), out, err);
  }
  return 1;
}

}  // namespace cassette::tools
