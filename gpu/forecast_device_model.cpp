// DeviceForecastModel: core/model/forecast_model.cpp, backbone.cpp and mixer.cpp for a batch of
// windows at once, every step a call of gpu/layers.hpp or gpu/prefix_attention.hpp. The functions
// below follow the CPU code's order line by line; where the CPU runs over the L tokens of one
// window, the GPU runs over the B L tokens of the batch (rows of (B, L, D) matrices), and where the
// CPU handles the last token, the GPU handles B rows (one per window).
//
// Activations are stored per layer like BackboneState, each layer's slice sized for max_batch
// windows, so a smaller batch uses the first rows of every slice.
#include <algorithm>
#include <cmath>
#include <cstdio>
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

std::string gibibytes(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", double(bytes) / double(1ull << 30));
  return text;
}
}  // namespace

struct DeviceForecastModel::Impl {
  Impl(const ModelConfig& config, int max_batch);

  // Calls visit(member, floats) for every buffer the model allocates, so the constructor and
  // device_bytes cannot disagree. Kind-specific buffers are visited only for their kind.
  template <class Visit>
  static void each_buffer(const ModelConfig& config, int max_batch, Visit&& visit);

  void check_batch(int batch) const;
  void upload_batch(const float* x, const float* truth, int batch);
  void forward(int batch);
  void mixer_forward(int l, int batch);
  void enqueue_loss(int batch, bool backward);
  void backward(int batch);
  void mixer_backward(int l, int batch);
  void enqueue_optimizer_step(double lr, const AdamWSettings& adamw, double clip_norm);
  // Downloads the squared gradient norm (when asked) and the batch's losses in one copy.
  StepReport collect(int batch, bool norm);

  ModelConfig config;
  ParameterLayout layout;
  int max_batch;
  long optimizer_steps = 0;
  Blas blas;
  std::vector<float> host_results;  // (1 + max_batch) the last download of `results`

  // Parameters and the optimizer, each (P), P = layout.total().
  DeviceBuffer params, grads, adam_m, adam_v, decay;
  // The batch as uploaded: (B, L, C) and (B, horizon, C).
  DeviceBuffer x, truth;
  DeviceBuffer pe;                                     // (L, D)
  DeviceBuffer xn, in_mean, in_sigma;                  // (B, L, C), (B, C), (B, C)
  DeviceBuffer h;                                      // (layers + 1, B, L, D) the residual stream
  DeviceBuffer ln1, ln1_mean, ln1_rstd;                // (layers, B, L, D), (layers, B, L), (layers, B, L)
  DeviceBuffer query;                                  // Aaren: (layers, D); Transformer: (layers, B, L, D)
  DeviceBuffer query_rows;                             // Aaren: (B, D) one layer's query, once per window
  DeviceBuffer k, v, att;                              // (layers, B, L, D)
  DeviceBuffer log_z;                                  // Aaren: (layers, B, H, L)
  DeviceBuffer probs;                                  // Transformer: (layers, B, H, L, L)
  DeviceBuffer h_mid;                                  // (layers, B, L, D)
  DeviceBuffer ln2, ln2_mean, ln2_rstd;                // (layers, B, L, D), (layers, B, L), (layers, B, L)
  DeviceBuffer ffn_pre, ffn_act;                       // (layers, B, L, F)
  DeviceBuffer branch;                                 // (B, L, D) a block branch's output before it is added
  DeviceBuffer last, lnf, lnf_mean, lnf_rstd;          // (B, D), (B, D), (B), (B)
  DeviceBuffer head_out, y;                            // (B, horizon, C)
  DeviceBuffer results;                                // (1 + B): squared gradient norm, then each window's MSE
  // The backward's scratch (BackwardScratch, BackboneScratch and MixerScratch for B windows).
  DeviceBuffer dy, dhead;                              // (B, horizon, C)
  DeviceBuffer dlnf, dlast;                            // (B, D)
  DeviceBuffer dh, dbranch, dln;                       // (B, L, D)
  DeviceBuffer dffn_act;                               // (B, L, F)
  DeviceBuffer datt, dk, dv, dx;                       // (B, L, D)
  DeviceBuffer dq;                                     // Aaren: (B, D); Transformer: (B, L, D)
  DeviceBuffer dq_sum, dq0;                            // Aaren: (D), (D)
};

