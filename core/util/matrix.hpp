#pragma once
// A small dense row-major matrix that owns its numbers: what the readers return and the
// command line passes around. Hot code works on raw (rows, cols) buffers instead.
#include <cstddef>
#include <span>
#include <vector>

namespace aaren {

template <class T>
struct Matrix {
  int rows = 0;
  int cols = 0;
  std::vector<T> data;  // (rows, cols)

  Matrix() = default;
  Matrix(int rows_, int cols_) : rows(rows_), cols(cols_), data(std::size_t(rows_) * std::size_t(cols_)) {}

  std::span<T> row(int i) { return {data.data() + std::size_t(i) * std::size_t(cols), std::size_t(cols)}; }
  std::span<const T> row(int i) const {
    return {data.data() + std::size_t(i) * std::size_t(cols), std::size_t(cols)};
  }
  T& operator()(int i, int j) { return data[std::size_t(i) * std::size_t(cols) + std::size_t(j)]; }
  T operator()(int i, int j) const { return data[std::size_t(i) * std::size_t(cols) + std::size_t(j)]; }

  template <class U>
  Matrix<U> cast() const {
    Matrix<U> out(rows, cols);
    for (std::size_t i = 0; i < data.size(); ++i) out.data[i] = U(data[i]);
    return out;
  }
};

}  // namespace aaren
