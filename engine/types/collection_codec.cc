#include "engine/types/collection_format.h"
#include "engine/types/type_codec.h"
#include "engine/util/coding.h"

namespace cassette {
namespace {

bool ReadInt32(std::string_view* in, int32_t* v) {
  if (in->size() < 4) return false;
  *v = static_cast<int32_t>(DecodeBigEndian32(in->data()));
  in->remove_prefix(4);
  return true;
}

}  // namespace

void AppendValue(std::string* out, std::string_view value) {
  PutBigEndian32(out, static_cast<uint32_t>(value.size()));
  out->append(value);
}

Status ReadCollectionWithNulls(std::string_view serialized, int values_per_entry,
                               std::string_view what,
                               std::vector<std::optional<std::string_view>>* values) {
  values->clear();
  std::string_view in = serialized;
  Status underflow = Status::InvalidRequest("Not enough bytes to read a " + std::string(what));
  int32_t n;
  if (!ReadInt32(&in, &n) || n < 0) return underflow;
  // Every value takes at least 4 bytes: bound the count before reserving.
  if (static_cast<uint64_t>(n) * values_per_entry * 4 > in.size()) return underflow;
  values->reserve(static_cast<size_t>(n) * values_per_entry);
  for (int64_t i = 0; i < static_cast<int64_t>(n) * values_per_entry; ++i) {
    int32_t len;
    if (!ReadInt32(&in, &len)) return underflow;
    if (len < 0) {
      if (len != -1) return Status::InvalidRequest("null is not supported inside collections");
      values->push_back(std::nullopt);
      continue;
    }
    if (static_cast<size_t>(len) > in.size()) return underflow;
    values->push_back(in.substr(0, len));
    in.remove_prefix(len);
  }
  if (!in.empty()) {
    return Status::InvalidRequest("Unexpected extraneous bytes after " + std::string(what) +
                                  " value");
  }
  return Status::OK();
}

Status ReadCollection(std::string_view serialized, int values_per_entry, std::string_view what,
                      std::vector<std::string_view>* values) {
  std::vector<std::optional<std::string_view>> nullable;
  CASSETTE_RETURN_IF_ERROR(ReadCollectionWithNulls(serialized, values_per_entry, what, &nullable));
  values->clear();
  values->reserve(nullable.size());
  for (const std::optional<std::string_view>& value : nullable) {
    if (!value) return Status::InvalidRequest("null is not supported inside collections");
    values->push_back(*value);
  }
  return Status::OK();
}

Status ReadTuple(std::string_view serialized,
                 std::vector<std::optional<std::string_view>>* components) {
  components->clear();
  std::string_view in = serialized;
  while (!in.empty()) {
    int32_t len;
    if (!ReadInt32(&in, &len)) return Status::InvalidRequest("Not enough bytes to read a tuple");
    if (len < 0) {
      if (len != -1) return Status::InvalidRequest("Invalid negative length in tuple component");
      components->push_back(std::nullopt);
      continue;
    }
    if (static_cast<size_t>(len) > in.size()) {
      return Status::InvalidRequest("Not enough bytes to read a tuple");
    }
    components->push_back(in.substr(0, len));
    in.remove_prefix(len);
  }
  return Status::OK();
}

std::string SerializeCollection(const std::vector<std::string>& elements) {
  std::string out;
  PutBigEndian32(&out, static_cast<uint32_t>(elements.size()));
  for (const std::string& e : elements) AppendValue(&out, e);
  return out;
}

Status DeserializeCollection(std::string_view serialized, std::vector<std::string>* elements) {
  std::vector<std::string_view> views;
  CASSETTE_RETURN_IF_ERROR(ReadCollection(serialized, 1, "collection", &views));
  elements->assign(views.begin(), views.end());
  return Status::OK();
}

std::string SerializeMap(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string out;
  PutBigEndian32(&out, static_cast<uint32_t>(entries.size()));
  for (const auto& [k, v] : entries) {
    AppendValue(&out, k);
    AppendValue(&out, v);
  }
  return out;
}

Status DeserializeMap(std::string_view serialized,
                      std::vector<std::pair<std::string, std::string>>* entries) {
  std::vector<std::string_view> views;
  CASSETTE_RETURN_IF_ERROR(ReadCollection(serialized, 2, "map", &views));
  entries->clear();
  for (size_t i = 0; i + 1 < views.size(); i += 2) {
    entries->emplace_back(std::string(views[i]), std::string(views[i + 1]));
  }
  return Status::OK();
}

std::string SerializeTuple(const std::vector<std::optional<std::string>>& components) {
  std::string out;
  for (const auto& c : components) {
    if (c.has_value()) {
      AppendValue(&out, *c);
    } else {
      PutBigEndian32(&out, 0xFFFFFFFFu);
    }
  }
  return out;
}

Status DeserializeTuple(std::string_view serialized,
                        std::vector<std::optional<std::string>>* components) {
  std::vector<std::optional<std::string_view>> views;
  CASSETTE_RETURN_IF_ERROR(ReadTuple(serialized, &views));
  components->clear();
  for (const auto& v : views) {
    components->push_back(v.has_value() ? std::optional<std::string>(*v) : std::nullopt);
  }
  return Status::OK();
}

}  // namespace cassette
