// The C++ side of the PyTorch twin's parity tests (python/aaren_torch, docs/DESIGN.md sections 4
// and 9): loads a run folder with the core's own loader, runs the core's forward and hand-written
// backward in double precision on inputs given in a safetensors file, and writes the outputs,
// the loss and every parameter's gradient (as "grad.<name>") to another safetensors file.
//
//   twin_probe forecast RUN_DIR IN OUT   IN: "x" (B, T, C), "truth" (B, H, K), scaled data (K: the
//                                        channels forecast, 1 for features MS), and optionally "lr" (1)
//                                        OUT: "y" (B, H, K), "loss" (1), grad.*; with "lr" also
//                                        "step.<name>": the weights after one optimizer step as the
//                                        Trainer takes it (gradients in float, clipped to the run's
//                                        clip_norm, then AdamW with the run's weight decay)
//                                        loss: mean over windows of each window's MSE (the Trainer's)
//   twin_probe events RUN_DIR IN OUT     IN: "times" (n), "origin" (1), "marks" (n) when marked,
//                                        "features" (n) when the model reads one
//                                        OUT: "time_out" (n, 3K), "mark_out" (n, M) when marked,
//                                        "loss" (1), grad.*
//   twin_probe classify - IN OUT         the classifier on weights and a case given in IN, which names
//                                        the model in its metadata (config.json's "model" fields, as
//                                        text: kind, d_model, heads, layers, d_ff, seq_len, channels,
//                                        classes, pooling, instance_norm "true"/"false",
//                                        label_smoothing) and holds every parameter by
//                                        ParameterLayout::for_classifier's names, "x" (n, C), "label" (1)
//                                        and optionally "missing" (n, C): 1 where x is to be NaN
//                                        OUT: "logits" (K), "probs" (K), "loss" (1), grad.*
//   twin_probe decision - IN OUT         the Decision Transformer on weights and a segment given in IN,
//                                        which names the model in its metadata (as text: kind,
//                                        d_model, heads, layers, d_ff, state_dim, action_dim, context,
//                                        max_timestep, return_scale) and holds every parameter by
//                                        ParameterLayout::for_decision's names, "returns_to_go" (n),
//                                        "states" (n, S), "actions" (n, A) and "timesteps" (n)
//                                        OUT: "predicted" (n, A), "loss" (1), grad.*
//                                        loss: the mean squared error over the n steps and A values
//                                        (decision_squared_error over n A, the training task's)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <limits>
#include <string>
#include <vector>

#include "core/classify/classifier_model.hpp"
#include "core/events/event_model.hpp"
#include "core/events/event_run_folder.hpp"
#include "core/io/safetensors.hpp"
#include "core/model/forecast_model.hpp"
#include "core/rl/decision_transformer.hpp"
#include "core/train/adamw.hpp"
#include "core/forecast/forecast_run_folder.hpp"

