// The CUDA attention kernels (gpu/prefix_attention.hpp) against the CPU reference
// (core/attention/prefix_attention.hpp, run in double precision on the same float inputs, and the
// chain rule through the scores as core/model/mixer.cpp applies it), on random inputs of awkward
// sizes: one token, N not a multiple of any chunk, N = 70000, several batch rows and heads,
// d in {16, 64} and head dimensions that leave lanes idle, with scores beyond exp's float range.
// Every output buffer is filled with NaN first, so an element a kernel fails to write fails.
// Skips when no CUDA device can be used, and fails instead with AAREN_REQUIRE_CUDA=1
// (tests/support/gpu_requirement.hpp).
//
// Error measure, element-wise per row of d entries (one token's vector for one head; for log_z and
// dq, one value or one head's vector): |gpu - reference| <= kRowTolerance.rtol * (the row's largest
// |reference|) + kTensorFloor * (the tensor's largest |reference|), infinite for a value that is not
// finite. Late outputs of a long sequence are small (O of token i is a mean over i + 1 values, about
// 1 / sqrt(i) of the first ones), so each row is held to its own size: a 1% error in a row 1e-2 of
// the tensor's scale fails, where an error relative to the whole tensor would pass it.
//   rtol 1e-4 per row: a score's float rounding changes its weight by up to about 2e-5 here (scale
//     sum_j |q_j k_j| reaches about 200 at query spread 30, times 2^-24 per ulp, a few ulps), and
//     the scan adds float rounding of its sums (a compensated sum, about log2 N combines);
//   floor 1e-6 of the tensor's largest entry (about 16 float ulps at its scale): rows whose exact
//     values cancel (dK and dq with one token are 0) hold only rounding noise of that size;
//   dK's and dV's rows also get the rounding bound of the backward's float recurrences over the
//     N - i tokens after token i: (N - i) float ulps (Higham's gamma_M = M u for M roundings in a
//     row) of the size of the terms they sum, which R~ and Q~, the same recurrences over |g_k| and
//     |g_k.o_k|, give: p_i max_e R~_ie for dv_i = p_i R_i, and scale max|q| p_i (sum_e |v_ie| R~_ie
//     + Q~_i) for dK, whose ds_i = p_i (v_i.R_i - Q_i) of an early token is a small difference of
//     large sums. It adds nothing of note below a few thousand tokens. At N = 70000 the CPU's own
//     float backward (prefix_softmax_backward<float>) is off by up to twice what rtol and the floor
//     allow, and an H100 by up to 1.7e-4 of a row (docs/gpu-results.md).
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/attention/prefix_attention.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_info.hpp"
#include "gpu/prefix_attention.hpp"
#include "support/device_buffers.hpp"
#include "support/gpu_requirement.hpp"
#include "support/numeric_comparison.hpp"

