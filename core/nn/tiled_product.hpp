#pragma once
// dst += lhs * rhs, one tile at a time. Eigen packs the operands of a matrix product into buffers it
// takes from the stack up to EIGEN_STACK_ALLOCATION_LIMIT bytes and from the heap beyond that;
// products of at most product_tile x product_tile operands keep every buffer on the stack, so the
// layers built on this allocate nothing, however large the model.
#include <algorithm>
#include <type_traits>

#include "core/nn/eigen_maps.hpp"

namespace aaren {

inline constexpr long product_tile = 128;

template <class Dst, class Lhs, class Rhs>
void add_product_tiled(Dst&& dst, const Lhs& lhs, const Rhs& rhs) {
  using Scalar = typename std::decay_t<Dst>::Scalar;
  static_assert(product_tile * product_tile * long(sizeof(Scalar)) <= long(EIGEN_STACK_ALLOCATION_LIMIT),
                "a packed tile must fit Eigen's stack buffers");
  const long rows = dst.rows();
  const long cols = dst.cols();
  const long depth = lhs.cols();
  for (long i = 0; i < rows; i += product_tile) {
    const long tile_rows = std::min(product_tile, rows - i);
    for (long j = 0; j < cols; j += product_tile) {
      const long tile_cols = std::min(product_tile, cols - j);
      auto dst_tile = dst.block(i, j, tile_rows, tile_cols);
      for (long p = 0; p < depth; p += product_tile) {
        const long tile_depth = std::min(product_tile, depth - p);
        dst_tile.noalias() += lhs.block(i, p, tile_rows, tile_depth) * rhs.block(p, j, tile_depth, tile_cols);
      }
    }
  }
}

}  // namespace aaren
