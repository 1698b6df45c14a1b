// ReferenceModel: the obviously-correct reference for the model test. It
// keeps, per cell, only the winning version (Cassandra's tie rules written
// out plainly here, independent of engine/mutation), keeps deletions as
// plain lists, and derives what a full-partition SELECT shows at `now`
// directly from docs/SEMANTICS.md §1-§3.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cassette::testing {

struct ModelRange {
  int32_t lo = 0;
  bool lo_inclusive = true;
  int32_t hi = 0;
  bool hi_inclusive = true;
  bool Contains(int32_t ck) const {
    return (lo_inclusive ? lo <= ck : lo < ck) && (hi_inclusive ? ck <= hi : ck < hi);
  }
  bool operator==(const ModelRange&) const = default;
};

struct ModelWrite {
  enum Kind {
    kInsert,
    kUpdate,
    kDeleteCell,
    kDeleteRow,
    kDeleteRange,
    kDeletePartition,
    kStatic,
    kAddTag,
    kInsertMarkerOnly,
  };
  int32_t pk = 0;
  int32_t ck = 0;
  std::optional<int64_t> timestamp;
  int32_t ttl = 0;
  int64_t now_sec = 0;
  Kind kind = kInsert;
  int32_t value = 0;
  bool value_null = false;  // kInsert of a null v (an InsertBatch row): a tombstone
  // A database-assigned timestamp equal to the previous write's: the rows
  // of an InsertBatch all carry the batch's single write timestamp.
  bool shares_previous_timestamp = false;
  ModelRange range;
  std::string tag;
  bool operator==(const ModelWrite&) const = default;
};

// One row of a SELECT pk, ck, s, v, tags as the model derives it, each
// value rendered as Value::ToString renders it ("null" when absent).
struct ModelRow {
  int32_t pk = 0;
  std::optional<int32_t> ck;  // nullopt: the row of a partition whose only live data is static
  std::string s, v, tags;
};

class ReferenceModel {
 public:
  // Same data and the same next default timestamp.
  bool operator==(const ReferenceModel&) const = default;

  void Apply(const ModelWrite& w) {
    // Database-assigned timestamps increase and exceed every explicit one
    // the test uses; only their order matters here.
    const int64_t ts = w.timestamp                   ? *w.timestamp
                       : w.shares_previous_timestamp ? next_default_
                                                     : (next_default_ += 1);
    Partition& p = partitions_[w.pk];
    switch (w.kind) {
      case ModelWrite::kInsert:
        Merge(&p.rows[w.ck].marker, MarkerOf(ts, w));
        Merge(&p.rows[w.ck].v, w.value_null ? Tombstone(ts, w) : Live(ts, w, IntBytes(w.value)));
        break;
      case ModelWrite::kInsertMarkerOnly:
        Merge(&p.rows[w.ck].marker, MarkerOf(ts, w));
        break;
      case ModelWrite::kUpdate:
        Merge(&p.rows[w.ck].v, Live(ts, w, IntBytes(w.value)));
        break;
      case ModelWrite::kDeleteCell:
        Merge(&p.rows[w.ck].v, Tombstone(ts, w));
        break;
      case ModelWrite::kDeleteRow:
        p.rows[w.ck].deleted_at = std::max(p.rows[w.ck].deleted_at, ts);
        break;
      case ModelWrite::kDeleteRange:
        p.ranges.push_back({w.range, ts});
        break;
      case ModelWrite::kDeletePartition:
        p.deleted_at = std::max(p.deleted_at, ts);
        break;
      case ModelWrite::kStatic:
        Merge(&p.s, Live(ts, w, IntBytes(w.value)));
        break;
      case ModelWrite::kAddTag:
        Merge(&p.rows[w.ck].tags[w.tag], Live(ts, w, ""));
        break;
    }
  }

  // The live rows of partition pk at `now`, in clustering order.
  std::vector<ModelRow> Rows(int32_t pk, int64_t now) const {
    std::vector<ModelRow> out;
    auto found = partitions_.find(pk);
    if (found == partitions_.end()) return out;
    const Partition& p = found->second;
    const std::string s = VisibleAfter(p.s, p.deleted_at, now) ? IntText(p.s->value) : "null";
    for (const auto& [ck, row] : p.rows) {
      int64_t shadow = std::max(p.deleted_at, row.deleted_at);
      for (const auto& [range, ts] : p.ranges) {
        if (range.Contains(ck)) shadow = std::max(shadow, ts);
      }
      const bool marker_live = row.marker && row.marker->ts > shadow &&
                               (row.marker->ttl == 0 || now < row.marker->expiry);
      const bool v_live = VisibleAfter(row.v, shadow, now);
      std::vector<std::string> tags;
      for (const auto& [tag, cell] : row.tags) {
        if (VisibleAfter(cell, shadow, now)) tags.push_back(tag);
      }
      if (!marker_live && !v_live && tags.empty()) continue;
      out.push_back({pk, ck, s, v_live ? IntText(row.v->value) : "null", SetText(tags)});
    }
    if (out.empty() && s != "null") out.push_back({pk, std::nullopt, s, "null", "null"});
    return out;
  }

