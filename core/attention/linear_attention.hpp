#pragma once
// Linear attention, the third RNN inside attention (Katharopoulos et al. 2020): with features
// phi(q_i), phi(k_j) (core/attention/feature_map.hpp),
//
//     S_i = S_{i-1} + phi(k_i) v_i^T      (m x dv, the attention memory)
//     z_i = z_{i-1} + phi(k_i)            (m, the normalizer memory)
//     y_i = phi(q_i)^T S_i / (phi(q_i)^T z_i + eps)
//
// Causal, token i sees tokens 1..i; non-causal (the many-to-one reading), every token sees all N.
// Three methods that agree: the recurrent (S, z) step, a constant state whatever N; the parallel
// form tril(phi(Q) phi(K)^T) V, quadratic in N, kept as the readable reference; and the chunked
// form, O(N m dv) with chunks of C tokens: within a chunk the masked product, across chunks the
// running S and z. In float the running sums are compensated (Kahan), so the state stays accurate
// over millions of tokens where plain float sums stall.
#include <span>
#include <string_view>
#include <optional>
#include <string>
#include <vector>

#include "core/util/matrix.hpp"

namespace aaren {

// As in the reference implementation (fast-transformers' LinearAttention): added to the
// denominator, so that a query whose features meet no key's gives 0, not 0/0.
inline constexpr double kLinearAttentionEps = 1e-6;

enum class LinearAttentionMethod { recurrent, parallel, chunked };

std::string_view to_string(LinearAttentionMethod method);
std::optional<LinearAttentionMethod> linear_attention_method_from_string(std::string_view name);
std::string linear_attention_method_names();  // "recurrent, parallel, chunked"

struct LinearAttentionOptions {
  LinearAttentionMethod method = LinearAttentionMethod::chunked;
  bool causal = true;
  int chunk = 64;  // tokens per chunk, chunked method only
  double eps = kLinearAttentionEps;
};

// Y from phi(Q) (Nq, m), phi(K) (N, m) and V (N, dv): causal, Nq = N and Y (N, dv); non-causal, any
// number of queries, each over all N tokens, Y (Nq, dv). Throws std::invalid_argument naming the
// mismatch when the shapes do not fit, or for a chunk below 1.
template <class T>
Matrix<T> linear_attention(const Matrix<T>& phi_q, const Matrix<T>& phi_k, const Matrix<T>& v,
                           const LinearAttentionOptions& options);

// Throws std::invalid_argument naming the mismatch when phi_q, phi_k and v do not fit (as
// linear_attention does).
template <class T>
void check_linear_attention_shapes(const Matrix<T>& phi_q, const Matrix<T>& phi_k, const Matrix<T>& v,
                                   const LinearAttentionOptions& options);

// The recurrent form one token at a time, in m * dv + m numbers (plus as many compensation terms
// in float) whatever the number of tokens seen.
template <class T>
class LinearAttentionState {
 public:
  LinearAttentionState(int m, int dv, double eps = kLinearAttentionEps);

  // Adds token (phi_k, v) to S and z.
  void add(std::span<const T> phi_k /*(m)*/, std::span<const T> v /*(dv)*/);
  // y = phi_q^T S / (phi_q^T z + eps) over the tokens added so far.
  void read(std::span<T> y /*(dv)*/, std::span<const T> phi_q /*(m)*/) const;
  // add() then read(): causal linear attention of the newest token.
  void step(std::span<T> y, std::span<const T> phi_q, std::span<const T> phi_k, std::span<const T> v) {
    add(phi_k, v);
    read(y, phi_q);
  }

  // S (m, dv) row-major and z (m) as they stand: what the Explore page draws.
  std::span<const T> memory() const { return s_; }
  std::span<const T> normalizer() const { return z_; }
  int features() const { return m_; }
  int value_dim() const { return dv_; }
  long tokens() const { return tokens_; }
  // The state's numbers: S and z, m * dv + m; what a layer keeps per head.
  std::size_t state_numbers() const { return s_.size() + z_.size(); }
  // What the state holds in memory: S and z with, in float, their compensation terms.
  std::size_t state_bytes() const { return (s_.size() + z_.size() + s_carry_.size() + z_carry_.size()) * sizeof(T); }
  // Forgets every token added.
  void clear();

 private:
  int m_, dv_;
  double eps_;
  long tokens_ = 0;
  std::vector<T> s_, z_;                    // (m, dv), (m)
  std::vector<T> s_carry_, z_carry_;        // Kahan compensation of each, float only
};

}  // namespace aaren
