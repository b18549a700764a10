#include "core/events/event_generators.hpp"

#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

#include "core/io/matrix_csv.hpp"

namespace aaren {

namespace {

template <class... Handlers>
struct Overloaded : Handlers... {
  using Handlers::operator()...;
};
template <class... Handlers>
Overloaded(Handlers...) -> Overloaded<Handlers...>;

// Uniform in (0, 1), never 0 so that its logarithm is finite; built from the raw bits because the
// standard distributions may differ between library implementations.
double uniform_open(std::mt19937_64& rng) { return (double(rng() >> 11) + 0.5) * 0x1.0p-53; }

double exponential(std::mt19937_64& rng, double rate) { return -std::log(uniform_open(rng)) / rate; }

double angular_frequency(const SineProcess& p) { return 2 * std::numbers::pi / p.period; }

void require_finite_positive(double value, const char* what, const std::string& process) {
  if (!(value > 0) || !std::isfinite(value))
    throw std::invalid_argument(process + ": " + what + " must be a positive number, not " + format_number(value));
}

// Draws events after time `now` one at a time; `stop` says when the sequence is complete.
class Simulator {
 public:
  Simulator(const PointProcess& process, std::uint64_t seed) : process_(process), rng_(seed) { validate(process); }

  double next_event() {
    return std::visit(Overloaded{[&](const PoissonProcess& p) { return now_ += exponential(rng_, p.rate); },
                                 [&](const HawkesProcess& p) { return next_hawkes(p); },
                                 [&](const SineProcess& p) { return next_sine(p); }},
                      process_);
  }

 private:
  // The excitation only decays between events, so the intensity now bounds it until the next one.
  double next_hawkes(const HawkesProcess& p) {
    while (true) {
      const double bound = p.mu + excitation_;
      const double wait = exponential(rng_, bound);
      now_ += wait;
      excitation_ *= std::exp(-p.beta * wait);
      if (uniform_open(rng_) * bound <= p.mu + excitation_) {
        excitation_ += p.alpha * p.beta;
        return now_;
      }
    }
  }

  double next_sine(const SineProcess& p) {
    const double bound = p.a + p.b;
    while (true) {
      now_ += exponential(rng_, bound);
      if (uniform_open(rng_) * bound <= p.a + p.b * std::sin(angular_frequency(p) * now_)) return now_;
    }
  }

