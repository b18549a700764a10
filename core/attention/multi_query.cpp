#include "core/attention/multi_query.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace aaren {

template <class T>
void check_attention_shapes(const Matrix<T>& q, const Matrix<T>& k, const Matrix<T>& v) {
  if (k.rows == 0) throw std::invalid_argument("K has no rows: attention needs at least one token (N = 0)");
  if (q.rows == 0) throw std::invalid_argument("Q has no rows: give at least one query");
  if (q.cols != k.cols)
    throw std::invalid_argument("Q has " + std::to_string(q.cols) + " columns but K has " +
                                std::to_string(k.cols) + ": queries and keys need the same dimension d");
  if (v.rows != k.rows)
    throw std::invalid_argument("K has " + std::to_string(k.rows) + " rows but V has " +
                                std::to_string(v.rows) + ": every key needs exactly one value row");
}

template <class T>
std::vector<T> query_scores(std::span<const T> q, const Matrix<T>& k) {
  std::vector<T> s(std::size_t(k.rows));
  for (int i = 0; i < k.rows; ++i) {
    T dot = 0;
    const auto ki = k.row(i);
    for (std::size_t j = 0; j < q.size(); ++j) dot += q[j] * ki[j];
    s[std::size_t(i)] = dot;
  }
  return s;
}

template <class T>
Matrix<T> attend_queries(const Matrix<T>& q, const Matrix<T>& k, const Matrix<T>& v, bool prefixes,
                         const AttentionOptions& options, std::vector<AttentionTrace<T>>* traces) {
  check_attention_shapes(q, k, v);
  const int n = k.rows;
  Matrix<T> out(prefixes ? q.rows * n : q.rows, v.cols);
  if (traces) traces->assign(std::size_t(q.rows), {});
  for (int h = 0; h < q.rows; ++h) {
    const std::vector<T> s = query_scores(q.row(h), k);
    for (int i = 0; i < n; ++i)
      if (!std::isfinite(s[std::size_t(i)]))
        throw std::invalid_argument("query " + std::to_string(h + 1) + ", key " + std::to_string(i + 1) +
                                    ": the score q . k overflows this precision; scale Q or K down");
    AttentionTrace<T>* trace = traces ? &(*traces)[std::size_t(h)] : nullptr;
    if (prefixes) {
      std::span<T> rows(out.data.data() + std::size_t(h) * std::size_t(n) * std::size_t(v.cols),
                        std::size_t(n) * std::size_t(v.cols));
      attend_prefixes<T>(rows, s, v.data, v.cols, options, trace);
    } else {
      attend_one<T>(out.row(h), s, v.data, v.cols, options, trace);
    }
  }
  return out;
}

#define AAREN_INSTANTIATE(T)                                                                        \
  template void check_attention_shapes<T>(const Matrix<T>&, const Matrix<T>&, const Matrix<T>&);    \
  template std::vector<T> query_scores<T>(std::span<const T>, const Matrix<T>&);                    \
  template Matrix<T> attend_queries<T>(const Matrix<T>&, const Matrix<T>&, const Matrix<T>&, bool,  \
                                       const AttentionOptions&, std::vector<AttentionTrace<T>>*);
AAREN_INSTANTIATE(float)
AAREN_INSTANTIATE(double)
#undef AAREN_INSTANTIATE

}  // namespace aaren
