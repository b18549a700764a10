#pragma once
// The Data page's reading of a time series, without widgets: one read at a time on a BackgroundJob
// (a newer read replaces the one before; progress and cancel through the job's CancelToken), and
// what the page needs to go back to when a read fails or is cancelled: how the file that is loaded
// now was shown. Only a finished read replaces the loaded data set, so a failed or cancelled read
// costs nothing.
#include <QMetaType>
#include <QObject>
#include <QString>
#include <memory>
#include <optional>

#include "core/data/csv_dialect.hpp"
#include "core/data/csv_excerpt.hpp"
#include "core/data/time_series_csv.hpp"

namespace aaren::ui {

class BackgroundJob;

// How the page showed a file: for going back to the loaded one when a read is cancelled.
struct DialectView {
  QString path;
  CsvDialectOverrides overrides;
  CsvDetection detection, autoDetection;
};

class DataLoader : public QObject {
  Q_OBJECT

 public:
  explicit DataLoader(QObject* parent = nullptr);

  // Reads `view.path` in the background, replacing a read still running.
  void load(const DialectView& view, const CsvReadOptions& options);
  // Stops the read; cancelled() follows for a read the user cancelled (cancelByUser()) only: a read
  // replaced, or given up after a failed detection (stop()), is not news.
  void cancelByUser();
  void stop();
  bool isRunning() const;

  const CsvReadOptions& loadingOptions() const { return loadingOptions_; }  // of the newest read
  // When the newest read failed at a line: the records around that line, read before failed() was
  // sent, so that the page can show a line past the first rows it previews; null otherwise.
  std::shared_ptr<const CsvExcerpt> failedLines() const { return failedLines_; }
  // How the loaded table was shown, once one is; forget() when something else replaced it.
  const std::optional<DialectView>& loadedView() const { return loadedView_; }
  void forget() { loadedView_.reset(); }

 signals:
  void progress(double fraction);
  void runningChanged(bool running);
  void loaded(std::shared_ptr<const aaren::TimeSeriesTable> table);
  // line: the 1-based line of the file the error is at; 0 when the error names none.
  void failed(const QString& message, int line);
  void cancelled();

 private:
  BackgroundJob* job_;
  CsvReadOptions loadingOptions_;
  DialectView loadingView_;
  std::optional<DialectView> loadedView_;
  std::shared_ptr<const CsvExcerpt> failedLines_;
  bool cancelledByUser_ = false;
};

}  // namespace aaren::ui

Q_DECLARE_METATYPE(std::shared_ptr<const aaren::CsvExcerpt>)
