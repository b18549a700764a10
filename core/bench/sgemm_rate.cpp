#include "core/bench/sgemm_rate.hpp"

#include <algorithm>
#include <chrono>

#include "core/bench/timing.hpp"
#include "core/nn/eigen_maps.hpp"
#include "core/util/worker_pool.hpp"

namespace aaren::bench {

std::vector<GemmShape> training_gemm_shapes(const ModelConfig& config, int batch) {
  const long rows = long(batch) * config.seq_len;
  const int d = config.d_model, f = config.d_ff;
  const double projections = config.kind == ModelKind::aaren ? 3 : 4;
  return {{rows, d, d, projections * double(d) * d}, {rows, d, f, double(d) * f}, {rows, f, d, double(f) * d}};
}

double sgemm_gflops(const std::vector<GemmShape>& shapes, int threads, int repeats) {
  WorkerPool pool(threads);
  const int workers = pool.size();
  double operations = 0, seconds = 0;
  for (const GemmShape& shape : shapes) {
    const long rows = std::max(1L, shape.rows / workers);
    // Each worker's own operands, row-major as the layers keep them; the values do not matter.
    const std::size_t a_size = std::size_t(rows) * std::size_t(shape.depth);
    const std::size_t b_size = std::size_t(shape.depth) * std::size_t(shape.cols);
    const std::size_t c_size = std::size_t(rows) * std::size_t(shape.cols);
    const std::size_t n = std::size_t(workers);
    std::vector<std::vector<float>> a(n, std::vector<float>(a_size, 0.5f)), b(n, std::vector<float>(b_size, 0.25f)),
        c(n, std::vector<float>(c_size, 0.0f));
    const auto multiply = [&](int task, int) {
      const std::size_t w = std::size_t(task);
      const ConstMatrixMap<float> lhs(a[w].data(), rows, shape.depth), rhs(b[w].data(), shape.depth, shape.cols);
      MatrixMap<float>(c[w].data(), rows, shape.cols).noalias() = lhs * rhs;
    };
    const double call_seconds = median_seconds([&] { pool.run(workers, multiply); }, repeats);
    const double rate = 2.0 * double(rows) * shape.depth * shape.cols * workers / call_seconds;
    operations += shape.weight;
    seconds += shape.weight / rate;
  }
  return operations / seconds / 1e9;
}

}  // namespace aaren::bench
