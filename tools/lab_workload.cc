#include "tools/lab_workload.h"

#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

// Debian's toml++ is a shared library built with exceptions: its parse
// throws toml::parse_error, caught right at the call and made a Status.
#include <toml++/toml.h>

#include "engine/schema/ttl_limit.h"

namespace cassette::tools {
namespace {

// Reads keys of one TOML document, noting every problem with its line.
class Reader {
 public:
  Reader(const toml::table& root, std::string name) : root_(root), name_(std::move(name)) {}

  // Sets *out from section.key when present; a value of another type is a
  // problem. Returns whether the key was present.
  template <class T>
  bool Get(std::string_view section, std::string_view key, T* out) {
    const toml::node* node = Find(section, key);
    if (node == nullptr) return false;
    if constexpr (std::is_same_v<T, std::string>) {
      if (auto v = node->value<std::string>()) {
        *out = *v;
        return true;
      }
      Problem(node, std::string(section) + "." + std::string(key) + " must be a string");
    } else if constexpr (std::is_same_v<T, double>) {
      if (auto v = node->value<double>()) {  // integers convert
        *out = *v;
        return true;
      }
      Problem(node, std::string(section) + "." + std::string(key) + " must be a number");
    } else {
      if (auto v = node->value<int64_t>()) {
        *out = static_cast<T>(*v);
        return true;
      }
      Problem(node, std::string(section) + "." + std::string(key) + " must be an integer");
    }
    return true;
  }

  // A duration: an integer of seconds or a string such as "7d".
  void GetDuration(std::string_view section, std::string_view key, int64_t* out) {
    const toml::node* node = Find(section, key);
    if (node == nullptr) return;
    if (auto v = node->value<int64_t>()) {
      *out = *v;
      return;
    }
    if (auto v = node->value<std::string>()) {
      Result<int64_t> d = ParseDuration(*v);
      if (d.ok()) {
        *out = *d;
        return;
      }
    }
    Problem(node, std::string(section) + "." + std::string(key) +
                      " must be seconds or a duration such as \"7d\", \"12h\", \"30m\"");
  }

  const toml::node* Find(std::string_view section, std::string_view key) {
    const toml::table* table = root_[section].as_table();
    if (table == nullptr) return nullptr;
    seen_.insert(std::string(section) + "." + std::string(key));
    return table->get(key);
  }

  const toml::table* Section(std::string_view section) { return root_[section].as_table(); }

  void Problem(const toml::node* node, const std::string& what) {
    std::string where = name_;
    if (node != nullptr && node->source().begin.line > 0) {
      where += ":" + std::to_string(node->source().begin.line);
    }
    problems_.push_back(where + ": " + what);
  }
  void Problem(const std::string& what) { problems_.push_back(name_ + ": " + what); }

  // Keys nobody asked for are typos until proven otherwise (as Cassandra
  // rejects unknown compaction options).
  void CheckUnknownKeys() {
    static const std::set<std::string> kSections = {"table", "writes", "deletes", "reads", "run"};
    for (const auto& [section_key, section] : root_) {
      const std::string section_name(section_key.str());
      if (!kSections.count(section_name) || !section.is_table()) {
        Problem(&section, "unknown section [" + section_name + "]");
        continue;
      }
      for (const auto& [key, value] : *section.as_table()) {
        const std::string full = section_name + "." + std::string(key.str());
        if (!seen_.count(full)) Problem(&value, "unknown key " + full);
      }
    }
  }

  const std::vector<std::string>& problems() const { return problems_; }

