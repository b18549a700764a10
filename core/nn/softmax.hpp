#pragma once
// The softmax every classification head shares (the event model's mixture weights and marks, the
// classifier's classes): log sum_k exp(l_k) shifted by the largest logit so that no exp overflows,
// and p_k = exp(l_k - log sum) from it.
#include <algorithm>
#include <cmath>

namespace aaren {

template <class T>
T log_sum_exp(const T* logits /*(n)*/, int n) {
  const T top = *std::max_element(logits, logits + n);
  T total = 0;
  for (int k = 0; k < n; ++k) total += std::exp(logits[k] - top);
  return top + std::log(total);
}

template <class T>
void softmax(T* probs /*(n)*/, const T* logits /*(n)*/, int n) {
  const T log_norm = log_sum_exp(logits, n);
  for (int k = 0; k < n; ++k) probs[k] = std::exp(logits[k] - log_norm);
}

}  // namespace aaren
