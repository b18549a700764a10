#include "core/events/event_baselines.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace aaren {

double scored_gap_nll(const PointProcess& process, std::span<const EventSequence> sequences) {
  double sum = 0;
  long count = 0;
  for (const EventSequence& sequence : sequences) {
    const std::vector<double> nll = gap_nll(process, sequence);
    // gap_nll scores the first event too when its gap is known; the model never does.
    const std::size_t first = sequence.first_gap_known ? 1 : 0;
    for (std::size_t i = first; i < nll.size(); ++i) sum += nll[i];
    count += long(nll.size()) - long(std::min(first, nll.size()));
  }
  if (count == 0) throw std::invalid_argument("no event after the first of a sequence, so there is no NLL to average");
  return sum / double(count);
}

std::optional<PointProcess> reference_process(std::string_view name) {
  if (name == "hawkes1") return PointProcess(hawkes1_reference);
  if (name == "poisson") return PointProcess(poisson_reference);
  return std::nullopt;
}

}  // namespace aaren