 private:
  const toml::table& root_;
  const std::string name_;
  std::set<std::string> seen_;
  std::vector<std::string> problems_;
};

// "CREATE TABLE [IF NOT EXISTS] ks.t (" -> ks, t.
bool TableName(std::string_view cql, std::string* keyspace, std::string* table) {
  std::string upper;
  for (char c : cql)
    upper.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  size_t at = upper.find("TABLE");
  if (at == std::string::npos) return false;
  at += 5;
  auto skip_space = [&] {
    while (at < cql.size() && std::isspace(static_cast<unsigned char>(cql[at]))) ++at;
  };
  skip_space();
  if (upper.compare(at, 13, "IF NOT EXISTS") == 0) {
    at += 13;
    skip_space();
  }
  const size_t start = at;
  while (at < cql.size() &&
         (std::isalnum(static_cast<unsigned char>(cql[at])) || cql[at] == '_' || cql[at] == '.')) {
    ++at;
  }
  const std::string name(cql.substr(start, at - start));
  const size_t dot = name.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == name.size()) return false;
  *keyspace = name.substr(0, dot);
  *table = name.substr(dot + 1);
  return true;
}

void ReadTtlMix(Reader* r, WorkloadSpec* spec) {
  const toml::table* writes = r->Section("writes");
  const toml::node* node = r->Find("writes", "ttl_mix");
  if (writes == nullptr || node == nullptr) return;
  const toml::array* mix = node->as_array();
  if (mix == nullptr) {
    r->Problem(node, "writes.ttl_mix must be an array of {ttl = ..., fraction = ...}");
    return;
  }
  double total = 0;
  for (const toml::node& entry : *mix) {
    const toml::table* share = entry.as_table();
    std::optional<double> fraction = share ? (*share)["fraction"].value<double>() : std::nullopt;
    TtlShare parsed;
    const toml::node* ttl = share ? share->get("ttl") : nullptr;
    bool ok = ttl != nullptr && fraction && *fraction >= 0;
    if (ok) {
      if (auto seconds = ttl->value<int64_t>()) {
        parsed.seconds = *seconds;
      } else if (auto text = ttl->value<std::string>()) {
        Result<int64_t> d = *text == "default" ? Result<int64_t>(-1) : ParseDuration(*text);
        ok = d.ok();
        if (ok) parsed.seconds = *d;
      } else {
        ok = false;
      }
    }
    if (!ok || parsed.seconds < -1 || parsed.seconds > kMaxTtlSeconds) {
      r->Problem(&entry,
                 "writes.ttl_mix entries are {ttl = <seconds, \"7d\", 0 for none or \"default\">, "
                 "fraction = <0..1>} with a TTL of at most 20 years");
      continue;
    }
    parsed.fraction = *fraction;
    total += parsed.fraction;
    spec->ttl_mix.push_back(parsed);
  }
  if (!spec->ttl_mix.empty() && (total < 0.999 || total > 1.001)) {
    r->Problem(node, "writes.ttl_mix fractions must add up to 1, not " + std::to_string(total));
  }
}

void ReadStrategies(Reader* r, WorkloadSpec* spec) {
  const toml::node* node = r->Find("run", "strategies");
  if (node == nullptr) return;
  const toml::array* list = node->as_array();
  if (list == nullptr) {
    r->Problem(node, "run.strategies must be an array of strings such as \"twcs:...\"");
    return;
  }
  for (const toml::node& entry : *list) {
    if (auto text = entry.value<std::string>()) {
      spec->strategies.push_back(*text);
    } else {
      r->Problem(&entry, "run.strategies entries must be strings");
    }
  }
}

void Check(Reader* r, const WorkloadSpec& s) {
  auto need = [&](bool ok, const std::string& what) {
    if (!ok) r->Problem(what);
  };
  need(!s.create_table_cql.empty(), "table.cql is required (a CREATE TABLE statement)");
  need(s.create_table_cql.empty() || !s.keyspace.empty(),
       "table.cql must create a table named keyspace.table");
  need(!s.identifier_column.empty(), "table.identifier_column is required");
  need(!s.time_column.empty(), "table.time_column is required");
  need(s.bucket_seconds >= 1, "table.bucket_seconds must be at least 1");
  need(s.identifiers >= 1 && s.identifiers <= 10000000,
       "writes.identifiers must be in 1..10000000");
  need(s.interval_seconds >= 0.001, "writes.interval_seconds must be at least 0.001");
  need(s.shape == "constant" || s.shape == "diurnal",
       "writes.shape must be \"constant\" or \"diurnal\", not \"" + s.shape + "\"");
  need(s.amplitude >= 0 && s.amplitude < 1, "writes.amplitude must be in [0, 1)");
  need(s.row_bytes >= 0 && s.row_bytes <= (1 << 20), "writes.row_bytes must be in 0..1048576");
  need(s.row_bytes_spread >= 0 && s.row_bytes_spread <= s.row_bytes,
       "writes.row_bytes_spread must be in 0..row_bytes");
  need(s.late_fraction >= 0 && s.late_fraction <= 1, "writes.late_fraction must be in [0, 1]");
  need(s.late_max_seconds >= 0, "writes.late_max_seconds must not be negative");
  need(s.late_fraction == 0 || s.late_max_seconds > 0,
       "writes.late_max_seconds must be > 0 when writes.late_fraction is");
  need(s.row_delete_fraction >= 0 && s.partition_delete_fraction >= 0 &&
           s.range_delete_fraction >= 0 &&
           s.row_delete_fraction + s.partition_delete_fraction + s.range_delete_fraction <= 1,
       "deletes fractions must be in [0, 1] and add up to at most 1");
  need(s.read_interval_seconds >= 0, "reads.interval_seconds must not be negative");
  const double reads = s.newest_fraction + s.range_fraction + s.point_fraction + s.missing_fraction;
  need(s.read_interval_seconds == 0 || (reads > 0.999 && reads < 1.001),
       "reads fractions (newest, range, point, missing) must add up to 1");
  need(s.newest_rows >= 1, "reads.newest_rows must be at least 1");
  need(s.range_seconds >= 1, "reads.range_seconds must be at least 1");
  need(s.duration_seconds >= 1, "run.duration must be at least 1 second");
  need(s.sample_seconds >= 1, "run.sample_every must be at least 1 second");
  need(s.memtable_bytes >= 4096, "run.memtable_bytes must be at least 4096");
  need(s.sample > 0 && s.sample <= 1, "run.sample must be in (0, 1]");
  need(s.range_delete_seconds >= 1, "deletes.range must be at least 1 second");
  need(s.hash_buckets >= 1 && s.hash_buckets <= 1024, "table.hash_buckets must be in 1..1024");
  need(s.sample_check_seconds >= 0, "run.sample_check must not be negative");
}

}  // namespace

