#include "ui/report/run_figures.hpp"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QFileInfo>
#include <QLineSeries>
#include <QObject>
#include <QTimeZone>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/data/date_parse.hpp"
#include "core/forecast/forecast_run.hpp"
#include "ui/chart_panel.hpp"
#include "ui/classify/class_charts.hpp"
#include "ui/charts/loss_curves.hpp"
#include "ui/charts/model_colors.hpp"
#include "ui/charts/row_axis.hpp"
#include "core/rl/dataset_summary.hpp"
#include "core/rl/reference_returns.hpp"
#include "ui/rl/episode_strip.hpp"
#include "ui/rl/score_histogram.hpp"
#include "ui/run_list.hpp"
#include "ui/wording/model_names.hpp"

namespace aaren::ui {

namespace {

// The Forecast page's colours, so a figure reads the same in the pack, the report and the app.
const QColor kHistoryColor(0x8a, 0x94, 0xa0);
const QColor kTruthColor(0x2e, 0x9d, 0x5b);

const RunForecastSet& forecastsOf(const RunOnDisk& run) {
  if (!run.forecasts || run.forecasts->models.empty())
    throw std::runtime_error(QObject::tr("%1 is an event run: it has no forecasts of a series").arg(run.name()).toStdString());
  return *run.forecasts;
}

int chartChannel(const ForecastData& data) { return data.table.target >= 0 ? data.table.target : 0; }

// Four significant digits, without an exponent for the sizes data comes in.
QString number(double value) {
  if (std::isnan(value)) return QObject::tr("n/a");
  return std::abs(value) >= 1e4 && std::abs(value) < 1e12 ? QString::number(value, 'f', 0) : QString::number(value, 'g', 4);
}

// The channels a run forecasts (every channel, or with the features MS and S the target alone) and
// the target's place among them (-1 for none): the order of its metrics' per-channel lists.
struct ForecastChannels {
  std::vector<std::string> names;
  int target = -1;
};

ForecastChannels forecastChannelsOf(const RunOnDisk& run) {
  const ForecastData& data = *run.forecasts->models.front().data;
  ForecastChannels channels{data.forecast_channel_names(), -1};
  if (data.table.target >= 0)
    for (std::size_t c = 0; c < channels.names.size(); ++c)
      if (channels.names[c] == data.table.channel_names[std::size_t(data.table.target)]) channels.target = int(c);
  return channels;
}

// A channel's error, or NaN ("n/a") where the run recorded none.
double channelValue(const std::vector<double>& values, int channel) {
  return channel >= 0 && channel < int(values.size()) ? values[std::size_t(channel)] : std::nan("");
}

// Where row `row` sits on the chart. Rows past the end of the data sit at the dates the forecast
// gives them (which continue the file's calendar), or continue the row numbers.
qreal rowX(const RowAxis& axis, int row, const WindowForecast& forecast, int horizonStep) {
  const int known = int(axis.x.size());
  if (row < known) return axis.x[std::size_t(row)];
  if (axis.kind == XAxisKind::dateTime && horizonStep < int(forecast.dates.size()))
    if (const auto seconds = parse_date_time(forecast.dates[std::size_t(horizonStep)])) {
      // As row_axis.cpp places dates: the same wall-clock reading in local time.
      const QDateTime utc = QDateTime::fromMSecsSinceEpoch(qint64(*seconds * 1000.0), QTimeZone::utc());
      return qreal(QDateTime(utc.date(), utc.time()).toMSecsSinceEpoch());
    }
  const qreal step = known > 1 ? axis.x[std::size_t(known - 1)] - axis.x[std::size_t(known - 2)] : 1.0;
  return axis.x.back() + step * (row - known + 1);
}

QList<QPointF> rowPoints(const RowAxis& axis, int first, const Matrix<double>& values, int channel,
                         const WindowForecast& forecast) {
  QList<QPointF> points;
  for (int i = 0; i < values.rows; ++i) points << QPointF(rowX(axis, first + i, forecast, i), values(i, channel));
  return points;
}

// History and each model's forecast from the rows starting at `historyRow`; truth when known.
std::unique_ptr<ChartPanel> forecastChart(const RunOnDisk& run, const QString& title, int window) {
  const RunForecastSet& set = forecastsOf(run);
  const ForecastData& data = *set.models.front().data;
  const RowAxis axis = rowAxisFor(data.table);
  const int channel = chartChannel(data);
  auto chart = std::make_unique<ChartPanel>(title);
  applyRowAxis(*chart, axis, QString::fromStdString(data.table.channel_names[std::size_t(channel)]));
  const int historyRow = window >= 0 ? data.test.input_row(window) : data.scaled.rows - data.options.seq_len;
  const int targetRow = historyRow + data.options.seq_len;
  const int column = data.forecast_channel >= 0 ? 0 : channel;  // features MS forecast the target alone
  bool first = true;
  for (const ModelForecastSource& model : set.models) {
    const WindowForecast forecast = window >= 0 ? forecast_test_window(model.run, *model.data, window)
                                                : forecast_after_end(model.run, *model.data);
    if (first) {
      setSeriesData(chart->addLineSeries(QObject::tr("History"), kHistoryColor),
                    rowPoints(axis, historyRow, forecast.history, column, forecast));
      if (forecast.truth.rows > 0)
        setSeriesData(chart->addLineSeries(QObject::tr("Truth"), kTruthColor),
                      rowPoints(axis, targetRow, forecast.truth, column, forecast));
      first = false;
    }
    setSeriesData(chart->addLineSeries(QObject::tr("%1 forecast").arg(model.modelName), modelColor(model.modelName)),
                  rowPoints(axis, targetRow, forecast.forecast, column, forecast));
  }
  chart->resetView();
  return chart;
}

}  // namespace

RunOnDisk readRunOnDisk(const QString& runDir, const QString& preferredData) {
  RunOnDisk run;
  run.entry = readRunEntry(runDir);
  if (!run.entry.problem.empty()) throw std::runtime_error(run.entry.problem);
  if (run.entry.models.empty())
    throw std::runtime_error(QObject::tr("%1: the run holds no model").arg(runDir).toStdString());
  for (const ModelRunEntry& model : run.entry.models)
    if (!model.has_metrics())
      throw std::runtime_error(
          QObject::tr("%1: no metrics.json yet (the model has not finished training)").arg(runPath(model.dir)).toStdString());
  // An event log or an offline data set is found where a forecasting run's series would be.
  const auto dataFileOf = [&](const std::string& recorded) {
    ForecastRunConfig located;
    located.data_file = recorded;
    return findRunDataFile(located, runDir, preferredData);
  };
  if (const DecisionModelFiles* decision = run.entry.models.front().decision()) {
    // The data set is described when it is found; the models act whether or not it is.
    try {
      run.dataPath = dataFileOf(decision->config.data.data_file);
      run.offline = std::make_shared<const rl::OfflineDataset>(rl::read_dataset(run.dataPath.toStdString()));
    } catch (const std::runtime_error&) {
      run.dataPath = QString::fromStdString(decision->config.data.data_file);
    }
    run.acting = std::make_shared<const ActResults>(actRun(runDir, {}));
    return run;
  }
  if (run.events()) {
    const EventRunConfig& config = run.entry.models.front().events()->config;
    run.dataPath = dataFileOf(config.data.data_file);
    run.eventData = std::make_shared<const EventRunData>(prepare_event_run_data(config, run.dataPath.toStdString()));
    return run;
  }
  if (run.entry.models.front().classify()) {
    run.classification = std::make_shared<const ClassifyResults>(loadClassifyResults(runDir));
    run.dataPath = run.classification->trainFile;
    return run;
  }
  run.forecasts = std::make_shared<const RunForecastSet>(loadRunForecastSet(runDir, preferredData));
  run.dataPath = run.forecasts->dataPath;
  for (const ModelForecastSource& model : run.forecasts->models)
    run.comparisons.push_back(evaluate_against_baselines(model.run, *model.data, seasonal_period_of(*model.data)));
  return run;
}

std::unique_ptr<ChartPanel> lossChart(const RunOnDisk& run) {
  auto chart = std::make_unique<LossCurvesChart>();
  QStringList names;
  for (const ModelRunEntry& model : run.entry.models) names << modelName(model);
  chart->reset(names, run.events());
  if (run.classifies()) chart->setAxisTitles(QObject::tr("epoch"), QObject::tr("cross-entropy per case"));  // as the Train page
  if (run.decides()) chart->setAxisTitles(QObject::tr("epoch"), QObject::tr("action MSE"));
  for (std::size_t i = 0; i < run.entry.models.size(); ++i) chart->showEpochs(int(i), run.entry.models[i].epochs());
  return chart;
}

std::unique_ptr<ChartPanel> testWindowChart(const RunOnDisk& run, int window) {
  const int count = forecastsOf(run).testWindows;
  if (count < 1) throw std::runtime_error(QObject::tr("%1 has no test window").arg(run.name()).toStdString());
  const int shown = window < 0 ? count - 1 : window;
  if (shown >= count)
    throw std::invalid_argument(
        QObject::tr("test window %1 does not exist: the run has windows 1 to %2").arg(shown + 1).arg(count).toStdString());
  return forecastChart(run, QObject::tr("Test window %1 of %2 (%3)").arg(shown + 1).arg(count).arg(run.name()), shown);
}

std::unique_ptr<ChartPanel> futureChart(const RunOnDisk& run) {
  return forecastChart(run, QObject::tr("Forecast after the data (%1)").arg(run.name()), -1);
}

std::unique_ptr<ChartPanel> confusionChart(const RunOnDisk& run, int model) {
  if (!run.classifies()) throw std::runtime_error(QObject::tr("%1 is not a classification run").arg(run.name()).toStdString());
  const ClassifyResults& results = *run.classification;
  const ClassifyModelResults& shown = results.models.at(std::size_t(model));
  auto chart = std::make_unique<ConfusionMatrixChart>();
  chart->setTitle(QObject::tr("Confusion matrix of %1 on %2").arg(shown.name, QFileInfo(results.casesFile).fileName()));
  chart->setMatrix(results.classNames, shown.report.confusion);
  return chart;
}

std::vector<int> sampleTestWindows(const RunOnDisk& run, int count) {
  const int windows = run.forecasts ? run.forecasts->testWindows : 0;
  std::vector<int> chosen;
  for (int i = 0; i < count && windows > 0; ++i) {
    const int window = count == 1 ? windows - 1 : int((long(windows - 1) * i) / (count - 1));
    if (chosen.empty() || chosen.back() != window) chosen.push_back(window);
  }
  return chosen;
}

namespace {

TextTable decisionMetricsTable(const RunOnDisk& run) {
  TextTable table;
  table.header = {QObject::tr("Policy"), QObject::tr("Normalized score"), QObject::tr("Mean return"),
                  QObject::tr("Validation MSE"), QObject::tr("µs a step"), QObject::tr("State kept")};
  const std::string& environment = run.acting->environment;
  for (const ModelRunEntry& model : run.entry.models) {
    const rl::DecisionRunMetrics& metrics = *model.decision()->metrics;
    if (!metrics.evaluation) {
      table.rows.push_back({modelName(model), QObject::tr("not evaluated"), QString(), QString::number(metrics.validation_mse, 'g', 5),
                            QString(), QString()});
      continue;
    }
    const rl::DecisionEvaluationSummary& e = *metrics.evaluation;
    table.rows.push_back({QObject::tr("%1 (%2, %3 episodes)")
                              .arg(modelName(model), actModeName(e.act_mode))
                              .arg(e.episodes.size()),
                          QObject::tr("%1 ± %2").arg(e.score_mean, 0, 'f', 1).arg(e.score_sd, 0, 'f', 1),
                          QString::number(e.return_mean, 'f', 1), QString::number(metrics.validation_mse, 'g', 5),
                          QString::number(e.median_step_seconds * 1e6, 'f', 1), QObject::tr("%1 B").arg(e.state_bytes)});
  }
  const rl::ReferenceReturns& reference = rl::reference_returns(environment);
  table.rows.push_back({QObject::tr("Random policy"), QStringLiteral("0.0"), QString::number(reference.random, 'f', 1),
                        QString(), QString(), QString()});
  table.rows.push_back({QObject::tr("Expert (closed form)"), QStringLiteral("100.0"), QString::number(reference.expert, 'f', 1),
                        QString(), QString(), QString()});
  if (run.offline) {
    const rl::DatasetSummary summary = rl::summarize_dataset(*run.offline);
    if (summary.whole_episodes > 0)
      table.rows.push_back({QObject::tr("The data set's %1 episodes").arg(summary.whole_episodes),
                            QString::number(summary.score_mean, 'f', 1), QString::number(summary.return_mean, 'f', 1),
                            QString(), QString(), QString()});
  }
  return table;
}

TextTable classificationMetricsTable(const ClassifyResults& results) {
  TextTable table;
  table.header = {QObject::tr("Classifier"), QObject::tr("Accuracy"), QObject::tr("Macro F1"), QObject::tr("NLL per case"),
                  QObject::tr("Cases")};
  for (const ClassifyModelResults& model : results.models) {
    const ClassificationReport& r = model.report;
    table.rows.push_back({model.name, number(r.overall.accuracy), number(r.macro_f1), number(r.overall.nll),
                          QString::number(r.overall.cases)});
  }
  // The yardsticks were measured on the test file when the run was trained; every model's run
  // holds the same ones.
  const std::optional<NeighbourBaselines>& b = results.models.front().run.metrics.test_baselines;
  if (!b || !results.casesAreTest) return table;
  const QString cases = QString::number(b->test_cases);
  const auto yardstick = [&](const QString& name, double accuracy) {
    table.rows.push_back({name, number(accuracy), QString(), QString(), cases});
  };
  yardstick(QObject::tr("Majority class ('%1')").arg(results.classNames.value(b->majority_class)), b->majority);
  yardstick(QObject::tr("1-NN Euclidean"), b->euclidean);
  yardstick(QObject::tr("1-NN DTW, full window"), b->dtw_full);
  yardstick(QObject::tr("1-NN DTW, window %1 steps (%2%)").arg(b->window.window).arg(b->window.percent), b->dtw_window);
  return table;
}

}  // namespace

std::unique_ptr<ChartPanel> datasetScoresChart(const RunOnDisk& run) {
  if (!run.offline) return nullptr;
  auto chart = std::make_unique<ClassBarsChart>();
  drawScoreHistogram(*chart, rl::summarize_dataset(*run.offline));
  return chart;
}

QImage episodeStripImage(const RunOnDisk& run, int model, int frames, Theme theme) {
  if (!run.decides()) throw std::runtime_error(QObject::tr("%1 is not a reinforcement-learning run").arg(run.name()).toStdString());
  // Three frames a row, sized so that a page's width keeps their captions readable.
  return renderEpisodeStrip(*run.acting, model, frames, 3, QSize(400, 260), 18, theme);
}

TextTable metricsTable(const RunOnDisk& run) {
  if (run.classifies()) return classificationMetricsTable(*run.classification);
  if (run.decides()) return decisionMetricsTable(run);
  TextTable table;
  if (run.events()) {
    table.header = {QObject::tr("Forecaster"), QObject::tr("NLL per event"), QObject::tr("Time NLL"), QObject::tr("RMSE"),
                    QObject::tr("Accuracy"), QObject::tr("Events")};
    double poissonNll = 0;
    bool marked = false;
    for (const ModelRunEntry& model : run.entry.models) {
      const EventRunMetrics& metrics = *model.events()->metrics;
      const EventEvalMetrics& test = metrics.test;
      poissonNll = metrics.poisson_test_nll_per_event;
      marked = model.events()->config.model.marks > 0;
      table.rows.push_back({modelName(model), number(test.nll_per_event), number(test.time_nll_per_event),
                            number(test.rmse), number(test.accuracy), QString::number(test.events)});
    }
    // The Poisson process predicts times only: its NLL per event compares where there are no marks.
    table.rows.push_back({QObject::tr("Poisson process (baseline)"), marked ? QString() : number(poissonNll),
                          number(poissonNll), QString(), QString(), QString()});
    return table;
  }
  if (run.comparisons.empty()) return table;
  const ForecastChannels forecast = forecastChannelsOf(run);
  const int channels = int(forecast.names.size());
  const int target = forecast.target;
  table.header << QObject::tr("Forecaster");
  if (channels == 1) {
    table.header << QObject::tr("MSE") << QObject::tr("MAE") << QObject::tr("MSE (scaled)") << QObject::tr("MAE (scaled)");
  } else {
    if (target >= 0) {
      const QString name = QString::fromStdString(forecast.names[std::size_t(target)]);
      table.header << QObject::tr("%1 MSE").arg(name) << QObject::tr("%1 MAE").arg(name)
                   << QObject::tr("%1 MSE (scaled)").arg(name) << QObject::tr("%1 MAE (scaled)").arg(name);
    }
    // Kilowatts and degrees do not add up: over every channel, only the scaled errors are averaged.
    table.header << QObject::tr("Mean of %1 channels, MSE (scaled)").arg(channels)
                 << QObject::tr("Mean of %1 channels, MAE (scaled)").arg(channels);
  }
  auto addRow = [&](const QString& name, const UnitMetrics& metrics) {
    QStringList row{name};
    if (channels == 1) {
      row << number(metrics.original.mse) << number(metrics.original.mae) << number(metrics.scaled.mse)
          << number(metrics.scaled.mae);
    } else {
      if (target >= 0)
        row << number(channelValue(metrics.original.channel_mse, target)) << number(channelValue(metrics.original.channel_mae, target))
            << number(channelValue(metrics.scaled.channel_mse, target)) << number(channelValue(metrics.scaled.channel_mae, target));
      row << number(metrics.scaled.mse) << number(metrics.scaled.mae);
    }
    table.rows.push_back(row);
  };
  for (std::size_t i = 0; i < run.comparisons.size(); ++i) addRow(run.forecasts->models[i].modelName, run.comparisons[i].model);
  // Every model of a run reads the same test windows, so the baselines are the same for each.
  const TestComparison& first = run.comparisons.front();
  addRow(QObject::tr("Last value repeated"), first.last_value);
  if (first.seasonal_naive)
    addRow(QObject::tr("Seasonal naive (period %1)").arg(first.period.length), *first.seasonal_naive);
  return table;
}

TextTable channelMetricsTable(const RunOnDisk& run) {
  TextTable table;
  if (run.events() || run.comparisons.empty()) return table;
  const ForecastChannels channels = forecastChannelsOf(run);
  const TestComparison& first = run.comparisons.front();
  std::vector<std::pair<QString, const EvalMetrics*>> forecasters;
  for (std::size_t i = 0; i < run.comparisons.size(); ++i)
    forecasters.emplace_back(run.forecasts->models[i].modelName, &run.comparisons[i].model.original);
  forecasters.emplace_back(QObject::tr("Last value repeated"), &first.last_value.original);
  if (first.seasonal_naive) forecasters.emplace_back(QObject::tr("Seasonal naive"), &first.seasonal_naive->original);
  // A row per channel and a pair of columns per forecaster: as many channels as a file has, the
  // table grows down the page, not off its edge.
  table.header << QObject::tr("Channel");
  for (const auto& [name, metrics] : forecasters) table.header << QObject::tr("%1 MSE").arg(name) << QObject::tr("%1 MAE").arg(name);
  std::vector<int> order;
  if (channels.target >= 0) order.push_back(channels.target);
  for (int c = 0; c < int(channels.names.size()); ++c)
    if (c != channels.target) order.push_back(c);
  for (const int c : order) {
    const QString name = QString::fromStdString(channels.names[std::size_t(c)]);
    QStringList row{c == channels.target ? QObject::tr("%1 (target)").arg(name) : name};
    for (const auto& [forecaster, metrics] : forecasters)
      row << number(channelValue(metrics->channel_mse, c)) << number(channelValue(metrics->channel_mae, c));
    table.rows.push_back(row);
  }
  return table;
}

namespace {

// A setting as config.json holds it, to six significant digits (a learning rate, a channel's mean).
QString settingNumber(double value) { return QString::number(value, 'g', 6); }

// config.json flattened to "section.key" -> value, so that both models' files line up.
QList<QPair<QString, QString>> configEntries(const QString& modelDir) {
  QFile file(modelDir + QStringLiteral("/config.json"));
  QList<QPair<QString, QString>> entries;
  if (!file.open(QIODevice::ReadOnly)) return entries;
  const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
  for (auto section = root.begin(); section != root.end(); ++section) {
    if (!section.value().isObject()) continue;  // "format", "version": the file's, not the run's
    const QJsonObject fields = section.value().toObject();
    for (auto field = fields.begin(); field != fields.end(); ++field) {
      const QJsonValue value = field.value();
      QString shown;
      if (value.isArray()) {
        QStringList items;
        for (const QJsonValue& item : value.toArray())
          items << (item.isDouble() ? settingNumber(item.toDouble()) : item.toVariant().toString());
        shown = items.join(QStringLiteral(", "));
      } else {
        shown = value.isDouble() ? settingNumber(value.toDouble()) : value.toVariant().toString();
      }
      entries.append({section.key() + QLatin1Char('.') + field.key(), shown});
    }
  }
  return entries;
}

}  // namespace

TextTable configurationTable(const RunOnDisk& run) {
  TextTable table;
  table.header << QObject::tr("Setting");
  QList<QList<QPair<QString, QString>>> models;
  for (const ModelRunEntry& model : run.entry.models) {
    table.header << modelName(model);
    models.append(configEntries(runPath(model.dir)));
  }
  QStringList keys;
  for (const auto& entries : models)
    for (const auto& [key, value] : entries)
      if (!keys.contains(key)) keys << key;
  for (const QString& key : keys) {
    QStringList row{key};
    for (const auto& entries : models) {
      QString value;
      for (const auto& entry : entries)
        if (entry.first == key) value = entry.second;
      // Whole, however long: the table wraps it (ReportLayout::table), never cuts it.
      row << value;
    }
    table.rows.push_back(row);
  }
  return table;
}

QString runSummary(const RunOnDisk& run) {
  QStringList names;
  for (const ModelRunEntry& model : run.entry.models) names << modelName(model);
  if (run.events())
    return QObject::tr("%1: event model%2 %3").arg(run.name(), names.size() > 1 ? QStringLiteral("s") : QString(),
                                                   names.join(QStringLiteral(" + ")));
  if (run.decides())
    return QObject::tr("%1: Decision Transformer%2 %3 on %4, data %5")
        .arg(run.name(), names.size() > 1 ? QStringLiteral("s") : QString(), names.join(QStringLiteral(" + ")),
             QString::fromStdString(run.acting->environment), QFileInfo(run.dataPath).fileName());
  if (run.classifies())
    return QObject::tr("%1: classifier%2 %3, data %4")
        .arg(run.name(), names.size() > 1 ? QStringLiteral("s") : QString(), names.join(QStringLiteral(" + ")),
             QFileInfo(run.dataPath).fileName());
  const ModelConfig& model = run.forecasts->models.front().run.config.model;
  return QObject::tr("%1: %2, look-back %3, horizon %4, data %5")
      .arg(run.name(), names.join(QStringLiteral(" + ")))
      .arg(model.seq_len)
      .arg(model.horizon)
      .arg(QFileInfo(run.forecasts->dataPath).fileName());
}

}  // namespace aaren::ui
