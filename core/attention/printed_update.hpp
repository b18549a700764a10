#pragma once
// Erratum 2 of the paper (docs/DESIGN.md section 3): its printed cell update writes
// exp(c_k - m_k) where exp(s_k - m_k) is meant. Read as printed, the new token's value v_k is
// weighed by exp(c_k - m_k), with c_k and m_k as the correct cell computes them; everything else
// follows the recurrent cell (core/attention/recurrent_cell.hpp). Both updates run on the same
// numbers, token by token, so a view can show where they part.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

#include "core/attention/recurrent_cell.hpp"

namespace aaren {

template <class T>
struct PrintedUpdateRow {
  T m;             // m_k
  T c;             // c_k, the same both ways
  T meant;         // exp(s_k - m_k): the weight of v_k meant
  T printed;       // exp(c_k - m_k): the weight of v_k as printed
  std::vector<T> a_meant, a_printed;  // (dv) a_k both ways
  std::vector<T> o_meant, o_printed;  // (dv) a_k / c_k both ways
};

// One row per token (row k - 1 for token k). m0 = -inf as the correct cell starts.
template <class T>
std::vector<PrintedUpdateRow<T>> printed_update_trace(std::span<const T> s /*(N)*/, std::span<const T> v /*(N, dv)*/,
                                                      int dv) {
  std::vector<PrintedUpdateRow<T>> rows;
  RecurrentCell<T> meant(dv);
  std::vector<T> a_printed(std::size_t(dv), T(0));
  T m_previous = negative_infinity<T>();
  for (std::size_t k = 0; k < s.size(); ++k) {
    const std::span<const T> value = v.subspan(k * std::size_t(dv), std::size_t(dv));
    meant.update(s[k], value);
    const T m = meant.m(), c = meant.c();
    const T keep = m_previous == negative_infinity<T>() ? T(0) : std::exp(m_previous - m);
    const T printed = std::exp(c - m);
    for (std::size_t j = 0; j < a_printed.size(); ++j) a_printed[j] = a_printed[j] * keep + value[j] * printed;
    PrintedUpdateRow<T> row{m, c, std::exp(s[k] - m), printed, {meant.a().begin(), meant.a().end()}, a_printed, {}, {}};
    for (std::size_t j = 0; j < a_printed.size(); ++j) {
      row.o_meant.push_back(row.a_meant[j] / c);
      row.o_printed.push_back(a_printed[j] / c);
    }
    rows.push_back(std::move(row));
    m_previous = m;
  }
  return rows;
}

// The first token (1-based) whose output as printed differs from the meant one by more than
// tolerance relative to the meant output's size; 0 when they never part.
template <class T>
int first_parting_token(const std::vector<PrintedUpdateRow<T>>& rows, T tolerance) {
  for (std::size_t k = 0; k < rows.size(); ++k)
    for (std::size_t j = 0; j < rows[k].o_meant.size(); ++j) {
      const T meant = rows[k].o_meant[j], printed = rows[k].o_printed[j];
      if (!(std::abs(printed - meant) <= tolerance * std::max(T(1), std::abs(meant)))) return int(k) + 1;
    }
  return 0;
}

}  // namespace aaren