Result<int64_t> ParseDuration(std::string_view text) {
  if (text.empty()) return Status::InvalidArgument("empty duration");
  int64_t unit = 1;
  switch (text.back()) {
    case 's':
      unit = 1;
      break;
    case 'm':
      unit = 60;
      break;
    case 'h':
      unit = 3600;
      break;
    case 'd':
      unit = 86400;
      break;
    case 'w':
      unit = 7 * 86400;
      break;
    default:
      unit = 0;
  }
  std::string_view digits = unit == 0 ? text : text.substr(0, text.size() - 1);
  if (unit == 0) unit = 1;
  if (digits.empty() || digits.size() > 12) {
    return Status::InvalidArgument("'" + std::string(text) + "' is not a duration");
  }
  int64_t value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') {
      return Status::InvalidArgument("'" + std::string(text) + "' is not a duration");
    }
    value = value * 10 + (c - '0');
  }
  return value * unit;
}

Result<WorkloadSpec> ParseWorkload(std::string_view text, const std::string& name) {
  toml::table root;
  try {
    root = toml::parse(text, name);
  } catch (const toml::parse_error& error) {
    return Status::InvalidArgument(name + ":" + std::to_string(error.source().begin.line) + ": " +
                                   std::string(error.description()));
  }
  Reader r(root, name);
  WorkloadSpec spec;
  r.Get("table", "cql", &spec.create_table_cql);
  r.Get("table", "identifier_column", &spec.identifier_column);
  r.Get("table", "bucket_column", &spec.bucket_column);
  r.Get("table", "hash_column", &spec.hash_column);
  r.Get("table", "hash_buckets", &spec.hash_buckets);
  r.GetDuration("table", "bucket", &spec.bucket_seconds);
  r.Get("table", "time_column", &spec.time_column);
  r.Get("table", "sequence_column", &spec.sequence_column);
  r.Get("table", "payload_column", &spec.payload_column);
  if (!spec.create_table_cql.empty() &&
      !TableName(spec.create_table_cql, &spec.keyspace, &spec.table)) {
    spec.keyspace.clear();
  }

  r.Get("writes", "identifiers", &spec.identifiers);
  r.Get("writes", "interval_seconds", &spec.interval_seconds);
  r.Get("writes", "shape", &spec.shape);
  r.Get("writes", "amplitude", &spec.amplitude);
  r.Get("writes", "row_bytes", &spec.row_bytes);
  r.Get("writes", "row_bytes_spread", &spec.row_bytes_spread);
  ReadTtlMix(&r, &spec);
  r.Get("writes", "late_fraction", &spec.late_fraction);
  r.GetDuration("writes", "late_max", &spec.late_max_seconds);
  std::string timestamps = "arrival";
  if (r.Get("writes", "timestamps", &timestamps) && timestamps != "arrival" &&
      timestamps != "event") {
    r.Problem(r.Find("writes", "timestamps"),
              "writes.timestamps must be \"arrival\" or \"event\", not \"" + timestamps + "\"");
  }
  spec.event_timestamps = timestamps == "event";

  r.Get("deletes", "row_fraction", &spec.row_delete_fraction);
  r.Get("deletes", "partition_fraction", &spec.partition_delete_fraction);
  r.Get("deletes", "range_fraction", &spec.range_delete_fraction);
  r.GetDuration("deletes", "range", &spec.range_delete_seconds);

  r.Get("reads", "interval_seconds", &spec.read_interval_seconds);
  r.Get("reads", "newest_fraction", &spec.newest_fraction);
  r.Get("reads", "newest_rows", &spec.newest_rows);
  r.Get("reads", "range_fraction", &spec.range_fraction);
  r.GetDuration("reads", "range", &spec.range_seconds);
  r.Get("reads", "point_fraction", &spec.point_fraction);
  r.Get("reads", "missing_fraction", &spec.missing_fraction);

  r.GetDuration("run", "duration", &spec.duration_seconds);
  r.GetDuration("run", "sample_every", &spec.sample_seconds);
  r.Get("run", "seed", &spec.seed);
  r.Get("run", "memtable_bytes", &spec.memtable_bytes);
  r.Get("run", "sample", &spec.sample);
  r.GetDuration("run", "sample_check", &spec.sample_check_seconds);
  ReadStrategies(&r, &spec);

  r.CheckUnknownKeys();
  Check(&r, spec);
  if (!r.problems().empty()) {
    std::string message;
    for (const std::string& p : r.problems()) message += (message.empty() ? "" : "\n") + p;
    return Status::InvalidArgument(message);
  }
  return spec;
}

Result<WorkloadSpec> LoadWorkloadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound("cannot read workload file " + path);
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().size() > (1u << 20)) {
    return Status::InvalidArgument(path + ": a workload file is at most 1 MiB");
  }
  return ParseWorkload(text.str(), path);
}

}  // namespace cassette::tools
