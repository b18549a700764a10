#include "ui/pages/run_chart_export.hpp"

#include <memory>

#include "ui/pages/current_dataset.hpp"
#include "ui/pages/forecast_page.hpp"
#include "ui/pages/train_page.hpp"
#include "ui/workers/run_forecast_loader.hpp"

namespace aaren::ui {

QStringList exportRunCharts(const QString& runDir, const QString& folder, const ImageOptions& options) {
  CurrentDataset dataset;
  TrainPage train(&dataset);
  ForecastPage forecast(&dataset);
  train.showRun(runDir);
  forecast.showForecasts(std::make_shared<const RunForecastSet>(loadRunForecastSet(runDir)));
  return exportLecturePack({&train, &forecast}, folder, options);
}

}  // namespace aaren::ui
