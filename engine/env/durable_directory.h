// Creating directories so that they survive a power loss.
//
// mkdir makes a new directory's entry in its parent only as durable as the
// parent's next fsync: a crash can forget a directory (and so every file
// in it, synced or not) that was never fsynced into its parent. Every
// directory the engine creates goes through CreateDirsDurably.
#pragma once

#include <string>

#include "cassette/file_system.h"
#include "cassette/status.h"

namespace cassette {

// Creates `dir` and any missing ancestors, then fsyncs the parent of each
// directory it created, so all of them are durable when it returns. Does
// nothing (no fsync) when `dir` exists.
Status CreateDirsDurably(FileSystem* fs, const std::string& dir);

// "/a/b" -> "/a", "/a" -> "/", "a" -> ".".
std::string ParentDirectory(const std::string& path);

}  // namespace cassette
