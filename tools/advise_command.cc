#include "tools/advise_command.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <utility>

#include "cassette/db.h"
#include "engine/types/type_codec.h"
#include "tools/advise_observed.h"
#include "tools/shell_directives.h"
#include "tools/time_text.h"

namespace cassette::tools {

namespace {

std::string Number(double value) {
  if (!std::isfinite(value)) return "null";
  char buffer[32];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  if (error != std::errc()) return "null";
  return std::string(buffer, end);
}

std::string RateLabel(double rows_per_second) {
  char buffer[48];
  std::snprintf(buffer, sizeof(buffer), "%.6g rows/s", rows_per_second);
  return buffer;
}

// Left-aligned columns separated by two spaces.
std::string Columns(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    if (widths.size() < row.size()) widths.resize(row.size());
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - row[i].size() + 2, ' ');
    }
    out += "  " + line + "\n";
  }
  return out;
}

std::string CompactionCql(const Advice& advice) {
  return "{'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': '" +
         advice.window.unit + "', 'compaction_window_size': " + std::to_string(advice.window.size) +
         "}";
}

std::string ChoiceJson(const BucketChoice& choice) {
  return "{\"bucket_seconds\":" + std::to_string(choice.bucket_seconds) +
         ",\"bucket\":" + JsonQuote(DurationLabel(choice.bucket_seconds)) +
         ",\"rows_per_partition\":" + Number(choice.rows_per_partition) +
         ",\"partition_bytes\":" + Number(choice.partition_bytes) +
         ",\"sub_buckets_needed\":" + std::to_string(choice.sub_buckets_needed) +
         ",\"window_count\":" + std::to_string(choice.window_count) +
         ",\"note\":" + JsonQuote(choice.note) +
         ",\"recommended\":" + (choice.recommended ? "true" : "false") + "}";
}

// The "input", "recommendation" and "candidates" members (no braces).
std::string AdviceJsonMembers(const Advice& advice) {
  const AdviseInput& in = advice.input;
  std::string out = "\"input\":{\"rows_per_second_per_identifier\":" + Number(in.rows_per_second) +
                    ",\"row_bytes\":" + Number(in.row_bytes) +
                    ",\"ttl_seconds\":" + std::to_string(in.ttl_seconds) +
                    ",\"target_partition_bytes\":" + Number(in.target_partition_bytes) +
                    ",\"identifiers\":" + std::to_string(in.identifiers) + "}";
  out += ",\"recommendation\":{\"bucket_seconds\":" + std::to_string(advice.bucket.bucket_seconds) +
         ",\"bucket\":" + JsonQuote(DurationLabel(advice.bucket.bucket_seconds)) +
         ",\"sub_buckets\":" + std::to_string(advice.sub_buckets) +
         ",\"partition_bytes\":" + Number(advice.partition_bytes) +
         ",\"twcs_recommended\":" + (advice.twcs_recommended ? "true" : "false") +
         ",\"compaction_window_unit\":" + JsonQuote(advice.window.unit) +
         ",\"compaction_window_size\":" + std::to_string(advice.window.size) + "," +
         (in.ttl_seconds > 0 ? "\"window_count\":" : "\"windows_per_year\":") +
         std::to_string(advice.window_count) +
         ",\"bytes_per_day\":" + Number(advice.bytes_per_day) +
         ",\"live_bytes\":" + Number(advice.live_bytes) + ",\"reasons\":[";
  for (size_t i = 0; i < advice.reasons.size(); ++i) {
    if (i > 0) out += ",";
    out += JsonQuote(advice.reasons[i]);
  }
  out += "]},\"candidates\":[";
  for (size_t i = 0; i < advice.candidates.size(); ++i) {
    if (i > 0) out += ",";
    out += ChoiceJson(advice.candidates[i]);
  }
  return out + "]";
}

Result<double> ParsePositiveNumber(const std::string& flag, const std::string& text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !(value > 0) ||
      !std::isfinite(value)) {
    return Status::InvalidArgument(flag + " must be a positive number, not '" + text + "'");
  }
  return value;
}

