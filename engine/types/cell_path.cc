#include "engine/types/cell_path.h"

#include <cstdint>

#include "engine/types/comparable.h"
#include "engine/util/coding.h"

namespace cassette {

std::string UserTypeFieldPath(size_t field) {
  std::string position;
  PutBigEndian16(&position, static_cast<uint16_t>(field));
  std::string path;
  EncodeComparable(DataType::Smallint(), position, /*descending=*/false, &path);
  return path;
}

}  // namespace cassette
