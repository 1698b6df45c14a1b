// The recommendation: which strategy is best on which figure, with values
// within 1% of the best counted as ties.
#include "tools/lab_figures.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cassette::tools {
namespace {

LabResult Outcome(const std::string& strategy, double write_amplification, uint64_t peak_disk) {
  LabResult r;
  r.strategy = strategy;
  r.write_amplification = write_amplification;
  r.total_write_amplification = write_amplification;
  r.peak_disk_bytes = peak_disk;
  return r;
}

bool Wins(const std::map<std::string, std::vector<std::string>>& wins, const std::string& strategy,
          const std::string& label) {
  auto it = wins.find(strategy);
  if (it == wins.end()) return false;
  for (const std::string& l : it->second) {
    if (l == label) return true;
  }
  return false;
}

TEST(LabFiguresTest, AFigureWithinOnePercentOfTheBestIsATie) {
  // stcs is best on write amplification by 0.5%: a tie with twcs, no win.
  // On peak disk twcs is best by 10%: a win.
  const std::vector<LabResult> runs = {Outcome("twcs", 1.005, 900), Outcome("stcs", 1.0, 1000)};
  const auto wins = LabWins(runs);
  EXPECT_FALSE(Wins(wins, "stcs", "write amplification (SSTables)"));
  EXPECT_FALSE(Wins(wins, "twcs", "write amplification (SSTables)"));
  EXPECT_TRUE(Wins(wins, "twcs", "peak disk (MB)"));
  EXPECT_FALSE(Wins(wins, "stcs", "peak disk (MB)"));
  // Just beyond 1%: a win.
  const auto apart = LabWins({Outcome("twcs", 1.02, 900), Outcome("stcs", 1.0, 1000)});
  EXPECT_TRUE(Wins(apart, "stcs", "write amplification (SSTables)"));
}

TEST(LabFiguresTest, ZeroesTieAndTheRecommendationNamesTheLeader) {
  // Both rewrite no dead data (0 and 0): a tie, whatever else differs.
  std::vector<LabResult> runs = {Outcome("twcs", 1.0, 900), Outcome("stcs", 2.0, 1000)};
  const auto wins = LabWins(runs);
  EXPECT_FALSE(Wins(wins, "twcs", "dead data rewritten (MB, est.)"));
  EXPECT_FALSE(Wins(wins, "stcs", "dead data rewritten (MB, est.)"));
  const std::string line = LabRecommendation(runs);
  EXPECT_EQ(line.rfind("recommendation: twcs (best on ", 0), 0u) << line;
  EXPECT_NE(line.find("twcs best on: write amplification (SSTables)"), std::string::npos) << line;
  EXPECT_EQ(LabRecommendation({runs[0]}), "");
}

}  // namespace
}  // namespace cassette::tools
