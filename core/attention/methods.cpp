#include "core/attention/methods.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "core/attention/recurrent_cell.hpp"

namespace aaren {

namespace {

struct MethodName {
  AttentionMethod method;
  std::string_view name;
};

constexpr std::array<MethodName, 6> kMethodNames{{
    {AttentionMethod::conventional, "conventional"},
    {AttentionMethod::recurrent, "recurrent"},
    {AttentionMethod::block, "block"},
    {AttentionMethod::sequential, "sequential"},
    {AttentionMethod::hillis_steele, "hillis-steele"},
    {AttentionMethod::brent_kung, "brent-kung"},
}};

template <class T>
void check_shapes(std::span<const T> s, std::span<const T> v, int dv) {
  if (s.empty()) throw std::invalid_argument("attention needs at least one token (N = 0)");
  if (dv < 1) throw std::invalid_argument("the value dimension must be at least 1");
  if (v.size() != s.size() * std::size_t(dv))
    throw std::invalid_argument("values must have one row of " + std::to_string(dv) +
                                " numbers per score");
}

template <class T>
std::span<const T> row(std::span<const T> matrix, std::size_t i, int cols) {
  return matrix.subspan(i * std::size_t(cols), std::size_t(cols));
}

// Softmax of a range of scores applied to the values, with the maximum subtracted first.
template <class T>
void softmax_average(std::span<T> o, std::span<const T> s, std::span<const T> v, int dv) {
  const T m = *std::max_element(s.begin(), s.end());
  std::fill(o.begin(), o.end(), T(0));
  T total = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const T p = std::exp(s[i] - m);
    total += p;
    const auto vi = row(v, i, dv);
    for (int j = 0; j < dv; ++j) o[std::size_t(j)] += p * vi[std::size_t(j)];
  }
  for (T& x : o) x /= total;
}

template <class T>
void record_cell(AttentionTrace<T>* trace, const RecurrentCell<T>& cell, std::span<const T> o) {
  if (!trace) return;
  trace->cell.push_back({std::vector<T>(cell.a().begin(), cell.a().end()), cell.c(), cell.m(),
                         std::vector<T>(o.begin(), o.end())});
}

template <class T>
StateArray<T> scanned_states(std::span<const T> s, std::span<const T> v, int dv, AttentionMethod method,
                             AttentionTrace<T>* trace) {
  StateArray<T> x = StateArray<T>::from_tokens(s, v, dv);
  if (trace) {
    trace->scan.emplace();
    inclusive_scan(x, scan_method_of(method), &*trace->scan);
  } else {
    inclusive_scan(x, scan_method_of(method));
  }
  return x;
}

// Paper, Appendix A: each block of b tokens is summarized on its own (O(b) memory), then folded
// into the running (m, u, w) with the combine.
template <class T>
void block_by_block(std::span<T> o, std::span<const T> s, std::span<const T> v, int dv, int b) {
  if (b < 1) throw std::invalid_argument("block size must be at least 1, got " + std::to_string(b));
  T m = negative_infinity<T>(), u = 0;
  std::vector<T> w(std::size_t(dv), T(0));
  std::vector<T> block_w(std::size_t(dv), T(0));
  std::vector<T> p(std::size_t(std::min<std::size_t>(std::size_t(b), s.size())));
  for (std::size_t start = 0; start < s.size(); start += std::size_t(b)) {
    const std::size_t len = std::min(std::size_t(b), s.size() - start);
    const auto sb = s.subspan(start, len);
    const T block_m = *std::max_element(sb.begin(), sb.end());
    T block_u = 0;
    for (std::size_t i = 0; i < len; ++i) block_u += p[i] = std::exp(sb[i] - block_m);
    std::fill(block_w.begin(), block_w.end(), T(0));
    for (std::size_t i = 0; i < len; ++i) {
      const auto vi = row(v, start + i, dv);
      for (int j = 0; j < dv; ++j) block_w[std::size_t(j)] += p[i] * vi[std::size_t(j)];
    }
    combine<T>(m, u, w, m, u, w, block_m, block_u, block_w);
  }
  for (int j = 0; j < dv; ++j) o[std::size_t(j)] = w[std::size_t(j)] / u;
}

}  // namespace