  PointProcess process_;
  std::mt19937_64 rng_;
  double now_ = 0;
  double excitation_ = 0;  // sum over past events of alpha * beta * exp(-beta (now - t_i))
};

EventSequence observed_from_zero() {
  EventSequence sequence;
  sequence.origin = 0;
  sequence.first_gap_known = true;
  return sequence;
}

}  // namespace

void validate(const PointProcess& process) {
  const std::string name = describe(process);
  std::visit(Overloaded{[&](const PoissonProcess& p) { require_finite_positive(p.rate, "the rate", name); },
                        [&](const HawkesProcess& p) {
                          require_finite_positive(p.mu, "mu", name);
                          require_finite_positive(p.beta, "beta", name);
                          if (!(p.alpha >= 0 && p.alpha < 1))
                            throw std::invalid_argument(name + ": alpha (the mean number of events each event "
                                                               "triggers) must be at least 0 and below 1");
                        },
                        [&](const SineProcess& p) {
                          require_finite_positive(p.b, "b", name);
                          require_finite_positive(p.period, "the period", name);
                          if (!(p.a >= p.b) || !std::isfinite(p.a))
                            throw std::invalid_argument(name + ": a must be at least b, so that the intensity "
                                                               "a + b sin(2 pi t / period) is never negative");
                        }},
             process);
}

std::string describe(const PointProcess& process) {
  return std::visit(
      Overloaded{[](const PoissonProcess& p) { return "Poisson (rate " + format_number(p.rate) + ")"; },
                 [](const HawkesProcess& p) {
                   return "Hawkes (mu " + format_number(p.mu) + ", alpha " + format_number(p.alpha) + ", beta " +
                          format_number(p.beta) + ")";
                 },
                 [](const SineProcess& p) {
                   return "sine (a " + format_number(p.a) + ", b " + format_number(p.b) + ", period " +
                          format_number(p.period) + ")";
                 }},
      process);
}

double conditional_intensity(const PointProcess& process, std::span<const double> history, double t) {
  return std::visit(Overloaded{[](const PoissonProcess& p) { return p.rate; },
                               [&](const HawkesProcess& p) {
                                 double excitation = 0;
                                 for (double event : history) excitation += std::exp(-p.beta * (t - event));
                                 return p.mu + p.alpha * p.beta * excitation;
                               },
                               [&](const SineProcess& p) { return p.a + p.b * std::sin(angular_frequency(p) * t); }},
                    process);
}

EventSequence simulate_events(const PointProcess& process, int count, std::uint64_t seed) {
  if (count < 0) throw std::invalid_argument("cannot simulate " + std::to_string(count) + " events");
  Simulator simulator(process, seed);
  EventSequence sequence = observed_from_zero();
  sequence.times.reserve(std::size_t(count));
  for (int i = 0; i < count; ++i) sequence.times.push_back(simulator.next_event());
  return sequence;
}

EventSequence simulate_until(const PointProcess& process, double horizon, std::uint64_t seed) {
  if (!(horizon > 0) || !std::isfinite(horizon))
    throw std::invalid_argument("the horizon must be a positive number, not " + format_number(horizon));
  Simulator simulator(process, seed);
  EventSequence sequence = observed_from_zero();
  for (double t = simulator.next_event(); t <= horizon; t = simulator.next_event()) sequence.times.push_back(t);
  return sequence;
}

EventLog simulate_log(const PointProcess& process, int sequences, int events_per_sequence, std::uint64_t seed) {
  if (sequences < 1) throw std::invalid_argument("cannot simulate " + std::to_string(sequences) + " sequences");
  std::mt19937_64 seeds(seed);
  EventLog log;
  log.source = "simulated " + describe(process);
  for (int s = 0; s < sequences; ++s) {
    EventSequence sequence = simulate_events(process, events_per_sequence, seeds());
    sequence.id = std::to_string(s);
    log.sequences.push_back(std::move(sequence));
  }
  return log;
}

std::vector<double> gap_nll(const PointProcess& process, const EventSequence& sequence) {
  validate(process);
  const std::vector<double>& t = sequence.times;
  std::vector<double> nll;
  if (t.empty()) return nll;
  const bool from_origin = sequence.first_gap_known;
  // The gap of event i runs from `previous` (the origin for the first event).
  const auto check_order = [&](std::size_t i, double previous) {
    if (t[i] < previous)
      throw std::invalid_argument("sequence '" + sequence.id + "': event " + std::to_string(i + 1) + " at " +
                                  format_number(t[i]) + " comes before " + format_number(previous));
  };
  std::visit(
      Overloaded{[&](const PoissonProcess& p) {
                   for (std::size_t i = from_origin ? 0 : 1; i < t.size(); ++i) {
                     const double previous = i == 0 ? sequence.origin : t[i - 1];
                     check_order(i, previous);
                     nll.push_back(-std::log(p.rate) + p.rate * (t[i] - previous));
                   }
                 },
                 [&](const HawkesProcess& p) {
                   // sum_{j < i} exp(-beta (t_{i-1} - t_j)) over the events up to and including the previous one.
                   double decayed_events = from_origin ? 0.0 : 1.0;
                   for (std::size_t i = from_origin ? 0 : 1; i < t.size(); ++i) {
                     const double previous = i == 0 ? sequence.origin : t[i - 1];
                     check_order(i, previous);
                     const double gap = t[i] - previous;
                     const double decay = std::exp(-p.beta * gap);
                     const double intensity = p.mu + p.alpha * p.beta * decayed_events * decay;
                     const double integral = p.mu * gap - p.alpha * decayed_events * std::expm1(-p.beta * gap);
                     nll.push_back(-std::log(intensity) + integral);
                     decayed_events = decayed_events * decay + 1.0;
                   }
                 },
                 [&](const SineProcess& p) {
                   const double w = angular_frequency(p);
                   for (std::size_t i = from_origin ? 0 : 1; i < t.size(); ++i) {
                     const double previous = i == 0 ? sequence.origin : t[i - 1];
                     check_order(i, previous);
                     const double integral =
                         p.a * (t[i] - previous) + p.b / w * (std::cos(w * previous) - std::cos(w * t[i]));
                     nll.push_back(-std::log(p.a + p.b * std::sin(w * t[i])) + integral);
                   }
                 }},
      process);
  return nll;
}

double log_likelihood(const PointProcess& process, const EventSequence& sequence) {
  double sum = 0;
  for (double value : gap_nll(process, sequence)) sum -= value;
  return sum;
}

double true_gap_nll(const PointProcess& process, const EventSequence& sequence) {
  return true_gap_nll(process, std::span<const EventSequence>(&sequence, 1));
}

double true_gap_nll(const PointProcess& process, std::span<const EventSequence> sequences) {
  double sum = 0;
  long count = 0;
  for (const EventSequence& sequence : sequences) {
    const std::vector<double> nll = gap_nll(process, sequence);
    for (double value : nll) sum += value;
    count += long(nll.size());
  }
  if (count == 0) throw std::invalid_argument("no event has a known gap, so there is no gap NLL to average");
  return sum / double(count);
}

PoissonProcess fit_poisson(std::span<const EventSequence> sequences) {
  double observed = 0;
  long events = 0;
  for (const EventSequence& sequence : sequences) {
    if (sequence.times.empty()) continue;
    observed += sequence.times.back() - sequence.origin;
    events += long(event_gaps(sequence).size());
  }
  if (events == 0 || !(observed > 0))
    throw std::invalid_argument("a Poisson rate needs at least one gap and some observed time");
  return {double(events) / observed};
}

}  // namespace aaren
