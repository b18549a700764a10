#include "ui/pages/future_forecast_csv.hpp"

#include <QCoreApplication>
#include <QStringList>
#include <stdexcept>

#include "ui/atomic_write.hpp"
#include "ui/workers/run_forecast_loader.hpp"

namespace aaren::ui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("aaren::ui::FutureForecastCsv", text); }

// A CSV field: quoted when it holds a comma, a quote or a line break.
QString field(const QString& text) {
  if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
    return text;
  return QLatin1Char('"') + QString(text).replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
}

}  // namespace

QString futureForecastCsv(const RunForecastSet* set) {
  if (!set || set->models.empty())
    throw std::runtime_error(tr("there is no forecast to export: open a run on the Forecast page first").toStdString());
  const WindowForecast& first = set->models.front().future;
  const int steps = first.forecast.rows;
  if (steps <= 0)
    throw std::runtime_error(tr("the run has no forecast past the end of its data (it has no steps)").toStdString());
  const std::vector<std::string>& channels = first.channels;
  const std::string& dateColumn = set->models.front().data->table.date_column_name;

  QStringList header{field(dateColumn.empty() ? tr("row") : QString::fromStdString(dateColumn))};
  for (const ModelForecastSource& model : set->models)
    for (const std::string& channel : channels)
      header << field(tr("%1 %2").arg(model.modelName, QString::fromStdString(channel)));
  QString text = header.join(QLatin1Char(',')) + QLatin1Char('\n');
  for (int h = 0; h < steps; ++h) {
    QStringList row{field(h < int(first.dates.size()) ? QString::fromStdString(first.dates[std::size_t(h)])
                                                       : QString())};
    for (const ModelForecastSource& model : set->models)
      for (int c = 0; c < model.future.forecast.cols; ++c)
        row << QString::number(model.future.forecast(h, c), 'g', 10);
    text += row.join(QLatin1Char(',')) + QLatin1Char('\n');
  }
  return text;
}

void exportFutureForecastCsv(const RunForecastSet* set, const QString& path) {
  const QByteArray bytes = futureForecastCsv(set).toUtf8();  // throws, before any file is touched
  writeFileAtomically(path, [&bytes](QIODevice& device) { device.write(bytes); });
}

}  // namespace aaren::ui