std::string_view to_string(AttentionMethod method) {
  for (const auto& entry : kMethodNames)
    if (entry.method == method) return entry.name;
  return "unknown";
}

std::optional<AttentionMethod> attention_method_from_string(std::string_view name) {
  for (const auto& entry : kMethodNames)
    if (entry.name == name) return entry.method;
  return std::nullopt;
}

std::string attention_method_names() {
  std::string names;
  for (const auto& entry : kMethodNames) {
    if (!names.empty()) names += ", ";
    names += entry.name;
  }
  return names;
}

bool supports_prefixes(AttentionMethod method) { return method != AttentionMethod::block; }

ScanMethod scan_method_of(AttentionMethod method) {
  switch (method) {
    case AttentionMethod::hillis_steele: return ScanMethod::hillis_steele;
    case AttentionMethod::brent_kung: return ScanMethod::brent_kung;
    case AttentionMethod::sequential: return ScanMethod::sequential;
    default:
      throw std::invalid_argument("method '" + std::string(to_string(method)) + "' is not a scan");
  }
}

template <class T>
void attend_one(std::span<T> o, std::span<const T> s, std::span<const T> v, int dv,
                const AttentionOptions& options, AttentionTrace<T>* trace) {
  check_shapes(s, v, dv);
  switch (options.method) {
    case AttentionMethod::conventional:
      softmax_average(o, s, v, dv);
      return;
    case AttentionMethod::block:
      block_by_block(o, s, v, dv, options.block_size);
      return;
    case AttentionMethod::recurrent: {
      RecurrentCell<T> cell(dv);
      for (std::size_t i = 0; i < s.size(); ++i) {
        cell.update(s[i], row(v, i, dv));
        if (trace) {
          cell.write_output(o);
          record_cell<T>(trace, cell, o);
        }
      }
      cell.write_output(o);
      return;
    }
    case AttentionMethod::sequential:
    case AttentionMethod::hillis_steele:
    case AttentionMethod::brent_kung: {
      const StateArray<T> x = scanned_states(s, v, dv, options.method, trace);
      const int last = x.n - 1;
      const auto w = x.w_at(last);
      for (int j = 0; j < dv; ++j) o[std::size_t(j)] = w[std::size_t(j)] / x.u[std::size_t(last)];
      return;
    }
  }
}

template <class T>
void attend_prefixes(std::span<T> o, std::span<const T> s, std::span<const T> v, int dv,
                     const AttentionOptions& options, AttentionTrace<T>* trace) {
  check_shapes(s, v, dv);
  const std::size_t n = s.size();
  switch (options.method) {
    case AttentionMethod::block:
      throw std::invalid_argument(
          "method 'block' computes one output per query (paper, Appendix A); for every prefix use "
          "sequential, hillis-steele, brent-kung, recurrent or conventional");
    case AttentionMethod::conventional:
      // The naive causal softmax: every prefix from scratch, O(N^2).
      for (std::size_t k = 0; k < n; ++k)
        softmax_average(o.subspan(k * std::size_t(dv), std::size_t(dv)), s.first(k + 1),
                        v.first((k + 1) * std::size_t(dv)), dv);
      return;
    case AttentionMethod::recurrent: {
      RecurrentCell<T> cell(dv);
      for (std::size_t k = 0; k < n; ++k) {
        cell.update(s[k], row(v, k, dv));
        const auto ok = o.subspan(k * std::size_t(dv), std::size_t(dv));
        cell.write_output(ok);
        record_cell<T>(trace, cell, ok);
      }
      return;
    }
    case AttentionMethod::sequential:
    case AttentionMethod::hillis_steele:
    case AttentionMethod::brent_kung:
      scanned_states(s, v, dv, options.method, trace).write_outputs(o);
      return;
  }
}

#define AAREN_INSTANTIATE(T)                                                                     \
  template void attend_one<T>(std::span<T>, std::span<const T>, std::span<const T>, int,         \
                              const AttentionOptions&, AttentionTrace<T>*);                      \
  template void attend_prefixes<T>(std::span<T>, std::span<const T>, std::span<const T>, int,    \
                                   const AttentionOptions&, AttentionTrace<T>*);
AAREN_INSTANTIATE(float)
AAREN_INSTANTIATE(double)
#undef AAREN_INSTANTIATE

}  // namespace aaren
