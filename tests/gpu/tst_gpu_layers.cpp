// The GPU layers of both models (gpu/layers.hpp) against their CPU references (core/nn/*, the glue
// of core/model/*, core/scan/state.hpp's fold, core/train/adamw.hpp), in the manner of ggml's
// test-backend-ops: one table of (layer, sizes) rows, each running the GPU function and its CPU
// twin, in float, on the same random inputs. The sizes are awkward on purpose: one row, one token,
// odd counts, widths that are not a multiple of a warp, several chunks of a block, and a large case.
// Every output buffer is filled with NaN first, so an element a kernel fails to write fails; an
// accumulating output (+=) starts from the same random values on both sides, so a kernel that
// overwrites it fails too. Skips when no CUDA device can be used, and fails instead with
// AAREN_REQUIRE_CUDA=1 (tests/support/gpu_requirement.hpp).
//
// Error measure, element-wise: |gpu_i - cpu_i| <= floor * scale + rtol * |cpu_i|, with scale the
// tensor's largest |cpu_i|, and infinite when a value is not finite (outputs start as NaN). Each
// layer's (floor, rtol) is set and justified at its check: rtol holds every entry to its own size,
// so a small entry cannot hide a large relative error behind the tensor's scale; the floor covers
// entries whose exact value cancels to near 0, where both sides hold rounding noise of the size of
// the terms. Where that noise is larger than the tensor (LayerNorm's input gradient is 0 for C <= 2;
// attention's dq and dk are 0 for L = 1, a softmax over one key) the scale is the terms' size
// instead (max |dout weight| rstd; max |dv|).
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/model/forecast_model.hpp"
#include "core/model/model_config.hpp"
#include "core/model/parameter_layout.hpp"
#include "core/attention/linear_attention.hpp"
#include "core/nn/causal_attention.hpp"
#include "core/nn/causal_linear_attention.hpp"
#include "core/nn/gelu.hpp"
#include "core/nn/instance_norm.hpp"
#include "core/nn/layernorm.hpp"
#include "core/nn/linear.hpp"
#include "core/scan/state.hpp"
#include "core/train/adamw.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_info.hpp"
#include "gpu/layers.hpp"
#include "gpu/linear_attention.hpp"
#include "gpu/prefix_attention.hpp"
#include "support/device_buffers.hpp"
#include "support/gpu_requirement.hpp"
#include "support/numeric_comparison.hpp"

namespace aaren {

namespace {

using Host = std::vector<float>;

// The sizes of one row of the table; what each means depends on the layer (see kLayers).
struct Sizes {
  int B = 0, L = 0, C = 0, X = 0;
};

std::size_t count(long long a, long long b = 1, long long c = 1, long long d = 1) {
  return static_cast<std::size_t>(a * b * c * d);
}

class Random {
 public:
  explicit Random(const Sizes& s) : rng_(unsigned(s.B * 7919 + s.L * 104729 + s.C * 31 + s.X)) {}
  Host normal(std::size_t n, float spread = 1.0f) {
    std::normal_distribution<float> normal(0.0f, spread);
    Host x(n);
    for (float& value : x) value = normal(rng_);
    return x;
  }
  // Positive values, e.g. instance norm's sigma.
  Host positive(std::size_t n) {
    std::uniform_real_distribution<float> uniform(0.5f, 2.0f);
    Host x(n);
    for (float& value : x) value = uniform(rng_);
    return x;
  }