template <class Visit>
void DeviceForecastModel::Impl::each_buffer(const ModelConfig& c, int max_batch, Visit&& visit) {
  const std::size_t P = ParameterLayout(c).total();
  const std::size_t B = sz(max_batch), L = sz(c.seq_len), D = sz(c.d_model), C = sz(c.channels);
  const std::size_t F = sz(c.d_ff), H = sz(c.heads), layers = sz(c.layers), out = sz(c.horizon) * C;
  const std::size_t rows = B * L;  // tokens of a full batch
  const bool aaren = c.kind == ModelKind::aaren;
  for (auto member : {&Impl::params, &Impl::grads, &Impl::adam_m, &Impl::adam_v, &Impl::decay}) visit(member, P);
  visit(&Impl::x, rows * C);
  visit(&Impl::truth, B * out);
  visit(&Impl::pe, L * D);
  visit(&Impl::xn, rows * C);
  visit(&Impl::in_mean, B * C);
  visit(&Impl::in_sigma, B * C);
  visit(&Impl::h, (layers + 1) * rows * D);
  for (auto member : {&Impl::ln1, &Impl::k, &Impl::v, &Impl::att, &Impl::h_mid, &Impl::ln2})
    visit(member, layers * rows * D);
  for (auto member : {&Impl::ln1_mean, &Impl::ln1_rstd, &Impl::ln2_mean, &Impl::ln2_rstd})
    visit(member, layers * rows);
  if (aaren) {
    visit(&Impl::query, layers * D);
    visit(&Impl::query_rows, B * D);
    visit(&Impl::log_z, layers * B * H * L);
  } else {
    visit(&Impl::query, layers * rows * D);
    visit(&Impl::probs, layers * B * H * L * L);
  }
  visit(&Impl::ffn_pre, layers * rows * F);
  visit(&Impl::ffn_act, layers * rows * F);
  visit(&Impl::branch, rows * D);
  visit(&Impl::last, B * D);
  visit(&Impl::lnf, B * D);
  visit(&Impl::lnf_mean, B);
  visit(&Impl::lnf_rstd, B);
  visit(&Impl::head_out, B * out);
  visit(&Impl::y, B * out);
  visit(&Impl::results, 1 + B);
  visit(&Impl::dy, B * out);
  visit(&Impl::dhead, B * out);
  visit(&Impl::dlnf, B * D);
  visit(&Impl::dlast, B * D);
  for (auto member : {&Impl::dh, &Impl::dbranch, &Impl::dln, &Impl::datt, &Impl::dk, &Impl::dv, &Impl::dx})
    visit(member, rows * D);
  visit(&Impl::dffn_act, rows * F);
  if (aaren) {
    visit(&Impl::dq, B * D);
    visit(&Impl::dq_sum, D);
    visit(&Impl::dq0, D);
  } else {
    visit(&Impl::dq, rows * D);
  }
}

DeviceForecastModel::Impl::Impl(const ModelConfig& c, int batch)
    : config(c), layout(c), max_batch(batch), host_results(sz(batch) + 1, 0.0f) {
  each_buffer(c, batch,
              [this](DeviceBuffer Impl::*member, std::size_t floats) { this->*member = DeviceBuffer(floats); });
  std::vector<float> host(sz(long(c.seq_len) * c.d_model));
  positional_encoding(host.data(), c.seq_len, c.d_model);
  pe.upload(host.data());
  // AdamW decays the entries of two or more dimensions, as core/train/adamw.cpp does.
  host.assign(layout.total(), 0.0f);
  for (const ParameterEntry& e : layout.entries())
    if (e.shape.size() >= 2) std::fill(host.begin() + long(e.offset), host.begin() + long(e.offset + e.size), 1.0f);
  decay.upload(host.data());
  params.zero();
  grads.zero();  // so get_grads or optimizer_step before the first backward reads zeros, not garbage
  adam_m.zero();
  adam_v.zero();
}

void DeviceForecastModel::Impl::check_batch(int batch) const {
  if (batch < 1 || batch > max_batch)
    throw std::invalid_argument("a batch of " + std::to_string(batch) +
                                " windows does not fit this GPU model, sized for 1 to " + std::to_string(max_batch));
}

void DeviceForecastModel::Impl::upload_batch(const float* x_host, const float* truth_host, int batch) {
  check_batch(batch);
  x.upload(x_host, sz(long(batch) * config.seq_len * config.channels));
  if (truth_host) truth.upload(truth_host, sz(long(batch) * config.horizon * config.channels));
}

