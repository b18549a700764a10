#pragma once
// A forecasting run small enough to write, read and train in milliseconds, with every field of
// config.json set to something other than its default, so that a field lost on the way shows; and
// a request that trains one on a bundled data set in milliseconds.
#include <random>
#include <string>
#include <vector>

#include "core/model/model_config.hpp"
#include "core/model/parameter_init.hpp"
#include "core/model/parameter_layout.hpp"
#include "core/forecast/forecast_run.hpp"
#include "core/forecast/forecast_run_folder.hpp"

inline aaren::ForecastRunConfig small_forecast_run(aaren::ModelKind kind = aaren::ModelKind::aaren, int d_model = 8) {
  aaren::ForecastRunConfig c;
  c.model.kind = kind;
  c.model.d_model = d_model;
  c.model.heads = 2;
  c.model.layers = 1;
  c.model.d_ff = 16;
  c.model.seq_len = 12;
  c.model.horizon = 4;
  c.model.channels = 2;
  c.data_file = "series.csv";
  c.channels = {"load", "temperature"};
  c.target = "load";
  c.date_column = "date";
  c.scaler.mean = {1.5, -2.25};
  c.scaler.stddev = {0.5, 3.0};
  c.train.epochs = 7;
  return c;
}

// Initial weights for `layout`, drawn with `seed`.
inline std::vector<float> initial_parameters(const aaren::ParameterLayout& layout, unsigned seed) {
  std::vector<float> params;
  std::mt19937 rng(seed);
  aaren::init_parameters(params, layout, rng);
  return params;
}

// One epoch of a tiny forecaster on datasets/R_nottem.csv (12 months back, 4 ahead) into `out_dir`.
inline aaren::ForecastRunRequest small_forecast_request(const std::string& out_dir) {
  aaren::ForecastRunRequest request;
  request.data_path = AAREN_SOURCE_DIR;  // appended in two steps: GCC 12 misreads the bounds of a one-line "+"
  request.data_path += "/datasets/R_nottem.csv";
  request.data.seq_len = 12;
  request.data.horizon = 4;
  request.model.d_model = 8;
  request.model.heads = 2;
  request.model.layers = 1;
  request.model.d_ff = 16;
  request.model.seq_len = 12;
  request.model.horizon = 4;
  request.train.epochs = 1;
  request.out_dir = out_dir;
  return request;
}
