#include "engine/db/manifest.h"

#include "engine/compaction/compaction_strategy.h"
#include "engine/schema/schema_codec.h"
#include "engine/util/checksum.h"
#include "engine/util/coding.h"

namespace cassette {

namespace {

constexpr uint32_t kManifestMagic = 0x464d5343;  // "CSMF" little-endian
// 2 added the per-SSTable start bound, 3 the per-table counters, 4 the
// commit log's first segment, 5 the device counters and the SSTables out
// of service; older manifests still open.
constexpr uint32_t kManifestVersion = 5;

Status Malformed(const std::string& what, uint64_t offset) {
  return Status::Corruption("MANIFEST: " + what + " at offset " + std::to_string(offset));
}

}  // namespace

const TableState* ManifestState::FindTable(std::string_view keyspace,
                                           std::string_view table) const {
  for (const auto& [id, state] : tables) {
    if (state.schema.keyspace() == keyspace && state.schema.name() == table) return &state;
  }
  return nullptr;
}

void EncodeManifest(const ManifestState& state, std::string* out) {
  std::string payload;
  PutVarint64(&payload, state.next_table_id);
  PutVarint64(&payload, state.next_generation);
  PutVarint64(&payload, state.commitlog_first_segment);
  PutVarint64(&payload, state.device.bytes_written);
  PutVarint64(&payload, state.device.commitlog_bytes_written);
  PutVarint64(&payload, state.device.syncs);
  PutVarint64(&payload, state.keyspaces.size());
  for (const auto& [name, keyspace] : state.keyspaces) {
    std::string encoded;
    EncodeKeyspaceSchema(keyspace, &encoded);
    PutLengthPrefixed(&payload, encoded);
  }
  PutVarint64(&payload, state.tables.size());
  for (const auto& [id, table] : state.tables) {
    PutVarint64(&payload, id);
    std::string encoded;
    EncodeTableSchema(table.schema, &encoded);
    PutLengthPrefixed(&payload, encoded);
    PutVarint64(&payload, table.persisted.segment_id);
    PutVarint64(&payload, table.persisted.offset);
    PutVarint64(&payload, table.sstables.size());
    for (const SSTableEntry& sstable : table.sstables) {
      PutVarint64(&payload, sstable.generation);
      PutVarint32(&payload, sstable.level);
      payload.push_back(sstable.start_after_token ? 1 : 0);
      if (sstable.start_after_token) {
        PutFixed64(&payload, static_cast<uint64_t>(*sstable.start_after_token));
      }
    }
    const TableCounters& c = table.counters;
    for (uint64_t counter :
         {c.bytes_written_by_users, c.bytes_flushed, c.bytes_compacted, c.compactions_completed,
          c.expired_sstables_dropped, c.tombstones_purged, c.late_writes}) {
      PutVarint64(&payload, counter);
    }
    PutVarint64(&payload, table.out_of_service.size());
    for (const OutOfServiceSSTable& sstable : table.out_of_service) {
      PutVarint64(&payload, sstable.generation);
      PutLengthPrefixed(&payload, sstable.found_by);
      PutLengthPrefixed(&payload, sstable.error);
    }
  }
  PutFixed32(out, kManifestMagic);
  PutFixed32(out, kManifestVersion);
  PutFixed32(out, static_cast<uint32_t>(payload.size()));
  out->append(payload);
  PutFixed32(out, Checksum32(payload));
}

Status DecodeManifest(std::string_view in, ManifestState* state) {
  const char* const start = in.data();
  uint32_t magic = 0, version = 0, length = 0, checksum = 0;
  if (!GetFixed32(&in, &magic) || magic != kManifestMagic) return Malformed("bad magic", 0);
  if (!GetFixed32(&in, &version) || version < 1 || version > kManifestVersion) {
    return Malformed("unsupported version", 4);
  }
  if (!GetFixed32(&in, &length) || in.size() < length + 4ull) {
    return Malformed("truncated (a payload of " + std::to_string(length) +
                         " bytes and its checksum"
                         " announced, " +
                         std::to_string(in.size()) + " bytes left)",
                     8);
  }
  std::string_view payload = in.substr(0, length);
  in.remove_prefix(length);
  if (!GetFixed32(&in, &checksum) || checksum != Checksum32(payload)) {
    return Malformed("checksum mismatch (the payload at offset 12, or its checksum)",
                     12 + uint64_t{length});
  }
  // Where the payload's reading stands, for messages.
  auto at = [&] { return static_cast<uint64_t>(payload.data() - start); };

  ManifestState result;
  uint64_t count;
  if (!GetVarint64(&payload, &result.next_table_id) ||
      !GetVarint64(&payload, &result.next_generation) ||
      (version >= 4 && !GetVarint64(&payload, &result.commitlog_first_segment)) ||
      (version >= 5 && (!GetVarint64(&payload, &result.device.bytes_written) ||
                        !GetVarint64(&payload, &result.device.commitlog_bytes_written) ||
                        !GetVarint64(&payload, &result.device.syncs))) ||
      !GetVarint64(&payload, &count)) {
    return Malformed("bad header", at());
  }
  for (uint64_t i = 0; i < count; ++i) {
    std::string_view encoded;
    KeyspaceSchema keyspace;
    if (!GetLengthPrefixed(&payload, &encoded)) return Malformed("bad keyspace", at());
    const uint64_t record = static_cast<uint64_t>(encoded.data() - start);
    Status decoded = DecodeKeyspaceSchema(&encoded, &keyspace);
    if (!decoded.ok()) {
      return Malformed("keyspace record (" + decoded.message() + ") starting", record);
    }
    result.keyspaces[keyspace.name] = std::move(keyspace);
  }
  if (!GetVarint64(&payload, &count)) return Malformed("bad table count", at());
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t id, sstable_count;
    std::string_view encoded;
    TableState table;
    if (!GetVarint64(&payload, &id) || !GetLengthPrefixed(&payload, &encoded)) {
      return Malformed("bad table", at());
    }
    const uint64_t record = static_cast<uint64_t>(encoded.data() - start);
    Status decoded = DecodeTableSchema(&encoded, &table.schema);
    if (!decoded.ok()) {
      return Malformed("table record (" + decoded.message() + ") starting", record);
    }
    // A record that decodes but that CREATE TABLE would refuse (its
    // checksum matched, so a bug wrote it, or a hand edit): refused here,
    // naming the record, rather than at the first flush or compaction
    // without the file.
    Status valid = table.schema.Validate();
    if (valid.ok()) valid = CreateCompactionStrategy(table.schema.options().compaction).status();
    if (!valid.ok()) {
      return Malformed("table record (" + valid.ToString() + ") starting", record);
    }
    if (!GetVarint64(&payload, &table.persisted.segment_id) ||
        !GetVarint64(&payload, &table.persisted.offset) || !GetVarint64(&payload, &sstable_count) ||
        sstable_count > payload.size()) {
      return Malformed("bad table state", at());
    }
    for (uint64_t j = 0; j < sstable_count; ++j) {
      SSTableEntry entry;
      if (!GetVarint64(&payload, &entry.generation) || !GetVarint32(&payload, &entry.level)) {
        return Malformed("bad sstable entry", at());
      }
      if (version >= 2) {
        if (payload.empty() || static_cast<uint8_t>(payload[0]) > 1) {
          return Malformed("bad sstable start bound", at());
        }
        const bool bounded = payload[0] == 1;
        payload.remove_prefix(1);
        if (bounded) {
          uint64_t token;
          if (!GetFixed64(&payload, &token)) return Malformed("bad sstable start bound", at());
          entry.start_after_token = static_cast<int64_t>(token);
        }
      }
      table.sstables.push_back(entry);
    }
    if (version >= 3) {
      TableCounters& c = table.counters;
      for (uint64_t* counter : {&c.bytes_written_by_users, &c.bytes_flushed, &c.bytes_compacted,
                                &c.compactions_completed, &c.expired_sstables_dropped,
                                &c.tombstones_purged, &c.late_writes}) {
        if (!GetVarint64(&payload, counter)) return Malformed("bad table counters", at());
      }
    }
    if (version >= 5) {
      uint64_t out_of_service_count;
      if (!GetVarint64(&payload, &out_of_service_count) || out_of_service_count > payload.size()) {
        return Malformed("bad out-of-service count", at());
      }
      for (uint64_t j = 0; j < out_of_service_count; ++j) {
        OutOfServiceSSTable entry;
        std::string_view found_by, error;
        if (!GetVarint64(&payload, &entry.generation) || !GetLengthPrefixed(&payload, &found_by) ||
            !GetLengthPrefixed(&payload, &error)) {
          return Malformed("bad out-of-service sstable", at());
        }
        entry.found_by = found_by;
        entry.error = error;
        table.out_of_service.push_back(std::move(entry));
      }
    }
    result.tables[id] = std::move(table);
  }
  if (!payload.empty()) return Malformed("trailing bytes", at());
  *state = std::move(result);
  return Status::OK();
}

