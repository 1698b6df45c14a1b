#include "engine/sstable/sstable_writer_options.h"

#include <zstd.h>

#include <string>

namespace cassette {

Status SSTableWriterOptions::Validate() const {
  std::string problems;
  auto problem = [&](const std::string& p) {
    if (!problems.empty()) problems += "; ";
    problems += p;
  };
  if (compress && (compression_level < ZSTD_minCLevel() || compression_level > ZSTD_maxCLevel())) {
    problem("compression_level " + std::to_string(compression_level) + " is outside [" +
            std::to_string(ZSTD_minCLevel()) + ", " + std::to_string(ZSTD_maxCLevel()) + "]");
  }
  if (chunk_length < 512 || chunk_length > (64u << 20)) {
    problem("chunk_length " + std::to_string(chunk_length) + " is outside [512, 64 MiB]");
  }
  if (row_index_interval == 0) problem("row_index_interval must be positive");
  if (!(bloom_fp_chance > 0.0)) {
    problem("bloom_fp_chance " + std::to_string(bloom_fp_chance) + " must be > 0");
  }
  if (problems.empty()) return Status::OK();
  return Status::InvalidArgument("invalid sstable writer options: " + problems);
}

}  // namespace cassette
