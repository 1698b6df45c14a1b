// ResultRowBuilder: turns the live view of a partition's rows into CQL
// result rows for the selected columns. Partition key columns come from the
// decorated key, clustering columns from the row's clustering, simple
// columns from their live cell, non-frozen collections from their live
// elements (null when none is left), static columns from the partition's
// live static row on every row.
//
// WRITETIME/TTL (with_cell_metadata): the live cell's timestamp, and its
// remaining seconds (expiry - now) when it expires; null for key columns and
// absent values. For a non-frozen collection, WRITETIME is the newest live
// element's timestamp (MAXWRITETIME) and TTL the remaining seconds of the
// first element to expire; each element's own are in RowView::elements.
//
// Thread-compatible; borrows the schema.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cassette/query.h"
#include "cassette/schema.h"
#include "engine/mutation/decorated_key.h"
#include "engine/mutation/row.h"
#include "engine/mutation/row_codec.h"
#include "engine/read/column_filter.h"

namespace cassette {

class ResultRowBuilder {
 public:
  // `selection`: indices into schema.columns(), in output order.
  ResultRowBuilder(const TableSchema& schema, std::vector<size_t> selection,
                   bool with_cell_metadata, int64_t now_sec);

  std::vector<ColumnSpec> Columns() const;

  // Starts a partition: decodes its key (Corruption when malformed). The
  // calls below need a partition started. (The builder's buffers are made
  // by the first: a read that finds no partition, like a lookup of a
  // missing one, allocates nothing here.)
  Status StartPartition(const DecoratedKey& key);
  // The partition's static row, already reduced to its live content.
  void SetStatics(Row live_static) { statics_ = std::move(live_static); }
  // Selects one result row's values into *view; `live_row` (live content only) is
  // null for a row made of the partition key and statics alone
  // (static-only partition, DISTINCT). The view borrows from `live_row`,
  // the partition key, the statics and the builder's buffers: valid until
  // the next BuildView, StartPartition or SetStatics.
  Status BuildView(const Row* live_row, RowView* view);
  // The same row as owned values, filling *out (empty) in place in the
  // result set: each value is copied once, from the row into its Value.
  Status Build(const Row* live_row, ResultRow* out);

  // Whether the two below may be used: no selected column is a non-frozen
  // collection (whose elements a plain row never holds).
  bool TakesPlainRows() const { return takes_plain_rows_; }
  // BuildView and Build of a plain row read in place, live as it is
  // (PlainRowView::LiveAt) and with only columns the table has.
  Status BuildView(const std::string& clustering, const PlainRowView& row, RowView* view);
  Status Build(const std::string& clustering, const PlainRowView& row, ResultRow* out);

  // Whether SelectPlainBody may be used: besides TakesPlainRows, no cell
  // metadata, no static column, no column selected twice.
  bool SelectsPlainBodies() const { return selects_plain_bodies_; }
  // Selects the row whose encoded body is `body` (against `bases`) straight
  // from the body, when it is a plain row live at now (PlainRowView::LiveAt)
  // with only columns `columns` keeps: *selected is then true and the row
  // is the builder's selection (SelectedView, BuildSelected). Otherwise
  // *selected is false and the row must go another way. Errors: a
  // clustering that does not decode.
  Status SelectPlainBody(const std::string& clustering, std::string_view body,
                         const EncodingStats& bases, const ColumnFilter& columns, bool* selected);
  // The row SelectPlainBody selected last, as BuildView and Build give it.
  RowView SelectedView() const { return {values_, writetimes_, ttls_, elements_}; }
  void BuildSelected(ResultRow* out) const;

  // "1, 'a'" for the partition key, "(1), 2" once a clustering is given:
  // Cassandra's rendering of a position in tombstone errors.
  std::string DescribePosition(const std::string* clustering) const;

 private:
  // The slots and buffers, made by the first StartPartition.
  void Prepare();
  // Sets slot `slot` of the selection (and its buffer for a collection's
  // bytes) to the view of the column's value in `row` (null when absent),
  // and with cell metadata its WRITETIME and TTL.
  Status SetColumnValue(const ColumnDefinition& column, const Row* row, size_t slot);
  void SetPlainValue(size_t slot, const PlainRowView& row);
  struct Slot;
  // The regular column of slot `s` in a plain row's `columns`, or null.
  static const PlainRowView::Column* FindPlainColumn(Slot* s, const PlainRowView::Column* columns,
                                                     size_t n);
  // Sets the partition key and clustering columns' slots (`clustering`
  // null: a key-only row). Errors: a clustering that does not decode.
  Status SelectKeyColumns(const std::string* clustering);
  // The view of the selected columns; `set_regular(slot)` sets a regular
  // column's. `clustering` is null for a key-only row.
  template <class SetRegular>
  Status Select(const std::string* clustering, SetRegular set_regular);
  // Serializes a non-frozen collection's live elements as one value.
  Status CollectionBytes(const ColumnDefinition& column, const ColumnData& data,
                         std::string* out) const;

  const TableSchema& schema_;
  std::vector<size_t> selection_;
  bool with_cell_metadata_;
  int64_t now_sec_;
  bool prepared_ = false;
  bool needs_clustering_ = false;
  bool takes_plain_rows_ = true;
  // Per selected column: its definition, its position in the partition key
  // or clustering (key columns), and where a plain row held it last
  // (regular columns).
  struct Slot {
    const ColumnDefinition* column;
    size_t key_position;
    size_t plain_hint;
  };
  std::vector<Slot> slots_;
  bool selects_plain_bodies_ = false;
  // The slots of the partition key and clustering columns, and of the
  // regular columns; the slot of each regular column id selected (-1: not
  // selected), for SelectPlainBody.
  std::vector<size_t> key_slots_;
  std::vector<size_t> regular_slots_;
  std::vector<int32_t> slot_by_id_;
  std::vector<std::string> key_values_;  // serialized, per partition key column
  // The current row's clustering values, decoded by Build (kept so rows
  // reuse the buffers).
  std::vector<std::string> clustering_;
  Row statics_;
  // The row BuildView selected (one slot per selected column; the cell
  // metadata empty without with_cell_metadata), and per selected column
  // the bytes of a non-frozen collection (the only values not stored as
  // they are).
  std::vector<ValueView> values_;
  std::vector<std::optional<int64_t>> writetimes_;
  std::vector<std::optional<int32_t>> ttls_;
  // With cell metadata, per selected column: a non-frozen collection's
  // elements (empty for every other column).
  std::vector<std::vector<ElementCell>> elements_;
  std::vector<std::string> collection_bytes_;
};

}  // namespace cassette