Status WriteManifest(FileSystem* fs, const std::string& dir, const ManifestState& state) {
  std::string contents;
  EncodeManifest(state, &contents);
  const std::string tmp = dir + "/" + kManifestFileName + ".tmp";
  {
    CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file, fs->NewWritableFile(tmp));
    CASSETTE_RETURN_IF_ERROR(file->Append(contents));
    CASSETTE_RETURN_IF_ERROR(file->Sync());
    CASSETTE_RETURN_IF_ERROR(file->Close());
  }
  CASSETTE_RETURN_IF_ERROR(fs->RenameFile(tmp, dir + "/" + kManifestFileName));
  return fs->SyncDir(dir);
}

Result<std::optional<ManifestState>> ReadManifest(FileSystem* fs, const std::string& dir) {
  const std::string path = dir + "/" + kManifestFileName;
  if (!fs->FileExists(path)) return std::optional<ManifestState>();
  CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<SequentialFile> file, fs->NewSequentialFile(path));
  std::string contents, chunk;
  do {
    CASSETTE_RETURN_IF_ERROR(file->Read(1 << 20, &chunk));
    contents += chunk;
  } while (!chunk.empty());
  ManifestState state;
  Status s = DecodeManifest(contents, &state);
  if (!s.ok()) return Status::Corruption(path + ": " + s.message());
  return std::optional<ManifestState>(std::move(state));
}

}  // namespace cassette
