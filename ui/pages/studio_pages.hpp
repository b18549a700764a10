#pragma once
// The Data, Train and Forecast pages as the application uses them: added to the main window,
// sharing the loaded data set, and connected to each other (a file opened anywhere goes to the Data
// page; a run's Forecast button opens it on the Forecast page, and so does the end of its training; the runs listed on the Train page
// are offered on the Forecast page; the window's title names the loaded data file). Closing the
// window while a model trains asks first, then stops training cleanly with the best weights kept.
#include "ui/state/current_dataset.hpp"

namespace aaren::ui {

class DataPage;
class ForecastPage;
class MainWindow;
class TrainPage;

struct StudioPages {
  CurrentDataset* dataset = nullptr;
  DataPage* data = nullptr;
  TrainPage* train = nullptr;
  ForecastPage* forecast = nullptr;

  bool isBusy() const;  // a file, a run or the list of runs is being loaded
};

StudioPages addStudioPages(MainWindow& window);

// Runs the event loop until no page is loading, e.g. before a screenshot.
void waitUntilIdle(const StudioPages& pages);

}  // namespace aaren::ui