namespace aaren {

namespace {

constexpr double kRowRtol = 1e-4;
constexpr double kTensorFloor = 1e-6;

// Inputs as the GPU sees them (float) and the double-precision reference of every output.
struct Problem {
  int batch = 0, n = 0, heads = 0, d = 0;
  float scale = 0;
  std::vector<float> q, k, v, d_o, dq_start;  // q, dq_start (B, H, d); k, v, d_o (B, N, H d)
  std::vector<double> o, log_z, dk, dv, dq;   // o, dk, dv (B, N, H d); log_z (B, H, N); dq (B, H, d)
  std::vector<double> dk_noise, dv_noise;     // (B, N, H): the rounding each row may hold (see the header)
};

std::vector<double> widened(const std::vector<float>& x) { return {x.begin(), x.end()}; }
std::vector<float> narrowed(const std::vector<double>& x) {
  std::vector<float> out(x.size());
  std::transform(x.begin(), x.end(), out.begin(), [](double value) { return float(value); });
  return out;
}

// The rounding that the rows of dK and dV of token i (of batch row b, head h) may hold: see the header.
void recurrence_rounding(Problem& p, int b, int h, const std::vector<double>& scores) {
  const int ld = p.heads * p.d;
  const std::size_t head = std::size_t(b) * std::size_t(p.n) * std::size_t(ld) + std::size_t(h) * std::size_t(p.d);
  const double* log_z = p.log_z.data() + (std::size_t(b) * std::size_t(p.heads) + std::size_t(h)) * std::size_t(p.n);
  const float* q = p.q.data() + (std::size_t(b) * std::size_t(p.heads) + std::size_t(h)) * std::size_t(p.d);
  double q_max = 0;
  for (int j = 0; j < p.d; ++j) q_max = std::max(q_max, std::abs(double(q[j])));
  std::vector<double> r_abs(std::size_t(p.d), 0.0);
  double q_abs = 0, next_log_z = std::numeric_limits<double>::infinity();
  for (int i = p.n - 1; i >= 0; --i) {
    const std::size_t at = head + std::size_t(i) * std::size_t(ld);
    const double gate = std::exp(log_z[i] - next_log_z);
    double g_dot_o = 0, v_dot_r = 0;
    for (int j = 0; j < p.d; ++j) {
      g_dot_o += double(p.d_o[at + std::size_t(j)]) * p.o[at + std::size_t(j)];
      r_abs[std::size_t(j)] = gate * r_abs[std::size_t(j)] + std::abs(double(p.d_o[at + std::size_t(j)]));
      v_dot_r += std::abs(double(p.v[at + std::size_t(j)])) * r_abs[std::size_t(j)];
    }
    q_abs = gate * q_abs + std::abs(g_dot_o);
    next_log_z = log_z[i];
    const double p_i = std::exp(scores[std::size_t(i)] - log_z[i]);
    const double ulps = double(p.n - i) * std::ldexp(1.0, -24);
    p.dk_noise[at / std::size_t(p.d)] = ulps * double(p.scale) * q_max * p_i * (v_dot_r + q_abs);
    p.dv_noise[at / std::size_t(p.d)] = ulps * p_i * *std::max_element(r_abs.begin(), r_abs.end());
  }
}

// Scores s_i = scale q . k_i with q scaled by query_spread, so a large spread pushes the scores
// past the range where exp(s) is finite in float.
Problem make_problem(int batch, int n, int heads, int d, float query_spread, unsigned seed) {
  Problem p;
  p.batch = batch, p.n = n, p.heads = heads, p.d = d;
  p.scale = 1.0f / std::sqrt(float(d));
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const std::size_t rows = std::size_t(batch) * std::size_t(heads);
  const std::size_t tokens = std::size_t(batch) * std::size_t(n) * std::size_t(heads) * std::size_t(d);
  const auto draw = [&](std::size_t count, float spread) {
    std::vector<float> x(count);
    for (float& value : x) value = spread * normal(rng);
    return x;
  };
  p.q = draw(rows * std::size_t(d), query_spread);
  p.k = draw(tokens, 1.0f);
  p.v = draw(tokens, 1.0f);
  p.d_o = draw(tokens, 1.0f);
  p.dq_start = draw(rows * std::size_t(d), 1.0f);

  const std::vector<double> q = widened(p.q), k = widened(p.k), v = widened(p.v), g = widened(p.d_o);
  const double scale = p.scale;
  const int ld = heads * d;
  p.o.assign(tokens, 0.0);
  p.log_z.assign(rows * std::size_t(n), 0.0);
  p.dk.assign(tokens, 0.0);
  p.dk_noise.assign(tokens / std::size_t(d), 0.0);
  p.dv_noise.assign(tokens / std::size_t(d), 0.0);
  p.dv.assign(tokens, 0.0);
  p.dq = widened(p.dq_start);
  std::vector<double> scores(static_cast<std::size_t>(n)), dscores(static_cast<std::size_t>(n));
  std::vector<double> scratch(static_cast<std::size_t>(d));
  for (int b = 0; b < batch; ++b) {
    for (int h = 0; h < heads; ++h) {
      const std::size_t row = std::size_t(b) * std::size_t(heads) + std::size_t(h);
      const std::size_t head = std::size_t(b) * std::size_t(n) * std::size_t(ld) + std::size_t(h) * std::size_t(d);
      const double* qh = q.data() + row * std::size_t(d);
      double* log_z = p.log_z.data() + row * std::size_t(n);
      prefix_attention_forward<double>(p.o.data() + head, log_z, qh, k.data() + head, v.data() + head, n, d, d,
                                       scale, ld, ld, ld);
      for (int i = 0; i < n; ++i) {
        const double* ki = k.data() + head + std::size_t(i) * std::size_t(ld);
        double dot = 0;
        for (int j = 0; j < d; ++j) dot += qh[j] * ki[j];
        scores[std::size_t(i)] = scale * dot;
      }
      prefix_softmax_backward<double>(dscores.data(), p.dv.data() + head, g.data() + head, scores.data(),
                                      v.data() + head, p.o.data() + head, log_z, scratch.data(), n, d, ld, ld, ld,
                                      ld);
      recurrence_rounding(p, b, h, scores);
      for (int i = 0; i < n; ++i) {
        const double ds = scale * dscores[std::size_t(i)];
        const std::size_t at = head + std::size_t(i) * std::size_t(ld);
        for (int j = 0; j < d; ++j) {
          p.dk[at + std::size_t(j)] = ds * qh[j];
          p.dq[row * std::size_t(d) + std::size_t(j)] += ds * k[at + std::size_t(j)];
        }
      }
    }
  }
  return p;
}

// Rows of `row` entries, against the tolerance of the header.
// row_noise, when given, is added to each row's allowance.
void check_close(const char* name, const std::vector<float>& got, const std::vector<double>& want, int row,
                 const std::vector<double>& row_noise = {}) {
  const Tolerance tolerance{kTensorFloor * max_abs(want), kRowRtol};
  const Mismatch worst = worst_against_row_tolerance(got, want, std::size_t(row), tolerance, row_noise);
  QVERIFY2(worst.error <= 1.0, describe(QByteArray(name) + " (rows of " + QByteArray::number(row) + ")", worst,
                                        tolerance).constData());
}

#define CHECK_CLOSE(name, got, want, row, ...)                \
  do {                                                        \
    check_close(name, got, want, row __VA_OPT__(, ) __VA_ARGS__); \
    if (QTest::currentTestFailed()) return;                   \
  } while (false)

}  // namespace

class TestGpuAttention : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    AAREN_SKIP_OR_FAIL_WITHOUT_GPU();
    qInfo("testing on %s", gpu::describe(gpu::query_device()).c_str());
  }

  void forward_matches_cpu_reference_data() { sizes(); }
  void forward_matches_cpu_reference() {
    const Problem p = problem();
    const auto q = uploaded(p.q), k = uploaded(p.k), v = uploaded(p.v);
    auto o = poisoned(p.k.size());
    auto log_z = poisoned(p.log_z.size());
    gpu::prefix_attention_forward(o.data(), log_z.data(), q.data(), k.data(), v.data(), p.batch, p.n, p.heads, p.d,
                                  p.scale);
    gpu::synchronize();
    CHECK_CLOSE("O", downloaded(o), p.o, p.d);
    CHECK_CLOSE("log_z", downloaded(log_z), p.log_z, 1);
  }

  // Without log_z (as the benchmark runs it) O is the same.
  void forward_without_log_z() {
    const Problem p = make_problem(2, 300, 3, 64, 1.0f, 7);
    const auto q = uploaded(p.q), k = uploaded(p.k), v = uploaded(p.v);
    auto o = poisoned(p.k.size());
    gpu::prefix_attention_forward(o.data(), nullptr, q.data(), k.data(), v.data(), p.batch, p.n, p.heads, p.d,
                                  p.scale);
    gpu::synchronize();
    CHECK_CLOSE("O", downloaded(o), p.o, p.d);
  }

  // dK and dV are written, dq accumulates onto what it held.
  void backward_matches_cpu_reference_data() { sizes(); }
  void backward_matches_cpu_reference() {
    const Problem p = problem();
    const auto q = uploaded(p.q), k = uploaded(p.k), v = uploaded(p.v), d_o = uploaded(p.d_o);
    const auto o = uploaded(narrowed(p.o)), log_z = uploaded(narrowed(p.log_z));
    auto dk = poisoned(p.k.size()), dv = poisoned(p.v.size());
    auto dq = uploaded(p.dq_start);
    gpu::prefix_attention_backward(dk.data(), dv.data(), dq.data(), d_o.data(), q.data(), k.data(), v.data(),
                                   o.data(), log_z.data(), p.batch, p.n, p.heads, p.d, p.scale);
    gpu::synchronize();
    CHECK_CLOSE("dK", downloaded(dk), p.dk, p.d, p.dk_noise);
    CHECK_CLOSE("dV", downloaded(dv), p.dv, p.d, p.dv_noise);
    CHECK_CLOSE("dq", downloaded(dq), p.dq, p.d);
  }

  // The backward fed by the kernel's own forward, as a training step chains them.
  void forward_then_backward() {
    const Problem p = make_problem(3, 517, 2, 16, 4.0f, 11);
    const auto q = uploaded(p.q), k = uploaded(p.k), v = uploaded(p.v), d_o = uploaded(p.d_o);
    auto o = poisoned(p.k.size());
    auto log_z = poisoned(p.log_z.size());
    gpu::prefix_attention_forward(o.data(), log_z.data(), q.data(), k.data(), v.data(), p.batch, p.n, p.heads, p.d,
                                  p.scale);
    auto dk = poisoned(p.k.size()), dv = poisoned(p.v.size());
    auto dq = uploaded(p.dq_start);
    gpu::prefix_attention_backward(dk.data(), dv.data(), dq.data(), d_o.data(), q.data(), k.data(), v.data(),
                                   o.data(), log_z.data(), p.batch, p.n, p.heads, p.d, p.scale);
    gpu::synchronize();
    CHECK_CLOSE("dK", downloaded(dk), p.dk, p.d, p.dk_noise);
    CHECK_CLOSE("dV", downloaded(dv), p.dv, p.d, p.dv_noise);
    CHECK_CLOSE("dq", downloaded(dq), p.dq, p.d);
  }

  // 2^24 tokens of value 0, then 2^24 of value 1, every score 0 (keys of zeros): the last output is
  // exactly 1/2 and the last log_z is log 2^25. A plain float u would stop counting at 2^24 and give
  // about 1; the scan's compensated sums count every token (core/scan/state.hpp, CompensatedSum).
  void counts_every_token_up_to_2_to_the_25() {
    const long half = 1L << 24, n = 2 * half;
    gpu::DeviceBuffer q{1}, k{static_cast<std::size_t>(n)}, v{static_cast<std::size_t>(n)};
    q.zero();
    k.zero();
    v.zero();
    const std::vector<float> ones(static_cast<std::size_t>(half), 1.0f);
    v.upload(ones.data(), ones.size(), std::size_t(half));
    auto o = poisoned(static_cast<std::size_t>(n)), log_z = poisoned(static_cast<std::size_t>(n));
    gpu::prefix_attention_forward(o.data(), log_z.data(), q.data(), k.data(), v.data(), 1, int(n), 1, 1, 1.0f);
    float last_o = 0, last_log_z = 0, middle_o = 0;
    o.download(&last_o, 1, std::size_t(n - 1));
    o.download(&middle_o, 1, std::size_t(half - 1));
    log_z.download(&last_log_z, 1, std::size_t(n - 1));
    QCOMPARE(middle_o, 0.0f);
    QVERIFY2(std::abs(last_o - 0.5f) <= 1e-6f, qPrintable(QString::number(double(last_o), 'g', 9)));
    QVERIFY2(std::abs(double(last_log_z) - 25 * std::log(2.0)) <= 1e-6 * 25 * std::log(2.0),
             qPrintable(QString::number(double(last_log_z), 'g', 9)));
  }

  void rejects_sizes_it_cannot_take() {
    gpu::DeviceBuffer buffer(1024);
    float* x = buffer.data();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpu::prefix_attention_forward(x, x, x, x, x, 1, 4, 1, 0, 1.0f));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             gpu::prefix_attention_forward(x, x, x, x, x, 1, 1, 1, gpu::kMaxHeadDim + 1, 1.0f));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpu::prefix_attention_forward(x, x, x, x, x, 1, 4, 0, 16, 1.0f));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             gpu::prefix_attention_backward(x, x, x, x, x, x, x, x, x, -1, 4, 1, 16, 1.0f));
  }

 private:
  // A chunk holds 32, 16, 8 or 4 tokens (d up to 32, 64, 128, 256), split among 4 warps, so these
  // N leave chunks and warps partly or wholly empty.
  static void sizes() {
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("d");
    QTest::addColumn<float>("query_spread");
    QTest::newRow("one token, d 16") << 1 << 1 << 1 << 16 << 1.0f;
    QTest::newRow("one token, 2 x 3 heads, d 64") << 2 << 1 << 3 << 64 << 1.0f;
    QTest::newRow("N 2") << 1 << 2 << 2 << 16 << 1.0f;
    QTest::newRow("N 18, d 64") << 2 << 18 << 2 << 64 << 1.0f;
    QTest::newRow("N 37, d 16") << 2 << 37 << 3 << 16 << 1.0f;
    QTest::newRow("N 100, d 64") << 3 << 100 << 2 << 64 << 1.0f;
    QTest::newRow("N 1000, d 64, scores past exp's range") << 2 << 1000 << 4 << 64 << 30.0f;
    QTest::newRow("N 1000, d 24, idle lanes") << 1 << 1000 << 3 << 24 << 2.0f;
    QTest::newRow("N 333, d 100") << 1 << 333 << 2 << 100 << 1.0f;
    QTest::newRow("N 200, d 256") << 1 << 200 << 1 << 256 << 1.0f;
    QTest::newRow("N 70000, d 64") << 1 << 70000 << 2 << 64 << 1.0f;
    QTest::newRow("N 70000, d 16, wide scores") << 2 << 70000 << 1 << 16 << 6.0f;
  }

  static Problem problem() {
    QFETCH(int, batch);
    QFETCH(int, n);
    QFETCH(int, heads);
    QFETCH(int, d);
    QFETCH(float, query_spread);
    return make_problem(batch, n, heads, d, query_spread, unsigned(n * 31 + d));
  }
};

}  // namespace aaren

QTEST_GUILESS_MAIN(aaren::TestGpuAttention)
#include "tst_gpu_attention.moc"
