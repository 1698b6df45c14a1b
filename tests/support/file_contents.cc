#include "tests/support/file_contents.h"

namespace cassette {

Status WriteStringToFile(FileSystem& fs, const std::string& path, std::string_view data,
                         bool sync) {
  CASSETTE_ASSIGN_OR_RETURN(auto file, fs.NewWritableFile(path));
  CASSETTE_RETURN_IF_ERROR(file->Append(data));
  if (sync) CASSETTE_RETURN_IF_ERROR(file->Sync());
  return file->Close();
}

Result<std::string> ReadFileToString(FileSystem& fs, const std::string& path) {
  CASSETTE_ASSIGN_OR_RETURN(auto file, fs.NewSequentialFile(path));
  std::string all;
  std::string chunk;
  while (true) {
    CASSETTE_RETURN_IF_ERROR(file->Read(64 * 1024, &chunk));
    if (chunk.empty()) break;
    all += chunk;
  }
  return all;
}

}  // namespace cassette
