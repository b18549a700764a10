// The GPU layers of both models (gpu/layers.hpp) against their CPU references (core/nn/*, the glue
// of core/model/*, core/scan/state.hpp's fold, core/train/adamw.hpp), in the manner of ggml's
// test-backend-ops: one table of (layer, sizes) rows, each running the GPU function and its CPU
// twin, in float, on the same random inputs. The sizes are awkward on purpose: one row, one token,
// odd counts, widths that are not a multiple of a warp, several chunks of a block, and a large case.
// Every output buffer is filled with NaN first, so an element a kernel fails to write fails; an
// accumulating output (+=) starts from the same random values on both sides, so a kernel that
// overwrites it fails too. Skips when no CUDA device can be used.
//
// Error measure: max_i |gpu_i - cpu_i| / max(max_i |cpu_i|, floor) over one whole output tensor,
// infinite when any GPU element is not finite; it must stay below 1e-4 (float rounding in a
// different summation order). The floor is 1e-30 except where the exact result can vanish while its
// terms do not, and both sides then hold only rounding noise: LayerNorm's input gradient is 0 for
// C <= 2 (floor: its terms' size, max |dout weight| rstd), and attention's dq and dk are 0 for
// L = 1, a softmax over one key (floor: the size of the value gradient, max |dv|).
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/model/forecast_model.hpp"
#include "core/model/model_config.hpp"
#include "core/model/parameter_layout.hpp"
#include "core/nn/causal_attention.hpp"
#include "core/nn/gelu.hpp"
#include "core/nn/instance_norm.hpp"
#include "core/nn/layernorm.hpp"
#include "core/nn/linear.hpp"
#include "core/scan/state.hpp"
#include "core/train/adamw.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_info.hpp"
#include "gpu/layers.hpp"
#include "gpu/prefix_attention.hpp"
#include "support/device_buffers.hpp"

namespace aaren {

namespace {

constexpr double kTolerance = 1e-4;

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

double relative_error(const Host& got, const Host& want, double floor = 1e-30) {
  if (got.size() != want.size()) return std::numeric_limits<double>::infinity();
  double worst = 0, largest = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!std::isfinite(got[i])) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, std::abs(double(got[i]) - double(want[i])));
    largest = std::max(largest, std::abs(double(want[i])));
  }
  return worst / std::max(largest, floor);
}

#define CHECK_CLOSE_ABOVE(name, got, want, floor)                                                          \
  do {                                                                                                     \
    const double error = relative_error(got, want, floor);                                                 \
    QVERIFY2(error < kTolerance, qPrintable(QStringLiteral("%1: relative error %2").arg(name).arg(error))); \
  } while (false)
#define CHECK_CLOSE(name, got, want) CHECK_CLOSE_ABOVE(name, got, want, 1e-30)

// The linear layer; L = 0, X = OC. with_bias and with_dinp pick the variant.
void check_linear_variant(const Sizes& s, bool with_bias, bool with_dinp) {
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
  CHECK_CLOSE("out", downloaded(d_out), out);
  CHECK_CLOSE("dweight", downloaded(d_dweight), dweight);
  if (with_dinp) CHECK_CLOSE("dinp", downloaded(d_dinp), dinp);
  if (with_bias) CHECK_CLOSE("dbias", downloaded(d_dbias), dbias);
}

void check_linear(const Sizes& s) { check_linear_variant(s, true, true); }
void check_linear_without_bias(const Sizes& s) { check_linear_variant(s, false, true); }
void check_linear_without_dinp(const Sizes& s) { check_linear_variant(s, true, false); }

// (B, C) rows.
void check_layernorm(const Sizes& s) {
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
  CHECK_CLOSE("out", downloaded(d_out), out);
  CHECK_CLOSE("mean", downloaded(d_mean), mean);
  CHECK_CLOSE("rstd", downloaded(d_rstd), rstd);
  double term_scale = 0;
  for (int b = 0; b < B; ++b)
    for (int c = 0; c < C; ++c)
      term_scale = std::max(term_scale, std::abs(double(dout[count(b, C) + std::size_t(c)]) * weight[std::size_t(c)] *
                                                 rstd[std::size_t(b)]));
  CHECK_CLOSE_ABOVE("dinp", downloaded(d_dinp), dinp, term_scale);
  CHECK_CLOSE("dweight", downloaded(d_dweight), dweight);
  CHECK_CLOSE("dbias", downloaded(d_dbias), dbias);
}

// N = B C elements. The backward also runs in place (dinp = dout), as the FFN runs it.
void check_gelu(const Sizes& s) {
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
  CHECK_CLOSE("out", downloaded(d_out), out);
  CHECK_CLOSE("dinp", downloaded(d_dinp), dinp);
  CHECK_CLOSE("dinp in place", downloaded(d_in_place), dinp);
}

