#pragma once
// A run's figures as they are on disk, whatever a page shows: the loss curves of every model, the
// forecast of a test window or of the horizon after the data, and the metrics table. The lecture
// pack and the report both draw these, so the two never disagree.
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <vector>

#include "core/events/event_run.hpp"
#include "ui/classify/classify_results.hpp"
#include "core/runs/run_catalog.hpp"
#include "core/forecast/forecast_evaluation.hpp"
#include "core/rl/offline_dataset.hpp"
#include "ui/rl/act_results.hpp"
#include "ui/theme.hpp"
#include "ui/workers/run_forecast_loader.hpp"

namespace aaren::ui {

class ChartPanel;

// A table of text, header first: what the report prints, the pack writes as CSV and HTML.
struct TextTable {
  QStringList header;
  std::vector<QStringList> rows;
};

// Everything of a run that its figures need, read from its folder.
struct RunOnDisk {
  RunEntry entry;                                 // config.json and metrics.json of each model
  QString dataPath;                               // the data file the run was read with
  std::shared_ptr<const RunForecastSet> forecasts;  // forecasting runs only: weights and data
  // Forecasting runs: each model's test errors in both units beside the naive baselines, measured
  // anew on the same test windows (forecasts' order).
  std::vector<TestComparison> comparisons;
  std::shared_ptr<const EventRunData> eventData;  // event runs only: the log as the run splits it
  // Classification runs only: each model's predictions of the test file (else the training file).
  std::shared_ptr<const ClassifyResults> classification;
  // Reinforcement-learning runs only: one seeded episode of each model (seed 1, acting as it was
  // trained to, aiming at the expert's return), and the offline data set when its file is found.
  std::shared_ptr<const ActResults> acting;
  std::shared_ptr<const rl::OfflineDataset> offline;
  bool decides() const { return acting != nullptr; }
  bool events() const { return !entry.models.empty() && entry.models.front().events(); }
  bool classifies() const { return classification != nullptr; }
  QString name() const { return QString::fromStdString(entry.name); }
};

// Throws std::runtime_error naming the folder or file and what is wrong: no such folder, no run,
// a run with a problem, data that cannot be found or does not fit. `preferredData` is tried first
// for the data file (see findRunDataFile).
RunOnDisk readRunOnDisk(const QString& runDir, const QString& preferredData = {});

// Each model's training and validation loss per epoch.
std::unique_ptr<ChartPanel> lossChart(const RunOnDisk& run);
// History, truth and every model's forecast of test window `window` (0-based; -1 the last one),
// on the target channel (else the first).
std::unique_ptr<ChartPanel> testWindowChart(const RunOnDisk& run, int window);
// The last look-back of the data and every model's forecast of the horizon after it.
std::unique_ptr<ChartPanel> futureChart(const RunOnDisk& run);

// Classification runs: model `model`'s confusion matrix on the test file (else the training file).
std::unique_ptr<ChartPanel> confusionChart(const RunOnDisk& run, int model);

// Reinforcement-learning runs: the data set's episodes by normalized score (null when the data
// set's file was not found), and a strip of `frames` frames of model `model`'s episode.
std::unique_ptr<ChartPanel> datasetScoresChart(const RunOnDisk& run);
QImage episodeStripImage(const RunOnDisk& run, int model, int frames, Theme theme);

// The test windows worth showing: the first, the middle and the last (fewer when there are fewer).
std::vector<int> sampleTestWindows(const RunOnDisk& run, int count = 3);

// The test metrics, a row per model and per baseline. For forecasting, beside the last value repeated
// and the seasonal naive forecast on the same windows: with one channel its MSE and MAE in the data's
// units and scaled; with several, the target's (when one is chosen) in both, then the mean over every
// channel on the scaled data only, since channels in different units do not add up. For events NLL
// per event, RMSE and accuracy beside the Poisson process fitted to the training part. For
// classification each model's accuracy, macro F1 and NLL per case beside the yardsticks' accuracies
// on the same cases (metrics.json's test.baselines). For Decision Transformers each model's
// normalized score after training (mean ± deviation over its evaluation's episodes), mean return,
// validation action MSE, time per step and state kept, beside the random policy, the expert and the
// data set's own episodes.
TextTable metricsTable(const RunOnDisk& run);
// Forecasting only: a row per channel (the target first) with each forecaster's test MSE and MAE in
// the channel's own units.
TextTable channelMetricsTable(const RunOnDisk& run);

// Every setting of each model's config.json, a row per "section.key" and a column per model, each
// value whole (lists joined by ", "), for the report to wrap rather than cut.
TextTable configurationTable(const RunOnDisk& run);

// "forecast: Aaren + Transformer, look-back 24, horizon 12" and the like, for captions.
QString runSummary(const RunOnDisk& run);

}  // namespace aaren::ui
