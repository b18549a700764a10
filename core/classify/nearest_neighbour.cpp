#include "core/classify/nearest_neighbour.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <deque>
#include <numeric>
#include <stdexcept>

#include "core/data/label_numbers.hpp"
#include "core/util/worker_pool.hpp"

namespace aaren {

namespace {

// Fills the NaNs of dimension k linearly between the present values around them.
void fill_gaps(std::vector<double>& v, int length, int dims, int k) {
  int previous = -1;  // the last present step
  for (int t = 0; t <= length; ++t) {
    if (t < length && std::isnan(v[std::size_t(t * dims + k)])) continue;
    const int gap_begin = previous + 1;
    for (int s = gap_begin; s < t; ++s) {
      double& x = v[std::size_t(s * dims + k)];
      if (previous < 0 && t == length) x = 0;  // nothing present at all
      else if (previous < 0) x = v[std::size_t(t * dims + k)];
      else if (t == length) x = v[std::size_t(previous * dims + k)];
      else {
        const double f = double(s - previous) / double(t - previous);
        x = (1 - f) * v[std::size_t(previous * dims + k)] + f * v[std::size_t(t * dims + k)];
      }
    }
    previous = t;
  }
}

void z_normalise(std::vector<double>& v, int length, int dims, int k) {
  double mean = 0;
  for (int t = 0; t < length; ++t) mean += v[std::size_t(t * dims + k)];
  mean /= length;
  double var = 0;
  for (int t = 0; t < length; ++t) var += std::pow(v[std::size_t(t * dims + k)] - mean, 2);
  const double sd = std::sqrt(var / length);
  for (int t = 0; t < length; ++t) {
    double& x = v[std::size_t(t * dims + k)];
    x = sd > 1e-12 * (1 + std::abs(mean)) ? (x - mean) / sd : 0.0;
  }
}

int effective_window(int window, int la, int lb) { return std::max(window, std::abs(la - lb)); }

// The running max (or min) of x over [t - w, t + w], in O(length) (Lemire's streaming algorithm).
template <class Better>
void running_extreme(const NeighbourSeries& c, int dims, int k, int w, std::vector<double>& out, Better better) {
  const int n = c.length;
  auto at = [&](int t) { return c.values[std::size_t(t * dims + k)]; };
  std::deque<int> window;  // indices whose values are in `better` order, front the extreme
  int next = 0;            // the next index to enter
  for (int t = 0; t < n; ++t) {
    for (; next < n && next <= t + w; ++next) {
      while (!window.empty() && !better(at(window.back()), at(next))) window.pop_back();
      window.push_back(next);
    }
    while (window.front() < t - w) window.pop_front();
    out[std::size_t(t * dims + k)] = at(window.front());
  }
}

// Each case's class as `names` numbers it (core/data/label_numbers.hpp matches them by name).
std::vector<int> class_indices(const LabelledSeriesSet& set, const std::vector<std::string>& names) {
  const RunLabelNumbers numbers(set.class_names, names);
  std::vector<int> labels;
  labels.reserve(set.series.size());
  for (const LabelledSeries& s : set.series) {
    if (s.label < 0) throw std::invalid_argument(set.source + ": case " + s.case_id + " has no label");
    if (numbers.of(s.label) < 0)
      throw std::invalid_argument(set.source + ": case " + s.case_id + " has class '" +
                                  set.class_names[std::size_t(s.label)] + "', which the training file does not have");
    labels.push_back(numbers.of(s.label));
  }
  return labels;
}

double accuracy(const std::vector<int>& predicted, const std::vector<int>& truth) {
  long hits = 0;
  for (std::size_t i = 0; i < truth.size(); ++i) hits += predicted[i] == truth[i];
  return truth.empty() ? 0.0 : double(hits) / double(truth.size());
}

}  // namespace

bool z_normalises(NeighbourScaling scaling, int dims) {
  return scaling == NeighbourScaling::per_series || (scaling == NeighbourScaling::automatic && dims == 1);
}

std::string_view to_string(NeighbourScaling scaling) {
  switch (scaling) {
    case NeighbourScaling::automatic: return "auto";
    case NeighbourScaling::per_series: return "per-series";
    case NeighbourScaling::none: return "none";
  }
  return "auto";
}

std::optional<NeighbourScaling> neighbour_scaling_from_string(std::string_view name) {
  for (NeighbourScaling s : {NeighbourScaling::automatic, NeighbourScaling::per_series, NeighbourScaling::none})
    if (to_string(s) == name) return s;
  return std::nullopt;
}

std::vector<NeighbourSeries> neighbour_series(const LabelledSeriesSet& set, NeighbourScaling scaling) {
  const bool z_normalised = z_normalises(scaling, set.dims);
  std::vector<NeighbourSeries> out;
  out.reserve(set.series.size());
  for (const LabelledSeries& s : set.series) {
    NeighbourSeries n{s.length, s.values};
    for (int k = 0; k < set.dims; ++k) {
      fill_gaps(n.values, n.length, set.dims, k);
      if (z_normalised) z_normalise(n.values, n.length, set.dims, k);
    }
    out.push_back(std::move(n));
  }
  return out;
}

namespace {

// The DTW recurrence over the band, one row at a time. Row buffers are shifted by one: slot j + 1
// holds column j and slot 0 the column before the first (infinite, but 0 above the first row), so
// that no cell tests its position. With kWidth, each cell also keeps the widest |i - j| of the path
// chosen into it, the narrowest among equally cheap predecessors. kDims 0: `dims` at run time.
template <bool kWidth, int kDims>
double banded_dtw(const NeighbourSeries& a, const NeighbourSeries& b, int dims, int w, double abandon_above,
                  int* path_width) {
  if constexpr (kDims > 0) dims = kDims;
  constexpr double inf = std::numeric_limits<double>::infinity();
  const int la = a.length, lb = b.length;
  // The two rows live on for the thread's next distance: a search computes tens of thousands.
  thread_local std::vector<double> rows;
  thread_local std::vector<int> widths;
  rows.assign(2 * std::size_t(lb + 1), inf);
  if constexpr (kWidth) widths.assign(2 * std::size_t(lb + 1), 0);
  double* previous = rows.data();
  double* current = previous + lb + 1;
  int* previous_width = kWidth ? widths.data() : nullptr;
  int* current_width = kWidth ? previous_width + lb + 1 : nullptr;
  previous[0] = 0;
  const double* av = a.values.data();
  const double* bv = b.values.data();
  for (int i = 0; i < la; ++i) {
    const int from = std::max(0, i - w), to = std::min(lb - 1, i + w);
    current[from] = inf;  // the cell left of the band (an older row's cost otherwise)
    double row_min = inf;
    const double* ai = av + std::size_t(i) * std::size_t(dims);
    for (int j = from; j <= to; ++j) {
      const double* bj = bv + std::size_t(j) * std::size_t(dims);
      double cost = 0;
      for (int k = 0; k < dims; ++k) cost += (ai[k] - bj[k]) * (ai[k] - bj[k]);
      const double diag = previous[j], up = previous[j + 1], left = current[j];
      const double best = std::min(diag, std::min(up, left));
      if constexpr (kWidth) {  // written to compile to conditional moves: ties are common on flat stretches
        int width = INT_MAX;
        width = diag == best ? std::min(width, previous_width[j]) : width;
        width = up == best ? std::min(width, previous_width[j + 1]) : width;
        width = left == best ? std::min(width, current_width[j]) : width;
        current_width[j + 1] = std::max(width, std::abs(i - j));
      }
      current[j + 1] = best + cost;
      row_min = std::min(row_min, current[j + 1]);
    }
    if (row_min > abandon_above) {
      if (path_width) *path_width = -1;
      return inf;
    }
    std::swap(previous, current);
    if constexpr (kWidth) std::swap(previous_width, current_width);
    previous[0] = inf;  // column -1 of every row below the first
  }
  if constexpr (kWidth) *path_width = previous_width[lb];
  return previous[lb];
}

}  // namespace

double dtw_distance(const NeighbourSeries& a, const NeighbourSeries& b, int dims, int window, double abandon_above,
                    int* path_width) {
  const int w = effective_window(window, a.length, b.length);
  // Keeping the widths costs several times the distance alone, and most distances a search computes
  // are abandoned: they are found again with the widths only for a distance that completed.
  const double d = dims == 1 ? banded_dtw<false, 1>(a, b, dims, w, abandon_above, nullptr)
                             : banded_dtw<false, 0>(a, b, dims, w, abandon_above, nullptr);
  if (path_width) {
    *path_width = -1;
    if (d != kNoAbandon)
      (dims == 1 ? banded_dtw<true, 1>(a, b, dims, w, kNoAbandon, path_width)
                 : banded_dtw<true, 0>(a, b, dims, w, kNoAbandon, path_width));
  }
  return d;
}

double squared_euclidean(const NeighbourSeries& a, const NeighbourSeries& b, int dims) {
  const NeighbourSeries& longer = a.length >= b.length ? a : b;
  const NeighbourSeries& shorter = a.length >= b.length ? b : a;
  const int L = longer.length, l = shorter.length;
  double sum = 0;
  for (int t = 0; t < L; ++t) {
    // Position t of the longer case on the shorter one, stretched linearly.
    const double s = L > 1 ? double(t) * double(l - 1) / double(L - 1) : 0.0;
    const int s0 = std::min(int(s), l - 1), s1 = std::min(s0 + 1, l - 1);
    const double f = s - s0;
    for (int k = 0; k < dims; ++k) {
      const double v = (1 - f) * shorter.values[std::size_t(s0 * dims + k)] + f * shorter.values[std::size_t(s1 * dims + k)];
      sum += std::pow(longer.values[std::size_t(t * dims + k)] - v, 2);
    }
  }
  return sum;
}

KeoghEnvelope keogh_envelope(const NeighbourSeries& candidate, int dims, int window) {
  KeoghEnvelope e;
  e.upper.resize(candidate.values.size());
  e.lower.resize(candidate.values.size());
  for (int k = 0; k < dims; ++k) {
    running_extreme(candidate, dims, k, window, e.upper, [](double kept, double entering) { return kept > entering; });
    running_extreme(candidate, dims, k, window, e.lower, [](double kept, double entering) { return kept < entering; });
  }
  return e;
}

double lb_keogh(const NeighbourSeries& query, const KeoghEnvelope& envelope, int dims, double abandon_above) {
  if (query.values.size() != envelope.upper.size())
    throw std::invalid_argument("LB_Keogh needs cases of equal length");
  double sum = 0;
  for (int t = 0; t < query.length; ++t) {
    for (int k = 0; k < dims; ++k) {
      const std::size_t at = std::size_t(t * dims + k);
      const double q = query.values[at];
      if (q > envelope.upper[at]) sum += (q - envelope.upper[at]) * (q - envelope.upper[at]);
      else if (q < envelope.lower[at]) sum += (q - envelope.lower[at]) * (q - envelope.lower[at]);
    }
    if (sum > abandon_above) return sum;
  }
  return sum;
}

std::vector<int> nearest_labels_euclidean(const std::vector<NeighbourSeries>& train, const std::vector<int>& labels,
                                          const std::vector<NeighbourSeries>& test, int dims) {
  std::vector<int> out;
  for (const NeighbourSeries& q : test) {
    double best = kNoAbandon;
    int label = -1;
    for (std::size_t j = 0; j < train.size(); ++j) {
      const double d = squared_euclidean(q, train[j], dims);
      if (d < best) best = d, label = labels[j];
    }
    out.push_back(label);
  }
  return out;
}

std::vector<int> nearest_labels_dtw(const std::vector<NeighbourSeries>& train, const std::vector<int>& labels,
                                    const std::vector<NeighbourSeries>& test, int dims, int window) {
  std::vector<KeoghEnvelope> envelopes;
  for (const NeighbourSeries& c : train) envelopes.push_back(keogh_envelope(c, dims, window));
  std::vector<int> out(test.size(), -1);
  WorkerPool pool;
  pool.run(int(test.size()), [&](int i, int) {
    const NeighbourSeries& q = test[std::size_t(i)];
    double best = kNoAbandon;
    for (std::size_t j = 0; j < train.size(); ++j) {
      if (q.length == train[j].length && lb_keogh(q, envelopes[j], dims, best) >= best) continue;
      const double d = dtw_distance(q, train[j], dims, window, best);
      if (d < best) best = d, out[std::size_t(i)] = labels[j];
    }
  });
  return out;
}

WindowChoice choose_dtw_window(const std::vector<NeighbourSeries>& train, const std::vector<int>& labels, int dims) {
  const int n = int(train.size());
  if (n < 2) throw std::invalid_argument("choosing the DTW window needs at least two training cases");
  int longest = 0;
  bool equal_lengths = true;
  for (const NeighbourSeries& c : train) {
    longest = std::max(longest, c.length);
    equal_lengths = equal_lengths && c.length == train[0].length;
  }
  std::vector<std::pair<int, double>> windows;  // (steps, percent), distinct steps, widest first
  for (int r = 100; r >= 0; --r) {
    const int w = int(std::lround(r * longest / 100.0));
    if (windows.empty() || windows.back().first != w) windows.push_back({w, double(r)});
    else windows.back().second = r;  // the smallest percent that gives these steps
  }
  // Windows are searched widest first. Each pair keeps its distance from the last window it was
  // computed for: exact at every window down to its path's width, and a lower bound below it (DTW
  // only grows as the window narrows). An abandoned distance leaves a lower bound just above the
  // distance it lost to.
  auto at = [n](int i, int j) { return std::size_t(i) * std::size_t(n) + std::size_t(j); };
  std::vector<double> bound(std::size_t(n) * std::size_t(n), 0.0);
  std::vector<int> exact_down_to(std::size_t(n) * std::size_t(n), INT_MAX);
  // Candidates are tried in the order of their bounds, equal bounds by Euclidean distance (the
  // distance at window 0), so that a near neighbour comes early and the others are abandoned early.
  std::vector<double> euclidean(std::size_t(n) * std::size_t(n), 0.0);
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      euclidean[at(i, j)] = euclidean[at(j, i)] = squared_euclidean(train[std::size_t(i)], train[std::size_t(j)], dims);

  WorkerPool pool;
  std::vector<std::vector<int>> orders(std::size_t(pool.size()), std::vector<int>(std::size_t(n)));
  std::vector<KeoghEnvelope> envelopes(static_cast<std::size_t>(n));
  std::vector<int> nearest(static_cast<std::size_t>(n));
  WindowChoice choice;
  choice.loo_accuracy = -1;
  for (const auto& [w, percent] : windows) {
    const bool use_keogh = equal_lengths && w < longest;
    if (use_keogh)
      pool.run(n, [&](int j, int) { envelopes[std::size_t(j)] = keogh_envelope(train[std::size_t(j)], dims, w); });
    // Case i's search reads and writes only row i, so the cases are searched in parallel and the
    // answer does not depend on the threads; what one pair taught its mirror is shared afterwards.
    pool.run(n, [&](int i, int worker) {
      std::vector<int>& order = orders[std::size_t(worker)];
      std::iota(order.begin(), order.end(), 0);
      std::sort(order.begin(), order.end(), [&](int x, int y) {
        const double bx = bound[at(i, x)], by = bound[at(i, y)];
        if (bx != by) return bx < by;
        return euclidean[at(i, x)] != euclidean[at(i, y)] ? euclidean[at(i, x)] < euclidean[at(i, y)] : x < y;
      });
      double best = kNoAbandon;
      int found = -1;
      for (int j : order) {
        if (j == i) continue;
        if (bound[at(i, j)] > best) break;
        double d = bound[at(i, j)];
        const int window_here = effective_window(w, train[std::size_t(i)].length, train[std::size_t(j)].length);
        if (exact_down_to[at(i, j)] > window_here) {
          if (use_keogh) {
            const double lb = lb_keogh(train[std::size_t(i)], envelopes[std::size_t(j)], dims, best);
            if (lb > best) {
              bound[at(i, j)] = std::max(bound[at(i, j)], lb);
              continue;
            }
          }
          int width = -1;
          d = dtw_distance(train[std::size_t(i)], train[std::size_t(j)], dims, w, best, &width);
          if (width < 0) {
            bound[at(i, j)] = std::max(bound[at(i, j)], std::nextafter(best, kNoAbandon));
            continue;
          }
          bound[at(i, j)] = d;
          exact_down_to[at(i, j)] = width;
        }
        if (d < best || (d == best && j < found)) best = d, found = j;
      }
      nearest[std::size_t(i)] = found;
    });
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) {
        const std::size_t ij = at(i, j), ji = at(j, i);
        if (exact_down_to[ji] < exact_down_to[ij]) bound[ij] = bound[ji], exact_down_to[ij] = exact_down_to[ji];
        else if (exact_down_to[ij] < exact_down_to[ji]) bound[ji] = bound[ij], exact_down_to[ji] = exact_down_to[ij];
        else bound[ij] = bound[ji] = std::max(bound[ij], bound[ji]);
      }
    long correct = 0;
    for (int i = 0; i < n; ++i) correct += labels[std::size_t(nearest[std::size_t(i)])] == labels[std::size_t(i)];
    const double accuracy = double(correct) / double(n);
    if (accuracy >= choice.loo_accuracy) choice = {w, percent, accuracy};  // narrower windows come later
  }
  return choice;
}