int RunObserved(const AdviseSettings& settings, std::shared_ptr<FileSystem> file_system,
                std::ostream& out, std::ostream& err) {
  std::string keyspace;
  std::string table;
  if (!ParseTableName(settings.table, &keyspace, &table) || keyspace.empty()) {
    err << "cassette advise: '" << settings.table << "' is not keyspace.table\n";
    return 1;
  }
  Options options;
  options.file_system = std::move(file_system);
  options.read_only = true;
  options.create_if_missing = false;
  if (settings.manual_clock_micros) {
    options.clock = std::make_shared<ManualClock>(*settings.manual_clock_micros);
  }
  Result<std::unique_ptr<Database>> db = Database::Open(options, *settings.data_dir);
  if (!db.ok()) {
    err << "cassette advise: cannot open " << *settings.data_dir << ": " << db.status().ToString()
        << "\n";
    return 1;
  }
  Result<ObservedWorkload> observed = ObserveTable(db->get(), keyspace, table);
  Status closed = (*db)->Close();
  if (!observed.ok()) {
    err << "cassette advise: " << keyspace << "." << table << ": " << observed.status().ToString()
        << "\n";
    return 1;
  }
  AdviseInput input;
  // The busiest identifier must fit: the bucket is the same for all.
  input.rows_per_second = observed->busiest_rows_per_second;
  input.row_bytes = observed->row_bytes;
  input.ttl_seconds = observed->dominant_ttl_seconds;
  input.target_partition_bytes = settings.target_partition_bytes;
  input.identifiers = std::max<int64_t>(1, observed->identifiers);
  Result<Advice> advice = Advise(input);
  if (!advice.ok()) {
    err << "cassette advise: " << advice.status().ToString() << "\n";
    return 1;
  }
  const std::vector<std::string> findings = CompareWithAdvice(*observed, *advice);
  if (settings.format == OutputFormat::kJson) {
    out << "{" << ObservedJsonMembers(*observed, findings) << "," << AdviceJsonMembers(*advice)
        << "}\n";
  } else {
    out << ObservedText(*observed, findings) << "\n" << AdviceText(*advice);
  }
  if (!closed.ok()) {
    err << "cassette advise: " << closed.ToString() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

Result<AdviseSettings> ParseAdviseArguments(const std::vector<std::string>& args) {
  AdviseSettings settings;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string flag = args[i];
    std::optional<std::string> inline_value;
    const size_t eq = flag.find('=');
    if (flag.rfind("--", 0) == 0 && eq != std::string::npos) {
      inline_value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
    }
    auto value = [&]() -> Result<std::string> {
      if (inline_value) return *inline_value;
      if (i + 1 >= args.size()) return Status::InvalidArgument(flag + " needs a value");
      return args[++i];
    };
    if (flag == "--rate") {
      CASSETTE_ASSIGN_OR_RETURN(std::string text, value());
      Result<double> rate = ParseRatePerSecond(text);
      if (!rate.ok()) return Status::InvalidArgument("--rate: " + rate.status().message());
      settings.rows_per_second = *rate;
    } else if (flag == "--row-bytes") {
      CASSETTE_ASSIGN_OR_RETURN(std::string text, value());
      Result<double> bytes = ParseByteSize(text);
      if (!bytes.ok()) return Status::InvalidArgument("--row-bytes: " + bytes.status().message());
      settings.row_bytes = *bytes;
    } else if (flag == "--ttl") {
      CASSETTE_ASSIGN_OR_RETURN(std::string text, value());
      Result<int64_t> ttl = ParseDurationSeconds(text);
      if (!ttl.ok()) return Status::InvalidArgument("--ttl: " + ttl.status().message());
      settings.ttl_seconds = *ttl;
      settings.ttl_given = true;
    } else if (flag == "--target-partition-mb") {
      CASSETTE_ASSIGN_OR_RETURN(std::string text, value());
      CASSETTE_ASSIGN_OR_RETURN(double mb, ParsePositiveNumber(flag, text));
      settings.target_partition_bytes = mb * 1e6;
    } else if (flag == "--identifiers") {
      CASSETTE_ASSIGN_OR_RETURN(std::string text, value());
      CASSETTE_ASSIGN_OR_RETURN(double count, ParsePositiveNumber(flag, text));
      if (count != std::floor(count) || count > 1e12) {
        return Status::InvalidArgument("--identifiers must be a whole number, not '" + text + "'");
      }
      settings.identifiers = static_cast<int64_t>(count);
    } else if (flag == "--data") {
      CASSETTE_ASSIGN_OR_RETURN(settings.data_dir, value());
      if (settings.data_dir->empty()) return Status::InvalidArgument("--data needs a directory");
    } else if (flag == "--clock") {
      CASSETTE_ASSIGN_OR_RETURN(std::string text, value());
      if (text != "system") {
        const std::string prefix = "manual:";
        if (text.rfind(prefix, 0) != 0) {
          return Status::InvalidArgument("--clock must be system or manual:<ISO-8601>, not '" +
                                         text + "'");
        }
        CASSETTE_ASSIGN_OR_RETURN(int64_t micros, ParseIsoMicros(text.substr(prefix.size())));
        Status in_range = CheckManualClockMicros(micros, "--clock");
        if (!in_range.ok()) return Status::InvalidArgument(in_range.message());
        settings.manual_clock_micros = micros;
      }
    } else if (flag == "--format") {
      CASSETTE_ASSIGN_OR_RETURN(std::string text, value());
      if (text == "table") {
        settings.format = OutputFormat::kTable;
      } else if (text == "json") {
        settings.format = OutputFormat::kJson;
      } else {
        return Status::InvalidArgument("--format must be table or json, not '" + text + "'");
      }
    } else if (!flag.empty() && flag[0] != '-' && settings.table.empty()) {
      settings.table = flag;
    } else {
      return Status::InvalidArgument("unknown argument to cassette advise: '" + flag + "'");
    }
  }
  if (settings.data_dir) {
    if (settings.table.empty()) {
      return Status::InvalidArgument("cassette advise --data DIR needs a table (ks.table)");
    }
    if (settings.rows_per_second || settings.row_bytes || settings.ttl_given ||
        settings.identifiers != 1) {
      return Status::InvalidArgument(
          "cassette advise --data derives the rate, row size and TTL from the table; drop "
          "--rate, --row-bytes, --ttl and --identifiers");
    }
    return settings;
  }
  if (!settings.table.empty()) {
    return Status::InvalidArgument("a table (" + settings.table + ") needs --data DIR");
  }
  if (settings.manual_clock_micros) {
    return Status::InvalidArgument("--clock goes with --data DIR ks.table");
  }
  if (!settings.rows_per_second || !settings.row_bytes) {
    return Status::InvalidArgument(
        "cassette advise needs --rate and --row-bytes (or --data DIR ks.table)");
  }
  return settings;
}

std::string AdviceText(const Advice& advice) {
  const AdviseInput& in = advice.input;
  const bool ttl = in.ttl_seconds > 0;
  std::string out = "Workload: " + RateLabel(in.rows_per_second) + " per identifier";
  if (in.identifiers > 1) out += " (" + std::to_string(in.identifiers) + " identifiers)";
  out += ", rows of " + BytesLabel(in.row_bytes) + ", " +
         (ttl ? "TTL " + DurationLabel(in.ttl_seconds) : std::string("no TTL")) + ", target " +
         BytesLabel(in.target_partition_bytes) + " per partition\n\n";
  std::vector<std::vector<std::string>> rows = {
      {"bucket", "rows/partition", "partition", "sub-buckets",
       ttl ? "windows over TTL" : "windows per year", "note"}};
  for (const BucketChoice& choice : advice.candidates) {
    char rows_text[32];
    std::snprintf(rows_text, sizeof(rows_text), choice.rows_per_partition >= 1000 ? "%.0f" : "%.3g",
                  choice.rows_per_partition);
    rows.push_back({DurationLabel(choice.bucket_seconds) + (choice.recommended ? " *" : ""),
                    rows_text, BytesLabel(choice.partition_bytes),
                    std::to_string(choice.sub_buckets_needed), std::to_string(choice.window_count),
                    choice.recommended ? "recommended; " + choice.note : choice.note});
  }
  out += Columns(rows);
  out +=
      "  (partition: one identifier's rows in one bucket; windows: if the TWCS window "
      "equalled the bucket)\n\nRecommendation:\n";
  std::vector<std::vector<std::string>> lines = {
      {"time bucket", DurationLabel(advice.bucket.bucket_seconds) + " (bucket = epoch seconds / " +
                          std::to_string(advice.bucket.bucket_seconds) + ")"},
      {"sub-buckets", advice.sub_buckets == 1
                          ? std::string("none")
                          : std::to_string(advice.sub_buckets) + " per identifier and bucket"},
      {"partition", BytesLabel(advice.partition_bytes) + " per partition"},
      {"compaction", (advice.twcs_recommended ? "" : "(only if TWCS) ") + CompactionCql(advice)},
      {"windows", std::to_string(advice.window_count) +
                      (ttl ? " over the TTL" : " more every year, never dropped")},
      {"table",
       BytesLabel(advice.bytes_per_day) + " written per day" +
           (ttl ? ", " + BytesLabel(advice.live_bytes) + " live at steady state" : std::string())},
  };
  out += Columns(lines);
  out += "Why:\n";
  for (const std::string& reason : advice.reasons) out += "  - " + reason + "\n";
  return out;
}

std::string AdviceJson(const Advice& advice) { return "{" + AdviceJsonMembers(advice) + "}"; }

int RunAdviseCommand(const AdviseSettings& settings, std::shared_ptr<FileSystem> file_system,
                     std::ostream& out, std::ostream& err) {
  if (settings.data_dir) return RunObserved(settings, std::move(file_system), out, err);
  AdviseInput input;
  input.rows_per_second = settings.rows_per_second.value_or(0);
  input.row_bytes = settings.row_bytes.value_or(0);
  input.ttl_seconds = settings.ttl_seconds;
  input.target_partition_bytes = settings.target_partition_bytes;
  input.identifiers = settings.identifiers;
  Result<Advice> advice = Advise(input);
  if (!advice.ok()) {
    err << "cassette advise: " << advice.status().message() << "\n";
    return 1;
  }
  out << (settings.format == OutputFormat::kJson ? AdviceJson(*advice) + "\n"
                                                 : AdviceText(*advice));
  return 0;
}

}  // namespace cassette::tools