namespace {

using namespace aaren;

const Tensor& input(const SafetensorsContent& content, const std::string& name) {
  const Tensor* tensor = content.find(name);
  if (!tensor) throw std::runtime_error("the input has no tensor '" + name + "'");
  return *tensor;
}

std::vector<float> to_float(const double* values, std::size_t n) { return std::vector<float>(values, values + n); }

// The outputs, then the gradients by the layout's names; the float buffers outlive the views.
void write_outputs(const std::string& path, std::vector<Tensor> outputs, const ParameterLayout& layout,
                   const double* grads, const std::vector<float>& stepped = {}) {
  for (const ParameterEntry& e : layout.entries())
    outputs.push_back({"grad." + e.name, e.shape, to_float(grads + e.offset, e.size)});
  for (const ParameterEntry& e : layout.entries())
    if (!stepped.empty())
      outputs.push_back({"step." + e.name, e.shape,
                         std::vector<float>(stepped.begin() + long(e.offset), stepped.begin() + long(e.offset + e.size))});
  std::vector<TensorView> views;
  for (const Tensor& t : outputs) views.push_back({t.name, t.shape, t.data});
  write_safetensors(path, views, {});
}

void probe_forecast(const std::string& run_dir, const SafetensorsContent& in, const std::string& out) {
  const LoadedForecastRun run = load_forecast_run(run_dir);
  const ModelConfig& m = run.config.model;
  const ParameterLayout layout(m);
  const std::vector<double> params(run.params.begin(), run.params.end());
  const Tensor& x = input(in, "x");
  const Tensor& truth = input(in, "truth");
  const int batch = int(x.shape.at(0));
  const std::size_t x_size = std::size_t(m.seq_len) * std::size_t(m.channels);
  const std::size_t y_size = std::size_t(m.horizon) * std::size_t(m.outputs());
  if (x.data.size() != std::size_t(batch) * x_size || truth.data.size() != std::size_t(batch) * y_size)
    throw std::runtime_error("the input's shapes do not fit the run's model");
  ForwardState<double> state(m);
  BackwardScratch<double> scratch(m);
  std::vector<double> grads(layout.total(), 0.0), y_all, window_x(x_size), window_truth(y_size), dy(y_size);
  double loss = 0;
  for (int b = 0; b < batch; ++b) {
    std::copy_n(x.data.begin() + long(b * x_size), x_size, window_x.begin());
    std::copy_n(truth.data.begin() + long(b * y_size), y_size, window_truth.begin());
    forecast_forward(state, params.data(), layout, m, window_x.data());
    loss += mse_loss(dy.data(), state.y.data(), window_truth.data(), int(y_size)) / batch;
    for (double& d : dy) d /= batch;
    forecast_backward(grads.data(), scratch, state, params.data(), layout, m, dy.data());
    y_all.insert(y_all.end(), state.y.begin(), state.y.end());
  }
  std::vector<float> stepped;
  if (const Tensor* lr = in.find("lr")) {
    stepped = run.params;
    std::vector<float> float_grads(grads.begin(), grads.end());
    clip_grad_norm(float_grads.data(), float_grads.size(), run.config.train.clip_norm);
    AdamW optimizer(layout, run.config.train.adamw);
    optimizer.step(stepped.data(), float_grads.data(), double(lr->data.at(0)));
  }
  write_outputs(out,
                {{"y", {batch, m.horizon, m.outputs()}, to_float(y_all.data(), y_all.size())},
                 {"loss", {1}, {float(loss)}}},
                layout, grads.data(), stepped);
}

void probe_events(const std::string& run_dir, const SafetensorsContent& in, const std::string& out) {
  const LoadedEventRun run = load_event_run(run_dir);
  const EventModelConfig& c = run.config.model;
  const ParameterLayout layout = ParameterLayout::for_events(c);
  const std::vector<double> params(run.params.begin(), run.params.end());
  const Tensor& times_in = input(in, "times");
  const std::vector<double> times(times_in.data.begin(), times_in.data.end());
  std::vector<int> marks;
  if (c.marks > 0)
    for (const float mark : input(in, "marks").data) marks.push_back(int(mark));
  std::vector<double> features;
  if (c.feature) features.assign(input(in, "features").data.begin(), input(in, "features").data.end());
  const EventWindow window{double(input(in, "origin").data.at(0)), times, marks, features};
  EventForwardState<double> state(c);
  EventBackwardScratch<double> scratch(c);
  event_forward(state, params.data(), layout, c, window);
  const EventMetrics metrics = event_loss(scratch.dtime.data(), c.marks > 0 ? scratch.dmark.data() : nullptr, state, c);
  std::vector<double> grads(layout.total(), 0.0);
  event_backward(grads.data(), scratch, state, params.data(), layout, c, scratch.dtime.data(),
                 c.marks > 0 ? scratch.dmark.data() : nullptr);
  const int n = state.n, k3 = 3 * c.mixture_components;
  std::vector<Tensor> outputs{{"time_out", {n, k3}, to_float(state.time_out.data(), std::size_t(n * k3))},
                              {"loss", {1}, {float(metrics.loss)}}};
  if (c.marks > 0)
    outputs.push_back({"mark_out", {n, c.marks}, to_float(state.mark_out.data(), std::size_t(n * c.marks))});
  write_outputs(out, std::move(outputs), layout, grads.data());
}

const std::string& metadata_field(const SafetensorsContent& content, const std::string& key) {
  const auto found = content.metadata.find(key);
  if (found == content.metadata.end()) throw std::runtime_error("the input's metadata has no '" + key + "'");
  return found->second;
}

int whole_field(const SafetensorsContent& in, const char* key) { return std::stoi(metadata_field(in, key)); }

// The blocks' fields every model names in IN's metadata: kind, d_model, heads, layers, d_ff.
ModelConfig backbone_of(const SafetensorsContent& in) {
  ModelConfig b;
  const auto kind = model_kind_from_string(metadata_field(in, "kind"));
  if (!kind) throw std::runtime_error("unknown kind '" + metadata_field(in, "kind") + "'");
  b.kind = *kind;
  b.d_model = whole_field(in, "d_model");
  b.heads = whole_field(in, "heads");
  b.layers = whole_field(in, "layers");
  b.d_ff = whole_field(in, "d_ff");
  return b;
}

// Every parameter by the layout's names, in an aligned buffer like the trainer's.
AlignedVector<double> parameters_of(const SafetensorsContent& in, const ParameterLayout& layout) {
  AlignedVector<double> params(layout.total());
  for (const ParameterEntry& e : layout.entries()) {
    const Tensor& t = input(in, e.name);
    if (t.shape != e.shape) throw std::runtime_error("tensor '" + e.name + "' has another shape than the layout's");
    std::copy(t.data.begin(), t.data.end(), params.begin() + long(e.offset));
  }
  return params;
}

ClassifierConfig classifier_config_of(const SafetensorsContent& in) {
  const auto whole = [&](const char* key) { return whole_field(in, key); };
  ClassifierConfig c;
  c.backbone = backbone_of(in);
  c.backbone.seq_len = whole("seq_len");
  c.backbone.channels = whole("channels");
  c.classes = whole("classes");
  const auto pooling = classifier_pooling_from_string(metadata_field(in, "pooling"));
  if (!pooling) throw std::runtime_error("unknown pooling '" + metadata_field(in, "pooling") + "'");
  c.pooling = *pooling;
  c.instance_norm = metadata_field(in, "instance_norm") == "true";
  c.label_smoothing = std::stod(metadata_field(in, "label_smoothing"));
  c.validate();
  return c;
}

void probe_classify(const SafetensorsContent& in, const std::string& out) {
  const ClassifierConfig c = classifier_config_of(in);
  const ParameterLayout layout = ParameterLayout::for_classifier(c);
  const AlignedVector<double> params = parameters_of(in, layout);
  const Tensor& x_in = input(in, "x");
  const int channels = c.backbone.channels, n = int(x_in.shape.at(0));
  if (x_in.shape.size() != 2 || x_in.shape[1] != channels)
    throw std::runtime_error("'x' must be (n, channels)");
  std::vector<double> x(x_in.data.begin(), x_in.data.end());
  if (const Tensor* missing = in.find("missing"))
    for (std::size_t i = 0; i < x.size(); ++i)
      if (missing->data.at(i) != 0) x[i] = std::numeric_limits<double>::quiet_NaN();
  ClassifierState<double> state(c);
  ClassifierScratch<double> scratch(c);
  classifier_forward(state, params.data(), layout, c, x.data(), n);
  const double loss = classifier_loss(scratch.dlogits.data(), state, c, int(input(in, "label").data.at(0)));
  std::vector<double> grads(layout.total(), 0.0);
  classifier_backward(grads.data(), scratch, state, params.data(), layout, c, scratch.dlogits.data());
  write_outputs(out,
                {{"logits", {c.classes}, to_float(state.logits.data(), std::size_t(c.classes))},
                 {"probs", {c.classes}, to_float(state.probs.data(), std::size_t(c.classes))},
                 {"loss", {1}, {float(loss)}}},
                layout, grads.data());
}

rl::DecisionConfig decision_config_of(const SafetensorsContent& in) {
  const auto whole = [&](const char* key) { return whole_field(in, key); };
  rl::DecisionConfig c;
  c.backbone = backbone_of(in);
  c.state_dim = whole("state_dim");
  c.action_dim = whole("action_dim");
  c.context = whole("context");
  c.max_timestep = whole("max_timestep");
  c.return_scale = std::stod(metadata_field(in, "return_scale"));
  c.backbone.seq_len = c.tokens(c.context);
  c.backbone.channels = c.state_dim;
  c.backbone.horizon = 1;
  c.validate();
  return c;
}

void probe_decision(const SafetensorsContent& in, const std::string& out) {
  const rl::DecisionConfig c = decision_config_of(in);
  const ParameterLayout layout = ParameterLayout::for_decision(c);
  const AlignedVector<double> params = parameters_of(in, layout);
  const Tensor& returns_in = input(in, "returns_to_go");
  if (returns_in.shape.size() != 1) throw std::runtime_error("'returns_to_go' must be (n)");
  const int n = int(returns_in.shape[0]);
  const auto rows_of = [&](const char* name, int width) {
    const Tensor& t = input(in, name);
    if (t.shape != std::vector<std::int64_t>{n, width})
      throw std::runtime_error("'" + std::string(name) + "' must be (n, " + std::to_string(width) + ")");
    return std::vector<double>(t.data.begin(), t.data.end());
  };
  const std::vector<double> returns(returns_in.data.begin(), returns_in.data.end());
  const std::vector<double> states = rows_of("states", c.state_dim), actions = rows_of("actions", c.action_dim);
  const Tensor& timesteps_in = input(in, "timesteps");
  if (timesteps_in.data.size() != std::size_t(n)) throw std::runtime_error("'timesteps' must be (n)");
  const std::vector<int> timesteps(timesteps_in.data.begin(), timesteps_in.data.end());
  const rl::DecisionInputs<double> inputs{returns.data(), states.data(), actions.data(), timesteps.data()};

  rl::DecisionState<double> state(c);
  rl::DecisionScratch<double> scratch(c);
  rl::decision_forward(state, params.data(), layout, c, inputs, n);
  const double terms = double(n) * c.action_dim;
  const double loss =
      rl::decision_squared_error(scratch.dpredicted.data(), state, c, actions.data(), 1.0 / terms) / terms;
  AlignedVector<double> grads(layout.total(), 0.0);
  rl::decision_backward(grads.data(), scratch, state, params.data(), layout, c, inputs);
  const std::size_t predicted = std::size_t(n) * std::size_t(c.action_dim);
  write_outputs(out,
                {{"predicted", {n, c.action_dim}, to_float(state.predicted.data(), predicted)},
                 {"loss", {1}, {float(loss)}}},
                layout, grads.data());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: twin_probe forecast|events RUN_DIR IN.safetensors OUT.safetensors\n"
                 "       twin_probe classify|decision - IN.safetensors OUT.safetensors\n");
    return 2;
  }
  try {
    const std::string task = argv[1];
    const SafetensorsContent in = read_safetensors(argv[3]);
    if (task == "forecast")
      probe_forecast(argv[2], in, argv[4]);
    else if (task == "events")
      probe_events(argv[2], in, argv[4]);
    else if (task == "classify")
      probe_classify(in, argv[4]);
    else if (task == "decision")
      probe_decision(in, argv[4]);
    else
      throw std::runtime_error("unknown task '" + task + "'");
  } catch (const std::exception& error) {
    std::fprintf(stderr, "twin_probe: %s\n", error.what());
    return 1;
  }
  return 0;
}
