#pragma once
// N (m, u, w) summaries side by side, as the scans keep them: m (N), u (N), w (N, dv) row-major.
#include <cstddef>
#include <span>
#include <vector>

#include "core/scan/state.hpp"

namespace aaren {

template <class T>
struct StateArray {
  int n = 0;
  int dv = 0;
  std::vector<T> m;  // (N)
  std::vector<T> u;  // (N)
  std::vector<T> w;  // (N, dv)

  StateArray() = default;
  StateArray(int n_, int dv_)
      : n(n_), dv(dv_), m(std::size_t(n_), negative_infinity<T>()), u(std::size_t(n_), T(0)),
        w(std::size_t(n_) * std::size_t(dv_), T(0)) {}

  // One token per position: (s_i, 1, v_i).
  static StateArray from_tokens(std::span<const T> scores /*(N)*/, std::span<const T> values /*(N, dv)*/,
                                int dv) {
    StateArray x(int(scores.size()), dv);
    for (int i = 0; i < x.n; ++i) {
      x.m[std::size_t(i)] = scores[std::size_t(i)];
      x.u[std::size_t(i)] = T(1);
    }
    x.w.assign(values.begin(), values.end());
    return x;
  }

  std::span<T> w_at(int i) { return {w.data() + std::size_t(i) * std::size_t(dv), std::size_t(dv)}; }
  std::span<const T> w_at(int i) const {
    return {w.data() + std::size_t(i) * std::size_t(dv), std::size_t(dv)};
  }

  // x[dst] = x[src] (+) x[dst]: the left operand is the earlier segment.
  void combine_into(int dst, int src) {
    combine(m[std::size_t(dst)], u[std::size_t(dst)], w_at(dst), m[std::size_t(src)], u[std::size_t(src)],
            std::span<const T>(w_at(src)), m[std::size_t(dst)], u[std::size_t(dst)],
            std::span<const T>(w_at(dst)));
  }

  // o_i = w_i / u_i for every position: (N, dv).
  void write_outputs(std::span<T> out) const {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < dv; ++j)
        out[std::size_t(i) * std::size_t(dv) + std::size_t(j)] =
            w[std::size_t(i) * std::size_t(dv) + std::size_t(j)] / u[std::size_t(i)];
  }
};

}  // namespace aaren
