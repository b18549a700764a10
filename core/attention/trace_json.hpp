#pragma once
// Traces as JSON (what `aaren attention --trace` writes). -inf, which JSON cannot spell, is null.
#include <nlohmann/json_fwd.hpp>
#include <vector>

#include "core/attention/methods.hpp"

namespace aaren {

template <class T>
nlohmann::json scan_trace_to_json(const ScanTrace<T>& trace);

// One entry per query: its scores and what its method recorded.
template <class T>
nlohmann::json attention_traces_to_json(const std::vector<AttentionTrace<T>>& traces,
                                        const std::vector<std::vector<T>>& scores, AttentionMethod method);

}  // namespace aaren
