// DeviceForecastStream: core/model/forecast_stream.cpp and backbone_stream.cpp on the GPU, one
// token at a time, every layer's state on the device. The host normalizes the input row (C
// numbers) and uploads it; everything else runs there until hidden() or forecast() copies a
// result back.
#include <climits>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/model/parameter_layout.hpp"
#include "core/nn/positional_encoding.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_info.hpp"
#include "gpu/forecast_device.hpp"
#include "gpu/layers.hpp"
#include "gpu/prefix_attention.hpp"

namespace aaren::gpu {

namespace {
std::size_t sz(long n) { return std::size_t(n); }
}  // namespace

struct DeviceForecastStream::Impl {
  Impl(const ModelConfig& config, const float* params, long capacity);
  void aaren_layer(int l);
  void transformer_layer(int l);

  ModelConfig config;
  ParameterLayout layout;
  long capacity;
  long t = 0;
  Blas blas;
  std::vector<float> host_mean, host_sigma;  // (C) the reset statistics
  std::vector<float> host_input;             // (C + D) the normalized row, then a positional encoding row

  DeviceBuffer params;                 // (P)
  DeviceBuffer pe;                     // (capacity, D) positional encoding rows 0..capacity-1
  DeviceBuffer input;                  // (C + D) as host_input
  DeviceBuffer h, ln, branch;          // (D) the residual stream, a LayerNorm's output, a branch's output
  DeviceBuffer ln_stat;                // (2) a LayerNorm's mean and rstd
  DeviceBuffer q, k, v, att;           // (D)
  DeviceBuffer pre, act;               // (F)
  DeviceBuffer query;                  // Aaren: (layers, D) q = Wq q0 + bq of each layer, a constant
  DeviceBuffer m, u, w;                // Aaren: (layers, H), (layers, H), (layers, D)
  DeviceBuffer u_carry, w_carry;       // Aaren: (layers, H), (layers, D) the compensations of u and w
  DeviceBuffer k_cache, v_cache;       // Transformer: (layers, capacity, D)
  DeviceBuffer mean, sigma;            // (C) the reset statistics, for the forecast's denormalization
  DeviceBuffer head, y;                // (horizon, C)
};

DeviceForecastStream::Impl::Impl(const ModelConfig& c, const float* host_params, long tokens)
    : config(c), layout(c), capacity(tokens), host_mean(sz(c.channels), 0.0f), host_sigma(sz(c.channels), 1.0f),
      host_input(sz(long(c.channels) + c.d_model), 0.0f), params(layout.total()),
      pe(sz(tokens * c.d_model)), input(sz(long(c.channels) + c.d_model)), h(sz(c.d_model)), ln(sz(c.d_model)),
      branch(sz(c.d_model)), ln_stat(2), q(sz(c.d_model)), k(sz(c.d_model)), v(sz(c.d_model)), att(sz(c.d_model)),
      pre(sz(c.d_ff)), act(sz(c.d_ff)), mean(sz(c.channels)), sigma(sz(c.channels)),
      head(sz(long(c.horizon) * c.channels)), y(sz(long(c.horizon) * c.channels)) {
  const int D = c.d_model;
  params.upload(host_params);
  std::vector<float> table(sz(capacity * D));
  positional_encoding(table.data(), int(capacity), D);
  pe.upload(table.data());
  if (c.kind == ModelKind::aaren) {
    query = DeviceBuffer(sz(long(c.layers) * D));
    m = DeviceBuffer(sz(long(c.layers) * c.heads));
    u = DeviceBuffer(sz(long(c.layers) * c.heads));
    w = DeviceBuffer(sz(long(c.layers) * D));
    u_carry = DeviceBuffer(sz(long(c.layers) * c.heads));
    w_carry = DeviceBuffer(sz(long(c.layers) * D));
    const float* p = params.data();
    for (int l = 0; l < c.layers; ++l) {
      const BlockOffsets& b = layout.blocks[sz(l)];
      linear_forward(blas, query.data() + sz(l) * sz(D), p + b.q0, p + b.wq_w, p + b.wq_b, 1, D, D);
    }
  } else {
    k_cache = DeviceBuffer(sz(long(c.layers) * capacity * D));
    v_cache = DeviceBuffer(sz(long(c.layers) * capacity * D));
  }
}

// One new token folded into each head's (m, u, w): the recurrent cell of docs/DESIGN.md section 3.
void DeviceForecastStream::Impl::aaren_layer(int l) {
  const int D = config.d_model, H = config.heads;
  const BlockOffsets& b = layout.blocks[sz(l)];
  const float* p = params.data();
  linear_forward(blas, k.data(), ln.data(), p + b.wk_w, p + b.wk_b, 1, D, D);
  linear_forward(blas, v.data(), ln.data(), p + b.wv_w, p + b.wv_b, 1, D, D);
  const float scale = 1.0f / std::sqrt(float(D / H));
  prefix_attention_step(att.data(), m.data() + sz(l) * sz(H), u.data() + sz(l) * sz(H),
                        u_carry.data() + sz(l) * sz(H), w.data() + sz(l) * sz(D), w_carry.data() + sz(l) * sz(D),
                        query.data() + sz(l) * sz(D), k.data(), v.data(), 1, D, H, scale);
}

// The new token's k and v are written straight into row t of the layer's caches.
void DeviceForecastStream::Impl::transformer_layer(int l) {
  const int D = config.d_model;
  const BlockOffsets& b = layout.blocks[sz(l)];
  const float* p = params.data();
  const std::size_t layer_cache = sz(capacity * D), row = sz(t * D);
  float* kc = k_cache.data() + sz(l) * layer_cache;
  float* vc = v_cache.data() + sz(l) * layer_cache;
  linear_forward(blas, q.data(), ln.data(), p + b.wq_w, p + b.wq_b, 1, D, D);
  linear_forward(blas, kc + row, ln.data(), p + b.wk_w, p + b.wk_b, 1, D, D);
  linear_forward(blas, vc + row, ln.data(), p + b.wv_w, p + b.wv_b, 1, D, D);
  causal_attention_decode(att.data(), q.data(), kc, vc, 1, int(t + 1), int(capacity), D, config.heads);
}

DeviceForecastStream::DeviceForecastStream(const ModelConfig& config, const float* params, long capacity) {
  if (const std::string reason = cpu_only_reason(config); !reason.empty()) throw std::invalid_argument(reason);
  if (!query_device().available) throw_unavailable();
  config.validate();
  if (capacity < 1 || capacity > INT_MAX)
    throw std::invalid_argument("a stream's capacity must be 1 to " + std::to_string(INT_MAX) + " tokens, not " +
                                std::to_string(capacity));
  if (config.kind == ModelKind::aaren && config.d_head() > kMaxHeadDim)
    throw std::invalid_argument("the GPU's Aaren scan takes heads of at most " + std::to_string(kMaxHeadDim) +
                                " dimensions, but d_model / heads is " + std::to_string(config.d_head()));
  impl_ = std::make_unique<Impl>(config, params, capacity);
  reset();
}

DeviceForecastStream::~DeviceForecastStream() = default;

void DeviceForecastStream::reset(const float* mean, const float* sigma) {
  Impl& s = *impl_;
  const std::size_t c = sz(s.config.channels);
  s.host_mean.assign(c, 0.0f);
  s.host_sigma.assign(c, 1.0f);
  if (mean) s.host_mean.assign(mean, mean + c);
  if (sigma) s.host_sigma.assign(sigma, sigma + c);
  s.mean.upload(s.host_mean.data());
  s.sigma.upload(s.host_sigma.data());
  s.t = 0;
  s.h.zero();
  if (s.config.kind == ModelKind::aaren)
    prefix_attention_reset(s.m.data(), s.u.data(), s.u_carry.data(), s.w.data(), s.w_carry.data(), s.config.layers,
                           s.config.d_model, s.config.heads);
}

void DeviceForecastStream::step(const float* x) {
  Impl& s = *impl_;
  const ModelConfig& c = s.config;
  const int C = c.channels, D = c.d_model;
  if (c.kind == ModelKind::transformer && s.t >= s.capacity)
    throw std::runtime_error("the Transformer's KV cache on the GPU is full: it holds " + std::to_string(s.capacity) +
                             " tokens; reset() starts a new sequence, or make the stream with a larger capacity");
  for (int j = 0; j < C; ++j)
    s.host_input[sz(j)] = (x[j] - s.host_mean[sz(j)]) / s.host_sigma[sz(j)];
  // Aaren streams past the table: its positional encoding row travels with the input row.
  const float* pe_row = s.pe.data() + sz(s.t * D);
  std::size_t upload = sz(C);
  if (s.t >= s.capacity) {
    positional_encoding_row(s.host_input.data() + C, s.t, D);
    pe_row = s.input.data() + C;
    upload += sz(D);
  }
  s.input.upload(s.host_input.data(), upload);
  const float* p = s.params.data();
  linear_forward(s.blas, s.h.data(), s.input.data(), p + s.layout.embed_w, p + s.layout.embed_b, 1, C, D);
  add(s.h.data(), s.h.data(), pe_row, D);
  for (int l = 0; l < c.layers; ++l) {
    const BlockOffsets& b = s.layout.blocks[sz(l)];
    layernorm_forward(s.ln.data(), s.ln_stat.data(), s.ln_stat.data() + 1, s.h.data(), p + b.ln1_w, p + b.ln1_b, 1,
                      D);
    if (c.kind == ModelKind::aaren)
      s.aaren_layer(l);
    else
      s.transformer_layer(l);
    linear_forward(s.blas, s.branch.data(), s.att.data(), p + b.wo_w, p + b.wo_b, 1, D, D);
    add(s.h.data(), s.h.data(), s.branch.data(), D);
    layernorm_forward(s.ln.data(), s.ln_stat.data(), s.ln_stat.data() + 1, s.h.data(), p + b.ln2_w, p + b.ln2_b, 1,
                      D);
    linear_forward(s.blas, s.pre.data(), s.ln.data(), p + b.fc1_w, p + b.fc1_b, 1, D, c.d_ff);
    gelu_forward(s.act.data(), s.pre.data(), c.d_ff);
    linear_forward(s.blas, s.branch.data(), s.act.data(), p + b.fc2_w, p + b.fc2_b, 1, c.d_ff, D);
    add(s.h.data(), s.h.data(), s.branch.data(), D);
  }
  ++s.t;
}

void DeviceForecastStream::hidden(float* out) const { impl_->h.download(out); }

void DeviceForecastStream::forecast(float* y) {
  Impl& s = *impl_;
  const ModelConfig& c = s.config;
  const int D = c.d_model, C = c.channels;
  const float* p = s.params.data();
  layernorm_forward(s.ln.data(), s.ln_stat.data(), s.ln_stat.data() + 1, s.h.data(), p + s.layout.lnf_w,
                    p + s.layout.lnf_b, 1, D);
  linear_forward(s.blas, s.head.data(), s.ln.data(), p + s.layout.head_w, p + s.layout.head_b, 1, D, c.horizon * C);
  instance_denorm_forward(s.y.data(), s.head.data(), s.mean.data(), s.sigma.data(), 1, c.horizon, C);
  s.y.download(y);
}

long DeviceForecastStream::tokens() const { return impl_->t; }

}  // namespace aaren::gpu
