// RangeTombstone: a deletion of every row whose clustering falls in a range
// (DELETE over a clustering prefix or slice). Static rows are never covered.
#pragma once

#include "engine/mutation/clustering_bound.h"
#include "engine/mutation/deletion_time.h"

namespace cassette {

struct RangeTombstone {
  ClusteringRange range;
  DeletionTime deletion;
  friend bool operator==(const RangeTombstone&, const RangeTombstone&) = default;
};

}  // namespace cassette
