#pragma once
// Everything the Forecast page needs from a run folder, gathered in one call that may take a while
// (it runs as a BackgroundJob): each model's best weights, the data it was trained on prepared the
// way it was prepared then, each model's MSE and MAE over all test windows (scaled, as the literature
// reports them, and in the data's units, per channel and overall) beside the two naive baselines on
// the same windows (core/forecast/forecast_evaluation.hpp), and its forecast past the last row, with
// the dates that continue the data's (core/forecast/forecast_run.hpp: forecast_after_end).
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

#include "core/data/forecast_data.hpp"
#include "core/forecast/forecast_evaluation.hpp"
#include "core/forecast/forecast_run.hpp"
#include "core/forecast/forecast_run_folder.hpp"
#include "core/util/cancel_token.hpp"

namespace aaren::ui {

struct ModelForecastSource {
  QString modelName;  // "Aaren", "Transformer"
  LoadedForecastRun run;
  std::shared_ptr<const ForecastData> data;  // prepared with this run's configuration and scaler
  EvalMetrics test;  // scaled, with each channel's
  TestComparison comparison;  // test in both units, beside the baselines on the same windows
  WindowForecast future;      // from the last look-back rows, past the end of the data
};

struct RunForecastSet {
  QString runDir;
  QString runName;   // the folder's name
  QString dataPath;  // the file the data was read from
  std::vector<ModelForecastSource> models;  // Aaren before the Transformer
  int testWindows = 0;  // common to all models
};

// The CSV file a run was trained on: `preferred` when it has the same file name (the file open on
// the Data page), else the recorded path, relative paths tried from the working folder, the run
// folder and its parent, and finally the bundled datasets. Throws std::runtime_error saying where
// it looked.
QString findRunDataFile(const ForecastRunConfig& config, const QString& runDir, const QString& preferred = {});

// Throws std::runtime_error for a folder that is not a (complete) run or data that does not fit
// it. `token` stops the load (ReadCancelled) between models and while a data file is read.
RunForecastSet loadRunForecastSet(const QString& runDir, const QString& preferredDataPath = {},
                                  const CancelToken& token = {});

}  // namespace aaren::ui

Q_DECLARE_METATYPE(std::shared_ptr<const aaren::ui::RunForecastSet>)
