#include "engine/sstable/sstable_format.h"

#include "engine/util/checksum.h"
#include "engine/util/coding.h"

namespace cassette {

Status SSTableCorruption(const std::string& path, uint64_t offset, std::string_view what) {
  return Status::Corruption("sstable " + path + ": " + std::string(what) + " at offset " +
                            std::to_string(offset));
}

void EncodeBlockHandle(const BlockHandle& h, std::string* out) {
  PutVarint64(out, h.offset);
  PutVarint64(out, h.size);
}

bool DecodeBlockHandle(std::string_view* in, BlockHandle* h) {
  return GetVarint64(in, &h->offset) && GetVarint64(in, &h->size);
}

namespace {

uint32_t TrailerChecksum(std::string_view payload, uint8_t type) {
  // Checksum32 over payload || type without copying the payload: the type
  // byte is folded in by hashing the pair of checksums.
  const uint32_t inner = Checksum32(payload);
  char tail[5];
  for (int i = 0; i < 4; ++i) tail[i] = static_cast<char>(inner >> (8 * i));
  tail[4] = static_cast<char>(type);
  return Checksum32(std::string_view(tail, sizeof(tail)));
}

}  // namespace

void AppendBlockTrailer(std::string_view payload, BlockType type, std::string* out) {
  // The checksum is taken before appending: `payload` may view *out.
  const auto t = static_cast<uint8_t>(type);
  const uint32_t checksum = TrailerChecksum(payload, t);
  out->push_back(static_cast<char>(t));
  PutFixed32(out, checksum);
}

Status CheckBlock(std::string_view block, const std::string& path, uint64_t offset,
                  std::string_view what, std::string_view* payload, BlockType* type) {
  if (block.size() < kBlockTrailerSize) {
    return SSTableCorruption(path, offset, std::string(what) + " shorter than its trailer");
  }
  std::string_view body = block.substr(0, block.size() - kBlockTrailerSize);
  const auto t = static_cast<uint8_t>(block[body.size()]);
  const uint32_t stored = DecodeFixed32(block.data() + body.size() + 1);
  if (TrailerChecksum(body, t) != stored) {
    return SSTableCorruption(path, offset, std::string(what) + " checksum mismatch");
  }
  if (t > static_cast<uint8_t>(BlockType::kZstd)) {
    return SSTableCorruption(path, offset,
                             std::string(what) + " has unknown block type " + std::to_string(t));
  }
  *payload = body;
  *type = static_cast<BlockType>(t);
  return Status::OK();
}

const SectionEntry* Footer::Find(SectionType type) const {
  for (const SectionEntry& e : sections) {
    if (e.type == type) return &e;
  }
  return nullptr;
}

void EncodeFooter(const Footer& footer, std::string* out) {
  const size_t start = out->size();
  for (const SectionEntry& e : footer.sections) {
    PutFixed32(out, static_cast<uint32_t>(e.type));
    PutFixed32(out, e.checksum);
    PutFixed64(out, e.offset);
    PutFixed64(out, e.length);
  }
  PutFixed32(out, footer.format_version);
  PutFixed32(out, Checksum32(std::string_view(*out).substr(start)));
  PutFixed64(out, kSSTableMagic);
}

Status DecodeFooter(std::string_view in, const std::string& path, uint64_t footer_offset,
                    Footer* footer) {
  if (in.size() != kFooterSize) {
    return SSTableCorruption(path, footer_offset, "truncated footer");
  }
  if (DecodeFixed64(in.data() + kFooterSize - 8) != kSSTableMagic) {
    return SSTableCorruption(path, footer_offset + kFooterSize - 8,
                             "bad magic (not a cassette sstable, or truncated)");
  }
  const size_t checked = kMaxSections * kSectionEntrySize + 4;
  if (Checksum32(in.substr(0, checked)) != DecodeFixed32(in.data() + checked)) {
    return SSTableCorruption(path, footer_offset, "footer checksum mismatch");
  }
  const uint32_t version = DecodeFixed32(in.data() + kMaxSections * kSectionEntrySize);
  if (version < kOldestSSTableFormatVersion || version > kSSTableFormatVersion) {
    return SSTableCorruption(path, footer_offset,
                             "unsupported format version " + std::to_string(version));
  }
  footer->format_version = version;
  const char* p = in.data();
  for (size_t i = 0; i < kMaxSections; ++i, p += kSectionEntrySize) {
    SectionEntry& e = footer->sections[i];
    const uint32_t type = DecodeFixed32(p);
    if (type > static_cast<uint32_t>(SectionType::kStatistics)) {
      return SSTableCorruption(path, footer_offset + i * kSectionEntrySize,
                               "unknown section type " + std::to_string(type));
    }
    e.type = static_cast<SectionType>(type);
    e.checksum = DecodeFixed32(p + 4);
    e.offset = DecodeFixed64(p + 8);
    e.length = DecodeFixed64(p + 16);
    if (e.type != SectionType::kNone &&
        (e.offset > footer_offset || e.length > footer_offset - e.offset)) {
      return SSTableCorruption(path, footer_offset + i * kSectionEntrySize,
                               "section beyond the end of the file");
    }
    for (size_t j = 0; j < i; ++j) {
      if (e.type != SectionType::kNone && footer->sections[j].type == e.type) {
        return SSTableCorruption(path, footer_offset + i * kSectionEntrySize, "duplicate section");
      }
    }
  }
  return Status::OK();
}

}  // namespace cassette
