#pragma once
// Z-score scaling per channel, fitted on the training rows only so that nothing about the
// validation or test data leaks into training (the convention of the forecasting literature,
// whose MSE and MAE are reported on data scaled this way).
#include <span>
#include <string>
#include <vector>

#include "core/data/split.hpp"
#include "core/util/matrix.hpp"

namespace aaren {

struct StandardScaler {
  std::vector<double> mean;  // (channels)
  std::vector<double> stddev;  // (channels) population standard deviation; 1 for a constant channel
};

// Fitted on `rows` of `values` (rows, channels). A constant channel gets std 1 (it would divide by
// zero) and a warning naming it is appended to `warnings`.
StandardScaler fit_standard_scaler(const Matrix<double>& values, RowRange rows,
                                   const std::vector<std::string>& channel_names, std::vector<std::string>& warnings);

// scaled = (values - mean) / std, row by row over (N, channels) buffers.
void standard_scaler_transform(std::span<float> scaled /*(N, C)*/, std::span<const double> values /*(N, C)*/,
                               const StandardScaler& scaler);
// values = scaled * std + mean: forecasts back in original units.
void standard_scaler_inverse(std::span<double> values /*(N, C)*/, std::span<const float> scaled /*(N, C)*/,
                             const StandardScaler& scaler);

}  // namespace aaren
