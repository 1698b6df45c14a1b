#include "engine/schema/table_options_validation.h"

#include <zstd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "engine/types/float_format.h"
#include "engine/util/ascii.h"

namespace cassette {
namespace {

constexpr const char* kCompressorPackage = "org.apache.cassandra.io.compress.";

Status Config(std::string message) { return Status::ConfigurationError(std::move(message)); }

bool ParseInt(const std::string& s, int64_t* v) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  long long r = std::strtoll(s.c_str(), &end, 10);
  if (errno != 0 || end != s.c_str() + s.size()) return false;
  *v = r;
  return true;
}

bool ParseDouble(const std::string& s, double* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  double r = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return false;
  *v = r;
  return true;
}

enum class Codec { kZstd, kNone };

}  // namespace

Status ValidateCompressionOptions(const std::map<std::string, std::string>& compression) {
  if (compression.empty()) return Status::OK();
  auto enabled = compression.find("enabled");
  // Boolean.parseBoolean: "true" in any case is true, anything else false.
  if (enabled != compression.end() && !EqualsIgnoreCase(enabled->second, "true")) {
    if (compression.size() > 1) {
      return Config("If the 'enabled' option is set to false no other options must be specified");
    }
    return Status::OK();
  }
  auto cls = compression.find("class");
  if (cls == compression.end()) {
    return Config("Missing sub-option 'class' for the 'compression' option.");
  }
  if (cls->second.empty()) {
    return Config(
        "The 'class' option must not be empty. To disable compression use 'enabled' : false");
  }
  std::string name = cls->second;
  if (name.rfind(kCompressorPackage, 0) == 0)
    name = name.substr(std::string(kCompressorPackage).size());
  Codec codec;
  if (name == "ZstdCompressor" || EqualsIgnoreCase(name, "zstd")) {
    codec = Codec::kZstd;
  } else if (EqualsIgnoreCase(name, "none") || EqualsIgnoreCase(name, "noop") ||
             name == "NoopCompressor") {
    codec = Codec::kNone;
  } else if (name == "LZ4Compressor" || name == "SnappyCompressor" || name == "DeflateCompressor" ||
             EqualsIgnoreCase(name, "lz4") || EqualsIgnoreCase(name, "snappy") ||
             EqualsIgnoreCase(name, "deflate")) {
    return Config("Compression class " + cls->second +
                  " is not supported: cassette supports ZstdCompressor only");
  } else {
    std::string full =
        cls->second.find('.') == std::string::npos ? kCompressorPackage + cls->second : cls->second;
    return Config("Could not create Compression for type " + full);
  }

  std::vector<std::string> unknown;
  for (const auto& [key, value] : compression) {
    if (key == "class" || key == "enabled") continue;
    if (key == "chunk_length_in_kb") {
      int64_t kb;
      if (!ParseInt(value, &kb)) return Config("Invalid value for chunk_length_in_kb: " + value);
      if (kb <= 0) return Config("Invalid negative or null chunk_length_in_kb");
      if ((kb & (kb - 1)) != 0) return Config("chunk_length_in_kb must be a power of 2");
      if (kb > INT32_MAX / 1024) {
        return Config("Value of chunk_length_in_kb is too large (" + value + ")");
      }
    } else if (key == "min_compress_ratio") {
      double ratio;
      if (!ParseDouble(value, &ratio))
        return Config("Invalid value for min_compress_ratio: " + value);
      if (ratio < 0) return Config("Invalid negative min_compress_ratio");
      if (ratio > 0 && ratio < 1) {
        return Config("min_compress_ratio can either be 0 or greater than or equal to 1");
      }
    } else if (key == "compression_level" && codec == Codec::kZstd) {
      int64_t level;
      if (!ParseInt(value, &level)) {
        return Config(
            "ZstdCompressor.create() threw an error: java.lang.NumberFormatException "
            "For input string: \"" +
            value + "\"");
      }
      if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel()) {
        return Config(
            "ZstdCompressor.create() threw an error: "
            "java.lang.IllegalArgumentException compression_level=" +
            std::to_string(level) + " is invalid");
      }
    } else {
      unknown.push_back(key);
    }
  }
  if (!unknown.empty()) {
    std::string list;
    for (const std::string& k : unknown) list += (list.empty() ? "" : ", ") + k;
    return Config("Unknown compression options: ([" + list + "])");
  }
  return Status::OK();
}

Status ValidateTableOptions(const TableOptions& options) {
  if (options.compaction.find("class") == options.compaction.end()) {
    return Config("Missing sub-option 'class' for the 'compaction' option.");
  }
  CASSETTE_RETURN_IF_ERROR(ValidateCompressionOptions(options.compression));
  // BloomCalculations' smallest supported false-positive chance.
  constexpr double kMinBloomFilterFpChance = 6.71e-05;
  double fp = options.bloom_filter_fp_chance;
  if (!(fp > kMinBloomFilterFpChance && fp <= 1)) {
    return Config("bloom_filter_fp_chance must be larger than " +
                  FormatDoubleJava(kMinBloomFilterFpChance) +
                  " and less than or equal to 1.0 (got " + FormatDoubleJava(fp) + ")");
  }
  if (options.default_time_to_live < 0) {
    return Config("default_time_to_live must be greater than or equal to 0 (got " +
                  std::to_string(options.default_time_to_live) + ")");
  }
  if (options.default_time_to_live > kMaxTtlSeconds) {
    return Config("default_time_to_live must be less than or equal to " +
                  std::to_string(kMaxTtlSeconds) + " (got " +
                  std::to_string(options.default_time_to_live) + ")");
  }
  if (options.gc_grace_seconds < 0) {
    return Config("gc_grace_seconds must be greater than or equal to 0 (got " +
                  std::to_string(options.gc_grace_seconds) + ")");
  }
  return Status::OK();
}

}  // namespace cassette
