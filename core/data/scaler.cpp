#include "core/data/scaler.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/io/matrix_csv.hpp"

namespace aaren {

namespace {

std::size_t checked_channels(std::size_t scaled_size, std::size_t values_size, const StandardScaler& scaler) {
  const std::size_t channels = scaler.mean.size();
  if (channels == 0 || scaler.stddev.size() != channels || scaled_size != values_size || values_size % channels != 0)
    throw std::invalid_argument("the scaler has " + std::to_string(channels) + " channels, which does not fit buffers of " +
                                std::to_string(scaled_size) + " and " + std::to_string(values_size) + " numbers");
  return channels;
}

}  // namespace

StandardScaler fit_standard_scaler(const Matrix<double>& values, RowRange rows,
                                   const std::vector<std::string>& channel_names, std::vector<std::string>& warnings) {
  if (rows.begin < 0 || rows.end > values.rows || rows.size() < 1)
    throw std::invalid_argument("the scaler needs at least one training row inside the " +
                                std::to_string(values.rows) + " rows of the data");
  if (int(channel_names.size()) != values.cols)
    throw std::invalid_argument("the scaler got " + std::to_string(channel_names.size()) + " channel names for " +
                                std::to_string(values.cols) + " channels");
  const std::size_t channels = std::size_t(values.cols);
  StandardScaler scaler{std::vector<double>(channels, 0.0), std::vector<double>(channels, 0.0)};
  // Two passes: the mean first, then squared deviations from it (stable where sum-of-squares is not).
  for (int r = rows.begin; r < rows.end; ++r)
    for (std::size_t c = 0; c < channels; ++c) scaler.mean[c] += values(r, int(c));
  for (double& mean : scaler.mean) mean /= double(rows.size());
  for (int r = rows.begin; r < rows.end; ++r)
    for (std::size_t c = 0; c < channels; ++c) {
      const double deviation = values(r, int(c)) - scaler.mean[c];
      scaler.stddev[c] += deviation * deviation;
    }
  for (std::size_t c = 0; c < channels; ++c) {
    scaler.stddev[c] = std::sqrt(scaler.stddev[c] / double(rows.size()));
    if (scaler.stddev[c] <= 1e-12 * std::max(1.0, std::abs(scaler.mean[c]))) {
      scaler.stddev[c] = 1.0;
      // Said plainly: a student who keeps such a column trains on a number that never changes.
      warnings.push_back("channel '" + channel_names[c] + "' is constant over the training rows (every value is " +
                         format_number(scaler.mean[c]) +
                         "): the models learn nothing from it, and its errors say little; leave it out unless it "
                         "changes later");
    }
  }
  return scaler;
}

void standard_scaler_transform(std::span<float> scaled, std::span<const double> values, const StandardScaler& scaler) {
  const std::size_t channels = checked_channels(scaled.size(), values.size(), scaler);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::size_t c = i % channels;
    scaled[i] = float((values[i] - scaler.mean[c]) / scaler.stddev[c]);
  }
}

void standard_scaler_inverse(std::span<double> values, std::span<const float> scaled, const StandardScaler& scaler) {
  const std::size_t channels = checked_channels(values.size(), scaled.size(), scaler);
  for (std::size_t i = 0; i < scaled.size(); ++i) {
    const std::size_t c = i % channels;
    values[i] = double(scaled[i]) * scaler.stddev[c] + scaler.mean[c];
  }
}

}  // namespace aaren
