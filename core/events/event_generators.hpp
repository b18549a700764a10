#pragma once
// Point processes whose intensity is known exactly, to simulate event logs and to tell how well a
// learned model could do at best on them. Simulation is by exact exponential gaps (Poisson) or by
// Ogata's thinning (Hawkes, sine), driven by a 64-bit Mersenne Twister so that a seed gives the
// same events on every platform.
//
// Likelihood conventions. A sequence is observed from its origin (EventSequence::origin) to its
// last event; the quiet time after the last event is not part of it (no survival term). Each event
// with a known gap (see event_gaps) contributes
//   gap NLL_i = -log lambda(t_i | history) + integral_{t_{i-1}}^{t_i} lambda(t | history) dt,
// with t_{-1} = origin, which is -log p(t_i | history): exactly what a model's "NLL of the next
// gap" estimates. The history is the sequence's own earlier events in order (ties count as
// earlier); nothing before the origin is known, so for a part cut from a longer sequence the
// self-excitation of the events before it is left out. The log-likelihood is minus the sum of the
// gap NLLs: for a simulated sequence (origin 0, first gap known) that is
//   sum_i log lambda(t_i) - integral_0^{t_n} lambda(t) dt,
// and for a sequence read from a file it is conditional on its first event.
#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "core/events/event_log.hpp"

namespace aaren {

struct PoissonProcess {
  double rate = 0;
};

// lambda(t) = mu + sum_{t_i < t} alpha * beta * exp(-beta (t - t_i)): every event triggers alpha
// further events on average (the branching ratio), so the mean rate is mu / (1 - alpha).
struct HawkesProcess {
  double mu = 0, alpha = 0, beta = 0;
};

// lambda(t) = a + b sin(2 pi t / period), a >= b > 0: a rate that swings between a - b and a + b.
struct SineProcess {
  double a = 0, b = 0, period = 0;
};

using PointProcess = std::variant<PoissonProcess, HawkesProcess, SineProcess>;

// The processes behind the reference data tpp-synthetic/hawkes1.csv and poisson.csv
// (Omi, Ueda and Aihara 2019, "Fully neural network based model for general temporal point processes").
inline constexpr HawkesProcess hawkes1_reference{0.2, 0.8, 1.0};
inline constexpr PoissonProcess poisson_reference{1.0};

// Throws std::invalid_argument saying which parameter is out of range (rates positive and finite,
// 0 <= alpha < 1 so that a Hawkes process does not explode, a >= b > 0).
void validate(const PointProcess& process);
std::string describe(const PointProcess& process);  // "Hawkes (mu 0.2, alpha 0.8, beta 1)"

// lambda(t) given the events `history` (in order, none after t).
double conditional_intensity(const PointProcess& process, std::span<const double> history, double t);

// Events from time 0 on (origin 0, first gap known): exactly `count` of them, or all up to `horizon`.
EventSequence simulate_events(const PointProcess& process, int count, std::uint64_t seed);
EventSequence simulate_until(const PointProcess& process, double horizon, std::uint64_t seed);
// Independent sequences with ids "0", "1", ..., each of `events_per_sequence` events.
EventLog simulate_log(const PointProcess& process, int sequences, int events_per_sequence, std::uint64_t seed);

// One value per event with a known gap, in closed form (Hawkes by the O(n) recursion of its
// exponential kernel). Throws std::invalid_argument when the times decrease.
std::vector<double> gap_nll(const PointProcess& process, const EventSequence& sequence);
double log_likelihood(const PointProcess& process, const EventSequence& sequence);
// The mean gap NLL per event: of one sequence, or pooled over all events of several. Throws
// std::invalid_argument when there is no gap to score.
double true_gap_nll(const PointProcess& process, const EventSequence& sequence);
double true_gap_nll(const PointProcess& process, std::span<const EventSequence> sequences);

// The maximum-likelihood Poisson rate: scored events over observed time (origin to last event).
PoissonProcess fit_poisson(std::span<const EventSequence> sequences);

}  // namespace aaren