// forecast_forward and backbone_forward over `batch` windows.
void DeviceForecastModel::Impl::forward(int batch) {
  const ModelConfig& c = config;
  const int L = c.seq_len, D = c.d_model, C = c.channels, F = c.d_ff, rows = batch * L;
  const float* p = params.data();
  const std::size_t stride_d = sz(long(max_batch) * L * D), stride_f = sz(long(max_batch) * L * F);
  const std::size_t stride_stat = sz(long(max_batch) * L);
  instance_norm_forward(xn.data(), in_mean.data(), in_sigma.data(), x.data(), batch, L, C);
  float* h0 = h.data();
  linear_forward(blas, h0, xn.data(), p + layout.embed_w, p + layout.embed_b, rows, C, D);
  add_to_each(h0, pe.data(), batch, long(L) * D);
  for (int l = 0; l < c.layers; ++l) {
    const BlockOffsets& b = layout.blocks[sz(l)];
    const float* h_in = h.data() + sz(l) * stride_d;
    float* ln1_l = ln1.data() + sz(l) * stride_d;
    float* h_mid_l = h_mid.data() + sz(l) * stride_d;
    float* ln2_l = ln2.data() + sz(l) * stride_d;
    float* h_out = h.data() + sz(l + 1) * stride_d;
    layernorm_forward(ln1_l, ln1_mean.data() + sz(l) * stride_stat, ln1_rstd.data() + sz(l) * stride_stat, h_in,
                      p + b.ln1_w, p + b.ln1_b, rows, D);
    mixer_forward(l, batch);
    add(h_mid_l, h_in, branch.data(), long(rows) * D);
    layernorm_forward(ln2_l, ln2_mean.data() + sz(l) * stride_stat, ln2_rstd.data() + sz(l) * stride_stat, h_mid_l,
                      p + b.ln2_w, p + b.ln2_b, rows, D);
    // ffn_forward: fc2(GELU(fc1(x))).
    float* pre = ffn_pre.data() + sz(l) * stride_f;
    float* act = ffn_act.data() + sz(l) * stride_f;
    linear_forward(blas, pre, ln2_l, p + b.fc1_w, p + b.fc1_b, rows, D, F);
    gelu_forward(act, pre, long(rows) * F);
    linear_forward(blas, branch.data(), act, p + b.fc2_w, p + b.fc2_b, rows, F, D);
    add(h_out, h_mid_l, branch.data(), long(rows) * D);
  }
  // Only each window's last token feeds the head.
  gather_last(last.data(), h.data() + sz(c.layers) * stride_d, batch, L, D);
  layernorm_forward(lnf.data(), lnf_mean.data(), lnf_rstd.data(), last.data(), p + layout.lnf_w, p + layout.lnf_b,
                    batch, D);
  linear_forward(blas, head_out.data(), lnf.data(), p + layout.head_w, p + layout.head_b, batch, D,
                 c.horizon * C);
  instance_denorm_forward(y.data(), head_out.data(), in_mean.data(), in_sigma.data(), batch, c.horizon, C);
}

// mixer_forward of layer l: reads ln1 of the layer, writes `branch`.
void DeviceForecastModel::Impl::mixer_forward(int l, int batch) {
  const ModelConfig& c = config;
  const int L = c.seq_len, D = c.d_model, H = c.heads, rows = batch * L;
  const BlockOffsets& b = layout.blocks[sz(l)];
  const float* p = params.data();
  const std::size_t stride_d = sz(long(max_batch) * L * D);
  const float* x_l = ln1.data() + sz(l) * stride_d;
  float* k_l = k.data() + sz(l) * stride_d;
  float* v_l = v.data() + sz(l) * stride_d;
  float* att_l = att.data() + sz(l) * stride_d;
  linear_forward(blas, k_l, x_l, p + b.wk_w, p + b.wk_b, rows, D, D);
  linear_forward(blas, v_l, x_l, p + b.wv_w, p + b.wv_b, rows, D, D);
  if (c.kind == ModelKind::aaren) {
    const int d_head = D / H;
    const float scale = 1.0f / std::sqrt(float(d_head));
    // The query is one vector per layer, the same for every window: projected once, then repeated
    // as the (B, H, d) query the batched scan takes.
    float* q_l = query.data() + sz(l) * sz(D);
    linear_forward(blas, q_l, p + b.q0, p + b.wq_w, p + b.wq_b, 1, D, D);
    broadcast_rows(query_rows.data(), q_l, batch, D);
    prefix_attention_forward(att_l, log_z.data() + sz(l) * sz(long(max_batch) * H * L), query_rows.data(), k_l, v_l,
                             batch, L, H, d_head, scale);
  } else {
    float* q_l = query.data() + sz(l) * stride_d;
    linear_forward(blas, q_l, x_l, p + b.wq_w, p + b.wq_b, rows, D, D);
    causal_attention_forward(att_l, probs.data() + sz(l) * sz(long(max_batch) * H * L * L), q_l, k_l, v_l, batch,
                             L, D, H);
  }
  linear_forward(blas, branch.data(), att_l, p + b.wo_w, p + b.wo_b, rows, D, D);
}