 private:
  std::mt19937 rng_;
};

// A layer's tolerance: floor is a fraction of the tensor's scale, rtol of each entry's own size.
struct Bounds {
  double floor = 0;
  double rtol = 0;
};

// scale, when given, is a lower bound of the tensor's scale (the terms' size where they cancel).
void check_within(const QString& name, const Host& got, const Host& want, Bounds bounds, double scale = -1) {
  const Tolerance tolerance{bounds.floor * std::max(max_abs(want), scale), bounds.rtol};
  const Mismatch worst = worst_against_tolerance(got, want, tolerance);
  QVERIFY2(worst.error <= 1.0, ::describe(name.toUtf8(), worst, tolerance).constData());
}

#define CHECK_WITHIN_ABOVE(name, got, want, bounds, scale) \
  do {                                                     \
    check_within(name, got, want, bounds, scale);          \
    if (QTest::currentTestFailed()) return;                \
  } while (false)
#define CHECK_WITHIN(name, got, want, bounds) CHECK_WITHIN_ABOVE(name, got, want, bounds, -1)

// The linear layer; L = 0, X = OC. with_bias and with_dinp pick the variant.
void check_linear_variant(const Sizes& s, bool with_bias, bool with_dinp) {
  // cuBLAS and the CPU sum C (out), B (dweight, dbias) or OC (dinp)
  // products in different orders; an entry that cancels to near 0 keeps an error of its terms' size,
  // about 1e-5 of the tensor's scale for widths up to 300.
  constexpr Bounds kBounds{1e-5, 1e-4};
  const int B = s.B, C = s.C, OC = s.X;
  Random random(s);
  const Host inp = random.normal(count(B, C)), weight = random.normal(count(OC, C), 0.3f);
  const Host bias = random.normal(count(OC)), dout = random.normal(count(B, OC));
  const Host dweight_start = random.normal(count(OC, C)), dbias_start = random.normal(count(OC));

  Host out(count(B, OC)), dinp(count(B, C)), dweight = dweight_start, dbias = dbias_start;
  linear_forward<float>(out.data(), inp.data(), weight.data(), with_bias ? bias.data() : nullptr, B, C, OC);
  linear_backward<float>(with_dinp ? dinp.data() : nullptr, dweight.data(), with_bias ? dbias.data() : nullptr,
                         dout.data(), inp.data(), weight.data(), B, C, OC);

  gpu::Blas blas;
  const auto d_inp = uploaded(inp), d_weight = uploaded(weight), d_bias = uploaded(bias), d_dout = uploaded(dout);
  auto d_out = poisoned(out.size()), d_dinp = poisoned(dinp.size());
  auto d_dweight = uploaded(dweight_start), d_dbias = uploaded(dbias_start);
  gpu::linear_forward(blas, d_out.data(), d_inp.data(), d_weight.data(), with_bias ? d_bias.data() : nullptr, B, C,
                      OC);
  gpu::linear_backward(blas, with_dinp ? d_dinp.data() : nullptr, d_dweight.data(),
                       with_bias ? d_dbias.data() : nullptr, d_dout.data(), d_inp.data(), d_weight.data(), B, C, OC);
  gpu::synchronize();
  CHECK_WITHIN("out", downloaded(d_out), out, kBounds);
  CHECK_WITHIN("dweight", downloaded(d_dweight), dweight, kBounds);
  if (with_dinp) CHECK_WITHIN("dinp", downloaded(d_dinp), dinp, kBounds);
  if (with_bias) CHECK_WITHIN("dbias", downloaded(d_dbias), dbias, kBounds);
}

void check_linear(const Sizes& s) { check_linear_variant(s, true, true); }
void check_linear_without_bias(const Sizes& s) { check_linear_variant(s, false, true); }
void check_linear_without_dinp(const Sizes& s) { check_linear_variant(s, true, false); }

// (B, C) rows.
void check_layernorm(const Sizes& s) {
  // row statistics over C values, parameter gradients over B rows, each
  // summed in another order than on the CPU (a warp's butterfly, the two-stage column reduction).
  constexpr Bounds kBounds{1e-5, 1e-4};
  const int B = s.B, C = s.C;
  Random random(s);
  Host inp = random.normal(count(B, C), 2.0f);
  for (std::size_t i = 0; i < inp.size(); ++i) inp[i] += float(i % 7);  // a mean well away from 0
  const Host weight = random.normal(count(C)), bias = random.normal(count(C)), dout = random.normal(count(B, C));
  const Host dweight_start = random.normal(count(C)), dbias_start = random.normal(count(C));

  Host out(inp.size()), mean(count(B)), rstd(count(B)), dinp(inp.size());
  Host dweight = dweight_start, dbias = dbias_start;
  layernorm_forward<float>(out.data(), mean.data(), rstd.data(), inp.data(), weight.data(), bias.data(), B, C);
  layernorm_backward<float>(dinp.data(), dweight.data(), dbias.data(), dout.data(), inp.data(), weight.data(),
                            mean.data(), rstd.data(), B, C);

  const auto d_inp = uploaded(inp), d_weight = uploaded(weight), d_bias = uploaded(bias), d_dout = uploaded(dout);
  auto d_out = poisoned(out.size()), d_mean = poisoned(mean.size()), d_rstd = poisoned(rstd.size());
  auto d_dinp = poisoned(dinp.size());
  auto d_dweight = uploaded(dweight_start), d_dbias = uploaded(dbias_start);
  gpu::layernorm_forward(d_out.data(), d_mean.data(), d_rstd.data(), d_inp.data(), d_weight.data(), d_bias.data(), B,
                         C);
  gpu::layernorm_backward(d_dinp.data(), d_dweight.data(), d_dbias.data(), d_dout.data(), d_inp.data(),
                          d_weight.data(), d_mean.data(), d_rstd.data(), B, C);
  gpu::synchronize();
  CHECK_WITHIN("out", downloaded(d_out), out, kBounds);
  CHECK_WITHIN("mean", downloaded(d_mean), mean, kBounds);
  CHECK_WITHIN("rstd", downloaded(d_rstd), rstd, kBounds);
  double term_scale = 0;
  for (int b = 0; b < B; ++b)
    for (int c = 0; c < C; ++c)
      term_scale = std::max(term_scale, std::abs(double(dout[count(b, C) + std::size_t(c)]) * weight[std::size_t(c)] *
                                                 rstd[std::size_t(b)]));
  CHECK_WITHIN_ABOVE("dinp", downloaded(d_dinp), dinp, kBounds, term_scale);
  CHECK_WITHIN("dweight", downloaded(d_dweight), dweight, kBounds);
  CHECK_WITHIN("dbias", downloaded(d_dbias), dbias, kBounds);
}

// N = B C elements. The backward also runs in place (dinp = dout), as the FFN runs it.
void check_gelu(const Sizes& s) {
  // CUDA's erff and expf are within 2 ulps of the CPU's; outputs near 0
  // (x far below 0) are compared at the tensor's scale.
  constexpr Bounds kBounds{1e-7, 1e-5};
  const long N = long(s.B) * s.C;
  Random random(s);
  const Host inp = random.normal(count(N), 3.0f), dout = random.normal(count(N));
  Host out(inp.size()), dinp(inp.size());
  gelu_forward<float>(out.data(), inp.data(), N);
  gelu_backward<float>(dinp.data(), inp.data(), dout.data(), N);

  const auto d_inp = uploaded(inp), d_dout = uploaded(dout);
  auto d_out = poisoned(out.size()), d_dinp = poisoned(dinp.size());
  auto d_in_place = uploaded(dout);
  gpu::gelu_forward(d_out.data(), d_inp.data(), N);
  gpu::gelu_backward(d_dinp.data(), d_inp.data(), d_dout.data(), N);
  gpu::gelu_backward(d_in_place.data(), d_inp.data(), d_in_place.data(), N);
  gpu::synchronize();
  CHECK_WITHIN("out", downloaded(d_out), out, kBounds);
  CHECK_WITHIN("dinp", downloaded(d_dinp), dinp, kBounds);
  CHECK_WITHIN("dinp in place", downloaded(d_in_place), dinp, kBounds);
}

// N = B C elements; also in place (out = a), as the residual connections run it.
void check_add(const Sizes& s) {
  // a + b is one rounding on either side: equal bit for bit.
  constexpr Bounds kBounds{0, 0};
  const long N = long(s.B) * s.C;
  Random random(s);
  const Host a = random.normal(count(N)), b = random.normal(count(N));
  Host sum(a.size());
  for (std::size_t i = 0; i < sum.size(); ++i) sum[i] = a[i] + b[i];

  const auto d_a = uploaded(a), d_b = uploaded(b);
  auto d_out = poisoned(sum.size());
  auto d_in_place = uploaded(a);
  gpu::add(d_out.data(), d_a.data(), d_b.data(), N);
  gpu::add(d_in_place.data(), d_in_place.data(), d_b.data(), N);
  gpu::synchronize();
  CHECK_WITHIN("out", downloaded(d_out), sum, kBounds);
  CHECK_WITHIN("out in place", downloaded(d_in_place), sum, kBounds);
}

// (B, C): a row broadcast to B rows, and the gradient of that, the sum of B rows added to a row.
void check_broadcast_rows(const Sizes& s) {
  // copies: equal bit for bit.
  constexpr Bounds kBounds{0, 0};
  const int B = s.B, C = s.C;
  Random random(s);
  const Host row = random.normal(count(C));
  Host out(count(B, C));
  for (int b = 0; b < B; ++b) std::copy(row.begin(), row.end(), out.begin() + long(b) * C);
  const auto d_row = uploaded(row);
  auto d_out = poisoned(out.size());
  gpu::broadcast_rows(d_out.data(), d_row.data(), B, C);
  gpu::synchronize();
  CHECK_WITHIN("out", downloaded(d_out), out, kBounds);
}

void check_sum_rows_add(const Sizes& s) {
  // sums over up to 4099 rows in another order (the two-stage column
  // reduction); a column that cancels keeps an error of its terms' size.
  constexpr Bounds kBounds{1e-5, 1e-4};
  const int B = s.B, C = s.C;
  Random random(s);
  const Host inp = random.normal(count(B, C)), start = random.normal(count(C));
  Host out = start;
  for (int b = 0; b < B; ++b)
    for (int c = 0; c < C; ++c) out[std::size_t(c)] += inp[count(b, C) + std::size_t(c)];
  const auto d_inp = uploaded(inp);
  auto d_out = uploaded(start);
  gpu::sum_rows_add(d_out.data(), d_inp.data(), B, C);
  gpu::synchronize();
  CHECK_WITHIN("out", downloaded(d_out), out, kBounds);
}

// (B, L, D = C): the positional table added to every window, and the last token's gather and
// scatter.
void check_add_to_each(const Sizes& s) {
  // x + table is one rounding on either side: equal bit for bit.
  constexpr Bounds kBounds{0, 0};
  const int B = s.B;
  const long LD = long(s.L) * s.C;
  Random random(s);
  const Host x = random.normal(count(B, LD)), table = random.normal(count(LD));
  Host want = x;
  for (std::size_t i = 0; i < want.size(); ++i) want[i] += table[i % std::size_t(LD)];
  auto d_x = uploaded(x);
  const auto d_table = uploaded(table);
  gpu::add_to_each(d_x.data(), d_table.data(), B, LD);
  gpu::synchronize();
  CHECK_WITHIN("x", downloaded(d_x), want, kBounds);
}

void check_gather_scatter_last(const Sizes& s) {
  // copies and zeros: equal bit for bit.
  constexpr Bounds kBounds{0, 0};
  const int B = s.B, L = s.L, D = s.C;
  Random random(s);
  const Host x = random.normal(count(B, L, D)), dout = random.normal(count(B, D));
  Host out(count(B, D)), dx(x.size(), 0.0f);
  for (int b = 0; b < B; ++b)
    for (int j = 0; j < D; ++j) {
      out[count(b, D) + std::size_t(j)] = x[count(long(b) * L + L - 1, D) + std::size_t(j)];
      dx[count(long(b) * L + L - 1, D) + std::size_t(j)] = dout[count(b, D) + std::size_t(j)];
    }
  const auto d_x = uploaded(x), d_dout = uploaded(dout);
  auto d_out = poisoned(out.size()), d_dx = poisoned(dx.size());
  gpu::gather_last(d_out.data(), d_x.data(), B, L, D);
  gpu::scatter_last(d_dx.data(), d_dout.data(), B, L, D);
  gpu::synchronize();
  CHECK_WITHIN("out", downloaded(d_out), out, kBounds);
  CHECK_WITHIN("dx", downloaded(d_dx), dx, kBounds);
}

// (B, L, C) windows normalized; (B, H = L, C) forecasts mapped back, and that map's gradient.
void check_instance_norm(const Sizes& s) {
  // means and deviations over L <= 336 steps summed by a warp instead of in order: a few ulps of the
  // values' size. The output (x - m) / s carries the mean's rounding, in ulps of the inputs' size
  // (up to about 200 here), divided by sigma (about 3): its scale is max |x| / min sigma. The CPU's
  // sum in order is off by up to about 0.9e-6 of that against a double sum, so the floor is 4e-6.
  constexpr Bounds kBounds{1e-6, 1e-5};
  constexpr double kOutFloor = 4e-6;
  const int B = s.B, L = s.L, C = s.C;
  Random random(s);
  Host inp = random.normal(count(B, L, C), 3.0f);
  for (std::size_t i = 0; i < inp.size(); ++i) inp[i] += 10.0f * float(i % std::size_t(C));
  Host out(inp.size()), mean(count(B, C)), sigma(count(B, C));
  for (int b = 0; b < B; ++b)
    instance_norm_forward<float>(out.data() + count(b, L, C), mean.data() + count(b, C), sigma.data() + count(b, C),
                                 inp.data() + count(b, L, C), L, C);
  const auto d_inp = uploaded(inp);
  auto d_out = poisoned(out.size()), d_mean = poisoned(mean.size()), d_sigma = poisoned(sigma.size());
  gpu::instance_norm_forward(d_out.data(), d_mean.data(), d_sigma.data(), d_inp.data(), B, L, C);
  gpu::synchronize();
  const double input_scale = max_abs(inp) / *std::min_element(sigma.begin(), sigma.end());
  CHECK_WITHIN_ABOVE("out", downloaded(d_out), out, (Bounds{kOutFloor, kBounds.rtol}), input_scale);
  CHECK_WITHIN("mean", downloaded(d_mean), mean, kBounds);
  CHECK_WITHIN("sigma", downloaded(d_sigma), sigma, kBounds);
}

void check_instance_denorm(const Sizes& s) {
  // one multiply-add, which the GPU may fuse into one rounding:
  // within an ulp or two.
  constexpr Bounds kBounds{1e-7, 1e-6};
  const int B = s.B, H = s.L, C = s.C;
  Random random(s);
  const Host inp = random.normal(count(B, H, C)), dout = random.normal(count(B, H, C));
  const Host mean = random.normal(count(B, C), 5.0f), sigma = random.positive(count(B, C));
  Host out(inp.size()), dinp(inp.size());
  for (int b = 0; b < B; ++b) {
    instance_denorm_forward<float>(out.data() + count(b, H, C), inp.data() + count(b, H, C),
                                   mean.data() + count(b, C), sigma.data() + count(b, C), H, C);
    instance_denorm_backward<float>(dinp.data() + count(b, H, C), dout.data() + count(b, H, C),
                                    sigma.data() + count(b, C), H, C);
  }
  const auto d_inp = uploaded(inp), d_dout = uploaded(dout), d_mean = uploaded(mean), d_sigma = uploaded(sigma);
  auto d_out = poisoned(out.size()), d_dinp = poisoned(dinp.size());
  gpu::instance_denorm_forward(d_out.data(), d_inp.data(), d_mean.data(), d_sigma.data(), B, H, C);
  gpu::instance_denorm_backward(d_dinp.data(), d_dout.data(), d_sigma.data(), B, H, C);
  gpu::synchronize();
  CHECK_WITHIN("out", downloaded(d_out), out, kBounds);
  CHECK_WITHIN("dinp", downloaded(d_dinp), dinp, kBounds);
}

// B rows of n = C values; the gradient of grad_weight * sum_b loss[b], and the loss alone.
void check_mse_loss(const Sizes& s) {
  // the loss sums n positive squares (an error of about log2 n ulps);
  // dy is element-wise.
  constexpr Bounds kBounds{1e-7, 1e-5};
  const int B = s.B, n = s.C;
  const float grad_weight = 0.37f;
  Random random(s);
  const Host y = random.normal(count(B, n)), truth = random.normal(count(B, n));
  Host loss(count(B)), dy(y.size());
  for (int b = 0; b < B; ++b) loss[std::size_t(b)] = mse_loss<float>(dy.data() + count(b, n), y.data() + count(b, n),
                                                                    truth.data() + count(b, n), n);
  for (float& g : dy) g *= grad_weight;
  const auto d_y = uploaded(y), d_truth = uploaded(truth);
  auto d_loss = poisoned(loss.size()), d_dy = poisoned(dy.size()), d_loss_only = poisoned(loss.size());
  gpu::mse_loss(d_loss.data(), d_dy.data(), d_y.data(), d_truth.data(), B, n, grad_weight);
  gpu::mse_loss(d_loss_only.data(), nullptr, d_y.data(), d_truth.data(), B, n, grad_weight);
  gpu::synchronize();
  CHECK_WITHIN("loss", downloaded(d_loss), loss, kBounds);
  CHECK_WITHIN("dy", downloaded(d_dy), dy, kBounds);
  CHECK_WITHIN("loss without dy", downloaded(d_loss_only), loss, kBounds);
}

// (B, L, C) with X = H heads: forward, backward (from the CPU's probs), and the decode of a few
// positions t from a KV cache with room for more tokens, its rows after t NaN so that reading them
// would show.
void check_causal_attention(const Sizes& s) {
  // a softmax over up to 600 keys and the backward's sums over L and
  // d, in other orders than on the CPU.
  constexpr Bounds kBounds{1e-5, 1e-4};
  const int B = s.B, L = s.L, C = s.C, H = s.X;
  Random random(s);
  const Host q = random.normal(count(B, L, C)), k = random.normal(count(B, L, C)), v = random.normal(count(B, L, C));
  const Host dout = random.normal(count(B, L, C));
  Host out(q.size()), probs(count(B, H, L, L)), dq(q.size()), dk(q.size()), dv(q.size()),
      scratch(std::size_t(causal_attention_scratch_size(L)));
  for (int b = 0; b < B; ++b) {
    const std::size_t x = count(b, L, C), p = count(b, H, L, L);
    causal_attention_forward<float>(out.data() + x, probs.data() + p, q.data() + x, k.data() + x, v.data() + x, L, C,
                                    H);
    causal_attention_backward<float>(dq.data() + x, dk.data() + x, dv.data() + x, scratch.data(), dout.data() + x,
                                     q.data() + x, k.data() + x, v.data() + x, probs.data() + p, L, C, H);
  }

  const auto d_q = uploaded(q), d_k = uploaded(k), d_v = uploaded(v), d_dout = uploaded(dout);
  const auto d_cpu_probs = uploaded(probs);
  auto d_out = poisoned(out.size()), d_probs = poisoned(probs.size());
  auto d_dq = poisoned(dq.size()), d_dk = poisoned(dk.size()), d_dv = poisoned(dv.size());
  gpu::causal_attention_forward(d_out.data(), d_probs.data(), d_q.data(), d_k.data(), d_v.data(), B, L, C, H);
  gpu::causal_attention_backward(d_dq.data(), d_dk.data(), d_dv.data(), d_dout.data(), d_q.data(), d_k.data(),
                                 d_v.data(), d_cpu_probs.data(), B, L, C, H);
  gpu::synchronize();
  const Host gpu_out = downloaded(d_out);
  CHECK_WITHIN("out", gpu_out, out, kBounds);
  CHECK_WITHIN("probs", downloaded(d_probs), probs, kBounds);
  double value_grad_scale = 0;
  for (const float g : dv) value_grad_scale = std::max(value_grad_scale, std::abs(double(g)));
  CHECK_WITHIN_ABOVE("dq", downloaded(d_dq), dq, kBounds, value_grad_scale);
  CHECK_WITHIN_ABOVE("dk", downloaded(d_dk), dk, kBounds, value_grad_scale);
  CHECK_WITHIN("dv", downloaded(d_dv), dv, kBounds);

  const int capacity = L + 3;
  for (const int t : {0, L / 2, L - 1}) {
    Host k_cache(count(B, capacity, C), std::numeric_limits<float>::quiet_NaN()), v_cache = k_cache;
    Host q_t(count(B, C)), forward_row(count(B, C)), gpu_forward_row(count(B, C));
    for (int b = 0; b < B; ++b) {
      const std::size_t row = count(long(b) * L + t, C);
      std::copy_n(k.begin() + long(count(b, L, C)), count(t + 1, C), k_cache.begin() + long(count(b, capacity, C)));
      std::copy_n(v.begin() + long(count(b, L, C)), count(t + 1, C), v_cache.begin() + long(count(b, capacity, C)));
      std::copy_n(q.begin() + long(row), C, q_t.begin() + long(count(b, C)));
      std::copy_n(out.begin() + long(row), C, forward_row.begin() + long(count(b, C)));
      std::copy_n(gpu_out.begin() + long(row), C, gpu_forward_row.begin() + long(count(b, C)));
    }
    const auto d_q_t = uploaded(q_t), d_k_cache = uploaded(k_cache), d_v_cache = uploaded(v_cache);
    auto d_decoded = poisoned(q_t.size());
    gpu::causal_attention_decode(d_decoded.data(), d_q_t.data(), d_k_cache.data(), d_v_cache.data(), B, t + 1,
                                 capacity, C, H);
    gpu::synchronize();
    const Host decoded = downloaded(d_decoded);
    CHECK_WITHIN(QStringLiteral("decode of token %1 against the GPU forward").arg(t), decoded, gpu_forward_row,
                 kBounds);
    CHECK_WITHIN(QStringLiteral("decode of token %1 against the CPU forward").arg(t), decoded, forward_row, kBounds);
  }
}

// elu + 1 and its gradient, in place on N = B C values (L, X unused).
void check_elu_plus_one(const Sizes& s) {
  // exp in float on both sides (expf against Eigen's), within a few ulps.
  constexpr Bounds kBounds{0, 1e-6};
  Random random(s);
  const Host x = random.normal(count(s.B, s.C), 2.0f), dout = random.normal(x.size());
  Host phi = x, grad = dout;
  elu_plus_one_forward(phi.data(), phi.size());
  elu_plus_one_backward(grad.data(), phi.data(), grad.size());
  auto d_phi = uploaded(x), d_grad = uploaded(dout);
  gpu::elu_plus_one_forward(d_phi.data(), long(x.size()));
  gpu::elu_plus_one_backward(d_grad.data(), d_phi.data(), long(x.size()));
  gpu::synchronize();
  CHECK_WITHIN("phi", downloaded(d_phi), phi, kBounds);
  CHECK_WITHIN("gradient", downloaded(d_grad), grad, kBounds);
}

// Positive features, as the model feeds the attention: elu + 1 of normal values.
Host features(Random& random, std::size_t n) {
  Host phi = random.normal(n);
  elu_plus_one_forward(phi.data(), phi.size());
  return phi;
}

// The linear Transformer's causal attention of B rows of L tokens, C columns in X = H heads,
// forward and backward, against core/nn/causal_linear_attention.hpp (chunked) row by row.
void check_causal_linear_attention(const Sizes& s) {
  // sums over up to 600 tokens and d features in another order than the CPU's chunks; the
  // gradients of phi cancel (dn against dd) and are compared at the values' gradient's scale.
  constexpr Bounds kBounds{1e-5, 1e-4};
  const int B = s.B, L = s.L, C = s.C, H = s.X, d = C / H;
  Random random(s);
  const Host phi_q = features(random, count(B, L, C)), phi_k = features(random, count(B, L, C));
  const Host v = random.normal(count(B, L, C)), dout = random.normal(count(B, L, C));
  Host out(v.size()), den(count(B, H, L)), dq(v.size()), dk(v.size()), dv(v.size());
  LinearAttentionScratch<float> scratch(C, H, linear_attention_chunk(d));
  for (int b = 0; b < B; ++b) {
    const std::size_t x = count(b, L, C), n = count(b, H, L);
    causal_linear_attention_forward<float>(out.data() + x, den.data() + n, scratch, phi_q.data() + x,
                                           phi_k.data() + x, v.data() + x, L, C, H);
    causal_linear_attention_backward<float>(dq.data() + x, dk.data() + x, dv.data() + x, scratch, dout.data() + x,
                                            phi_q.data() + x, phi_k.data() + x, v.data() + x, out.data() + x,
                                            den.data() + n, L, C, H);
  }
  const auto d_q = uploaded(phi_q), d_k = uploaded(phi_k), d_v = uploaded(v), d_dout = uploaded(dout);
  const auto d_cpu_out = uploaded(out), d_cpu_den = uploaded(den);
  auto d_out = poisoned(out.size()), d_den = poisoned(den.size());
  auto d_dq = poisoned(dq.size()), d_dk = poisoned(dk.size()), d_dv = poisoned(dv.size());
  gpu::causal_linear_attention_forward(d_out.data(), d_den.data(), d_q.data(), d_k.data(), d_v.data(), B, L, C, H,
                                       float(kLinearAttentionEps));
  // The backward from the CPU's forward, so that it is checked alone.
  gpu::causal_linear_attention_backward(d_dq.data(), d_dk.data(), d_dv.data(), d_dout.data(), d_q.data(), d_k.data(),
                                        d_v.data(), d_cpu_out.data(), d_cpu_den.data(), B, L, C, H);
  gpu::synchronize();
  CHECK_WITHIN("out", downloaded(d_out), out, kBounds);
  CHECK_WITHIN("den", downloaded(d_den), den, kBounds);
  double value_grad_scale = 0;
  for (const float g : dv) value_grad_scale = std::max(value_grad_scale, std::abs(double(g)));
  CHECK_WITHIN_ABOVE("dphi_q", downloaded(d_dq), dq, kBounds, value_grad_scale);
  CHECK_WITHIN_ABOVE("dphi_k", downloaded(d_dk), dk, kBounds, value_grad_scale);
  CHECK_WITHIN("dv", downloaded(d_dv), dv, kBounds);
}

// B streams of N tokens through the linear attention step, C columns in X = H heads: against the
// CPU's LinearAttentionState per stream and head, and against the GPU's causal forward.
void check_linear_attention_step(const Sizes& s) {
  // the same sums as the forward's, the state's compensated on both sides.
  constexpr Bounds kBounds{1e-5, 1e-4};
  const int B = s.B, N = s.L, C = s.C, H = s.X, d = C / H;
  Random random(s);
  const Host phi_q = features(random, count(B, N, C)), phi_k = features(random, count(B, N, C));
  const Host v = random.normal(count(B, N, C));
  Host cpu(v.size());
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h) {
      LinearAttentionState<float> state(d, d);
      for (int t = 0; t < N; ++t) {
        const std::size_t at = count(long(b) * N + t, C) + count(h, d);
        state.step(std::span<float>(cpu.data() + at, std::size_t(d)), std::span<const float>(phi_q.data() + at, std::size_t(d)),
                   std::span<const float>(phi_k.data() + at, std::size_t(d)), std::span<const float>(v.data() + at, std::size_t(d)));
      }
    }
  auto d_s = uploaded(Host(count(B, H, d, d), 0.0f)), d_s_carry = uploaded(Host(count(B, H, d, d), 0.0f));
  auto d_z = uploaded(Host(count(B, H, d), 0.0f)), d_z_carry = uploaded(Host(count(B, H, d), 0.0f));
  Host steps(v.size());
  for (int t = 0; t < N; ++t) {
    Host q_t(count(B, C)), k_t(count(B, C)), v_t(count(B, C));
    for (int b = 0; b < B; ++b) {
      const long row = long(count(long(b) * N + t, C));
      std::copy_n(phi_q.begin() + row, C, q_t.begin() + long(count(b, C)));
      std::copy_n(phi_k.begin() + row, C, k_t.begin() + long(count(b, C)));
      std::copy_n(v.begin() + row, C, v_t.begin() + long(count(b, C)));
    }
    const auto d_q_t = uploaded(q_t), d_k_t = uploaded(k_t), d_v_t = uploaded(v_t);
    auto d_out_t = poisoned(count(B, C));
    gpu::linear_attention_step(d_out_t.data(), d_s.data(), d_s_carry.data(), d_z.data(), d_z_carry.data(),
                               d_q_t.data(), d_k_t.data(), d_v_t.data(), B, C, H, float(kLinearAttentionEps));
    gpu::synchronize();
    const Host out_t = downloaded(d_out_t);
    for (int b = 0; b < B; ++b)
      std::copy_n(out_t.begin() + long(count(b, C)), C, steps.begin() + long(count(long(b) * N + t, C)));
  }
  const auto d_q = uploaded(phi_q), d_k = uploaded(phi_k), d_v = uploaded(v);
  auto d_forward = poisoned(v.size()), d_den = poisoned(count(B, H, N));
  gpu::causal_linear_attention_forward(d_forward.data(), d_den.data(), d_q.data(), d_k.data(), d_v.data(), B, N, C, H,
                                       float(kLinearAttentionEps));
  gpu::synchronize();
  CHECK_WITHIN("steps against the CPU state", steps, cpu, kBounds);
  CHECK_WITHIN("steps against the GPU forward", steps, downloaded(d_forward), kBounds);
}

// B streams of N tokens ((B, N, C) keys and values, H heads, one query (C) shared by the streams)
// through three twins: the CPU's fold_token in float, the GPU's scan, and the GPU's step token after
// token. Every output is (B, N, C); the final states are the CPU's and the step's (u and w as their
// sums plus carries).
struct StreamRuns {
  Host cpu, scan, steps;
  Host cpu_m, cpu_u, cpu_w, step_m, step_u, step_w;
};

StreamRuns run_streams(const Host& q, const Host& k, const Host& v, int B, int N, int C, int H, float scale) {
  const int d = C / H;
  StreamRuns runs;
  runs.cpu.resize(k.size());
  runs.cpu_m.assign(count(B, H), negative_infinity<float>());
  runs.cpu_u.assign(count(B, H), 0.0f);
  runs.cpu_w.assign(count(B, C), 0.0f);
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < N; ++t)
      for (int h = 0; h < H; ++h) {
        const std::size_t column = count(h, d), token = count(long(b) * N + t, C) + column;
        const std::size_t state = count(b, H) + std::size_t(h);
        float dot = 0;
        for (int j = 0; j < d; ++j) dot += q[column + std::size_t(j)] * k[token + std::size_t(j)];
        float* w_head = runs.cpu_w.data() + count(b, C) + column;
        fold_token(runs.cpu_m[state], runs.cpu_u[state], w_head, scale * dot, v.data() + token, d);
        for (int j = 0; j < d; ++j) runs.cpu[token + std::size_t(j)] = w_head[j] / runs.cpu_u[state];
      }