  // Rows of partition pk as "pk,ck,s,v,tags;..." the way the test renders
  // a SELECT pk, ck, s, v, tags.
  std::string Render(int32_t pk, int64_t now) const {
    std::string out;
    for (const ModelRow& row : Rows(pk, now)) {
      if (!out.empty()) out += ";";
      out += std::to_string(row.pk) + "," + (row.ck ? std::to_string(*row.ck) : "null") + "," +
             row.s + "," + row.v + "," + row.tags;
    }
    return out;
  }

 private:
  static constexpr int64_t kNone = std::numeric_limits<int64_t>::max();
  static constexpr int64_t kNoDeletion = std::numeric_limits<int64_t>::min();

  struct MCell {
    int64_t ts;
    int32_t ttl;
    int64_t ldt;  // kNone for live non-expiring cells
    bool tombstone;
    std::string value;
    bool operator==(const MCell&) const = default;
  };
  struct Marker {
    int64_t ts;
    int32_t ttl;
    int64_t expiry;
    bool operator==(const Marker&) const = default;
  };
  struct MRow {
    std::optional<Marker> marker;
    std::optional<MCell> v;
    std::map<std::string, std::optional<MCell>> tags;
    int64_t deleted_at = kNoDeletion;
    bool operator==(const MRow&) const = default;
  };
  struct Partition {
    int64_t deleted_at = kNoDeletion;
    std::optional<MCell> s;
    std::map<int32_t, MRow> rows;
    std::vector<std::pair<ModelRange, int64_t>> ranges;
    bool operator==(const Partition&) const = default;
  };

  static std::string IntBytes(int32_t v) {
    const uint32_t u = static_cast<uint32_t>(v);
    return {static_cast<char>(u >> 24), static_cast<char>(u >> 16), static_cast<char>(u >> 8),
            static_cast<char>(u)};
  }
  static std::string IntText(const std::string& bytes) {
    uint32_t u = 0;
    for (char c : bytes) u = (u << 8) | static_cast<uint8_t>(c);
    return std::to_string(static_cast<int32_t>(u));
  }
  static std::string SetText(const std::vector<std::string>& tags) {
    if (tags.empty()) return "null";
    std::string out = "{";
    for (size_t i = 0; i < tags.size(); ++i) out += (i ? ", '" : "'") + tags[i] + "'";
    return out + "}";
  }

  static MCell Live(int64_t ts, const ModelWrite& w, std::string value) {
    return {ts, w.ttl, w.ttl > 0 ? w.now_sec + w.ttl : kNone, false, std::move(value)};
  }
  static MCell Tombstone(int64_t ts, const ModelWrite& w) { return {ts, 0, w.now_sec, true, ""}; }
  static Marker MarkerOf(int64_t ts, const ModelWrite& w) {
    return {ts, w.ttl, w.ttl > 0 ? w.now_sec + w.ttl : kNone};
  }

  // docs/SEMANTICS.md §1, Cells.resolveRegular, in order.
  static bool Beats(const MCell& a, const MCell& b) {
    if (a.ts != b.ts) return a.ts > b.ts;
    const bool a_mortal = a.ldt != kNone, b_mortal = b.ldt != kNone;
    if (a_mortal != b_mortal) return a_mortal;
    if (a_mortal) {
      if (a.tombstone != b.tombstone) return a.tombstone;
      if (a.ldt != b.ldt) return a.ldt > b.ldt;
    }
    return a.value > b.value;  // unsigned byte order
  }
  static void Merge(std::optional<MCell>* into, const MCell& c) {
    if (!*into || Beats(c, **into)) *into = c;
  }
  static void Merge(std::optional<Marker>* into, const Marker& m) {
    if (!*into) {
      *into = m;
      return;
    }
    const Marker& o = **into;
    const bool wins = m.ts != o.ts                 ? m.ts > o.ts
                      : (m.ttl > 0) != (o.ttl > 0) ? m.ttl > 0
                                                   : m.expiry > o.expiry;
    if (wins) *into = m;
  }
  static bool VisibleAfter(const std::optional<MCell>& c, int64_t shadow, int64_t now) {
    return c && c->ts > shadow && !c->tombstone && (c->ttl == 0 || now < c->ldt);
  }

  int64_t next_default_ = int64_t{1} << 40;
  std::map<int32_t, Partition> partitions_;
};

}  // namespace cassette::testing
