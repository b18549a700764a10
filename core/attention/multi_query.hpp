#pragma once
// Attention of several queries (heads) at once: Q (H, d), K (N, d), V (N, dv), scores q.k_i
// unscaled as in the paper. The value dimension is independent of the key dimension.
#include <vector>

#include "core/attention/methods.hpp"
#include "core/util/matrix.hpp"

namespace aaren {

// Throws std::invalid_argument naming the mismatch when Q, K and V do not fit together.
template <class T>
void check_attention_shapes(const Matrix<T>& q, const Matrix<T>& k, const Matrix<T>& v);

// Without prefixes: (H, dv), one row per query. With prefixes: (H * N, dv), query-major.
// With traces, one trace per query is recorded.
template <class T>
Matrix<T> attend_queries(const Matrix<T>& q, const Matrix<T>& k, const Matrix<T>& v, bool prefixes,
                         const AttentionOptions& options, std::vector<AttentionTrace<T>>* traces = nullptr);

// Scores of one query against every key: s_i = q.k_i.
template <class T>
std::vector<T> query_scores(std::span<const T> q, const Matrix<T>& k);

}  // namespace aaren