// The forward, each window's MSE into results[1 + b], and with `backward` the gradient of their
// mean (the Trainer's objective: grad_weight 1 / B) in `grads`.
void DeviceForecastModel::Impl::enqueue_loss(int batch, bool with_backward) {
  forward(batch);
  const int values = config.horizon * config.channels;
  mse_loss(results.data() + 1, with_backward ? dy.data() : nullptr, y.data(), truth.data(), batch, values,
           1.0f / float(batch));
  if (!with_backward) return;
  grads.zero();
  backward(batch);
}

// forecast_backward and backbone_backward over `batch` windows, from dy.
void DeviceForecastModel::Impl::backward(int batch) {
  const ModelConfig& c = config;
  const int L = c.seq_len, D = c.d_model, C = c.channels, F = c.d_ff, rows = batch * L;
  const float* p = params.data();
  float* g = grads.data();
  const std::size_t stride_d = sz(long(max_batch) * L * D), stride_f = sz(long(max_batch) * L * F);
  const std::size_t stride_stat = sz(long(max_batch) * L);
  const long nd = long(rows) * D;
  instance_denorm_backward(dhead.data(), dy.data(), in_sigma.data(), batch, c.horizon, C);
  linear_backward(blas, dlnf.data(), g + layout.head_w, g + layout.head_b, dhead.data(), lnf.data(),
                  p + layout.head_w, batch, D, c.horizon * C);
  layernorm_backward(dlast.data(), g + layout.lnf_w, g + layout.lnf_b, dlnf.data(), last.data(), p + layout.lnf_w,
                     lnf_mean.data(), lnf_rstd.data(), batch, D);
  // Only the last tokens feed the head: the gradient of the other positions starts at zero.
  scatter_last(dh.data(), dlast.data(), batch, L, D);
  for (int l = c.layers - 1; l >= 0; --l) {
    const BlockOffsets& b = layout.blocks[sz(l)];
    const float* h_in = h.data() + sz(l) * stride_d;
    const float* h_mid_l = h_mid.data() + sz(l) * stride_d;
    const float* ln2_l = ln2.data() + sz(l) * stride_d;
    // dh holds dL/dh_out; h_out = h_mid + FFN(LN2(h_mid)). ffn_backward:
    linear_backward(blas, dffn_act.data(), g + b.fc2_w, g + b.fc2_b, dh.data(), ffn_act.data() + sz(l) * stride_f,
                    p + b.fc2_w, rows, F, D);
    gelu_backward(dffn_act.data(), ffn_pre.data() + sz(l) * stride_f, dffn_act.data(), long(rows) * F);
    linear_backward(blas, dln.data(), g + b.fc1_w, g + b.fc1_b, dffn_act.data(), ln2_l, p + b.fc1_w, rows, D, F);
    layernorm_backward(dbranch.data(), g + b.ln2_w, g + b.ln2_b, dln.data(), h_mid_l, p + b.ln2_w,
                       ln2_mean.data() + sz(l) * stride_stat, ln2_rstd.data() + sz(l) * stride_stat, rows, D);
    add(dh.data(), dh.data(), dbranch.data(), nd);
    // dh holds dL/dh_mid; h_mid = h_in + Mixer(LN1(h_in)).
    mixer_backward(l, batch);
    layernorm_backward(dbranch.data(), g + b.ln1_w, g + b.ln1_b, dln.data(), h_in, p + b.ln1_w,
                       ln1_mean.data() + sz(l) * stride_stat, ln1_rstd.data() + sz(l) * stride_stat, rows, D);
    add(dh.data(), dh.data(), dbranch.data(), nd);
  }
  // The input is data: only the embedding's weights need a gradient.
  linear_backward(blas, nullptr, g + layout.embed_w, g + layout.embed_b, dh.data(), xn.data(), p + layout.embed_w,
                  rows, C, D);
}

