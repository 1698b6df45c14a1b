// Random operations for the model test: a write (one Mutation of any kind,
// or an InsertBatch of a few rows) drawn together with the ModelWrites
// that describe it to ReferenceModel, and a random query (partitions or a
// token range, a clustering slice, order, limits, columns, page size).
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cassette/insert_batch.h"
#include "cassette/mutation.h"
#include "tests/db/model_query.h"
#include "tests/db/reference_model.h"

namespace cassette::testing {

inline constexpr int kModelClusterings = 6;

class ModelRandom {
 public:
  explicit ModelRandom(uint64_t seed) : rng_(seed) {}
  int Pick(int n) { return static_cast<int>(rng_() % static_cast<uint64_t>(n)); }
  bool OneIn(int n) { return Pick(n) == 0; }
  int32_t Key() {
    return kModelKeys[static_cast<size_t>(Pick(static_cast<int>(kModelKeys.size())))].first;
  }

 private:
  std::mt19937_64 rng_;
};

// One write as the engine gets it (exactly one of mutation / batch) and as
// the model gets it.
struct DrawnWrite {
  std::optional<Mutation> mutation;
  std::optional<InsertBatch> batch;
  std::vector<ModelWrite> writes;
  std::string description;
};

inline std::string DescribeWrite(const ModelWrite& w) {
  std::string out = "pk=" + std::to_string(w.pk) + " ck=" + std::to_string(w.ck) +
                    " kind=" + std::to_string(w.kind) +
                    " value=" + (w.value_null ? std::string("null") : std::to_string(w.value)) +
                    " ts=" + (w.timestamp ? std::to_string(*w.timestamp) : std::string("default")) +
                    " ttl=" + std::to_string(w.ttl) + " now=" + std::to_string(w.now_sec);
  if (w.kind == ModelWrite::kDeleteRange) {
    out += " range=" + std::to_string(w.range.lo) + (w.range.lo_inclusive ? "i" : "x") + "," +
           std::to_string(w.range.hi) + (w.range.hi_inclusive ? "i" : "x");
  }
  if (w.kind == ModelWrite::kAddTag) out += " tag=" + w.tag;
  return out + " ";
}

// `no_ttl_with_timestamp`: compacting runs give explicitly timestamped
// writes no TTL (model_test.cc says why).
inline DrawnWrite DrawMutation(ModelRandom& r, int64_t now_sec, bool no_ttl_with_timestamp) {
  const int32_t pk = r.Key();
  // Explicit timestamps from a narrow band make ties common; default ones
  // come from the database and always increase.
  std::optional<int64_t> timestamp;
  if (!r.OneIn(3)) timestamp = 1'000'000 + r.Pick(8);
  int32_t ttl = r.OneIn(4) ? 1 + r.Pick(30) : 0;
  if (no_ttl_with_timestamp && timestamp) ttl = 0;

  DrawnWrite out;
  Mutation& m = out.mutation.emplace("ks", "t", std::vector<Value>{Value::Int(pk)});
  if (timestamp) m.UsingTimestamp(*timestamp);
  if (ttl) m.UsingTtl(ttl);
  const int32_t ck = r.Pick(kModelClusterings);
  const int32_t value = r.Pick(5) - 2;  // negative values exercise unsigned tie-breaks
  ModelWrite write;
  write.pk = pk;
  write.ck = ck;
  write.timestamp = timestamp;
  write.ttl = ttl;
  write.now_sec = now_sec;
  write.value = value;
  switch (r.Pick(9)) {
    case 0:
    case 1:
      m.Insert({Value::Int(ck)}).Set("v", Value::Int(value));
      write.kind = ModelWrite::kInsert;
      break;
    case 2:
      m.Update({Value::Int(ck)}).Set("v", Value::Int(value));
      write.kind = ModelWrite::kUpdate;
      break;
    case 3:
      m.Update({Value::Int(ck)}).SetNull("v");
      write.kind = ModelWrite::kDeleteCell;
      break;
    case 4:
      m.DeleteRow({Value::Int(ck)});
      write.kind = ModelWrite::kDeleteRow;
      break;
    case 5: {
      const int32_t hi = ck + r.Pick(3);
      const bool lo_inclusive = r.Pick(2), hi_inclusive = r.Pick(2);
      m.DeleteRange({{Value::Int(ck)}, lo_inclusive}, {{Value::Int(hi)}, hi_inclusive});
      write.kind = ModelWrite::kDeleteRange;
      write.range = {ck, lo_inclusive, hi, hi_inclusive};
      break;
    }
    case 6:
      if (r.OneIn(4)) {
        m.DeletePartition();
        write.kind = ModelWrite::kDeletePartition;
      } else {
        m.Update({}).Set("s", Value::Int(value));
        write.kind = ModelWrite::kStatic;
      }
      break;
    case 7:
      write.tag = std::string(1, static_cast<char>('a' + r.Pick(3)));
      m.Update({Value::Int(ck)}).Add("tags", {Value::Text(write.tag)});
      write.kind = ModelWrite::kAddTag;
      break;
    default:
      m.Insert({Value::Int(ck)});
      write.kind = ModelWrite::kInsertMarkerOnly;
      break;
  }
  out.description = "mutation " + DescribeWrite(write);
  out.writes.push_back(write);
  return out;
}

// An InsertBatch of 1-4 rows setting v (sometimes to null), all under the
// batch's timestamp: an explicit one, or the single one the database
// gives the whole batch (so rows of one batch that hit the same row tie
// as they do in the engine).
inline DrawnWrite DrawInsertBatch(ModelRandom& r, int64_t now_sec, bool no_ttl_with_timestamp) {
  DrawnWrite out;
  InsertBatch& batch = out.batch.emplace("ks", "t", std::vector<std::string>{"pk", "ck", "v"});
  std::optional<int64_t> timestamp;
  if (r.OneIn(3)) timestamp = 1'000'000 + r.Pick(8);
  int32_t ttl = r.OneIn(4) ? 1 + r.Pick(30) : 0;
  if (no_ttl_with_timestamp && timestamp) ttl = 0;
  if (timestamp) batch.UsingTimestamp(*timestamp);
  if (ttl) batch.UsingTtl(ttl);
  const int rows = 1 + r.Pick(4);
  out.description = "insert batch ";
  for (int i = 0; i < rows; ++i) {
    ModelWrite write;
    write.kind = ModelWrite::kInsert;
    write.pk = r.Key();
    write.ck = r.Pick(kModelClusterings);
    write.timestamp = timestamp;
    write.shares_previous_timestamp = !timestamp && i > 0;
    write.ttl = ttl;
    write.now_sec = now_sec;
    write.value = r.Pick(5) - 2;
    write.value_null = r.OneIn(6);
    std::span<Value> row = batch.AddRow();
    row[0] = Value::Int(write.pk);
    row[1] = Value::Int(write.ck);
    row[2] = write.value_null ? Value::Null() : Value::Int(write.value);
    out.description += "[" + DescribeWrite(write) + "]";
    out.writes.push_back(write);
  }
  if (!timestamp) out.description += " (shared default ts)";
  return out;
}

// A random token bound: a model key's token (so inclusive and exclusive
// bounds matter), a token between them, or an end of the ring.
inline int64_t DrawToken(ModelRandom& r) {
  switch (r.Pick(4)) {
    case 0:
      return r.OneIn(2) ? INT64_MIN : INT64_MAX;
    case 1:
      return static_cast<int64_t>((static_cast<uint64_t>(r.Pick(1 << 30)) << 33) ^
                                  static_cast<uint64_t>(r.Pick(1 << 30)));
    default:
      return ModelToken(r.Key());
  }
}

inline ModelQuery DrawQuery(ModelRandom& r, bool paged) {
  ModelQuery q;
  switch (r.Pick(4)) {
    case 0: {  // some distinct keys in a random order
      const int n = 1 + r.Pick(4);
      while (static_cast<int>(q.keys.size()) < n) {
        const int32_t pk = r.Key();
        if (std::find(q.keys.begin(), q.keys.end(), pk) == q.keys.end()) q.keys.push_back(pk);
      }
      break;
    }
    case 1:
      q.keys = {r.Key()};
      break;
    case 2: {  // a token range: full, one-sided, between keys, or start past end
      TokenRange range;
      if (!r.OneIn(4)) range.start = DrawToken(r);
      if (!r.OneIn(4)) range.end = DrawToken(r);
      range.start_inclusive = r.Pick(2);
      range.end_inclusive = r.Pick(2);
      q.token_range = range;
      break;
    }
    default:
      break;  // every partition, in token order
  }
  switch (r.Pick(5)) {
    case 0:
      q.ck_equal = r.Pick(kModelClusterings + 1);
      break;
    case 1:
    case 2:
      if (!r.OneIn(3)) q.lo = ModelBound{r.Pick(kModelClusterings + 1) - 1, r.OneIn(2)};
      if (!r.OneIn(3)) q.hi = ModelBound{r.Pick(kModelClusterings + 1), r.OneIn(2)};
      break;
    default:
      break;
  }
  q.reversed = r.OneIn(3);
  if (r.OneIn(3)) q.limit = 1 + r.Pick(8);
  if (r.OneIn(3)) q.per_partition_limit = 1 + r.Pick(3);
  const char* const all[] = {"pk", "ck", "s", "v", "tags"};
  for (const char* column : all) {
    if (!r.OneIn(3)) q.columns.push_back(column);
  }
  if (q.columns.empty()) q.columns.push_back(all[r.Pick(5)]);
  if (paged) q.page_size = 1 + r.Pick(r.OneIn(4) ? 12 : 3);
  return q;
}

}  // namespace cassette::testing
