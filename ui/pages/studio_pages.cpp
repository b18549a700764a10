#include "ui/pages/studio_pages.hpp"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFileInfo>

#include "ui/main_window.hpp"
#include "ui/pages/data_page.hpp"
#include "ui/pages/forecast_page.hpp"
#include "ui/pages/run_list_view.hpp"
#include "ui/pages/train_page.hpp"

namespace aaren::ui {

bool StudioPages::isBusy() const {
  return data->isLoading() || forecast->isLoading() || train->runList()->isListing();
}

StudioPages addStudioPages(MainWindow& window) {
  StudioPages pages;
  pages.dataset = new CurrentDataset(&window);
  pages.data = new DataPage(pages.dataset);
  pages.train = new TrainPage(pages.dataset);
  pages.forecast = new ForecastPage(pages.dataset);
  window.addPage(pages.data);
  window.addPage(pages.train);
  window.addPage(pages.forecast);

  CurrentDataset* dataset = pages.dataset;
  QObject::connect(dataset, &CurrentDataset::changed, &window, [&window, dataset] { window.showDataFile(dataset->path()); });
  DataPage* data = pages.data;
  TrainPage* train = pages.train;
  ForecastPage* forecast = pages.forecast;
  QObject::connect(&window, &MainWindow::dataFileOpenRequested, data, [&window, data](const QString& path) {
    window.showPage(data->id());
    data->openDataFile(path);
  });
  QObject::connect(train, &TrainPage::forecastRequested, forecast, [&window, forecast](const QString& runDir) {
    window.showPage(forecast->id());
    forecast->openRun(runDir);
  });
  // The Forecast page follows the Train page: each run it writes (finished, or stopped with its best
  // weights) is the one the Forecast page shows next, without a click on the run list.
  QObject::connect(train, &TrainPage::trainingFinished, forecast,
                   [forecast](const QString& runDir, bool, const QString& error) {
                     if (error.isEmpty() && QFileInfo(runDir).isDir()) forecast->openRun(runDir);
                   });
  // The Train page lists the runs (when its folder changes, and once when training ends); the
  // Forecast page offers that same listing rather than reading the runs again.
  RunListView* runList = train->runList();
  QObject::connect(runList, &RunListView::listed, forecast, &ForecastPage::showRunListing);
  if (const SharedRunListing listing = runList->listing()) forecast->showRunListing(listing);
  return pages;
}

void openFileArgument(MainWindow& window, const StudioPages& pages, const QString& path) {
  const QFileInfo file(path);
  if (file.isDir()) {
    pages.train->showRun(path);
    pages.forecast->openRun(path);
  } else if (file.suffix().compare(QLatin1String("json"), Qt::CaseInsensitive) == 0) {
    window.openLesson(path);
  } else {
    window.openDataFile(path);
  }
}

void waitUntilIdle(const StudioPages& pages) {
  while (pages.isBusy()) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
}

}  // namespace aaren::ui
