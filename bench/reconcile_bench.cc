// Cell reconciliation and row merge: the inner loop of every read and
// compaction.
#include <benchmark/benchmark.h>

#include <random>

#include "engine/mutation/reconcile.h"

namespace cassette {
namespace {

void BM_ReconcileCells(benchmark::State& state) {
  std::mt19937_64 rng(1);
  std::vector<Cell> cells;
  for (int i = 0; i < 1024; ++i) {
    cells.push_back(Cell::Live(static_cast<int64_t>(rng() % 4), std::string(8, char('a' + i % 7))));
  }
  size_t i = 0;
  for (auto _ : state) {
    const Cell& winner = Reconcile(cells[i & 1023], cells[(i + 1) & 1023]);
    benchmark::DoNotOptimize(&winner);
    ++i;
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_ReconcileCells);

void BM_MergeRow(benchmark::State& state) {
  Row a, b;
  a.clustering = b.clustering = "\x80\x00\x00\x01";
  for (uint32_t c = 0; c < 4; ++c) {
    a.columns.push_back({c, false, {}, {Cell::Live(1, "aaaaaaaa")}});
    b.columns.push_back({c, false, {}, {Cell::Live(2, "bbbbbbbb")}});
  }
  for (auto _ : state) {
    Row into = a;
    MergeRow(&into, b);
    benchmark::DoNotOptimize(into);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_MergeRow);

}  // namespace
}  // namespace cassette
