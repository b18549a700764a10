#include "core/model/attention_probe.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/model/forecast_model.hpp"

namespace aaren {

namespace {

// "layers 0 to 3", or "only layer 0".
std::string choices(const std::string& noun, int count) {
  return count == 1 ? "only " + noun + " 0" : noun + "s 0 to " + std::to_string(count - 1);
}

void check_request(const ModelConfig& config, const AttentionProbeRequest& request) {
  const auto require = [](bool ok, const std::string& message) {
    if (!ok) throw std::invalid_argument(message);
  };
  require(request.layer >= 0 && request.layer < config.layers,
          "layer " + std::to_string(request.layer) + " does not exist: the model has " + choices("layer", config.layers));
  require(request.head >= 0 && request.head < config.heads,
          "head " + std::to_string(request.head) + " does not exist: each layer has " + choices("head", config.heads));
  const int dims = int(request.value_dims.size());
  require(dims >= 1 && dims <= kMaxProbeValueDims,
          "choose 1 to " + std::to_string(kMaxProbeValueDims) + " value dimensions, not " + std::to_string(dims));
  for (int i = 0; i < dims; ++i) {
    const int dim = request.value_dims[std::size_t(i)];
    require(dim >= 0 && dim < config.d_head(),
            "value dimension " + std::to_string(dim) + " does not exist: each head has " +
                choices("value dimension", config.d_head()));
    require(std::find(request.value_dims.begin(), request.value_dims.begin() + i, dim) ==
                request.value_dims.begin() + i,
            "value dimension " + std::to_string(dim) + " is chosen twice; choose distinct dimensions");
  }
  require(request.tokens >= 0 && request.tokens <= config.seq_len,
          "cannot keep " + std::to_string(request.tokens) + " tokens of a window of " +
              std::to_string(config.seq_len) + "; choose 1 to " + std::to_string(config.seq_len) +
              " (0 keeps them all)");
}

}  // namespace

AttentionProbe probe_attention(const LoadedForecastRun& run, std::span<const float> window,
                               const AttentionProbeRequest& request) {
  const ModelConfig& config = run.config.model;
  config.validate();
  if (config.kind == ModelKind::linear)
    throw std::invalid_argument("a linear Transformer's attention has no softmax scores for the scan to run on; "
                                "probe an Aaren model or a Transformer");
  check_request(config, request);
  const ParameterLayout layout(config);
  if (run.params.size() != layout.total())
    throw std::invalid_argument("the run has " + std::to_string(run.params.size()) +
                                " parameters but its configuration needs " + std::to_string(layout.total()) +
                                "; the checkpoint does not belong to this config.json");
  const std::size_t window_size = std::size_t(config.seq_len) * std::size_t(config.channels);
  if (window.size() != window_size)
    throw std::invalid_argument("the input window has " + std::to_string(window.size()) + " numbers but the model reads " +
                                std::to_string(config.seq_len) + " rows of " + std::to_string(config.channels) +
                                " channels (" + std::to_string(window_size) + ")");

  ForwardState<float> state(config);
  forecast_forward(state, run.params.data(), layout, config, window.data());
  const MixerCache<float>& cache = state.mixer[std::size_t(request.layer)];

  AttentionProbe probe;
  probe.kind = config.kind;
  probe.layer = request.layer;
  probe.head = request.head;
  probe.d_head = config.d_head();
  probe.tokens = request.tokens == 0 ? config.seq_len : request.tokens;
  probe.value_dims = request.value_dims;

  const std::size_t d_model = std::size_t(config.d_model);
  const std::size_t first_column = std::size_t(request.head) * std::size_t(probe.d_head);
  const std::size_t last_token = std::size_t(probe.tokens - 1);
  const float* query = config.kind == ModelKind::aaren ? cache.q.data() : cache.q.data() + last_token * d_model;
  // The model's own scaling (mixer.cpp, causal_attention.cpp): the dot product times 1 / sqrt(d_head).
  const float scale = 1.0f / std::sqrt(float(probe.d_head));
  const std::size_t dims = probe.value_dims.size();
  probe.scores.resize(std::size_t(probe.tokens));
  probe.values.resize(std::size_t(probe.tokens) * dims);
  for (std::size_t i = 0; i < std::size_t(probe.tokens); ++i) {
    const float* key = cache.k.data() + i * d_model + first_column;
    float dot = 0;
    for (std::size_t j = 0; j < std::size_t(probe.d_head); ++j) dot += query[first_column + j] * key[j];
    probe.scores[i] = scale * dot;
    for (std::size_t j = 0; j < dims; ++j)
      probe.values[i * dims + j] = cache.v[i * d_model + first_column + std::size_t(probe.value_dims[j])];
  }
  probe.model_output.resize(dims);
  for (std::size_t j = 0; j < dims; ++j)
    probe.model_output[j] = cache.att[last_token * d_model + first_column + std::size_t(probe.value_dims[j])];
  return probe;
}

std::vector<float> scaled_window(const Matrix<float>& scaled, int first_row, int seq_len) {
  if (seq_len < 1) throw std::invalid_argument("a window needs at least one row, not " + std::to_string(seq_len));
  const int last_first_row = scaled.rows - seq_len;
  if (last_first_row < 0)
    throw std::invalid_argument("the data has " + std::to_string(scaled.rows) + " rows, fewer than one window of " +
                                std::to_string(seq_len));
  if (first_row < 0 || first_row > last_first_row)
    throw std::invalid_argument("a window of " + std::to_string(seq_len) + " rows cannot start at row " +
                                std::to_string(first_row) + "; choose a first row from 0 to " +
                                std::to_string(last_first_row));
  const std::size_t columns = std::size_t(scaled.cols);
  const auto begin = scaled.data.begin() + std::ptrdiff_t(std::size_t(first_row) * columns);
  return std::vector<float>(begin, begin + std::ptrdiff_t(std::size_t(seq_len) * columns));
}

}  // namespace aaren
