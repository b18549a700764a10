#include "core/attention/linear_attention_backward.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace aaren {

template <class T>
LinearAttentionGradients<T> linear_attention_backward(const Matrix<T>& dy, const Matrix<T>& phi_q,
                                                      const Matrix<T>& phi_k, const Matrix<T>& v,
                                                      const LinearAttentionOptions& options) {
  check_linear_attention_shapes(phi_q, phi_k, v, options);
  if (dy.rows != phi_q.rows || dy.cols != v.cols)
    throw std::invalid_argument("the output's gradient is (" + std::to_string(dy.rows) + ", " + std::to_string(dy.cols) +
                                "), not (" + std::to_string(phi_q.rows) + ", " + std::to_string(v.cols) + ") like the output");
  const int n = v.rows, dv = v.cols, m = phi_q.cols;
  LinearAttentionGradients<T> g{Matrix<T>(phi_q.rows, m), Matrix<T>(n, m), Matrix<T>(n, dv)};
  std::vector<T> similarity(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(dv));
  for (int i = 0; i < phi_q.rows; ++i) {
    const int last = options.causal ? i : n - 1;
    // The forward for query i: its similarities, denominator and output.
    T den = T(options.eps);
    std::fill(y.begin(), y.end(), T(0));
    for (int j = 0; j <= last; ++j) {
      T a = 0;
      for (int f = 0; f < m; ++f) a += phi_q(i, f) * phi_k(j, f);
      similarity[std::size_t(j)] = a;
      den += a;
      for (int c = 0; c < dv; ++c) y[std::size_t(c)] += a * v(j, c);
    }
    T dden = 0;
    for (int c = 0; c < dv; ++c) dden -= dy(i, c) * (y[std::size_t(c)] / den) / den;
    for (int j = 0; j <= last; ++j) {
      T da = dden;
      for (int c = 0; c < dv; ++c) {
        da += dy(i, c) / den * v(j, c);
        g.v(j, c) += similarity[std::size_t(j)] * dy(i, c) / den;
      }
      for (int f = 0; f < m; ++f) {
        g.phi_q(i, f) += da * phi_k(j, f);
        g.phi_k(j, f) += da * phi_q(i, f);
      }
    }
  }
  return g;
}

template LinearAttentionGradients<float> linear_attention_backward(const Matrix<float>&, const Matrix<float>&,
                                                                   const Matrix<float>&, const Matrix<float>&,
                                                                   const LinearAttentionOptions&);
template LinearAttentionGradients<double> linear_attention_backward(const Matrix<double>&, const Matrix<double>&,
                                                                    const Matrix<double>&, const Matrix<double>&,
                                                                    const LinearAttentionOptions&);

}  // namespace aaren