  // The scan takes one query per (stream, head); the step takes one (B, C) row of each stream.
  Host q_per_stream(count(B, C));
  for (int b = 0; b < B; ++b) std::copy(q.begin(), q.end(), q_per_stream.begin() + long(count(b, C)));
  const auto d_q = uploaded(q), d_q_per_stream = uploaded(q_per_stream), d_k = uploaded(k), d_v = uploaded(v);
  auto d_scan = poisoned(k.size());
  gpu::prefix_attention_forward(d_scan.data(), nullptr, d_q_per_stream.data(), d_k.data(), d_v.data(), B, N, H, d,
                                scale);
  auto d_m = poisoned(count(B, H)), d_u = poisoned(count(B, H)), d_u_carry = poisoned(count(B, H));
  auto d_w = poisoned(count(B, C)), d_w_carry = poisoned(count(B, C)), d_step = poisoned(count(B, C));
  gpu::prefix_attention_reset(d_m.data(), d_u.data(), d_u_carry.data(), d_w.data(), d_w_carry.data(), B, C, H);
  runs.steps.resize(k.size());
  Host k_t(count(B, C)), v_t(count(B, C));
  for (int t = 0; t < N; ++t) {
    for (int b = 0; b < B; ++b) {
      std::copy_n(k.begin() + long(count(long(b) * N + t, C)), C, k_t.begin() + long(count(b, C)));
      std::copy_n(v.begin() + long(count(long(b) * N + t, C)), C, v_t.begin() + long(count(b, C)));
    }
    const auto d_k_t = uploaded(k_t), d_v_t = uploaded(v_t);
    gpu::prefix_attention_step(d_step.data(), d_m.data(), d_u.data(), d_u_carry.data(), d_w.data(), d_w_carry.data(),
                               d_q.data(), d_k_t.data(), d_v_t.data(), B, C, H, scale);
    const Host row = downloaded(d_step);
    for (int b = 0; b < B; ++b)
      std::copy_n(row.begin() + long(count(b, C)), C, runs.steps.begin() + long(count(long(b) * N + t, C)));
  }
  gpu::synchronize();
  runs.scan = downloaded(d_scan);
  const auto plus = [](Host a, const Host& b) {
    for (std::size_t i = 0; i < a.size(); ++i) a[i] += b[i];
    return a;
  };
  runs.step_m = downloaded(d_m);
  runs.step_u = plus(downloaded(d_u), downloaded(d_u_carry));
  runs.step_w = plus(downloaded(d_w), downloaded(d_w_carry));
  return runs;
}