// mixer_backward of layer l: dout is dh, x is the layer's ln1; writes dL/dx into dln.
void DeviceForecastModel::Impl::mixer_backward(int l, int batch) {
  const ModelConfig& c = config;
  const int L = c.seq_len, D = c.d_model, H = c.heads, rows = batch * L;
  const BlockOffsets& b = layout.blocks[sz(l)];
  const float* p = params.data();
  float* g = grads.data();
  const std::size_t stride_d = sz(long(max_batch) * L * D);
  const long nd = long(rows) * D;
  const float* x_l = ln1.data() + sz(l) * stride_d;
  const float* k_l = k.data() + sz(l) * stride_d;
  const float* v_l = v.data() + sz(l) * stride_d;
  const float* att_l = att.data() + sz(l) * stride_d;
  linear_backward(blas, datt.data(), g + b.wo_w, g + b.wo_b, dh.data(), att_l, p + b.wo_w, rows, D, D);
  if (c.kind == ModelKind::aaren) {
    const int d_head = D / H;
    const float scale = 1.0f / std::sqrt(float(d_head));
    const float* q_l = query.data() + sz(l) * sz(D);
    // The scan's backward accumulates each window's dL/dq; the shared query's gradient is their sum.
    broadcast_rows(query_rows.data(), q_l, batch, D);
    dq.zero();
    prefix_attention_backward(dk.data(), dv.data(), dq.data(), datt.data(), query_rows.data(), k_l, v_l, att_l,
                              log_z.data() + sz(l) * sz(long(max_batch) * H * L), batch, L, H, d_head, scale);
    dq_sum.zero();
    sum_rows_add(dq_sum.data(), dq.data(), batch, D);
    linear_backward(blas, dq0.data(), g + b.wq_w, g + b.wq_b, dq_sum.data(), p + b.q0, p + b.wq_w, 1, D, D);
    add(g + b.q0, g + b.q0, dq0.data(), D);
    linear_backward(blas, dln.data(), g + b.wk_w, g + b.wk_b, dk.data(), x_l, p + b.wk_w, rows, D, D);
  } else {
    const float* q_l = query.data() + sz(l) * stride_d;
    causal_attention_backward(dq.data(), dk.data(), dv.data(), datt.data(), q_l, k_l, v_l,
                              probs.data() + sz(l) * sz(long(max_batch) * H * L * L), batch, L, D, H);
    linear_backward(blas, dln.data(), g + b.wq_w, g + b.wq_b, dq.data(), x_l, p + b.wq_w, rows, D, D);
    linear_backward(blas, dx.data(), g + b.wk_w, g + b.wk_b, dk.data(), x_l, p + b.wk_w, rows, D, D);
    add(dln.data(), dln.data(), dx.data(), nd);
  }
  linear_backward(blas, dx.data(), g + b.wv_w, g + b.wv_b, dv.data(), x_l, p + b.wv_w, rows, D, D);
  add(dln.data(), dln.data(), dx.data(), nd);
}

// clip_grad_norm and AdamW::step with the norm kept on the device: the squared norm goes to
// results[0], where the AdamW kernel reads it.
void DeviceForecastModel::Impl::enqueue_optimizer_step(double lr, const AdamWSettings& adamw, double clip_norm) {
  ++optimizer_steps;
  const long n = long(layout.total());
  sum_of_squares(results.data(), grads.data(), n);
  adamw_step(params.data(), adam_m.data(), adam_v.data(), grads.data(), decay.data(), results.data(), n, float(lr),
             float(adamw.beta1), float(adamw.beta2), float(adamw.eps), float(adamw.weight_decay), optimizer_steps,
             float(clip_norm));
}

