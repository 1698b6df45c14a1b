#include "tools/lab_result_codec.h"

#include <bit>
#include <cstdint>

#include "engine/util/coding.h"

namespace cassette::tools {
namespace {

class Writer {
 public:
  void Unsigned(uint64_t v) { PutVarint64(&out_, v); }
  void Signed(int64_t v) { PutSignedVarint64(&out_, v); }
  void Double(double v) { PutFixed64(&out_, std::bit_cast<uint64_t>(v)); }
  void Bool(bool v) { Unsigned(v ? 1 : 0); }
  void String(std::string_view s) { PutLengthPrefixed(&out_, s); }
  void Count(size_t n) { Unsigned(n); }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

// Each Get consumes from the front and returns false on malformed or
// truncated input, so a decoder is one && chain.
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool Unsigned(uint64_t* v) { return GetVarint64(&in_, v); }
  bool Signed(int64_t* v) { return GetSignedVarint64(&in_, v); }
  bool Double(double* v) {
    uint64_t bits = 0;
    if (!GetFixed64(&in_, &bits)) return false;
    *v = std::bit_cast<double>(bits);
    return true;
  }
  bool Bool(bool* v) {
    uint64_t b = 0;
    if (!Unsigned(&b) || b > 1) return false;
    *v = b == 1;
    return true;
  }
  bool String(std::string* s) {
    std::string_view view;
    if (!GetLengthPrefixed(&in_, &view)) return false;
    s->assign(view);
    return true;
  }
  // A list's length. Every element takes at least a byte, so a length
  // beyond the bytes left is malformed: a corrupt length never makes the
  // decoder reserve or loop more than the input holds.
  bool Count(size_t* n) {
    uint64_t v = 0;
    if (!Unsigned(&v) || v > in_.size()) return false;
    *n = static_cast<size_t>(v);
    return true;
  }
  bool Done() const { return in_.empty(); }