// run_streams on random streams of L tokens, width C, X = H heads, with the shared query scaled up
// so the running maximum moves often: the step gives the rows of the GPU scan and of the CPU stream,
// and the same final states.
void check_prefix_attention_step(const Sizes& s) {
  // scores rounded differently change a weight by about 1e-6 here (scale sum |q k| is about 10 at
  // query spread 4), and up to 300 tokens are summed (the step's and scan's sums are compensated,
  // the CPU stream's plain); outputs that cancel are compared at the tensor's scale.
  constexpr Bounds kBounds{2e-6, 1e-4};
  const int B = s.B, N = s.L, C = s.C, H = s.X;
  const float scale = 1.0f / std::sqrt(float(C / H));
  Random random(s);
  const Host q = random.normal(count(C), 4.0f);
  const Host k = random.normal(count(B, N, C)), v = random.normal(count(B, N, C));
  const StreamRuns runs = run_streams(q, k, v, B, N, C, H, scale);
  CHECK_WITHIN("steps against the GPU scan", runs.steps, runs.scan, kBounds);
  CHECK_WITHIN("steps against the CPU stream", runs.steps, runs.cpu, kBounds);
  CHECK_WITHIN("m", runs.step_m, runs.cpu_m, kBounds);
  CHECK_WITHIN("u", runs.step_u, runs.cpu_u, kBounds);
  CHECK_WITHIN("w", runs.step_w, runs.cpu_w, kBounds);
}

