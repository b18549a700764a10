#include "core/nn/causal_linear_attention.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/nn/eigen_maps.hpp"

namespace aaren {

namespace {

template <class T>
T elu_plus_one(T x) {
  return x > T(0) ? x + T(1) : std::exp(x);
}

template <class T>
T elu_plus_one_slope(T x) {
  return x > T(0) ? T(1) : std::exp(x);
}

void check_heads(int C, int H) {
  if (H < 1 || C % H != 0)
    throw std::invalid_argument("d_model " + std::to_string(C) + " is not a multiple of the " + std::to_string(H) + " heads");
}

// phi of one head's columns of x (L, C), as a dense (L, d_head) matrix.
template <class T>
RowMajorMatrix<T> head_features(const T* x, int L, int C, int dh) {
  return ConstColumnSliceMap<T>(x, L, dh, Eigen::OuterStride<>(C)).unaryExpr([](T value) { return elu_plus_one(value); });
}

}  // namespace

template <class T>
void causal_linear_attention_forward(T* out, T* den, const T* q, const T* k, const T* v, int L, int C, int H, int chunk,
                                     T eps) {
  check_heads(C, H);
  if (chunk < 1) throw std::invalid_argument("a chunk holds at least 1 token, not " + std::to_string(chunk));
  const int dh = C / H;
  using Dense = RowMajorMatrix<T>;
  for (int h = 0; h < H; ++h) {
    const Dense phi_q = head_features(q + h * dh, L, C, dh), phi_k = head_features(k + h * dh, L, C, dh);
    const ConstColumnSliceMap<T> values(v + h * dh, L, dh, Eigen::OuterStride<>(C));
    ColumnSliceMap<T> y(out + h * dh, L, dh, Eigen::OuterStride<>(C));
    Dense s = Dense::Zero(dh, dh);
    Eigen::Matrix<T, 1, Eigen::Dynamic> z = Eigen::Matrix<T, 1, Eigen::Dynamic>::Zero(dh);
    for (int begin = 0; begin < L; begin += chunk) {
      const int size = std::min(chunk, L - begin);
      Dense similarity = phi_q.middleRows(begin, size) * phi_k.middleRows(begin, size).transpose();
      similarity.template triangularView<Eigen::StrictlyUpper>().setZero();
      const Dense numerator = similarity * values.middleRows(begin, size) + phi_q.middleRows(begin, size) * s;
      const Eigen::Matrix<T, Eigen::Dynamic, 1> denominator =
          similarity.rowwise().sum() + phi_q.middleRows(begin, size) * z.transpose();
      for (int i = 0; i < size; ++i) {
        const T d = denominator(i) + eps;
        den[std::size_t(h) * std::size_t(L) + std::size_t(begin + i)] = d;
        y.row(begin + i) = numerator.row(i) / d;
      }
      s.noalias() += phi_k.middleRows(begin, size).transpose() * values.middleRows(begin, size);
      z += phi_k.middleRows(begin, size).colwise().sum();
    }
  }
}

template <class T>
void causal_linear_attention_backward(T* dq, T* dk, T* dv, const T* dout, const T* q, const T* k, const T* v,
                                      const T* out, const T* den, int L, int C, int H) {
  check_heads(C, H);
  const int dh = C / H;
  using Dense = RowMajorMatrix<T>;
  using Row = Eigen::Matrix<T, 1, Eigen::Dynamic>;
  for (int h = 0; h < H; ++h) {
    const Dense phi_q = head_features(q + h * dh, L, C, dh), phi_k = head_features(k + h * dh, L, C, dh);
    const ConstColumnSliceMap<T> values(v + h * dh, L, dh, Eigen::OuterStride<>(C));
    const ConstColumnSliceMap<T> y(out + h * dh, L, dh, Eigen::OuterStride<>(C));
    const ConstColumnSliceMap<T> g(dout + h * dh, L, dh, Eigen::OuterStride<>(C));
    ColumnSliceMap<T> dq_h(dq + h * dh, L, dh, Eigen::OuterStride<>(C));
    ColumnSliceMap<T> dk_h(dk + h * dh, L, dh, Eigen::OuterStride<>(C));
    ColumnSliceMap<T> dv_h(dv + h * dh, L, dh, Eigen::OuterStride<>(C));
    const T* den_h = den + std::size_t(h) * std::size_t(L);
    // The gradients of each row's numerator and denominator.
    Dense dn(L, dh);
    Eigen::Matrix<T, Eigen::Dynamic, 1> dd(L);
    for (int i = 0; i < L; ++i) {
      dn.row(i) = g.row(i) / den_h[i];
      dd(i) = -g.row(i).dot(y.row(i)) / den_h[i];
    }
    // Forward scan: dphi(q_i) = S_i dn_i + z_i dd_i.
    Dense s = Dense::Zero(dh, dh);
    Row z = Row::Zero(dh);
    for (int i = 0; i < L; ++i) {
      s.noalias() += phi_k.row(i).transpose() * values.row(i);
      z += phi_k.row(i);
      const Row dphi = (s * dn.row(i).transpose()).transpose() + dd(i) * z;
      for (int c = 0; c < dh; ++c) dq_h(i, c) = dphi(c) * elu_plus_one_slope(q[std::size_t(i) * std::size_t(C) + std::size_t(h * dh + c)]);
    }
    // Reverse scan: R_j and r_j over the rows at or after j.
    Dense r_matrix = Dense::Zero(dh, dh);
    Row r = Row::Zero(dh);
    for (int j = L - 1; j >= 0; --j) {
      r_matrix.noalias() += phi_q.row(j).transpose() * dn.row(j);
      r += dd(j) * phi_q.row(j);
      dv_h.row(j) = phi_k.row(j) * r_matrix;
      const Row dphi = (r_matrix * values.row(j).transpose()).transpose() + r;
      for (int c = 0; c < dh; ++c) dk_h(j, c) = dphi(c) * elu_plus_one_slope(k[std::size_t(j) * std::size_t(C) + std::size_t(h * dh + c)]);
    }
  }
}

template void causal_linear_attention_forward<float>(float*, float*, const float*, const float*, const float*, int, int,
                                                     int, int, float);
template void causal_linear_attention_forward<double>(double*, double*, const double*, const double*, const double*, int,
                                                      int, int, int, double);
template void causal_linear_attention_backward<float>(float*, float*, float*, const float*, const float*, const float*,
                                                      const float*, const float*, const float*, int, int, int);
template void causal_linear_attention_backward<double>(double*, double*, double*, const double*, const double*,
                                                       const double*, const double*, const double*, const double*, int,
                                                       int, int);

}  // namespace aaren