StepReport DeviceForecastModel::Impl::collect(int batch, bool norm) {
  StepReport report;
  const std::size_t first = norm ? 0 : 1;
  results.download(host_results.data() + first, sz(batch) + 1 - first, first);
  double sum = 0;
  for (int b = 0; b < batch; ++b) sum += double(host_results[sz(b) + 1]);
  report.loss = sum / double(batch);
  if (norm) {
    report.grad_norm = std::sqrt(double(host_results[0]));
    // The kernel made no update for a norm that is not finite: the step numbers count updates.
    if (!std::isfinite(report.grad_norm)) --optimizer_steps;
  }
  return report;
}

DeviceForecastModel::DeviceForecastModel(const ModelConfig& config, int max_batch) {
  if (const std::string reason = cpu_only_reason(config); !reason.empty()) throw std::invalid_argument(reason);
  if (!query_device().available) throw_unavailable();
  config.validate();
  if (max_batch < 1)
    throw std::invalid_argument("a GPU model needs room for at least one window per batch, not " +
                                std::to_string(max_batch));
  if (config.kind == ModelKind::aaren && config.d_head() > kMaxHeadDim)
    throw std::invalid_argument("the GPU's Aaren scan takes heads of at most " + std::to_string(kMaxHeadDim) +
                                " dimensions, but d_model / heads is " + std::to_string(config.d_head()));
  // A model that cannot fit is refused with the numbers, before cudaMalloc fails part-way. Free
  // memory, not total: another model, the Efficiency page's stream or another process may hold
  // part of the GPU.
  const std::size_t needed = device_bytes(config, max_batch), free = free_device_memory();
  if (needed > free)
    throw std::runtime_error("this model needs about " + gibibytes(needed) + " GiB of GPU memory for " +
                             std::to_string(max_batch) + " windows of " + std::to_string(config.seq_len) +
                             " steps, but only " + gibibytes(free) + " GiB of the GPU's " +
                             gibibytes(query_device().total_memory_bytes) +
                             " GiB is free: lower the batch or the look-back, or use the CPU");
  impl_ = std::make_unique<Impl>(config, max_batch);
}

DeviceForecastModel::~DeviceForecastModel() = default;

std::size_t DeviceForecastModel::device_bytes(const ModelConfig& config, int max_batch) {
  std::size_t floats = 0;
  Impl::each_buffer(config, max_batch, [&floats](DeviceBuffer Impl::*, std::size_t count) { floats += count; });
  return floats * sizeof(float);
}

int DeviceForecastModel::max_batch() const { return impl_->max_batch; }

void DeviceForecastModel::set_params(const float* params) {
  impl_->params.upload(params);
  impl_->adam_m.zero();
  impl_->adam_v.zero();
  impl_->optimizer_steps = 0;
  // The zeros are queued on this thread's stream; waiting for them lets another thread (a training
  // thread given a model made here) start from them.
  synchronize();
}

void DeviceForecastModel::get_params(float* params) const { impl_->params.download(params); }

void DeviceForecastModel::get_grads(float* grads) const { impl_->grads.download(grads); }

double DeviceForecastModel::loss(const float* x, const float* truth, int batch, bool backward) {
  if (!truth) throw std::invalid_argument("the loss needs the windows' truth");
  impl_->upload_batch(x, truth, batch);
  impl_->enqueue_loss(batch, backward);
  return impl_->collect(batch, false).loss;
}

void DeviceForecastModel::forecast(float* y, const float* x, int batch) {
  impl_->upload_batch(x, nullptr, batch);
  impl_->forward(batch);
  const ModelConfig& c = impl_->config;
  impl_->y.download(y, sz(long(batch) * c.horizon * c.channels));
}

double DeviceForecastModel::optimizer_step(double lr, const AdamWSettings& adamw, double clip_norm) {
  impl_->enqueue_optimizer_step(lr, adamw, clip_norm);
  float squared = 0;
  impl_->results.download(&squared, 1);
  const double norm = std::sqrt(double(squared));
  if (!std::isfinite(norm)) --impl_->optimizer_steps;
  return norm;
}

StepReport DeviceForecastModel::train_step(const float* x, const float* truth, int batch, double lr,
                                           const AdamWSettings& adamw, double clip_norm) {
  if (!truth) throw std::invalid_argument("a training step needs the windows' truth");
  impl_->upload_batch(x, truth, batch);
  impl_->enqueue_loss(batch, true);
  impl_->enqueue_optimizer_step(lr, adamw, clip_norm);
  return impl_->collect(batch, true);
}

}  // namespace aaren::gpu