// AdamW over B steps of random gradients on a small model's parameter layout, clipped to a norm
// of `clip` (0: not clipped), against AdamW::step after clip_grad_norm. The parameters' change
// since the start is compared, so the error measure sees the updates rather than the weights.
void check_adamw_steps(const Sizes& s, float clip) {
  // clipping by a norm summed in double, then the same element-wise
  // update; the change since the start is compared, so a tiny update is held to its own size.
  constexpr Bounds kBounds{1e-5, 1e-4};
  ModelConfig config;
  config.d_model = 8, config.heads = 2, config.layers = 1, config.d_ff = 12;
  config.seq_len = 5, config.horizon = 3, config.channels = 2;
  const ParameterLayout layout(config);
  const std::size_t n = layout.total();
  Host decay(n, 0.0f);
  for (const ParameterEntry& e : layout.entries())
    if (e.shape.size() >= 2) std::fill_n(decay.begin() + long(e.offset), e.size, 1.0f);
  AdamWSettings settings;
  settings.weight_decay = 0.1;
  const float lr = 1e-2f;

  Random random(s);
  const Host start = random.normal(n, 0.1f);  // small weights: their float rounding stays far below the updates
  Host params = start;
  AdamW cpu(layout, settings);
  const auto d_decay = uploaded(decay);
  auto d_params = uploaded(start);
  auto d_m = uploaded(Host(n, 0.0f)), d_v = uploaded(Host(n, 0.0f));
  auto d_sum_sq = poisoned(1);
  for (long t = 1; t <= s.B; ++t) {
    Host grads = random.normal(n, 0.5f);
    const auto d_grads = uploaded(grads);
    gpu::sum_of_squares(d_sum_sq.data(), d_grads.data(), long(n));
    gpu::adamw_step(d_params.data(), d_m.data(), d_v.data(), d_grads.data(), d_decay.data(), d_sum_sq.data(),
                    long(n), lr, float(settings.beta1), float(settings.beta2), float(settings.eps),
                    float(settings.weight_decay), t, clip);
    const double norm = clip_grad_norm(grads.data(), n, double(clip));
    cpu.step(params.data(), grads.data(), double(lr));
    gpu::synchronize();
    // Summed in double on both sides and rounded to float once: within an ulp.
    CHECK_WITHIN(QStringLiteral("sum of squares, step %1").arg(t), downloaded(d_sum_sq), Host{float(norm * norm)},
                 (Bounds{0, 1e-6}));
    if (clip > 0) QVERIFY2(norm > clip, "the clipping case must clip");
    Host gpu_change = downloaded(d_params), cpu_change = params;
    for (std::size_t i = 0; i < n; ++i) {
      gpu_change[i] -= start[i];
      cpu_change[i] -= start[i];
    }
    CHECK_WITHIN(QStringLiteral("parameter change after step %1").arg(t), gpu_change, cpu_change, kBounds);
  }
}

