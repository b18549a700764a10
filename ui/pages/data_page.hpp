#pragma once
// The Data page: open a CSV file (dialog, drop, recent files, bundled samples), see how it is read
// (delimiter, header, date column and each column's kind, detected and overridable, with the first
// rows in a table), choose the channels and the target, and see the chosen series with the
// training, validation and test parts shaded. The file is read on a worker thread with progress
// and cancel, so files of hundreds of megabytes keep the window responsive. A failed or cancelled
// read costs nothing: the data set loaded before stays loaded and shown, and the message bar, the
// status bar and the source bar say which file failed, why (with its line and column) and what is
// still loaded; the preview shows the failed file's first rows with its file line numbers and the
// offending line highlighted. An event log (chosen, or detected: ui/events/event_import.hpp) is read
// and shown by the Events view instead, on a tab of its own. The data set open at the end of a
// session, with how it was read, is opened again at the next start.
#include <QStringList>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "core/data/csv_dialect.hpp"
#include "core/data/time_series_csv.hpp"
#include "core/events/event_log.hpp"
#include "ui/events/event_import.hpp"
#include "ui/page.hpp"
#include "ui/pages/message_bar.hpp"

class QCheckBox;
class QComboBox;
class QGroupBox;
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
struct RememberedDataset;

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
  // The source bar: the file's name (and whether it could be read) and what is loaded.
  QString sourceTitle() const;
  QString sourceDetails() const;
  // The preview row of the line the last failed read stopped at; -1 when none is shown.
  int highlightedPreviewRow() const { return highlightedRow_; }

  // The loaded data set and how it was read: its file, dialect, kind, channels, target, gaps, split.
  void restoreSession(const Settings& settings) override;
  void saveSession(Settings& settings) const override;

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
  // Opens the file as openCsv does; with `remembered`, read as it was in the last session.
  void open(const QString& path, const RememberedDataset* remembered);
  // Hands the file to the Events view when it is to be read as an event log.
  bool openAsEventLog(const EventLogOptions& columns);
  void onEventsLoadFinished(bool ok);

  // False, with the reason shown, when the file cannot be read with these overrides.
  bool detect(const CsvDialectOverrides& overrides, bool keepChoices);
  void showDetection(bool keepChoices);
  void fillPreview();
  void applyChannelChoices(const std::vector<std::string>& columns, const std::string& target);
  void startLoading();
  void stopLoading();
  void onLoaded(std::shared_ptr<const TimeSeriesTable> table);
  void onLoadCancelled();
  void onLoadFailed(const QString& message, int line);
  // Says why `file` was not loaded, in the message bar and the status bar, and marks it as failed
  // in the source bar.
  void reportFailure(const QString& file, MessageBar::Level level, const QString& text, const QStringList& details = {});
  // Highlights the preview row of `line` and scrolls to it; the row, or -1 when the preview does
  // not reach that line.
  int highlightLine(int line, const QString& why);
  void clearHighlight();
  // The page goes back to the data set that is loaded (only a finished read replaces it): the time
  // series panel and the tab that shows it.
  void showLoadedDataset();
  void restorePanel();  // the time series panel only
  void restoreLoadedView();
  void describeSource();
  void onLoadingChanged(bool loading);
  void onDialectEdited();
  void resetToDetected();
  void onSplitEdited();
  void updateTargetChoices();
  void drawSeries();
  void drawSplit();
  // Empties the time series' settings, preview and chart; the data set itself is left alone.
  void clearTablePanel();
  CsvReadOptions readOptions() const;

  CurrentDataset* dataset_;
  QString path_;        // the file the settings and the preview show
  QString failedPath_;  // the file the last attempt failed to read; empty after a successful one
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
  bool readAsRestored_ = false;  // readAs_ holds the last session's kind, for its file only
  bool restoring_ = false;       // the last session's data set is being read; its settings stay
  ImportKind loadedReadAs_ = ImportKind::automatic;  // the kind chosen when the loaded data set was read
  int highlightedRow_ = -1;
  BackgroundJob* loader_;

  MessageBar* messageBar_ = nullptr;
  QLabel* fileName_ = nullptr;
  QLabel* fileDetails_ = nullptr;
  QToolButton* samplesButton_ = nullptr;
  QToolButton* recentButton_ = nullptr;
  QComboBox* delimiter_ = nullptr;
  QCheckBox* header_ = nullptr;
  QComboBox* dateColumn_ = nullptr;
  QComboBox* decimalMark_ = nullptr;
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
  QGroupBox* previewBox_ = nullptr;
  QComboBox* readAs_ = nullptr;
  QTabWidget* views_ = nullptr;
  EventsView* events_ = nullptr;
};

}  // namespace aaren::ui
