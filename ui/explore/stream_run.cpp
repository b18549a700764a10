#include "ui/explore/stream_run.hpp"

#include <algorithm>
#include <random>

#include "core/model/forecast_model.hpp"
#include "core/model/forecast_stream.hpp"

namespace aaren::ui {

namespace {

constexpr unsigned kWeightSeed = 1;

long floatsIn(std::size_t bytes) { return long(bytes / sizeof(float)); }

}  // namespace

ModelConfig defaultFigureModel() { return ModelConfig{}; }

StreamRun::StreamRun(const ModelConfig& config, const std::vector<float>& series) : config_(config) {
  config_.channels = 1;
  config_.seq_len = std::max(1, int(series.size()));
  costs_.resize(series.size());
  for (ModelKind kind : {ModelKind::aaren, ModelKind::transformer}) {
    ModelConfig c = config_;
    c.kind = kind;
    const ParameterLayout layout(c);
    std::vector<float> params;
    std::mt19937 rng(kWeightSeed);
    init_parameters(params, layout, rng);
    ForecastStream<float> stream(c, layout, params.data(), long(series.size()));
    stream.reset();
    const long scoresPerToken = long(c.layers) * long(c.heads);
    for (std::size_t t = 0; t < series.size(); ++t) {
      stream.step(&series[t]);
      StreamTokenCost& cost = costs_[t];
      if (kind == ModelKind::aaren) {
        cost.aarenScores = scoresPerToken;
        cost.aarenFloats = floatsIn(stream.state_bytes());
      } else {
        cost.transformerScores = scoresPerToken * stream.tokens();
        cost.transformerFloats = floatsIn(stream.state_bytes());
      }
    }
  }
}

long StreamRun::aarenScoresThrough(int token) const {
  long total = 0;
  for (int t = 1; t <= token; ++t) total += cost(t).aarenScores;
  return total;
}

long StreamRun::transformerScoresThrough(int token) const {
  long total = 0;
  for (int t = 1; t <= token; ++t) total += cost(t).transformerScores;
  return total;
}

}  // namespace aaren::ui