void check_adamw(const Sizes& s) { check_adamw_steps(s, 0.0f); }
void check_adamw_clipped(const Sizes& s) { check_adamw_steps(s, 1.0f); }

// A gradient with a NaN or an infinity among finite values (X = 0: NaN, 1: +inf, 2: -inf) of B
// elements: its norm is not finite, and the step leaves the parameters and both moments exactly as
// they were.
void check_adamw_non_finite(const Sizes& s) {
  const long n = s.B;
  Random random(s);
  const Host params = random.normal(count(n)), m = random.normal(count(n)), v = random.positive(count(n));
  Host grads = random.normal(count(n));
  const float bad[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                       -std::numeric_limits<float>::infinity()};
  grads[count(n / 2)] = bad[s.X];
  const auto d_grads = uploaded(grads), d_decay = uploaded(Host(count(n), 1.0f));
  auto d_params = uploaded(params), d_m = uploaded(m), d_v = uploaded(v), d_sum_sq = poisoned(1);
  gpu::sum_of_squares(d_sum_sq.data(), d_grads.data(), n);
  gpu::adamw_step(d_params.data(), d_m.data(), d_v.data(), d_grads.data(), d_decay.data(), d_sum_sq.data(), n, 1e-2f,
                  0.9f, 0.999f, 1e-8f, 0.1f, 3, 1.0f);
  gpu::synchronize();
  QVERIFY(!std::isfinite(downloaded(d_sum_sq)[0]));
  QCOMPARE(downloaded(d_params), params);
  QCOMPARE(downloaded(d_m), m);
  QCOMPARE(downloaded(d_v), v);
}

