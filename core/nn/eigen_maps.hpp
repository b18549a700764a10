#pragma once
// Eigen views of the layers' raw row-major buffers, for the matrix products. Maps own nothing,
// so wrapping a buffer allocates nothing.

#include "core/util/eigen_core.hpp"

namespace aaren {

template <class T>
using RowMajorMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <class T>
using MatrixMap = Eigen::Map<RowMajorMatrix<T>>;
template <class T>
using ConstMatrixMap = Eigen::Map<const RowMajorMatrix<T>>;

// A column slice of a row-major matrix, such as one attention head's columns of an (L, C) matrix:
// its rows keep the full matrix's row stride.
template <class T>
using ColumnSliceMap = Eigen::Map<RowMajorMatrix<T>, 0, Eigen::OuterStride<>>;
template <class T>
using ConstColumnSliceMap = Eigen::Map<const RowMajorMatrix<T>, 0, Eigen::OuterStride<>>;

template <class T>
using VectorMap = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>;
template <class T>
using ConstVectorMap = Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, 1>>;

template <class T>
using RowVectorMap = Eigen::Map<Eigen::Matrix<T, 1, Eigen::Dynamic>>;
template <class T>
using ConstRowVectorMap = Eigen::Map<const Eigen::Matrix<T, 1, Eigen::Dynamic>>;

}  // namespace aaren
