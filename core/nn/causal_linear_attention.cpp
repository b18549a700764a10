#include "core/nn/causal_linear_attention.hpp"

#include <stdexcept>
#include <string>

#include "core/nn/eigen_maps.hpp"

namespace aaren {

template <class T>
void elu_plus_one_forward(T* x, std::size_t n) {
  // max(x, 0) + exp(min(x, 0)): x + 1 above 0, exp(x) elsewhere, as packets (a select() of exp()
  // would call the scalar exp for every number). In blocks of a fixed size, mapped in place, the
  // last one copied out and padded, so every number goes through the same packet exp wherever it
  // sits: a stream's one token and a window's rows give the same bits (a dynamic-sized map would
  // take scalar exp at its ends).
  constexpr std::size_t kBlock = 16;
  const auto apply = [](auto&& block) { block = block.max(T(0)) + block.min(T(0)).exp(); };
  std::size_t start = 0;
  for (; start + kBlock <= n; start += kBlock) apply(Eigen::Map<Eigen::Array<T, kBlock, 1>>(x + start));
  if (start == n) return;
  Eigen::Array<T, kBlock, 1> last = Eigen::Array<T, kBlock, 1>::Zero();
  std::copy_n(x + start, n - start, last.data());
  apply(last);
  std::copy_n(last.data(), n - start, x + start);
}

template <class T>
LinearAttentionScratch<T>::LinearAttentionScratch(int d_model, int heads, int chunk_size) : chunk(chunk_size) {
  if (heads < 1 || d_model < 1 || d_model % heads != 0)
    throw std::invalid_argument("d_model " + std::to_string(d_model) + " is not a multiple of the " +
                                std::to_string(heads) + " heads");
  if (chunk < 1) throw std::invalid_argument("a chunk holds at least 1 token, not " + std::to_string(chunk));
  d_head = d_model / heads;
  const std::size_t c = std::size_t(chunk), dh = std::size_t(d_head);
  similarity.assign(c * c, T(0));
  weights.assign(c * c, T(0));
  rows.assign(c * dh, T(0));
  dd.assign(c, T(0));
  memory.assign(dh * dh, T(0));
  normalizer.assign(dh, T(0));
}

namespace {

template <class T>
void check_shape(const LinearAttentionScratch<T>& scratch, int L, int C, int H) {
  if (L < 1 || H < 1 || C != H * scratch.d_head)
    throw std::invalid_argument("linear attention over " + std::to_string(L) + " tokens of " + std::to_string(C) +
                                " columns in " + std::to_string(H) + " heads, with scratch for heads of " +
                                std::to_string(scratch.d_head));
}

// One head's columns of the (L, C) inputs and outputs, and the chunks of L.
template <class T>
struct HeadColumns {
  HeadColumns(int L, int C, int dh, int h) : L(L), dh(dh), offset(h * dh), stride(C) {}
  ConstColumnSliceMap<T> in(const T* x) const { return {x + offset, L, dh, stride}; }
  ColumnSliceMap<T> out(T* x) const { return {x + offset, L, dh, stride}; }
  int L, dh, offset;
  Eigen::OuterStride<> stride;
};

// The backward's dN (into scratch.rows) and dd, then A = tril(dN V^T + dd 1^T) (into
// scratch.weights), of the chunk of `size` rows at `begin`.
template <class T, class Rows>
void chunk_gradient_weights(LinearAttentionScratch<T>& scratch, const Rows& g, const Rows& y, const Rows& v,
                            const T* den, int begin, int size) {
  MatrixMap<T> dn(scratch.rows.data(), size, g.cols());
  VectorMap<T> dd(scratch.dd.data(), size);
  for (int i = 0; i < size; ++i) {
    const T d = den[begin + i];
    dn.row(i) = g.row(begin + i) / d;
    dd(i) = -g.row(begin + i).dot(y.row(begin + i)) / d;
  }
  MatrixMap<T> a(scratch.weights.data(), size, size);
  a.noalias() = dn * v.middleRows(begin, size).transpose();
  a.colwise() += dd;
  a.template triangularView<Eigen::StrictlyUpper>().setZero();
}

}  // namespace

template <class T>
void causal_linear_attention_forward(T* out, T* den, LinearAttentionScratch<T>& scratch, const T* phi_q,
                                     const T* phi_k, const T* v, int L, int C, int H, T eps) {
  check_shape(scratch, L, C, H);
  const int dh = scratch.d_head;
  MatrixMap<T> s(scratch.memory.data(), dh, dh);
  RowVectorMap<T> z(scratch.normalizer.data(), dh);
  for (int h = 0; h < H; ++h) {
    const HeadColumns<T> head(L, C, dh, h);
    const ConstColumnSliceMap<T> fq = head.in(phi_q), fk = head.in(phi_k), values = head.in(v);
    ColumnSliceMap<T> y = head.out(out);
    T* den_h = den + std::size_t(h) * std::size_t(L);
    s.setZero();
    z.setZero();
    for (int begin = 0; begin < L; begin += scratch.chunk) {
      const int size = std::min(scratch.chunk, L - begin);
      const auto q_rows = fq.middleRows(begin, size), k_rows = fk.middleRows(begin, size);
      const auto v_rows = values.middleRows(begin, size);
      // Within the chunk, the masked similarities; from earlier chunks, S and z.
      MatrixMap<T> similarity(scratch.similarity.data(), size, size);
      similarity.noalias() = q_rows * k_rows.transpose();
      similarity.template triangularView<Eigen::StrictlyUpper>().setZero();
      MatrixMap<T> numerators(scratch.rows.data(), size, dh);
      numerators.noalias() = similarity * v_rows;
      numerators.noalias() += q_rows * s;
      for (int i = 0; i < size; ++i) {
        const T d = similarity.row(i).sum() + q_rows.row(i).dot(z) + eps;
        den_h[begin + i] = d;
        y.row(begin + i) = numerators.row(i) / d;
      }
      s.noalias() += k_rows.transpose() * v_rows;
      z += k_rows.colwise().sum();
    }
  }
}

template <class T>
void causal_linear_attention_backward(T* dphi_q, T* dphi_k, T* dv, LinearAttentionScratch<T>& scratch, const T* dout,
                                      const T* phi_q, const T* phi_k, const T* v, const T* out, const T* den, int L,
                                      int C, int H) {
  check_shape(scratch, L, C, H);
  const int dh = scratch.d_head, chunks = (L + scratch.chunk - 1) / scratch.chunk;
  MatrixMap<T> m(scratch.memory.data(), dh, dh);         // S, then R
  RowVectorMap<T> z(scratch.normalizer.data(), dh);      // z, then r
  for (int h = 0; h < H; ++h) {
    const HeadColumns<T> head(L, C, dh, h);
    const ConstColumnSliceMap<T> fq = head.in(phi_q), fk = head.in(phi_k), values = head.in(v), g = head.in(dout),
                                 y = head.in(out);
    ColumnSliceMap<T> dq = head.out(dphi_q), dk = head.out(dphi_k), dvalues = head.out(dv);
    const T* den_h = den + std::size_t(h) * std::size_t(L);
    // Forward over the chunks: dPhiQ = dN S^T + dd z^T + A PhiK, S and z as before the chunk.
    m.setZero();
    z.setZero();
    for (int c = 0; c < chunks; ++c) {
      const int begin = c * scratch.chunk, size = std::min(scratch.chunk, L - begin);
      chunk_gradient_weights(scratch, g, y, values, den_h, begin, size);
      const MatrixMap<T> dn(scratch.rows.data(), size, dh), a(scratch.weights.data(), size, size);
      const VectorMap<T> dd(scratch.dd.data(), size);
      const auto k_rows = fk.middleRows(begin, size), v_rows = values.middleRows(begin, size);
      auto dq_rows = dq.middleRows(begin, size);
      dq_rows.noalias() = dn * m.transpose();
      dq_rows.noalias() += dd * z;
      dq_rows.noalias() += a * k_rows;
      m.noalias() += k_rows.transpose() * v_rows;
      z += k_rows.colwise().sum();
    }
    // Back over the chunks: dV = PhiK R + similarity^T dN, dPhiK = V R^T + 1 r^T + A^T PhiQ, R and r
    // as after the chunk.
    m.setZero();
    z.setZero();
    for (int c = chunks - 1; c >= 0; --c) {
      const int begin = c * scratch.chunk, size = std::min(scratch.chunk, L - begin);
      chunk_gradient_weights(scratch, g, y, values, den_h, begin, size);
      const MatrixMap<T> dn(scratch.rows.data(), size, dh), a(scratch.weights.data(), size, size);
      const VectorMap<T> dd(scratch.dd.data(), size);
      const auto q_rows = fq.middleRows(begin, size), k_rows = fk.middleRows(begin, size);
      const auto v_rows = values.middleRows(begin, size);
      MatrixMap<T> similarity(scratch.similarity.data(), size, size);
      similarity.noalias() = q_rows * k_rows.transpose();
      similarity.template triangularView<Eigen::StrictlyUpper>().setZero();
      auto dv_rows = dvalues.middleRows(begin, size);
      dv_rows.noalias() = k_rows * m;
      dv_rows.noalias() += similarity.transpose() * dn;
      auto dk_rows = dk.middleRows(begin, size);
      dk_rows.noalias() = v_rows * m.transpose();
      dk_rows.rowwise() += z;
      dk_rows.noalias() += a.transpose() * q_rows;
      m.noalias() += q_rows.transpose() * dn;
      z.noalias() += dd.transpose() * q_rows;
    }
  }
}

#define AAREN_INSTANTIATE(T)                                                                                        \
  template void elu_plus_one_forward<T>(T*, std::size_t);                                                           \
  template struct LinearAttentionScratch<T>;                                                                        \
  template void causal_linear_attention_forward<T>(T*, T*, LinearAttentionScratch<T>&, const T*, const T*, const T*, \
                                                   int, int, int, T);                                               \
  template void causal_linear_attention_backward<T>(T*, T*, T*, LinearAttentionScratch<T>&, const T*, const T*,      \
                                                    const T*, const T*, const T*, const T*, int, int, int);
AAREN_INSTANTIATE(float)
AAREN_INSTANTIATE(double)
#undef AAREN_INSTANTIATE

}  // namespace aaren
