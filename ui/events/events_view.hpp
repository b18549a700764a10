#pragma once
// The Data page's Events view: an event log read in the background, the time, sequence and mark
// columns the detector chose (each overridable) with the decimal mark its numbers use, and a raster of the events in time whose vertical
// axis says what it shows (ui/events/event_raster.hpp). The training, validation and test parts of a
// log of one sequence are shaded. Warnings and errors (with their line and column) go to the page's
// message bar; a log that cannot be read leaves the data set loaded before it loaded and shown.
#include <QStringList>
#include <QWidget>
#include <memory>
#include <optional>
#include <string>

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
  EventsView(CurrentDataset* dataset, MessageBar* messages, QWidget* parent = nullptr);

  ChartPanel* rasterChart() const { return raster_; }
  QComboBox* timeColumnCombo() const { return time_; }
  QComboBox* sequenceColumnCombo() const { return sequence_; }
  // Detect, Point or Comma (ui/pages/decimal_mark_choice.hpp): a log whose numbers leave the mark
  // open is not read until one is chosen.
  QComboBox* decimalMarkCombo() const { return decimalMark_; }
  // How the columns and the decimal mark were detected (or chosen), one line each.
  QString detectionText() const;
  QString filePath() const { return path_; }  // of the log loaded, or being read
  QString attemptedPath() const { return attempted_; }  // of the newest read, loaded or not
  bool isLoading() const;

 public slots:
  // Detects the columns (but those chosen), then reads the log in the background; loadFinished()
  // follows.
  void openLog(const QString& path, const EventLogOptions& chosen = {});
  // Drops the read in progress, if any (another file replaces it); loadFinished() does not follow.
  void cancelLoading();

 signals:
  void loadFinished(bool ok);

 private:
  // The columns the combo boxes offer and show.
  struct ShownColumns {
    EventLogColumns columns;
    QStringList names;
    char decimalMark = '.';         // as detected, or as chosen
    std::string unclearMark;        // why the numbers leave the mark open; "" when they do not
  };

  void detectAndLoad();
  void showColumns(const ShownColumns& shown);
  void onColumnEdited();
  void onDecimalMarkEdited();
  void onLoaded(std::shared_ptr<const EventLog> log);
  // The reason goes to the message bar; the view goes back to the log that is loaded, if any.
  void onFailed(const QString& reason);
  // The log's numbers leave the decimal mark open and none is chosen: the message bar asks for one,
  // and the columns panel stays on this file so that choosing one reads it.
  void refuseUnclearMark(const std::string& why);
  void onDatasetChanged();
  void drawRaster(const EventLog& log);
  void clearRaster();  // no log shown: no events, no rows, the summary empty
  void shadeSplit(const EventLog& log);

  CurrentDataset* dataset_;
  MessageBar* messages_;
  BackgroundJob* loader_;
  QString path_;
  QString attempted_;
  EventLogOptions options_;  // the user's choices; detected where unset
  EventLogOptions loading_;  // of the newest read, with every column named
  ShownColumns shown_;
  // How the view showed the log that is loaded, for going back to it when another read fails.
  struct LoadedView {
    QString path;
    EventLogOptions options;
    ShownColumns shown;
  };
  std::optional<LoadedView> loadedView_;
  bool updating_ = false;    // the combo boxes are being filled, not edited

  QComboBox* time_ = nullptr;
  QComboBox* sequence_ = nullptr;
  QComboBox* mark_ = nullptr;
  QComboBox* decimalMark_ = nullptr;
  QLabel* reasons_ = nullptr;
  QLabel* summary_ = nullptr;
  ChartPanel* raster_ = nullptr;
};

}  // namespace aaren::ui
