#include "engine/compaction/twcs_guardrail.h"

#include <cmath>
#include <string_view>

#include "engine/compaction/time_window_options.h"

namespace cassette {
namespace {

constexpr int64_t kMinute = 60;
constexpr int64_t kHour = 3600;
constexpr int64_t kDay = 86400;
// About 20 windows per TTL: few enough SSTables per partition, windows
// small enough that data leaves disk soon after it expires.
constexpr int64_t kTargetWindows = 20;

bool IsTwcs(const std::map<std::string, std::string>& options) {
  auto it = options.find("class");
  if (it == options.end()) return false;
  return it->second == "TimeWindowCompactionStrategy" ||
         it->second == "org.apache.cassandra.db.compaction.TimeWindowCompactionStrategy";
}

std::string Count(int64_t n, const char* unit) {
  return std::to_string(n) + " " + unit + (n == 1 ? "" : "s");
}

// "30 days", "12.5 days", "6 hours", "90 seconds": in the largest unit
// that expresses it exactly with at most one decimal; otherwise in seconds,
// with an approximation in a larger unit.
std::string Duration(int64_t seconds) {
  struct Unit {
    int64_t seconds;
    const char* name;
  };
  static constexpr Unit kUnits[] = {{kDay, "day"}, {kHour, "hour"}, {kMinute, "minute"}};
  auto render = [](int64_t tenths, const char* name) {
    std::string n = std::to_string(tenths / 10);
    if (tenths % 10 != 0) n += "." + std::to_string(tenths % 10);
    return n + " " + name + (tenths == 10 ? "" : "s");
  };
  for (const Unit& u : kUnits) {
    if (seconds >= u.seconds && (seconds * 10) % u.seconds == 0) {
      return render(seconds * 10 / u.seconds, u.name);
    }
  }
  std::string out = Count(seconds, "second");
  for (const Unit& u : kUnits) {
    if (seconds >= u.seconds) {
      return out + " (about " + render((seconds * 10 + u.seconds / 2) / u.seconds, u.name) + ")";
    }
  }
  return out;
}

int64_t WindowsSpanned(int64_t ttl, int64_t window) { return (ttl + window - 1) / window; }

struct Window {
  TimeWindowUnit unit;
  int64_t size;
  int64_t seconds() const {
    return size * (unit == TimeWindowUnit::kMinutes ? kMinute
                   : unit == TimeWindowUnit::kHours ? kHour
                                                    : kDay);
  }
};

std::string Options(const Window& w) {
  return "compaction_window_unit = '" + std::string(TimeWindowUnitName(w.unit)) +
         "', compaction_window_size = " + std::to_string(w.size);
}

// A round window near ttl / 20 that keeps the window count within 50.
Window SuggestWindow(int64_t ttl) {
  std::vector<Window> choices;
  for (int64_t m : {1, 2, 5, 10, 15, 20, 30}) choices.push_back({TimeWindowUnit::kMinutes, m});
  for (int64_t h : {1, 2, 3, 4, 6, 8, 12}) choices.push_back({TimeWindowUnit::kHours, h});
  const int64_t ideal_days = ttl / kTargetWindows / kDay;
  for (int64_t d :
       {ideal_days, ideal_days + 1,
        (ttl + kTwcsMaxRecommendedWindows * kDay - 1) / (kTwcsMaxRecommendedWindows * kDay)}) {
    if (d >= 1) choices.push_back({TimeWindowUnit::kDays, d});
  }
  const double target = static_cast<double>(ttl) / kTargetWindows;
  Window best = choices.back();
  double best_distance = INFINITY;
  for (const Window& w : choices) {
    if (WindowsSpanned(ttl, w.seconds()) > kTwcsMaxRecommendedWindows) continue;
    const double distance = std::fabs(std::log(static_cast<double>(w.seconds()) / target));
    if (distance < best_distance) {
      best = w;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace

std::vector<std::string> TwcsGuardrailWarnings(
    const std::map<std::string, std::string>& compaction_options,
    int32_t default_time_to_live_seconds) {
  std::vector<std::string> warnings;
  if (!IsTwcs(compaction_options)) return warnings;
  Result<TimeWindowOptions> parsed = ParseTimeWindowOptions(compaction_options, nullptr);
  if (!parsed.ok()) return warnings;
  const Window current{parsed->window_unit, parsed->window_size};
  const int64_t window = current.seconds();
  const std::string current_text = Duration(window) + " (" + Options(current) + ")";

  if (default_time_to_live_seconds <= 0) {
    // With windows of W, a TTL between 20 W and 50 W is what they suit.
    warnings.push_back(
        "TimeWindowCompactionStrategy table without a default_time_to_live: TWCS frees disk "
        "space by dropping a window's SSTables whole once all their data has expired, so "
        "unless every write sets its own TTL (USING TTL), no window is ever dropped and the "
        "table grows forever. Set default_time_to_live to the retention period; windows of " +
        current_text + " suit a TTL between " + Duration(window * kTargetWindows) + " and " +
        Duration(window * kTwcsMaxRecommendedWindows) +
        " (Cassandra recommends at most 50 windows per TTL; pick a window of about TTL / 20).");
    return warnings;
  }

  const int64_t ttl = default_time_to_live_seconds;
  const int64_t spanned = WindowsSpanned(ttl, window);
  if (spanned > kTwcsMaxRecommendedWindows) {
    const Window suggested = SuggestWindow(ttl);
    warnings.push_back(
        "default_time_to_live of " + Duration(ttl) + " spans " + std::to_string(spanned) +
        " windows of " + current_text + "; Cassandra recommends at most 50: consider " +
        Options(suggested) + " (" + Count(WindowsSpanned(ttl, suggested.seconds()), "window") +
        " of " + Duration(suggested.seconds()) +
        "). Every window keeps at least one SSTable until its data expires, so a partition written "
        "to throughout the TTL ends up spread over that many SSTables, each of which a read of "
        "it may have to visit.");
  }
  return warnings;
}

}  // namespace cassette
