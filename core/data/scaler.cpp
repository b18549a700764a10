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

StandardScaler fit_standard_scaler(std::size_t channels, const ChannelValueVisitor& for_each_value,
                                   std::vector<std::size_t>& constant) {
  StandardScaler scaler{std::vector<double>(channels, 0.0), std::vector<double>(channels, 1.0)};
  std::vector<double> squares(channels, 0.0);
  std::vector<long> count(channels, 0);
  for_each_value([&](std::size_t c, double value) {
    if (std::isnan(value)) return;
    scaler.mean[c] += value;
    ++count[c];
  });
  for (std::size_t c = 0; c < channels; ++c)
    if (count[c] > 0) scaler.mean[c] /= double(count[c]);
  for_each_value([&](std::size_t c, double value) {
    if (std::isnan(value)) return;
    const double deviation = value - scaler.mean[c];
    squares[c] += deviation * deviation;
  });
  for (std::size_t c = 0; c < channels; ++c) {
    const double stddev = count[c] > 0 ? std::sqrt(squares[c] / double(count[c])) : 0.0;
    if (stddev > 1e-12 * std::max(1.0, std::abs(scaler.mean[c])) && std::isfinite(stddev)) scaler.stddev[c] = stddev;
    else constant.push_back(c);
  }
  return scaler;
}

StandardScaler fit_standard_scaler(const Matrix<double>& values, RowRange rows,
                                   const std::vector<std::string>& channel_names, std::vector<std::string>& warnings) {
  if (rows.begin < 0 || rows.end > values.rows || rows.size() < 1)
    throw std::invalid_argument("the scaler needs at least one training row inside the " +
                                std::to_string(values.rows) + " rows of the data");
  if (int(channel_names.size()) != values.cols)
    throw std::invalid_argument("the scaler got " + std::to_string(channel_names.size()) + " channel names for " +
                                std::to_string(values.cols) + " channels");
  const std::size_t channels = std::size_t(values.cols);
  std::vector<std::size_t> constant;
  const StandardScaler scaler = fit_standard_scaler(
      channels,
      [&](const auto& visit) {
        for (int r = rows.begin; r < rows.end; ++r)
          for (std::size_t c = 0; c < channels; ++c) visit(c, values(r, int(c)));
      },
      constant);
  // Said plainly: a student who keeps such a column trains on a number that never changes.
  for (std::size_t c : constant)
    warnings.push_back("channel '" + channel_names[c] + "' is constant over the training rows (every value is " +
                       format_number(scaler.mean[c]) +
                       "): the models learn nothing from it, and its errors say little; leave it out unless it "
                       "changes later");
  return scaler;
}

void standard_scaler_transform(std::span<float> scaled, std::span<const double> values, const StandardScaler& scaler) {
  const std::size_t channels = checked_channels(scaled.size(), values.size(), scaler);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::size_t c = i % channels;
    scaled[i] = float(scaler.scaled(values[i], c));
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
