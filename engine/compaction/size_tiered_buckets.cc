#include "engine/compaction/size_tiered_buckets.h"

#include <algorithm>
#include <utility>

#include "engine/compaction/compaction_option_parsing.h"
#include "engine/types/float_format.h"

namespace cassette {
namespace {

Status Config(std::string message) { return Status::ConfigurationError(std::move(message)); }

Status ParseBucketBound(const std::map<std::string, std::string>& options, std::string_view key,
                        double* out) {
  const std::optional<std::string> v = FindOption(options, key);
  if (v && !ParseJavaDouble(*v, out)) {
    return Config(*v + " is not a parsable float for " + std::string(key));
  }
  return Status::OK();
}

uint64_t AverageSize(const std::vector<const CompactionCandidate*>& bucket) {
  uint64_t total = 0;
  for (const CompactionCandidate* c : bucket) total += c->size_on_disk;
  return bucket.empty() ? 0 : total / bucket.size();
}

}  // namespace

Result<SizeTieredOptions> ParseSizeTieredOptions(const std::map<std::string, std::string>& options,
                                                 std::set<std::string>* unconsumed) {
  SizeTieredOptions out;
  if (std::optional<std::string> v = FindOption(options, "min_sstable_size")) {
    int64_t size;
    if (!ParseJavaLong(*v, &size)) {
      return Config(*v + " is not a parsable int (base10) for min_sstable_size");
    }
    if (size < 0) return Config("min_sstable_size must be non negative: " + std::to_string(size));
    out.min_sstable_size = static_cast<uint64_t>(size);
  }
  CASSETTE_RETURN_IF_ERROR(ParseBucketBound(options, "bucket_low", &out.bucket_low));
  CASSETTE_RETURN_IF_ERROR(ParseBucketBound(options, "bucket_high", &out.bucket_high));
  if (out.bucket_high <= out.bucket_low) {
    return Config("bucket_high value (" + FormatDoubleJava(out.bucket_high) +
                  ") is less than or equal to the bucket_low value (" +
                  FormatDoubleJava(out.bucket_low) + ")");
  }
  if (unconsumed != nullptr) {
    for (const char* key : {"min_sstable_size", "bucket_low", "bucket_high"})
      unconsumed->erase(key);
  }
  return out;
}

std::vector<std::vector<const CompactionCandidate*>> SizeTieredBuckets(
    std::vector<const CompactionCandidate*> sstables, const SizeTieredOptions& options) {
  std::stable_sort(sstables.begin(), sstables.end(),
                   [](const CompactionCandidate* a, const CompactionCandidate* b) {
                     return a->size_on_disk != b->size_on_disk ? a->size_on_disk < b->size_on_disk
                                                               : a->generation < b->generation;
                   });
  struct Bucket {
    uint64_t average;  // integer mean, as Cassandra keys its buckets
    std::vector<const CompactionCandidate*> files;
  };
  // In creation order (Cassandra walks a HashMap; the first bucket that
  // accepts a file takes it, and with files sorted by size that is almost
  // always the newest bucket either way).
  std::vector<Bucket> buckets;
  for (const CompactionCandidate* sstable : sstables) {
    const uint64_t size = sstable->size_on_disk;
    const double dsize = static_cast<double>(size);
    bool placed = false;
    for (Bucket& bucket : buckets) {
      const double avg = static_cast<double>(bucket.average);
      const bool similar = dsize > avg * options.bucket_low && dsize < avg * options.bucket_high;
      // Small files all land together, whatever their relative sizes.
      const bool both_small =
          size < options.min_sstable_size && bucket.average < options.min_sstable_size;
      if (similar || both_small) {
        const uint64_t total = bucket.average * bucket.files.size() + size;
        bucket.files.push_back(sstable);
        bucket.average = total / bucket.files.size();
        placed = true;
        break;
      }
    }
    if (!placed) buckets.push_back(Bucket{size, {sstable}});
  }
  std::vector<std::vector<const CompactionCandidate*>> out;
  out.reserve(buckets.size());
  for (Bucket& bucket : buckets) out.push_back(std::move(bucket.files));
  return out;
}

std::vector<const CompactionCandidate*> MostInterestingBucket(
    const std::vector<std::vector<const CompactionCandidate*>>& buckets, int32_t min_threshold,
    int32_t max_threshold) {
  std::vector<const CompactionCandidate*> best;
  uint64_t best_average = 0;
  for (const std::vector<const CompactionCandidate*>& bucket : buckets) {
    // Every file is equally hot, so trimming by hotness keeps the bucket's
    // own order: its smallest max_threshold files.
    std::vector<const CompactionCandidate*> trimmed(
        bucket.begin(),
        bucket.begin() +
            std::min<size_t>(bucket.size(), static_cast<size_t>(std::max(0, max_threshold))));
    if (trimmed.size() < static_cast<size_t>(std::max(0, min_threshold)) || trimmed.empty()) {
      continue;
    }
    const uint64_t average = AverageSize(trimmed);
    if (best.empty() || average < best_average) {
      best = std::move(trimmed);
      best_average = average;
    }
  }
  return best;
}

}  // namespace cassette
