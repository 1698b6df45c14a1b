// Flag bits of the row codec (row_codec.h); the byte layout is in
// FORMAT.md beside this file. These values are persisted in commit log
// segments and SSTables: do not renumber; retired bits stay reserved.
#pragma once

#include <cstdint>

namespace cassette::row_format {

// Row flags: the first byte of a row body.
inline constexpr uint8_t kRowHasMarker = 0x01;  // marker timestamp follows; it is the row default
inline constexpr uint8_t kRowExpiringDefault = 0x02;  // the default carries ttl + expiry
inline constexpr uint8_t kRowHasDefault = 0x04;       // no marker, but a default timestamp follows
inline constexpr uint8_t kRowHasDeletion = 0x08;      // row deletion follows
inline constexpr uint8_t kRowHasColumns = 0x10;       // column count and columns follow
inline constexpr uint8_t kRowKnownFlags = 0x1f;

// Column flags; for a simple column the same byte also holds its cell's flags.
inline constexpr uint8_t kColumnComplex = 0x01;          // cell count and cells with paths follow
inline constexpr uint8_t kColumnComplexDeletion = 0x02;  // complex deletion follows
// Cell flags (bits shared with the column flags byte of a simple column).
inline constexpr uint8_t kCellUseRowTimestamp = 0x04;  // timestamp = row default
inline constexpr uint8_t kCellUseRowTtl = 0x08;        // ttl and ldt = row default
inline constexpr uint8_t kCellDeleted = 0x10;          // tombstone: ldt follows
inline constexpr uint8_t kCellExpiring = 0x20;         // ttl and ldt follow
inline constexpr uint8_t kCellEmptyValue = 0x40;       // no value bytes
inline constexpr uint8_t kCellKnownFlags = 0x7c;

// Range tombstone flags.
inline constexpr uint8_t kRtStartInclusive = 0x01;
inline constexpr uint8_t kRtEndInclusive = 0x02;
inline constexpr uint8_t kRtLiveDeletion = 0x04;  // no deletion follows
inline constexpr uint8_t kRtKnownFlags = 0x07;

// Deletion time tag (standalone EncodeDeletionTime).
inline constexpr uint8_t kDeletionLive = 0;
inline constexpr uint8_t kDeletionPresent = 1;

// Partition update flags.
inline constexpr uint8_t kUpdateHasStaticRow = 0x01;
inline constexpr uint8_t kUpdateHasRangeTombstones = 0x02;
inline constexpr uint8_t kUpdateHasRows = 0x04;
inline constexpr uint8_t kUpdateKnownFlags = 0x07;

}  // namespace cassette::row_format
