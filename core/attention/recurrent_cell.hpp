#pragma once
// The many-to-one RNN cell of attention: state (a_k, c_k, m_k), one token at a time.
//   m_k = max(m_{k-1}, s_k)
//   a_k = a_{k-1} exp(m_{k-1} - m_k) + v_k exp(s_k - m_k)
//   c_k = c_{k-1} exp(m_{k-1} - m_k) + exp(s_k - m_k)
//   o_k = a_k / c_k
// Starting at m_0 = -inf is the correct choice; the paper prints m_0 = 0, which makes every
// exp(s_k - m_k) underflow to 0 (and o = 0/0) once all scores are below about -104 in float32.
// With u = c and w = a this is fold_token (core/scan/state.hpp), the form the models use; see the
// formula-to-function index, docs/DESIGN.md section 8.
#include <span>
#include <vector>

#include "core/scan/state.hpp"

namespace aaren {

template <class T>
class RecurrentCell {
 public:
  explicit RecurrentCell(int dv, T m0 = negative_infinity<T>())
      : a_(std::size_t(dv), T(0)), m_(m0) {}

  void update(T score, std::span<const T> value) {
    // A score of -inf has weight 0; before any finite score the state stays empty (fold_token).
    if (score == negative_infinity<T>() && m_ == negative_infinity<T>()) return;
    const T m_new = score > m_ ? score : m_;
    const T keep = m_ == negative_infinity<T>() ? T(0) : std::exp(m_ - m_new);
    const T take = std::exp(score - m_new);
    for (std::size_t j = 0; j < a_.size(); ++j) a_[j] = a_[j] * keep + value[j] * take;
    c_ = c_ * keep + take;
    m_ = m_new;
  }

  void write_output(std::span<T> out) const {
    for (std::size_t j = 0; j < a_.size(); ++j) out[j] = a_[j] / c_;
  }

  std::span<const T> a() const { return a_; }
  T c() const { return c_; }
  T m() const { return m_; }
  int dv() const { return int(a_.size()); }

 private:
  std::vector<T> a_;
  T c_ = T(0);
  T m_;
};

}  // namespace aaren
