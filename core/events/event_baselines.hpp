#pragma once
// Reference processes scored over exactly the events an event model is scored on (each sequence's
// events 1..n-1, see event_windows.hpp), so that a model's NLL per event can be set beside the
// true process's (for simulated data) and a homogeneous Poisson process fitted to the training
// part (for any data). Values are in the data's time unit, like the model's.
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/events/event_generators.hpp"

namespace aaren {

// The mean gap NLL per scored event. Throws std::invalid_argument when no event is scored.
double scored_gap_nll(const PointProcess& process, std::span<const EventSequence> sequences);

// The processes that generated the reference logs, by name: "hawkes1" (hawkes1_reference) and
// "poisson" (poisson_reference); nullopt for any other name.
std::optional<PointProcess> reference_process(std::string_view name);
inline constexpr const char* kReferenceProcessNames = "hawkes1, poisson";

}  // namespace aaren