double yardstick_cells(long train_cases, long test_cases, int longest) {
  return double(train_cases) * double(train_cases + test_cases) * double(longest) * double(longest);
}

NeighbourBaselines neighbour_baselines(const LabelledSeriesSet& train, const LabelledSeriesSet& test,
                                      NeighbourScaling scaling) {
  if (!train.has_labels()) throw std::invalid_argument(train.source + ": every training case needs a label");
  if (test.dims != train.dims)
    throw std::invalid_argument(test.source + ": has " + std::to_string(test.dims) + " dimensions, the training file " +
                                std::to_string(train.dims));
  if (test.series.empty()) throw std::invalid_argument(test.source + ": has no cases");
  const std::vector<int> train_labels = class_indices(train, train.class_names);
  const std::vector<int> test_labels = class_indices(test, train.class_names);
  const std::vector<NeighbourSeries> a = neighbour_series(train, scaling), b = neighbour_series(test, scaling);
  const int dims = train.dims;

  NeighbourBaselines out;
  out.z_normalised = z_normalises(scaling, dims);
  out.test_cases = long(test.series.size());
  const std::vector<long> counts = train.class_counts();
  out.majority_class = int(std::max_element(counts.begin(), counts.end()) - counts.begin());
  out.majority = accuracy(std::vector<int>(test_labels.size(), out.majority_class), test_labels);
  out.euclidean = accuracy(nearest_labels_euclidean(a, train_labels, b, dims), test_labels);
  int longest = 0;
  for (const NeighbourSeries& s : a) longest = std::max(longest, s.length);
  for (const NeighbourSeries& s : b) longest = std::max(longest, s.length);
  out.dtw_full = accuracy(nearest_labels_dtw(a, train_labels, b, dims, longest), test_labels);
  out.window = a.size() >= 2 ? choose_dtw_window(a, train_labels, dims) : WindowChoice{longest, 100, 0};
  out.dtw_window = accuracy(nearest_labels_dtw(a, train_labels, b, dims, out.window.window), test_labels);
  return out;
}

}  // namespace aaren