using Check = void (*)(const Sizes&);

struct Layer {
  const char* name;
  Check check;
};

// What B, L, C and X mean is said at each check function.
const Layer kLayers[] = {
    {"linear", check_linear},
    {"linear without bias", check_linear_without_bias},
    {"linear without dinp", check_linear_without_dinp},
    {"layernorm", check_layernorm},
    {"gelu", check_gelu},
    {"add", check_add},
    {"broadcast_rows", check_broadcast_rows},
    {"sum_rows_add", check_sum_rows_add},
    {"add_to_each", check_add_to_each},
    {"gather_last and scatter_last", check_gather_scatter_last},
    {"instance_norm", check_instance_norm},
    {"instance_denorm", check_instance_denorm},
    {"mse_loss", check_mse_loss},
    {"causal_attention", check_causal_attention},
    {"prefix_attention_step", check_prefix_attention_step},
    {"elu_plus_one", check_elu_plus_one},
    {"causal_linear_attention", check_causal_linear_attention},
    {"linear_attention_step", check_linear_attention_step},
    {"adamw", check_adamw},
    {"adamw clipped", check_adamw_clipped},
    {"adamw non-finite gradient", check_adamw_non_finite},
};

struct Case {
  const char* layer;
  Sizes sizes;
};

const Case kCases[] = {
    {"linear", {1, 0, 1, 1}},
    {"linear", {3, 0, 33, 17}},
    {"linear", {7, 0, 64, 129}},
    {"linear", {4099, 0, 300, 257}},
    {"linear without bias", {5, 0, 31, 9}},
    {"linear without bias", {1, 0, 2, 70}},
    {"linear without dinp", {9, 0, 13, 40}},
    {"layernorm", {1, 0, 1, 0}},
    {"layernorm", {7, 0, 2, 0}},
    {"layernorm", {5, 0, 31, 0}},
    {"layernorm", {17, 0, 33, 0}},
    {"layernorm", {3, 0, 1000, 0}},
    {"layernorm", {4099, 0, 768, 0}},
    {"gelu", {1, 0, 1, 0}},
    {"gelu", {7, 0, 131, 0}},
    {"gelu", {1025, 0, 1031, 0}},
    {"add", {1, 0, 1, 0}},
    {"add", {1025, 0, 1031, 0}},
    {"broadcast_rows", {1, 0, 1, 0}},
    {"broadcast_rows", {13, 0, 37, 0}},
    {"broadcast_rows", {4099, 0, 300, 0}},
    {"sum_rows_add", {1, 0, 1, 0}},
    {"sum_rows_add", {33, 0, 17, 0}},
    {"sum_rows_add", {4099, 0, 300, 0}},
    {"add_to_each", {1, 1, 1, 0}},
    {"add_to_each", {5, 97, 33, 0}},
    {"gather_last and scatter_last", {1, 1, 1, 0}},
    {"gather_last and scatter_last", {5, 97, 33, 0}},
    {"gather_last and scatter_last", {257, 336, 64, 0}},
    {"instance_norm", {1, 1, 1, 0}},
    {"instance_norm", {3, 96, 7, 0}},
    {"instance_norm", {65, 336, 21, 0}},
    {"instance_denorm", {1, 1, 1, 0}},
    {"instance_denorm", {3, 96, 7, 0}},
    {"instance_denorm", {65, 720, 21, 0}},
    {"mse_loss", {1, 0, 1, 0}},
    {"mse_loss", {7, 0, 37, 0}},
    {"mse_loss", {65, 0, 2016, 0}},
    {"causal_attention", {1, 1, 4, 1}},
    {"causal_attention", {3, 37, 24, 3}},
    {"causal_attention", {2, 130, 40, 5}},
    {"causal_attention", {1, 300, 96, 2}},
    {"causal_attention", {2, 600, 64, 4}},
    {"prefix_attention_step", {1, 1, 4, 1}},
    {"prefix_attention_step", {3, 37, 24, 3}},
    {"prefix_attention_step", {5, 200, 100, 1}},
    {"prefix_attention_step", {33, 300, 64, 4}},
    {"elu_plus_one", {1, 0, 1, 0}},
    {"elu_plus_one", {1025, 0, 1031, 0}},
    {"causal_linear_attention", {1, 1, 4, 1}},
    {"causal_linear_attention", {3, 37, 24, 3}},
    {"causal_linear_attention", {2, 130, 40, 5}},
    {"causal_linear_attention", {2, 600, 64, 4}},
    {"causal_linear_attention", {1, 100, 128, 2}},
    {"linear_attention_step", {1, 1, 4, 1}},
    {"linear_attention_step", {3, 37, 24, 3}},
    {"linear_attention_step", {5, 200, 128, 2}},
    {"adamw", {5, 0, 0, 0}},
    {"adamw clipped", {5, 0, 0, 0}},
    {"adamw non-finite gradient", {1, 0, 0, 0}},
    {"adamw non-finite gradient", {1000, 0, 0, 1}},
    {"adamw non-finite gradient", {100003, 0, 0, 2}},
};

Check check_of(const QString& layer) {
  for (const Layer& entry : kLayers)
    if (layer == QLatin1String(entry.name)) return entry.check;
  return nullptr;
}

}  // namespace

