#pragma once
// The Data page's Events view: an event log read in the background, the time, sequence and mark
// columns the detector chose (each overridable), and a raster of the events in time: one row per
// mark type, or per sequence when the events are unmarked, or one row for a single unmarked
// sequence. The training, validation and test parts of a log of one sequence are shaded. Warnings
// and errors (with their line and column) go to the page's message bar.
#include <QStringList>
#include <QWidget>
#include <memory>

#include "core/events/event_log.hpp"

class QComboBox;
class QLabel;

namespace aaren::ui {

class BackgroundJob;
class ChartPanel;
class CurrentDataset;
class MessageBar;

class EventsView : public QWidget {
  Q_OBJECT

 public:
  // Raster rows beyond this many sequences or marks are drawn as one series, the row as y.
  static constexpr int kMaxRasterSeries = 12;

  EventsView(CurrentDataset* dataset, MessageBar* messages, QWidget* parent = nullptr);

  ChartPanel* rasterChart() const { return raster_; }
  QComboBox* timeColumnCombo() const { return time_; }
  QComboBox* sequenceColumnCombo() const { return sequence_; }
  QComboBox* markColumnCombo() const { return mark_; }
  QString filePath() const { return path_; }
  bool isLoading() const;

 public slots:
  // Detects the columns, then reads the log in the background; loadFinished() follows.
  void openLog(const QString& path);

 signals:
  void loadFinished(bool ok);

 private:
  void detectAndLoad();
  void showColumns(const EventLogColumns& columns, const QStringList& names);
  void onColumnEdited();
  void onLoaded(std::shared_ptr<const EventLog> log);
  void onFailed(const QString& message);
  void onDatasetChanged();
  void drawRaster(const EventLog& log);
  void shadeSplit(const EventLog& log);

  CurrentDataset* dataset_;
  MessageBar* messages_;
  BackgroundJob* loader_;
  QString path_;
  EventLogOptions options_;  // the user's choices; detected where unset
  EventLogOptions loading_;  // of the newest read, with every column named
  bool updating_ = false;    // the combo boxes are being filled, not edited

  QComboBox* time_ = nullptr;
  QComboBox* sequence_ = nullptr;
  QComboBox* mark_ = nullptr;
  QLabel* reasons_ = nullptr;
  QLabel* summary_ = nullptr;
  ChartPanel* raster_ = nullptr;
};

}  // namespace aaren::ui