 private:
  std::string_view in_;
};

void PutStringMap(Writer* w, const std::map<std::string, std::string>& map) {
  w->Count(map.size());
  for (const auto& [key, value] : map) {
    w->String(key);
    w->String(value);
  }
}

bool GetStringMap(Reader* r, std::map<std::string, std::string>* map) {
  size_t n = 0;
  if (!r->Count(&n)) return false;
  for (size_t i = 0; i < n; ++i) {
    std::string key, value;
    if (!r->String(&key) || !r->String(&value)) return false;
    (*map)[std::move(key)] = std::move(value);
  }
  return map->size() == n;  // a repeated key is not what the encoder wrote
}

void PutDoubleMap(Writer* w, const std::map<std::string, double>& map) {
  w->Count(map.size());
  for (const auto& [key, value] : map) {
    w->String(key);
    w->Double(value);
  }
}

bool GetDoubleMap(Reader* r, std::map<std::string, double>* map) {
  size_t n = 0;
  if (!r->Count(&n)) return false;
  for (size_t i = 0; i < n; ++i) {
    std::string key;
    double value = 0;
    if (!r->String(&key) || !r->Double(&value)) return false;
    (*map)[std::move(key)] = value;
  }
  return map->size() == n;
}

void PutSample(Writer* w, const LabSample& s) {
  w->Signed(s.second);
  w->Unsigned(s.disk_bytes);
  w->Signed(s.sstable_count);
  w->Double(s.write_amplification);
  w->Double(s.read_amplification_p99);
  w->Unsigned(s.expired_bytes_waiting);
}

bool GetSample(Reader* r, LabSample* s) {
  return r->Signed(&s->second) && r->Unsigned(&s->disk_bytes) && r->Signed(&s->sstable_count) &&
         r->Double(&s->write_amplification) && r->Double(&s->read_amplification_p99) &&
         r->Unsigned(&s->expired_bytes_waiting);
}

void PutWindow(Writer* w, const LabWindow& window) {
  w->Signed(window.start_second);
  w->Signed(window.sstables);
  w->Unsigned(window.live_bytes);
  w->Unsigned(window.droppable_bytes);
  w->Bool(window.expired);
  w->Bool(window.blocked);
}

bool GetWindow(Reader* r, LabWindow* window) {
  return r->Signed(&window->start_second) && r->Signed(&window->sstables) &&
         r->Unsigned(&window->live_bytes) && r->Unsigned(&window->droppable_bytes) &&
         r->Bool(&window->expired) && r->Bool(&window->blocked);
}

void PutWindowSample(Writer* w, const LabWindowSample& sample) {
  w->Signed(sample.second);
  w->Count(sample.windows.size());
  for (const LabWindow& window : sample.windows) PutWindow(w, window);
}

bool GetWindowSample(Reader* r, LabWindowSample* sample) {
  size_t n = 0;
  if (!r->Signed(&sample->second) || !r->Count(&n)) return false;
  sample->windows.resize(n);
  for (LabWindow& window : sample->windows) {
    if (!GetWindow(r, &window)) return false;
  }
  return true;
}

// A list of T with its length first.
template <class T, class Put>
void PutList(Writer* w, const std::vector<T>& list, Put put) {
  w->Count(list.size());
  for (const T& item : list) put(w, item);
}

template <class T, class Get>
bool GetList(Reader* r, std::vector<T>* list, Get get) {
  size_t n = 0;
  if (!r->Count(&n)) return false;
  list->resize(n);
  for (T& item : *list) {
    if (!get(r, &item)) return false;
  }
  return true;
}

void PutString(Writer* w, const std::string& s) { w->String(s); }
bool GetString(Reader* r, std::string* s) { return r->String(s); }

}  // namespace

std::string EncodeLabResult(const LabResult& r) {
  Writer w;
  w.String(r.strategy);
  PutStringMap(&w, r.compaction);
  w.Unsigned(r.user_bytes);
  w.Unsigned(r.logical_bytes);
  w.Unsigned(r.sstable_bytes_written);
  w.Unsigned(r.device_bytes_written);
  w.Double(r.write_amplification);
  w.Double(r.total_write_amplification);
  w.Unsigned(r.peak_disk_bytes);
  w.Unsigned(r.peak_temporary_bytes);
  w.Unsigned(r.final_disk_bytes);
  w.Unsigned(r.live_logical_bytes);
  w.Double(r.space_amplification);
  w.Signed(r.sstable_count);
  w.Signed(r.max_sstable_count);
  w.Signed(r.reads);
  PutDoubleMap(&w, r.read_amplification_p50);
  PutDoubleMap(&w, r.read_amplification_p99);
  w.Double(r.tombstones_per_read_p99);
  w.Unsigned(r.compactions);
  w.Unsigned(r.compaction_bytes_read);
  w.Unsigned(r.compaction_bytes_written);
  w.Unsigned(r.expired_bytes_dropped_whole);
  w.Unsigned(r.expired_bytes_rewritten);
  w.Signed(r.expiry_lag_p50_seconds);
  w.Signed(r.expiry_lag_p99_seconds);
  w.Signed(r.expiry_lag_max_seconds);
  w.Unsigned(r.expired_bytes_waiting);
  w.Unsigned(r.writes);
  w.Unsigned(r.deletes);
  PutList(&w, r.series, PutSample);
  PutList(&w, r.windows, PutWindowSample);
  PutList(&w, r.notes, PutString);
  w.Double(r.wall_seconds);
  w.Double(r.compaction_cpu_seconds);
  w.Double(r.simulated_days_per_minute);
  return w.Take();
}

Result<LabResult> DecodeLabResult(std::string_view bytes) {
  Reader in(bytes);
  LabResult r;
  const bool ok =
      in.String(&r.strategy) && GetStringMap(&in, &r.compaction) && in.Unsigned(&r.user_bytes) &&
      in.Unsigned(&r.logical_bytes) && in.Unsigned(&r.sstable_bytes_written) &&
      in.Unsigned(&r.device_bytes_written) && in.Double(&r.write_amplification) &&
      in.Double(&r.total_write_amplification) && in.Unsigned(&r.peak_disk_bytes) &&
      in.Unsigned(&r.peak_temporary_bytes) && in.Unsigned(&r.final_disk_bytes) &&
      in.Unsigned(&r.live_logical_bytes) && in.Double(&r.space_amplification) &&
      in.Signed(&r.sstable_count) && in.Signed(&r.max_sstable_count) && in.Signed(&r.reads) &&
      GetDoubleMap(&in, &r.read_amplification_p50) &&
      GetDoubleMap(&in, &r.read_amplification_p99) && in.Double(&r.tombstones_per_read_p99) &&
      in.Unsigned(&r.compactions) && in.Unsigned(&r.compaction_bytes_read) &&
      in.Unsigned(&r.compaction_bytes_written) && in.Unsigned(&r.expired_bytes_dropped_whole) &&
      in.Unsigned(&r.expired_bytes_rewritten) && in.Signed(&r.expiry_lag_p50_seconds) &&
      in.Signed(&r.expiry_lag_p99_seconds) && in.Signed(&r.expiry_lag_max_seconds) &&
      in.Unsigned(&r.expired_bytes_waiting) && in.Unsigned(&r.writes) && in.Unsigned(&r.deletes) &&
      GetList(&in, &r.series, GetSample) && GetList(&in, &r.windows, GetWindowSample) &&
      GetList(&in, &r.notes, GetString) && in.Double(&r.wall_seconds) &&
      in.Double(&r.compaction_cpu_seconds) && in.Double(&r.simulated_days_per_minute);
  if (!ok) {
    return Status::Corruption("lab result of " + std::to_string(bytes.size()) +
                              " bytes is truncated or malformed");
  }
  if (!in.Done()) {
    return Status::Corruption("lab result of " + std::to_string(bytes.size()) +
                              " bytes has bytes after its last field");
  }
  return r;
}

std::string EncodeLabError(const Status& error) {
  Writer w;
  w.Unsigned(static_cast<uint64_t>(error.code()));
  w.String(error.message());
  return w.Take();
}

Status DecodeLabError(std::string_view bytes, Status* error) {
  Reader in(bytes);
  uint64_t code = 0;
  std::string message;
  if (!in.Unsigned(&code) || !in.String(&message) || !in.Done()) {
    return Status::Corruption("lab run error of " + std::to_string(bytes.size()) +
                              " bytes is truncated or malformed");
  }
  // A code the encoder could have written is one of Status::Code's errors
  // (ClassName names any other "Unknown").
  const bool known = code > 0 && code <= UINT8_MAX &&
                     Status(static_cast<Status::Code>(code), "").ClassName() != "Unknown";
  if (!known) {
    return Status::Corruption("lab run error has no error code (" + std::to_string(code) + ")");
  }
  *error = Status(static_cast<Status::Code>(code), std::move(message));
  return Status::OK();
}

}  // namespace cassette::tools
