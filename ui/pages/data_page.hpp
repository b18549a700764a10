#pragma once
// The Data page: open a CSV file (dialog, drop, recent files, bundled samples), see how it is read
// (delimiter, header, date column and each column's kind, detected and overridable, with the first
// rows in a table), choose the channels and the target, and see the chosen series with the
// training, validation and test parts shaded. The file is read on a worker thread with progress
// and cancel, so files of hundreds of megabytes keep the window responsive; a cancelled read keeps
// the data set loaded before it. Every problem the reader finds appears in the message bar with
// its line and column. An event log (chosen, or detected: ui/events/event_import.hpp) is read and
// shown by the Events view instead, on a tab of its own.
#include <QStringList>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "core/data/csv_dialect.hpp"
#include "core/data/time_series_csv.hpp"
#include "ui/page.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QStandardItemModel;
class QTabWidget;
class QTableView;
class QToolButton;

namespace aaren::ui {

class BackgroundJob;
class ChartPanel;
class CurrentDataset;
class EventsView;
class MessageBar;

class DataPage : public Page {
  Q_OBJECT

 public:
  explicit DataPage(CurrentDataset* dataset, QWidget* parent = nullptr);

  QString id() const override;
  QString title() const override;
  QString subtitle() const override;
  QIcon icon() const override;

  QString filePath() const { return path_; }
  bool isLoading() const;
  MessageBar* messageBar() const { return messageBar_; }
  ChartPanel* seriesChart() const { return chart_; }
  EventsView* eventsView() const { return events_; }
  QComboBox* readAsCombo() const { return readAs_; }  // automatic, time series or event log
  QStandardItemModel* previewModel() const { return preview_; }
  QStringList channelNames() const;  // every channel the file offers
  QStringList checkedChannels() const;

 public slots:
  // Detects how the file is written, then reads it in the background.
  void openCsv(const QString& path);
  void cancelLoading();

 signals:
  // After each attempt to read the file: ok when the data set is ready for training.
  void loadFinished(bool ok);

 private:
  QWidget* buildSourceBar();
  QWidget* buildSettingsPanel();
  QWidget* buildContent();
  void fillSampleMenu();
  void fillRecentMenu();
  // Hands the file to the Events view when it is to be read as an event log.
  bool openAsEventLog();

  void detect(bool keepChoices);
  void showDetection(bool keepChoices);
  void fillPreview();
  void startLoading();
  void stopLoading();
  void onLoaded(std::shared_ptr<const TimeSeriesTable> table);
  void onLoadCancelled();
  void restoreLoadedView();
  void showTableDetails(const TimeSeriesTable& table);
  void onLoadFailed(const QString& message);
  void onLoadingChanged(bool loading);
  void onDialectEdited();
  void resetToDetected();
  void onSplitEdited();
  void updateTargetChoices();
  void drawSeries();
  void drawSplit();
  void clearData();
  CsvReadOptions readOptions() const;

  CurrentDataset* dataset_;
  QString path_;
  CsvDialectOverrides overrides_;
  CsvDetection detection_;      // with the user's overrides
  CsvDetection autoDetection_;  // without them: what "Reset" returns to
  bool detected_ = false;
  CsvReadOptions loadingOptions_;  // of the newest load
  std::shared_ptr<std::atomic<bool>> stopRead_;  // the newest load's cancel flag, shared with its reader
  // How the page showed the file that is loaded now, for going back to it when a read is cancelled.
  struct LoadedView {
    QString path;
    CsvDialectOverrides overrides;
    CsvDetection detection, autoDetection;
  };
  std::optional<LoadedView> loadedView_;
  std::vector<qreal> rowX_;        // (rows) where each row of the loaded table sits on the chart
  bool updating_ = false;  // widgets are being filled by the page, not edited by the user
  bool cancelledByUser_ = false;
  BackgroundJob* loader_;

  MessageBar* messageBar_ = nullptr;
  QLabel* fileName_ = nullptr;
  QLabel* fileDetails_ = nullptr;
  QToolButton* samplesButton_ = nullptr;
  QToolButton* recentButton_ = nullptr;
  QComboBox* delimiter_ = nullptr;
  QCheckBox* header_ = nullptr;
  QComboBox* dateColumn_ = nullptr;
  QCheckBox* interpolate_ = nullptr;
  QLabel* detectedSummary_ = nullptr;
  QPushButton* resetDetection_ = nullptr;
  QListWidget* channels_ = nullptr;
  QComboBox* target_ = nullptr;
  QComboBox* split_ = nullptr;
  QLabel* splitSummary_ = nullptr;
  QWidget* progressRow_ = nullptr;
  QProgressBar* progress_ = nullptr;
  ChartPanel* chart_ = nullptr;
  QStandardItemModel* preview_ = nullptr;
  QTableView* previewView_ = nullptr;
  QComboBox* readAs_ = nullptr;
  QTabWidget* views_ = nullptr;
  EventsView* events_ = nullptr;
};

}  // namespace aaren::ui
