#pragma once
// The Data, Train and Forecast pages as the application uses them: added to the main window,
// sharing the loaded data set, and connected to each other (a file opened anywhere goes to the Data
// page; a run's Forecast button opens it on the Forecast page, and so does the end of its training; the runs listed on the Train page
// are offered on the Forecast page; the window's title names the loaded data file). Closing the
// window while a model trains asks first, then stops training cleanly with the best weights kept.
#include <QString>

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

// A file given to aaren-studio without an option, as the desktop's "Open With" and a double-click
// on a lesson pass it: a folder is a run (Train and Forecast pages), a .json file a lesson (at its
// first scene), anything else a data file. Each opens as its menu command opens it, so a problem is
// a message in the window, never only on a terminal.
void openFileArgument(MainWindow& window, const StudioPages& pages, const QString& path);

// Runs the event loop until no page is loading, e.g. before a screenshot.
void waitUntilIdle(const StudioPages& pages);

}  // namespace aaren::ui
