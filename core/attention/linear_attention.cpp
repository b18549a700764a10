#include "core/attention/linear_attention.hpp"

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "core/nn/eigen_maps.hpp"

namespace aaren {

namespace {

// sum += value, with the rounding error of float sums carried into the next addition (Kahan), so
// that adding the millionth token's 1 to a z of a million is not lost. Double needs no carry.
template <class T>
inline void compensatedAdd(T& sum, T& carry, T value) {
  if constexpr (std::is_same_v<T, double>) {
    sum += value;
  } else {
    const T corrected = value - carry;
    const T next = sum + corrected;
    carry = (next - sum) - corrected;
    sum = next;
  }
}

// The readable reference: every pair (i, j) with j <= i (or every j), quadratic in N.
template <class T>
Matrix<T> parallelForm(const Matrix<T>& phi_q, const Matrix<T>& phi_k, const Matrix<T>& v, const LinearAttentionOptions& options) {
  const int n = v.rows, dv = v.cols, m = phi_q.cols;
  Matrix<T> y(phi_q.rows, dv);
  std::vector<T> numerator(static_cast<std::size_t>(dv));
  for (int i = 0; i < phi_q.rows; ++i) {
    std::fill(numerator.begin(), numerator.end(), T(0));
    T denominator = 0;
    const int last = options.causal ? i : n - 1;
    for (int j = 0; j <= last; ++j) {
      T similarity = 0;
      for (int f = 0; f < m; ++f) similarity += phi_q(i, f) * phi_k(j, f);
      for (int c = 0; c < dv; ++c) numerator[std::size_t(c)] += similarity * v(j, c);
      denominator += similarity;
    }
    for (int c = 0; c < dv; ++c) y(i, c) = numerator[std::size_t(c)] / (denominator + T(options.eps));
  }
  return y;
}

template <class T>
Matrix<T> recurrentForm(const Matrix<T>& phi_q, const Matrix<T>& phi_k, const Matrix<T>& v, const LinearAttentionOptions& options) {
  const int n = v.rows;
  LinearAttentionState<T> state(phi_q.cols, v.cols, options.eps);
  Matrix<T> y(phi_q.rows, v.cols);
  for (int i = 0; i < n; ++i) {
    state.add(phi_k.row(i), v.row(i));
    if (options.causal) state.read(y.row(i), phi_q.row(i));
  }
  if (!options.causal)
    for (int i = 0; i < phi_q.rows; ++i) state.read(y.row(i), phi_q.row(i));
  return y;
}

// Chunks of C tokens: inside a chunk the masked product of its queries and keys, before it the
// running S and z, which each chunk then adds its keys' and values' products to.
template <class T>
Matrix<T> chunkedForm(const Matrix<T>& phi_q, const Matrix<T>& phi_k, const Matrix<T>& v, const LinearAttentionOptions& options) {
  using Dense = RowMajorMatrix<T>;
  const int n = v.rows, dv = v.cols, m = phi_q.cols;
  const ConstMatrixMap<T> q(phi_q.data.data(), phi_q.rows, m), k(phi_k.data.data(), n, m), values(v.data.data(), n, dv);
  Dense s = Dense::Zero(m, dv), s_carry = Dense::Zero(m, dv);
  Eigen::Matrix<T, 1, Eigen::Dynamic> z = Eigen::Matrix<T, 1, Eigen::Dynamic>::Zero(m), z_carry = z;
  Matrix<T> out(phi_q.rows, dv);
  MatrixMap<T> y(out.data.data(), phi_q.rows, dv);
  auto accumulate = [&](int begin, int size) {
    const Dense chunk_s = k.middleRows(begin, size).transpose() * values.middleRows(begin, size);
    const Eigen::Matrix<T, 1, Eigen::Dynamic> chunk_z = k.middleRows(begin, size).colwise().sum();
    for (int f = 0; f < m; ++f) {
      for (int c = 0; c < dv; ++c) compensatedAdd(s(f, c), s_carry(f, c), chunk_s(f, c));
      compensatedAdd(z(f), z_carry(f), chunk_z(f));
    }
  };
  if (!options.causal) {
    for (int begin = 0; begin < n; begin += options.chunk) accumulate(begin, std::min(options.chunk, n - begin));
    const Dense numerator = q * s;
    const Eigen::Matrix<T, Eigen::Dynamic, 1> denominator = q * z.transpose();
    for (int i = 0; i < phi_q.rows; ++i) y.row(i) = numerator.row(i) / (denominator(i) + T(options.eps));
    return out;
  }
  for (int begin = 0; begin < n; begin += options.chunk) {
    const int size = std::min(options.chunk, n - begin);
    Dense similarity = q.middleRows(begin, size) * k.middleRows(begin, size).transpose();  // (size, size)
    similarity.template triangularView<Eigen::StrictlyUpper>().setZero();
    const Dense numerator = similarity * values.middleRows(begin, size) + q.middleRows(begin, size) * s;
    const Eigen::Matrix<T, Eigen::Dynamic, 1> denominator =
        similarity.rowwise().sum() + q.middleRows(begin, size) * z.transpose();
    for (int i = 0; i < size; ++i) y.row(begin + i) = numerator.row(i) / (denominator(i) + T(options.eps));
    accumulate(begin, size);
  }
  return out;
}

}  // namespace

std::string_view to_string(LinearAttentionMethod method) {
  switch (method) {
    case LinearAttentionMethod::recurrent: return "recurrent";
    case LinearAttentionMethod::parallel: return "parallel";
    case LinearAttentionMethod::chunked: return "chunked";
  }
  return "chunked";
}

std::optional<LinearAttentionMethod> linear_attention_method_from_string(std::string_view name) {
  for (const LinearAttentionMethod method :
       {LinearAttentionMethod::recurrent, LinearAttentionMethod::parallel, LinearAttentionMethod::chunked})
    if (name == to_string(method)) return method;
  return std::nullopt;
}

std::string linear_attention_method_names() { return "recurrent, parallel, chunked"; }

template <class T>
void check_linear_attention_shapes(const Matrix<T>& phi_q, const Matrix<T>& phi_k, const Matrix<T>& v,
                                   const LinearAttentionOptions& options) {
  if (phi_k.rows != v.rows)
    throw std::invalid_argument("linear attention needs a value for every key: " + std::to_string(phi_k.rows) + " keys and " +
                                std::to_string(v.rows) + " values");
  if (options.causal && phi_q.rows != phi_k.rows)
    throw std::invalid_argument("causal linear attention needs a query for every token: " + std::to_string(phi_q.rows) +
                                " queries and " + std::to_string(phi_k.rows) + " keys");
  if (phi_q.cols != phi_k.cols)
    throw std::invalid_argument("the queries' features (" + std::to_string(phi_q.cols) + ") and the keys' (" +
                                std::to_string(phi_k.cols) + ") must be as many");
  if (options.method == LinearAttentionMethod::chunked && options.chunk < 1)
    throw std::invalid_argument("a chunk holds at least 1 token, not " + std::to_string(options.chunk));
}

template <class T>
Matrix<T> linear_attention(const Matrix<T>& phi_q, const Matrix<T>& phi_k, const Matrix<T>& v,
                           const LinearAttentionOptions& options) {
  check_linear_attention_shapes(phi_q, phi_k, v, options);
  switch (options.method) {
    case LinearAttentionMethod::recurrent: return recurrentForm(phi_q, phi_k, v, options);
    case LinearAttentionMethod::parallel: return parallelForm(phi_q, phi_k, v, options);
    case LinearAttentionMethod::chunked: return chunkedForm(phi_q, phi_k, v, options);
  }
  return chunkedForm(phi_q, phi_k, v, options);
}

template <class T>
LinearAttentionState<T>::LinearAttentionState(int m, int dv, double eps)
    : m_(m), dv_(dv), eps_(eps), s_(std::size_t(m) * std::size_t(dv)), z_(std::size_t(m)) {
  if (m < 1 || dv < 1)
    throw std::invalid_argument("a linear attention state needs at least 1 feature and 1 value dimension, not " +
                                std::to_string(m) + " and " + std::to_string(dv));
  if constexpr (!std::is_same_v<T, double>) {
    s_carry_.assign(s_.size(), T(0));
    z_carry_.assign(z_.size(), T(0));
  }
}

template <class T>
void LinearAttentionState<T>::add(std::span<const T> phi_k, std::span<const T> v) {
  if (int(phi_k.size()) != m_ || int(v.size()) != dv_)
    throw std::invalid_argument("a token of " + std::to_string(phi_k.size()) + " features and " + std::to_string(v.size()) +
                                " values for a state of " + std::to_string(m_) + " and " + std::to_string(dv_));
  T unused = 0;
  for (int f = 0; f < m_; ++f) {
    T* row = s_.data() + std::size_t(f) * std::size_t(dv_);
    T* carry = s_carry_.empty() ? nullptr : s_carry_.data() + std::size_t(f) * std::size_t(dv_);
    for (int c = 0; c < dv_; ++c) compensatedAdd(row[c], carry ? carry[c] : unused, phi_k[std::size_t(f)] * v[std::size_t(c)]);
    compensatedAdd(z_[std::size_t(f)], z_carry_.empty() ? unused : z_carry_[std::size_t(f)], phi_k[std::size_t(f)]);
  }
  ++tokens_;
}

template <class T>
void LinearAttentionState<T>::clear() {
  for (std::vector<T>* numbers : {&s_, &z_, &s_carry_, &z_carry_}) std::fill(numbers->begin(), numbers->end(), T(0));
  tokens_ = 0;
}

template <class T>
void LinearAttentionState<T>::read(std::span<T> y, std::span<const T> phi_q) const {
  if (int(phi_q.size()) != m_ || int(y.size()) != dv_)
    throw std::invalid_argument("a query of " + std::to_string(phi_q.size()) + " features for a state of " + std::to_string(m_));
  T denominator = 0;
  std::fill(y.begin(), y.end(), T(0));
  for (int f = 0; f < m_; ++f) {
    const T weight = phi_q[std::size_t(f)];
    const T* row = s_.data() + std::size_t(f) * std::size_t(dv_);
    for (int c = 0; c < dv_; ++c) y[std::size_t(c)] += weight * row[c];
    denominator += weight * z_[std::size_t(f)];
  }
  for (T& value : y) value /= denominator + T(eps_);
}

template Matrix<float> linear_attention(const Matrix<float>&, const Matrix<float>&, const Matrix<float>&,
                                        const LinearAttentionOptions&);
template Matrix<double> linear_attention(const Matrix<double>&, const Matrix<double>&, const Matrix<double>&,
                                         const LinearAttentionOptions&);
template void check_linear_attention_shapes(const Matrix<float>&, const Matrix<float>&, const Matrix<float>&,
                                            const LinearAttentionOptions&);
template void check_linear_attention_shapes(const Matrix<double>&, const Matrix<double>&, const Matrix<double>&,
                                            const LinearAttentionOptions&);
template class LinearAttentionState<float>;
template class LinearAttentionState<double>;

}  // namespace aaren
