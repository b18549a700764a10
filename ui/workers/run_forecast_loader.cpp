#include "ui/workers/run_forecast_loader.hpp"

#include <QDir>
#include <QFileInfo>
#include <algorithm>
#include <stdexcept>

#include "core/forecast/forecast_run.hpp"
#include "core/forecast/forecast_task.hpp"
#include "core/forecast/forecast_windows.hpp"
#include "core/train/trainer.hpp"
#include "ui/bundled_datasets.hpp"
#include "ui/run_list.hpp"

namespace aaren::ui {

namespace {

EvalMetrics measureTestWindows(const LoadedForecastRun& run, const ForecastData& data) {
  std::vector<float> params = run.params;  // the trainer works on parameters it may change
  Trainer trainer(ParameterLayout(run.config.model), params, run.config.train);
  const ForecastWindows test(data, data.test);
  return forecast_metrics(trainer, ForecastTask(run.config.model, test));
}

}  // namespace

QString findRunDataFile(const ForecastRunConfig& config, const QString& runDir, const QString& preferred) {
  const QString recorded = QString::fromStdString(config.data_file);
  const QString fileName = QFileInfo(recorded).fileName();
  if (!preferred.isEmpty() && QFileInfo(preferred).fileName() == fileName && QFileInfo(preferred).isFile())
    return QFileInfo(preferred).absoluteFilePath();

  QStringList candidates;
  if (QFileInfo(recorded).isAbsolute()) {
    candidates << recorded;
  } else {
    const QDir run(runDir);
    candidates << QDir::current().filePath(recorded) << run.filePath(recorded)
               << QDir(run.filePath(QStringLiteral(".."))).filePath(recorded)
               << QDir(run.filePath(QStringLiteral("../.."))).filePath(recorded);
  }
  const QString bundled = bundledDatasetsDir();
  if (!bundled.isEmpty())
    for (const BundledDataset& dataset : bundledDatasets(bundled))
      if (QFileInfo(dataset.path).fileName() == fileName) candidates << dataset.path;
  for (const QString& candidate : candidates)
    if (QFileInfo(candidate).isFile()) return QFileInfo(candidate).absoluteFilePath();
  throw std::runtime_error(QStringLiteral("the run was trained on '%1', which was not found (looked for it %2 and "
                                          "among the bundled datasets); open that file on the Data page, then open "
                                          "the run again")
                               .arg(recorded,
                                    QFileInfo(recorded).isAbsolute() ? QStringLiteral("at that path")
                                                                      : QStringLiteral("beside the run and in the "
                                                                                       "working folder"))
                               .toStdString());
}

RunForecastSet loadRunForecastSet(const QString& runDir, const QString& preferredDataPath, const CancelToken& token) {
  const RunEntry entry = readRunEntry(runDir);
  if (entry.models.empty()) throw std::runtime_error(QStringLiteral("%1: the run has no model").arg(runDir).toStdString());
  RunForecastSet set;
  set.runDir = runPath(entry.dir);
  set.runName = QString::fromStdString(entry.name);
  for (const ModelRunEntry& model : entry.models) {
    token.throw_if_cancelled(runDir.toStdString());
    ModelForecastSource source;
    source.modelName = modelName(model);
    source.run = open_forecast_run(model);
    const QString dataPath = findRunDataFile(source.run.config, runPath(model.dir), preferredDataPath);
    if (set.dataPath.isEmpty()) set.dataPath = dataPath;
    auto data = std::make_shared<ForecastData>(
        prepare_run_data(source.run.config, dataPath.toStdString(), token));
    source.test = measureTestWindows(source.run, *data);
    // The period the run was compared with when it trained (given or found), else found now.
    const std::optional<TestComparison>& recorded = source.run.metrics.test_comparison;
    const SeasonalPeriod period = recorded && recorded->period.source == "given"
                                      ? seasonal_period_of(*data, recorded->period.length)
                                      : seasonal_period_of(*data);
    source.comparison = compare_with_baselines(source.test, *data, period);
    source.future = forecast_after_end(source.run, *data);
    source.data = std::move(data);
    set.models.push_back(std::move(source));
  }
  set.testWindows = set.models.front().data->test.sample_count();
  for (const ModelForecastSource& source : set.models)
    set.testWindows = std::min(set.testWindows, source.data->test.sample_count());
  return set;
}

}  // namespace aaren::ui
