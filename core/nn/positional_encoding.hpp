#pragma once
// Sinusoidal positional encoding (docs/DESIGN.md section 4):
//   PE[t, 2i] = sin(t / 10000^(2i / C)),  PE[t, 2i + 1] = cos(t / 10000^(2i / C)).
// With an odd C the last column is a sin. Angles are computed in double whatever T is, so a
// float row at t = 65,535 is as accurate as float allows.

namespace aaren {

template <class T>
void positional_encoding_row(T* pe /*(C)*/, long t, int C);

// Rows t = 0..L-1.
template <class T>
void positional_encoding(T* pe /*(L, C)*/, int L, int C);

}  // namespace aaren
