#pragma once
// Z-score scaling per channel, fitted on the training part only so that nothing about the
// validation or test data leaks into training (the convention of the forecasting literature,
// whose MSE and MAE are reported on data scaled this way). The one standardizer of every task:
// forecasting's channels, classification's channels (with missing values) and the event models'
// feature are all fitted by fit_standard_scaler's visiting form.
#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/data/split.hpp"
#include "core/util/matrix.hpp"

namespace aaren {

struct StandardScaler {
  std::vector<double> mean;  // (channels)
  std::vector<double> stddev;  // (channels) population standard deviation; 1 for a constant channel

  double scaled(double value, std::size_t channel) const { return (value - mean[channel]) / stddev[channel]; }
};

// Calls its argument with (channel, value) for every value of the training part.
using ChannelValueVisitor = std::function<void(const std::function<void(std::size_t channel, double value)>&)>;

// Mean and population standard deviation of each of `channels` channels over the values
// `for_each_value` visits. It is called twice, for the means and then for the squared deviations
// from them (stable where a sum of squares is not). NaN values are missing and skipped; a channel
// with no value has mean 0. A constant channel (deviation under 1e-12 of its size) gets std 1, so
// it standardizes to 0 rather than dividing by zero, and its index goes to `constant`.
StandardScaler fit_standard_scaler(std::size_t channels, const ChannelValueVisitor& for_each_value,
                                   std::vector<std::size_t>& constant);

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
