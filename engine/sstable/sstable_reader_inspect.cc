// SSTableReader's whole-file checks and metadata dump (the library side of
// `cassette sstable verify` and `cassette sstable meta`).
#include <cinttypes>
#include <cstdio>
#include <functional>

#include "engine/sstable/partition_index_entry.h"
#include "engine/sstable/row_index.h"
#include "engine/sstable/sstable_reader.h"
#include "engine/util/checksum.h"

namespace cassette {

namespace {

const char* SectionName(SectionType t) {
  switch (t) {
    case SectionType::kChunkOffsets:
      return "chunk offsets";
    case SectionType::kIndexSummary:
      return "index summary";
    case SectionType::kBloomFilter:
      return "bloom filter";
    case SectionType::kStatistics:
      return "statistics";
    case SectionType::kNone:
      break;
  }
  return "none";
}

std::string Hex(std::string_view bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (char c : bytes) {
    out.push_back(kDigits[static_cast<uint8_t>(c) >> 4]);
    out.push_back(kDigits[static_cast<uint8_t>(c) & 15]);
  }
  return out;
}

std::string Int(int64_t v) {
  if (v == INT64_MAX) return "INT64_MAX";
  if (v == INT64_MIN) return "INT64_MIN";
  return std::to_string(v);
}

}  // namespace

Status SSTableReader::VerifyChecksums() const {
  std::string bytes;
  for (const SectionEntry& e : footer_.sections) {
    if (e.type == SectionType::kNone) continue;
    CASSETTE_RETURN_IF_ERROR(fetcher_->ReadExact(e.offset, e.length, &bytes));
    if (Checksum32(bytes) != e.checksum) {
      return SSTableCorruption(path_, e.offset,
                               std::string(SectionName(e.type)) + " section checksum mismatch");
    }
  }
  for (uint64_t i = 0; i < fetcher_->chunks().chunks.size(); ++i) {
    CASSETTE_RETURN_IF_ERROR(fetcher_->VerifyChunk(i));
  }
  // Row index nodes are reached from their partitions' roots.
  std::function<Status(const RowIndexEntry&, uint32_t)> verify_node =
      [&](const RowIndexEntry& e, uint32_t depth) -> Status {
    std::string payload;
    CASSETTE_RETURN_IF_ERROR(
        fetcher_->LoadIndexBlock({e.offset, e.size}, "row index node", &payload));
    std::vector<RowIndexEntry> children;
    std::string_view in(payload);
    if (!DecodeRowIndexEntries(&in, &children) || !in.empty()) {
      return SSTableCorruption(path_, e.offset, "malformed row index node");
    }
    if (depth == 0) return Status::OK();
    for (const RowIndexEntry& child : children) {
      CASSETTE_RETURN_IF_ERROR(verify_node(child, depth - 1));
    }
    return Status::OK();
  };
  uint64_t partitions = 0;
  for (size_t b = 0; b < summary_.size(); ++b) {
    const BlockHandle& h = summary_[b].handle;
    std::string payload;
    CASSETTE_RETURN_IF_ERROR(fetcher_->LoadIndexBlock(h, "partition index block", &payload));
    std::string_view in(payload);
    bool first = true;
    while (!in.empty()) {
      PartitionIndexEntry entry;
      if (!DecodePartitionIndexEntry(&in, &entry)) {
        return SSTableCorruption(path_, h.offset, "malformed partition index entry");
      }
      if (first && entry.sort_key != summary_[b].first_key) {
        return SSTableCorruption(path_, h.offset, "index block does not start at its summary key");
      }
      first = false;
      ++partitions;
      if (entry.row_index.empty()) continue;
      RowIndexRoot root;
      if (!DecodeRowIndexRoot(entry.row_index, &root)) {
        return SSTableCorruption(path_, h.offset, "malformed row index root");
      }
      if (root.depth == 0) continue;
      for (const RowIndexEntry& child : root.entries) {
        CASSETTE_RETURN_IF_ERROR(verify_node(child, root.depth - 1));
      }
    }
  }
  if (partitions != stats_.partition_count) {
    return SSTableCorruption(path_, 0,
                             "partition index holds " + std::to_string(partitions) +
                                 " partitions, statistics say " +
                                 std::to_string(stats_.partition_count));
  }
  return Status::OK();
}

std::string SSTableReader::Describe() const {
  const SSTableStats& s = stats_;
  std::string out;
  auto line = [&out](const std::string& key, const std::string& value) {
    out += key;
    out += ": ";
    out += value;
    out += '\n';
  };
  line("path", path_);
  line("format version", std::to_string(footer_.format_version));
  line("file size", std::to_string(file_size_) + " bytes");
  for (const SectionEntry& e : footer_.sections) {
    if (e.type == SectionType::kNone) continue;
    char buf[128];
    std::snprintf(buf, sizeof(buf), "offset %" PRIu64 " length %" PRIu64 " checksum %08x", e.offset,
                  e.length, e.checksum);
    line(std::string("section ") + SectionName(e.type), buf);
  }
  const double ratio = s.uncompressed_size == 0 ? 1.0
                                                : static_cast<double>(s.compressed_size) /
                                                      static_cast<double>(s.uncompressed_size);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.3f", ratio);
  line("data", std::to_string(s.uncompressed_size) + " bytes uncompressed, " +
                   std::to_string(s.compressed_size) + " bytes stored in " +
                   std::to_string(fetcher_->chunks().chunks.size()) + " chunks of " +
                   std::to_string(s.chunk_length) + " (ratio " + buf + ")");
  line("compression",
       s.compression_level == 0 ? "none" : "zstd level " + std::to_string(s.compression_level));
  line("index blocks", std::to_string(summary_.size()));
  std::snprintf(buf, sizeof(buf), "%g", s.bloom_fp_chance);
  line("bloom filter", bloom_.enabled()
                           ? std::to_string(bloom_.num_bits()) + " bits, " +
                                 std::to_string(bloom_.num_probes()) + " probes, fp chance " + buf
                           : std::string("none (fp chance ") + buf + ")");
  line("creation time (micros)", std::to_string(s.creation_time_micros));
  line("partitions", std::to_string(s.partition_count));
  line("rows", std::to_string(s.row_count));
  line("static rows", std::to_string(s.static_row_count));
  line("cells", std::to_string(s.cell_count) + " (" + std::to_string(s.tombstone_cell_count) +
                    " tombstones, " + std::to_string(s.expiring_cell_count) + " expiring)");
  line("deletions", std::to_string(s.partition_deletion_count) + " partition, " +
                        std::to_string(s.range_tombstone_count) + " range, " +
                        std::to_string(s.row_deletion_count) + " row, " +
                        std::to_string(s.complex_deletion_count) + " complex");
  line("timestamp", Int(s.min_timestamp) + " .. " + Int(s.max_timestamp));
  line("local deletion time",
       Int(s.min_local_deletion_time) + " .. " + Int(s.max_local_deletion_time));
  line("ttl", std::to_string(s.min_ttl) + " .. " + std::to_string(s.max_ttl));
  if (s.partition_count > 0) {
    line("first key",
         "token " + std::to_string(s.first_key.token) + " key 0x" + Hex(s.first_key.key));
    line("last key", "token " + std::to_string(s.last_key.token) + " key 0x" + Hex(s.last_key.key));
  }
  if (s.row_count > 0) {
    line("clustering", "0x" + Hex(s.min_clustering) + " .. 0x" + Hex(s.max_clustering));
  }
  line("encoding stats", "min timestamp " + Int(s.encoding_stats.min_timestamp) +
                             ", min local deletion time " +
                             Int(s.encoding_stats.min_local_deletion_time) + ", min ttl " +
                             std::to_string(s.encoding_stats.min_ttl));
  line("partition size (bytes)", "p50 " + std::to_string(s.partition_sizes.Percentile(0.5)) +
                                     ", p99 " + std::to_string(s.partition_sizes.Percentile(0.99)) +
                                     ", max " + std::to_string(s.partition_sizes.Max()));
  line("cells per partition", "p50 " + std::to_string(s.cells_per_partition.Percentile(0.5)) +
                                  ", p99 " +
                                  std::to_string(s.cells_per_partition.Percentile(0.99)) +
                                  ", max " + std::to_string(s.cells_per_partition.Max()));
  std::string bins;
  for (const auto& [point, count] : s.tombstone_drop_times.bins()) {
    if (!bins.empty()) bins += ' ';
    bins += std::to_string(point) + ":" + std::to_string(count);
  }
  line("tombstone drop times", bins.empty() ? "(none)" : bins);
  return out;
}

}  // namespace cassette
