#pragma once
// The fast many-to-many path: one query attends over every prefix of N tokens in a single
// sequential pass, scores computed on the fly (K and V read once, O written once), O(d) state.
// Also its backward in O(N d) time and memory by the reverse recurrences of docs/DESIGN.md section 3.
// Rows may be strided (ld*), so a head can be a column slice of a (N, d_model) matrix.
// Checked against the readable methods in core/attention/methods.hpp.

namespace aaren {

// o_k = sum_{i<=k} softmax_i(scale * q.k_i) v_i and log_z_k = log sum_{i<=k} exp(scale * q.k_i).
template <class T>
void prefix_attention_forward(T* o /*(N, dv) ld_o*/, T* log_z /*(N) or nullptr*/, const T* q /*(d)*/,
                              const T* k /*(N, d) ld_k*/, const T* v /*(N, dv) ld_v*/, int n, int d,
                              int dv, T scale, int ld_k, int ld_v, int ld_o);

// Given scores s (N), values V, the forward's outputs O and log_z, and g = dL/dO:
//   R_i = g_i + exp(logZ_i - logZ_{i+1}) R_{i+1},  Q_i = g_i.o_i + exp(logZ_i - logZ_{i+1}) Q_{i+1}
//   dL/dv_i = p_i R_i,  dL/ds_i = p_i (v_i.R_i - Q_i),  p_i = exp(s_i - logZ_i).
// Writes ds and dv (activation gradients); r is scratch of dv floats.
template <class T>
void prefix_softmax_backward(T* ds /*(N)*/, T* dv_out /*(N, dv) ld_dv*/, const T* g /*(N, dv) ld_g*/,
                             const T* s /*(N)*/, const T* v /*(N, dv) ld_v*/, const T* o /*(N, dv) ld_o*/,
                             const T* log_z /*(N)*/, T* r /*(dv) scratch*/, int n, int dv, int ld_v,
                             int ld_o, int ld_g, int ld_dv);

}  // namespace aaren