// N = B C elements; also in place (out = a), as the residual connections run it.
void check_add(const Sizes& s) {
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
  CHECK_CLOSE("out", downloaded(d_out), sum);
  CHECK_CLOSE("out in place", downloaded(d_in_place), sum);
}

// (B, C): a row broadcast to B rows, and the gradient of that, the sum of B rows added to a row.
void check_broadcast_rows(const Sizes& s) {
  const int B = s.B, C = s.C;
  Random random(s);
  const Host row = random.normal(count(C));
  Host out(count(B, C));
  for (int b = 0; b < B; ++b) std::copy(row.begin(), row.end(), out.begin() + long(b) * C);
  const auto d_row = uploaded(row);
  auto d_out = poisoned(out.size());
  gpu::broadcast_rows(d_out.data(), d_row.data(), B, C);
  gpu::synchronize();
  CHECK_CLOSE("out", downloaded(d_out), out);
}

void check_sum_rows_add(const Sizes& s) {
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
  CHECK_CLOSE("out", downloaded(d_out), out);
}

// (B, L, D = C): the positional table added to every window, and the last token's gather and
// scatter.
void check_add_to_each(const Sizes& s) {
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
  CHECK_CLOSE("x", downloaded(d_x), want);
}

void check_gather_scatter_last(const Sizes& s) {
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
  CHECK_CLOSE("out", downloaded(d_out), out);
  CHECK_CLOSE("dx", downloaded(d_dx), dx);
}

// (B, L, C) windows normalized; (B, H = L, C) forecasts mapped back, and that map's gradient.
void check_instance_norm(const Sizes& s) {
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
  CHECK_CLOSE("out", downloaded(d_out), out);
  CHECK_CLOSE("mean", downloaded(d_mean), mean);
  CHECK_CLOSE("sigma", downloaded(d_sigma), sigma);
}

void check_instance_denorm(const Sizes& s) {
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
  CHECK_CLOSE("out", downloaded(d_out), out);
  CHECK_CLOSE("dinp", downloaded(d_dinp), dinp);
}

// B rows of n = C values; the gradient of grad_weight * sum_b loss[b], and the loss alone.
void check_mse_loss(const Sizes& s) {
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
  CHECK_CLOSE("loss", downloaded(d_loss), loss);
  CHECK_CLOSE("dy", downloaded(d_dy), dy);
  CHECK_CLOSE("loss without dy", downloaded(d_loss_only), loss);
}

// (B, L, C) with X = H heads: forward, backward (from the CPU's probs), and the decode of a few
// positions t from a KV cache with room for more tokens, its rows after t NaN so that reading them
// would show.
void check_causal_attention(const Sizes& s) {
  const int B = s.B, L = s.L, C = s.C, H = s.X;
  Random random(s);
  const Host q = random.normal(count(B, L, C)), k = random.normal(count(B, L, C)), v = random.normal(count(B, L, C));
  const Host dout = random.normal(count(B, L, C));
  Host out(q.size()), probs(count(B, H, L, L)), dq(q.size()), dk(q.size()), dv(q.size()), scratch(count(L));
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
  CHECK_CLOSE("out", gpu_out, out);
  CHECK_CLOSE("probs", downloaded(d_probs), probs);
  double value_grad_scale = 0;
  for (const float g : dv) value_grad_scale = std::max(value_grad_scale, std::abs(double(g)));
  CHECK_CLOSE_ABOVE("dq", downloaded(d_dq), dq, value_grad_scale);
  CHECK_CLOSE_ABOVE("dk", downloaded(d_dk), dk, value_grad_scale);
  CHECK_CLOSE("dv", downloaded(d_dv), dv);

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
    CHECK_CLOSE(QStringLiteral("decode of token %1 against the GPU forward").arg(t), decoded, gpu_forward_row);
    CHECK_CLOSE(QStringLiteral("decode of token %1 against the CPU forward").arg(t), decoded, forward_row);
  }
}