class TestGpuLayers : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    AAREN_SKIP_OR_FAIL_WITHOUT_GPU();
    qInfo("testing on %s", gpu::describe(gpu::query_device()).c_str());
  }

  void layer_matches_cpu_reference_data() {
    QTest::addColumn<QString>("layer");
    QTest::addColumn<int>("B");
    QTest::addColumn<int>("L");
    QTest::addColumn<int>("C");
    QTest::addColumn<int>("X");
    for (const Case& c : kCases) {
      const Sizes& s = c.sizes;
      QTest::addRow("%s B %d L %d C %d X %d", c.layer, s.B, s.L, s.C, s.X)
          << QString::fromLatin1(c.layer) << s.B << s.L << s.C << s.X;
    }
  }

  void layer_matches_cpu_reference() {
    QFETCH(QString, layer);
    QFETCH(int, B);
    QFETCH(int, L);
    QFETCH(int, C);
    QFETCH(int, X);
    const Check check = check_of(layer);
    QVERIFY2(check, qPrintable(QStringLiteral("no check for the layer '%1'").arg(layer)));
    check(Sizes{B, L, C, X});
  }

  // The sums over many rows (the row sums, LayerNorm's parameter gradients, the squared norm, the
  // instance norm's statistics) are taken in a fixed order: two runs give the same bits.
  void reductions_are_the_same_bit_for_bit_on_every_run() {
    const int B = 40000, C = 64, L = 336, channels = 21, windows = 65;  // B L rows at d = 64, as in training
    Random random(Sizes{B, L, C, channels});
    const Host inp = random.normal(count(B, C)), dout = random.normal(count(B, C)), start = random.normal(count(C));
    const Host mean = random.normal(count(B)), rstd = random.positive(count(B));
    const Host windows_in = random.normal(count(windows, L, channels), 3.0f);
    const auto d_inp = uploaded(inp), d_dout = uploaded(dout), d_mean = uploaded(mean), d_rstd = uploaded(rstd);
    const auto d_windows = uploaded(windows_in);
    const auto run = [&] {
      auto rows = uploaded(start), dweight = uploaded(start), dbias = uploaded(start), sum_sq = poisoned(1);
      auto dinp = poisoned(inp.size()), normalized = poisoned(windows_in.size());
      auto stat_mean = poisoned(count(windows, channels)), stat_sigma = poisoned(count(windows, channels));
      gpu::sum_rows_add(rows.data(), d_inp.data(), B, C);
      gpu::layernorm_backward(dinp.data(), dweight.data(), dbias.data(), d_dout.data(), d_inp.data(), d_inp.data(),
                              d_mean.data(), d_rstd.data(), B, C);
      gpu::sum_of_squares(sum_sq.data(), d_inp.data(), long(inp.size()));
      gpu::instance_norm_forward(normalized.data(), stat_mean.data(), stat_sigma.data(), d_windows.data(), windows, L,
                                 channels);
      gpu::synchronize();
      return std::vector<Host>{downloaded(rows),      downloaded(dweight),   downloaded(dbias),
                               downloaded(sum_sq),    downloaded(normalized), downloaded(stat_mean),
                               downloaded(stat_sigma)};
    };
    const std::vector<Host> first = run(), second = run();
    const char* const names[] = {"row sums", "dweight", "dbias", "sum of squares", "instance norm", "mean", "sigma"};
    for (std::size_t i = 0; i < first.size(); ++i) QVERIFY2(same_bits(first[i], second[i]), names[i]);
    // And they are the sums the CPU takes (to float rounding in another order).
    Host rows = start;
    for (int b = 0; b < B; ++b)
      for (int c = 0; c < C; ++c) rows[std::size_t(c)] += inp[count(b, C) + std::size_t(c)];
    check_within("row sums against the CPU", first[0], rows, Bounds{1e-5, 1e-4});
  }

  // The step's and the scan's u and w are compensated sums: a first value of 2^24, then 4095 values
  // of 1, all with score 0. A plain float w would stay at 2^24 (the CPU stream here does) and the
  // last output would be 4096.
  void the_step_and_the_scan_keep_small_terms_beside_a_large_one() {
    const int N = 4096;
    const Host q{0.0f}, k(static_cast<std::size_t>(N), 0.0f);
    Host v(static_cast<std::size_t>(N), 1.0f);
    v[0] = 16777216.0f;
    const StreamRuns runs = run_streams(q, k, v, 1, N, 1, 1, 1.0f);
    const double exact = (16777216.0 + (N - 1)) / N;
    QVERIFY2(std::abs(double(runs.steps.back()) - exact) <= 1e-3, qPrintable(QString::number(runs.steps.back())));
    QVERIFY2(std::abs(double(runs.scan.back()) - exact) <= 1e-3, qPrintable(QString::number(runs.scan.back())));
    QCOMPARE(runs.cpu.back(), 4096.0f);  // the plain float fold loses the ones: the check can fail
  }

  // Scores of -inf (an infinite key entry against a positive query): at the first token of every
  // stream, where the summary is empty, and in the middle of one stream. The GPU's scan and step and
  // the CPU's fold treat them alike: a token of weight 0; the first token's output is 0 / 0 (NaN)
  // in all three.
  void minus_infinity_scores_in_the_scan_and_the_step() {
    const int B = 2, N = 20, C = 8, H = 2, d = C / H;
    const float scale = 1.0f / std::sqrt(float(d));
    Random random(Sizes{B, N, C, H});
    Host q = random.normal(count(C));
    for (float& x : q) x = std::abs(x) + 0.1f;
    Host k = random.normal(count(B, N, C));
    const Host v = random.normal(count(B, N, C));
    const float minus_inf = negative_infinity<float>();
    for (int b = 0; b < B; ++b)
      for (int h = 0; h < H; ++h) k[count(long(b) * N, C) + count(h, d)] = minus_inf;  // token 0, every head
    k[count(long(1) * N + 7, C)] = minus_inf;                                            // stream 1, token 7, head 0

    const StreamRuns runs = run_streams(q, k, v, B, N, C, H, scale);
    QVERIFY(std::isnan(runs.cpu[0]));
    // Tokens of weight 0 change nothing, so the rounding is that of check_prefix_attention_step.
    const Bounds bounds{2e-6, 1e-4};
    check_within("the GPU scan against the CPU", runs.scan, runs.cpu, bounds);
    check_within("the GPU step against the CPU", runs.steps, runs.cpu, bounds);
  }

  // Bad sizes are refused before anything is launched (no buffer is touched); zero rows are a
  // no-op that leaves the outputs as they were.
  void rejects_bad_sizes_and_skips_empty_batches() {
    gpu::DeviceBuffer buffer(64);
    buffer.fill_nan();
    float* x = buffer.data();
    gpu::Blas blas;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpu::layernorm_forward(x, x, x, x, x, x, 4, 0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpu::linear_forward(blas, x, x, x, x, -1, 4, 4));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpu::linear_backward(blas, x, x, x, x, x, x, 2, 4, 0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpu::gelu_forward(x, x, -1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpu::instance_norm_forward(x, x, x, x, 1, 0, 3));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpu::causal_attention_forward(x, x, x, x, x, 1, 4, 6, 4));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpu::causal_attention_decode(x, x, x, x, 1, 5, 4, 4, 1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpu::causal_attention_decode(x, x, x, x, 1, 0, 4, 4, 1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             gpu::prefix_attention_step(x, x, x, x, x, x, x, x, x, 1, 6, 4, 1.0f));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpu::mse_loss(x, x, x, x, 1, 0, 1.0f));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpu::adamw_step(x, x, x, x, x, x, 4, 1e-3f, 0.9f, 0.999f, 1e-8f,
                                                                    0.0f, 0, 0.0f));
    try {
      gpu::layernorm_forward(x, x, x, x, x, x, 4, 0);
      QFAIL("layernorm_forward took C = 0");
    } catch (const std::invalid_argument& e) {
      QCOMPARE(QString::fromStdString(e.what()), QStringLiteral("layernorm_forward: C must be positive, got 0"));
    }

    gpu::linear_forward(blas, x, x, x, x, 0, 4, 4);
    gpu::layernorm_forward(x, x, x, x, x, x, 0, 4);
    gpu::gelu_forward(x, x, 0);
    gpu::causal_attention_forward(x, x, x, x, x, 0, 4, 4, 2);
    gpu::prefix_attention_step(x, x, x, x, x, x, x, x, x, 0, 4, 2, 1.0f);
    gpu::synchronize();
    const Host after = downloaded(buffer);
    QVERIFY(std::all_of(after.begin(), after.end(), [](float value) { return std::isnan(value); }));
  }
};

}  // namespace aaren

QTEST_GUILESS_MAIN(aaren::TestGpuLayers)
#include "tst_gpu_layers.moc"
