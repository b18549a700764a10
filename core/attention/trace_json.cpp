#include "core/attention/trace_json.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

namespace aaren {

namespace {

template <class T>
nlohmann::json number(T x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
}

template <class T>
nlohmann::json numbers(std::span<const T> xs) {
  nlohmann::json out = nlohmann::json::array();
  for (T x : xs) out.push_back(number(x));
  return out;
}

template <class T>
nlohmann::json states_to_json(const StateArray<T>& x) {
  nlohmann::json w = nlohmann::json::array();
  for (int i = 0; i < x.n; ++i) w.push_back(numbers(x.w_at(i)));
  return {{"m", numbers<T>(x.m)}, {"u", numbers<T>(x.u)}, {"w", w}};
}

}  // namespace

template <class T>
nlohmann::json scan_trace_to_json(const ScanTrace<T>& trace) {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& step : trace.steps) {
    nlohmann::json combines = nlohmann::json::array();
    for (const auto& c : step.combines) combines.push_back({c.left, c.right});
    nlohmann::json entry = states_to_json(step.states);
    entry["combines"] = combines;
    steps.push_back(entry);
  }
  return {{"method", std::string(to_string(trace.method))},
          {"depth", trace.counts.depth},
          {"work", trace.counts.work},
          {"initial", states_to_json(trace.initial)},
          {"steps", steps}};
}

template <class T>
nlohmann::json attention_traces_to_json(const std::vector<AttentionTrace<T>>& traces,
                                        const std::vector<std::vector<T>>& scores, AttentionMethod method) {
  nlohmann::json queries = nlohmann::json::array();
  for (std::size_t h = 0; h < traces.size(); ++h) {
    nlohmann::json entry = {{"query", h}, {"scores", numbers<T>(scores[h])}};
    if (traces[h].scan) entry["scan"] = scan_trace_to_json(*traces[h].scan);
    if (!traces[h].cell.empty()) {
      nlohmann::json cell = nlohmann::json::array();
      for (const auto& row : traces[h].cell)
        cell.push_back({{"a", numbers<T>(row.a)}, {"c", number(row.c)}, {"m", number(row.m)}, {"o", numbers<T>(row.o)}});
      entry["cell"] = cell;
    }
    queries.push_back(entry);
  }
  return {{"method", std::string(to_string(method))},
          {"note", "m = null stands for -inf (the empty summary)"},
          {"queries", queries}};
}

#define AAREN_INSTANTIATE(T)                                                                  \
  template nlohmann::json scan_trace_to_json<T>(const ScanTrace<T>&);                         \
  template nlohmann::json attention_traces_to_json<T>(const std::vector<AttentionTrace<T>>&, \
                                                      const std::vector<std::vector<T>>&, AttentionMethod);
AAREN_INSTANTIATE(float)
AAREN_INSTANTIATE(double)
#undef AAREN_INSTANTIATE

}  // namespace aaren
