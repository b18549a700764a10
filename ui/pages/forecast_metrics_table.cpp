#include "ui/wording/wording.hpp"
#include "ui/pages/forecast_metrics_table.hpp"

#include <QCoreApplication>
#include <QTableWidget>
#include <QLocale>
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "ui/workers/run_forecast_loader.hpp"

namespace aaren::ui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("aaren::ui::ForecastMetricsTable", text); }

struct Forecaster {
  QString name;
  const UnitMetrics* metrics;
  bool baseline;
};

// About four significant digits without an exponent: data in thousands and in thousandths both
// read well ("66,580", "0.6727").
QString number(double value) {
  if (!std::isfinite(value)) return QString::number(value);
  const double magnitude = std::abs(value) > 0 ? std::floor(std::log10(std::abs(value))) : 0.0;
  return QLocale().toString(value, 'f', int(std::clamp(3.0 - magnitude, 0.0, 6.0)));
}

// A channel's value, or nullopt where the run records none (metrics written before per channel).
std::optional<double> channelValue(const std::vector<double>& values, int channel) {
  if (channel < 0 || channel >= int(values.size())) return std::nullopt;
  return values[std::size_t(channel)];
}

}  // namespace

QStringList forecastMetricsHeader() {
  return {tr("Forecaster"), tr("Channel"), tr("MSE (scaled)"), tr("MAE (scaled)"), tr("MSE (units)"),
          tr("MAE (units)"), tr("Test windows")};
}

QString fillForecastMetrics(QTableWidget& table, const RunForecastSet& set, int channel) {
  std::vector<Forecaster> forecasters;
  for (const ModelForecastSource& model : set.models)
    forecasters.push_back({model.modelName, &model.comparison.model, false});
  const TestComparison& baselines = set.models.front().comparison;
  forecasters.push_back({tr("Last value repeated"), &baselines.last_value, true});
  if (baselines.seasonal_naive)
    forecasters.push_back(
        {tr("Seasonal naive (period %1)").arg(baselines.period.length), &*baselines.seasonal_naive, true});

  const std::vector<std::string> names = set.models.front().run.config.forecast_channels();
  const bool several = names.size() > 1;
  const QString channelName =
      channel >= 0 && channel < int(names.size()) ? QString::fromStdString(names[std::size_t(channel)]) : QString();
  table.setRowCount(int(forecasters.size()) * (several ? 2 : 1));
  int row = 0;
  const auto addRow = [&](const Forecaster& f, const QString& scope, std::optional<int> onlyChannel) {
    const auto cell = [&](int column, const QString& text, const QVariant& value = {}) {
      auto* item = new QTableWidgetItem(text);
      item->setData(Qt::UserRole, value);
      if (column >= kMetricsScaledMse) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      if (f.baseline) item->setForeground(table.palette().placeholderText());
      table.setItem(row, column, item);
    };
    const auto value = [&](double overall, const std::vector<double>& perChannel) {
      return onlyChannel ? channelValue(perChannel, *onlyChannel) : std::optional<double>(overall);
    };
    // Kilowatts and degrees do not add up: over several channels only the scaled errors are averaged.
    const bool mixedUnits = several && !onlyChannel;
    const std::pair<int, std::optional<double>> values[] = {
        {kMetricsScaledMse, value(f.metrics->scaled.mse, f.metrics->scaled.channel_mse)},
        {kMetricsScaledMae, value(f.metrics->scaled.mae, f.metrics->scaled.channel_mae)},
        {kMetricsMse, mixedUnits ? std::nullopt : value(f.metrics->original.mse, f.metrics->original.channel_mse)},
        {kMetricsMae, mixedUnits ? std::nullopt : value(f.metrics->original.mae, f.metrics->original.channel_mae)}};
    cell(kMetricsForecaster, f.name);
    cell(kMetricsChannel, scope);
    for (const auto& [column, v] : values) {
      const bool unitless = mixedUnits && (column == kMetricsMse || column == kMetricsMae);
      cell(column, v ? number(*v) : unitless ? QStringLiteral("\u2014") : tr("n/a"), v ? QVariant(*v) : QVariant());
      if (unitless) table.item(row, column)->setToolTip(tr("The channels are in different units, which do not add up: "
                                                           "see each channel's row"));
    }
    cell(kMetricsWindows, QString::number(f.metrics->scaled.windows), qlonglong(f.metrics->scaled.windows));
    ++row;
  };
  for (const Forecaster& f : forecasters) {
    if (several) {
      addRow(f, channelName, channel);  // the channel chosen (the run's target) leads
      addRow(f, tr("all channels"), std::nullopt);
    } else {
      addRow(f, channelName, std::nullopt);
    }
  }
  if (baselines.seasonal_naive)
    return tr("The seasonal naive forecast repeats the value one season earlier: %1.")
        .arg(QString::fromStdString(baselines.period.note));
  const QString why = capitalized(QString::fromStdString(baselines.period.note));
  return why.endsWith(QLatin1Char('.')) || why.isEmpty() ? why : why + QLatin1Char('.');
}

}  // namespace aaren::ui
