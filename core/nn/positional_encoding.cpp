#include "core/nn/positional_encoding.hpp"

#include <cmath>

namespace aaren {

template <class T>
void positional_encoding_row(T* pe, long t, int C) {
  for (int j = 0; j < C; ++j) {
    const int two_i = j - j % 2;  // columns 2i and 2i + 1 share a frequency
    const double angle = double(t) / std::pow(10000.0, double(two_i) / double(C));
    pe[j] = T(j % 2 == 0 ? std::sin(angle) : std::cos(angle));
  }
}

template <class T>
void positional_encoding(T* pe, int L, int C) {
  for (int t = 0; t < L; ++t) positional_encoding_row(pe + long(t) * C, t, C);
}

#define AAREN_INSTANTIATE(T)                                  \
  template void positional_encoding_row<T>(T*, long, int); \
  template void positional_encoding<T>(T*, int, int);
AAREN_INSTANTIATE(float)
AAREN_INSTANTIATE(double)
#undef AAREN_INSTANTIATE

}  // namespace aaren