// B streams of L tokens, width C, X = H heads, one query shared by the streams (scaled up, so the
// running maximum moves often): the step, token after token, gives the rows of the GPU scan
// (gpu/prefix_attention_forward) and of the CPU stream (fold_token), and the same final states.
void check_prefix_attention_step(const Sizes& s) {
  const int B = s.B, N = s.L, C = s.C, H = s.X, d = C / H;
  const float scale = 1.0f / std::sqrt(float(d));
  Random random(s);
  const Host q = random.normal(count(C), 4.0f);
  const Host k = random.normal(count(B, N, C)), v = random.normal(count(B, N, C));  // (B, N, C)

  Host stream_out(count(N, B, C)), m(count(B, H), negative_infinity<float>()), u(count(B, H), 0.0f);
  Host w(count(B, C), 0.0f);
  for (int t = 0; t < N; ++t)
    for (int b = 0; b < B; ++b)
      for (int h = 0; h < H; ++h) {
        const std::size_t column = count(h, d), token = count(long(b) * N + t, C) + column;
        const std::size_t state = count(b, H) + std::size_t(h);
        float dot = 0;
        for (int j = 0; j < d; ++j) dot += q[column + std::size_t(j)] * k[token + std::size_t(j)];
        float* w_head = w.data() + count(b, C) + column;
        fold_token(m[state], u[state], w_head, scale * dot, v.data() + token, d);
        for (int j = 0; j < d; ++j)
          stream_out[count(long(t) * B + b, C) + column + std::size_t(j)] = w_head[j] / u[state];
      }

  // The scan takes one query per (stream, head) and (B, N, C) rows; the step takes (B, C) rows.
  Host q_per_stream(count(B, C)), k_steps(k.size()), v_steps(v.size());
  for (int b = 0; b < B; ++b) {
    std::copy(q.begin(), q.end(), q_per_stream.begin() + long(count(b, C)));
    for (int t = 0; t < N; ++t) {
      std::copy_n(k.begin() + long(count(long(b) * N + t, C)), C, k_steps.begin() + long(count(long(t) * B + b, C)));
      std::copy_n(v.begin() + long(count(long(b) * N + t, C)), C, v_steps.begin() + long(count(long(t) * B + b, C)));
    }
  }
  const auto d_q = uploaded(q), d_q_per_stream = uploaded(q_per_stream), d_k = uploaded(k), d_v = uploaded(v);
  const auto d_k_steps = uploaded(k_steps), d_v_steps = uploaded(v_steps);
  auto d_scan = poisoned(k.size());
  gpu::prefix_attention_forward(d_scan.data(), nullptr, d_q_per_stream.data(), d_k.data(), d_v.data(), B, N, H, d,
                                scale);
  auto d_m = poisoned(m.size()), d_u = poisoned(u.size()), d_w = poisoned(w.size());
  auto d_steps = poisoned(stream_out.size());
  gpu::prefix_attention_reset(d_m.data(), d_u.data(), d_w.data(), B, C, H);
  for (int t = 0; t < N; ++t)
    gpu::prefix_attention_step(d_steps.data() + count(t, B, C), d_m.data(), d_u.data(), d_w.data(), d_q.data(),
                               d_k_steps.data() + count(t, B, C), d_v_steps.data() + count(t, B, C), B, C, H, scale);
  gpu::synchronize();

  const Host scan = downloaded(d_scan);
  Host scan_by_step(scan.size());
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < N; ++t)
      std::copy_n(scan.begin() + long(count(long(b) * N + t, C)), C,
                  scan_by_step.begin() + long(count(long(t) * B + b, C)));
  const Host steps = downloaded(d_steps);
  CHECK_CLOSE("steps against the GPU scan", steps, scan_by_step);
  CHECK_CLOSE("steps against the CPU stream", steps, stream_out);
  CHECK_CLOSE("m", downloaded(d_m), m);
  CHECK_CLOSE("u", downloaded(d_u), u);
  CHECK_CLOSE("w", downloaded(d_w), w);
}

// AdamW over B steps of random gradients on a small model's parameter layout, clipped to a norm
// of `clip` (0: not clipped), against AdamW::step after clip_grad_norm. The parameters' change
// since the start is compared, so the error measure sees the updates rather than the weights.
void check_adamw_steps(const Sizes& s, float clip) {
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
    CHECK_CLOSE(QStringLiteral("sum of squares, step %1").arg(t), downloaded(d_sum_sq), Host{float(norm * norm)});
    if (clip > 0) QVERIFY2(norm > clip, "the clipping case must clip");
    Host gpu_change = downloaded(d_params), cpu_change = params;
    for (std::size_t i = 0; i < n; ++i) {
      gpu_change[i] -= start[i];
      cpu_change[i] -= start[i];
    }
    CHECK_CLOSE(QStringLiteral("parameter change after step %1").arg(t), gpu_change, cpu_change);
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
    const gpu::DeviceInfo info = gpu::query_device();
    if (!info.available)
      QSKIP(qPrintable(QStringLiteral("no CUDA device: %1").arg(QString::fromStdString(info.reason))));
    qInfo("testing on %s", gpu::describe(info).c_str());
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
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpu::prefix_attention_step(x, x, x, x, x, x, x, 1, 6, 4, 1.0f));
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
    gpu::prefix_attention_step(x, x, x, x, x, x, x, 0, 4, 2, 1.0f);
    gpu::synchronize();
    const Host after = downloaded(buffer);
    QVERIFY(std::all_of(after.begin(), after.end(), [](float value) { return std::isnan(value); }));
  }
};

}  // namespace aaren

QTEST_GUILESS_MAIN(aaren::TestGpuLayers)
#include "tst_gpu_layers.moc"
