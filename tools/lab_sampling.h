// The compaction lab's sampling mode (`run.sample`, `--sample F`): a
// month of a thousand sensors is hundreds of millions of rows, and every
// strategy must replay all of them through the real engine. Sampling
// replays a fraction F of the identifiers instead, with everything whose
// size follows the data scaled by F too (the memtable, the read rate, the
// byte sizes in the strategy's options), so that the sampled table is the
// whole table in miniature: as many SSTables, each F times the size. Its
// ratios (write, space and read amplification) are then the figures of
// the whole; its byte figures are scaled back by 1/F.
//
// That is a claim, so each sampled run also measures it: a full run of a
// smaller workload (the sampled one, over `run.sample_check`) against the
// same workload sampled again by F, figure by figure. Sampling a workload
// already F times smaller leaves F times fewer identifiers, so the error
// measured is, if anything, larger than the error of the run it vouches for.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cassette/status.h"
#include "tools/lab_run.h"
#include "tools/lab_workload.h"

namespace cassette::tools {

// `spec` with round(identifiers * fraction) identifiers (at least one)
// and the memtable, the read rate and size_scale multiplied by the
// fraction that gives (returned in *applied); sample is 1 in the result.
WorkloadSpec SampledWorkload(const WorkloadSpec& spec, double fraction, double* applied);

// The compaction map with the byte sizes the strategy reads multiplied by
// `scale`: min_sstable_size (STCS, and TWCS's size tiers), LCS's
// sstable_size_in_mb (at least 1), UCS's target_sstable_size (at least
// 1 MiB, its floor), min_sstable_size and flush_size_override. A size the
// map leaves out is scaled from the engine's default. A value that does
// not parse is left for the engine to refuse. *what lists the changes.
std::map<std::string, std::string> ScaleStrategySizes(
    const std::map<std::string, std::string>& compaction, double scale, std::string* what);

// Byte figures and counts of a run of the sampled workload multiplied by
// 1/fraction: what the whole workload would show.
void ScaleUpResult(double fraction, LabResult* result);

// The workload of the sampling check: `spec` sampled by spec.sample, over
// the check duration; and the same sampled again (its `sample` set).
WorkloadSpec SamplingCheckFullWorkload(const WorkloadSpec& spec);
WorkloadSpec SamplingCheckSampledWorkload(const WorkloadSpec& spec);
int64_t SamplingCheckSeconds(const WorkloadSpec& spec);

struct SamplingError {
  std::string figure;
  double full = 0;
  double sampled = 0;
  // |sampled - full| / |full|; when full is 0, 0 if sampled is too, else
  // absent (no ratio to give).
  bool has_relative = false;
  double relative = 0;
};

struct SamplingCheck {
  std::string strategy;
  std::vector<SamplingError> errors;
};

// What the run's sampling was and what it measured, for the outputs.
struct LabSampling {
  double fraction = 1;  // as applied (identifiers sampled / identifiers)
  int64_t identifiers = 0;
  int64_t sampled_identifiers = 0;
  int64_t check_seconds = 0;
  int64_t check_identifiers = 0;  // the smaller workload's
  std::vector<SamplingCheck> checks;
};

// Figure by figure: the full run of the smaller workload against its
// sampled run.
SamplingCheck CompareSampledRun(const LabResult& full, const LabResult& sampled);

// The terminal's lines, the JSON object and the report's section.
std::string SamplingText(const LabSampling& sampling);
std::string SamplingJson(const LabSampling& sampling);
std::string SamplingHtml(const LabSampling& sampling);

}  // namespace cassette::tools
