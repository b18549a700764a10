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
// and shown by the Events view instead, on a tab of its own; labelled series for classification (a
// .ts file, or a classification CSV: ui/classify/labelled_series_view.hpp) by the Classification
// view, on a third tab; an offline reinforcement-learning data set (a .safetensors file of `aaren rl
// generate`, or one generated here: ui/rl/offline_dataset_view.hpp) by the Reinforcement learning
// view, on a fourth. The data set open at the end of a session, with how it was read, is opened
// again at the next start.
//
// The page composes its parts: the source bar (data_source_bar.hpp), the dialect panel
// (dialect_panel.hpp), the loader without widgets (data_loader.hpp) and the series chart with the
// split (series_split_chart.hpp); it keeps the preview of the first rows and decides what each
// edit means.
#include <QStringList>
#include <memory>
#include <vector>

#include "core/data/csv_dialect.hpp"
#include "core/data/time_series_csv.hpp"
#include "core/events/event_log.hpp"
#include "core/planning/continuation.hpp"
#include "ui/events/event_import.hpp"
#include "ui/page.hpp"
#include "ui/pages/message_bar.hpp"

class QComboBox;
class QGroupBox;
class QProgressBar;
class QStandardItemModel;
class QTabWidget;
class QTableView;

namespace aaren::ui {

class ChartPanel;
class CurrentDataset;
class DataLoader;
class DataSourceBar;
class DialectPanel;
class EventsView;
class LabelledSeriesView;
class OfflineDatasetView;
class SeriesSplitChart;
struct RememberedDataset;

class DataPage : public Page {
  Q_OBJECT

 public:
  explicit DataPage(CurrentDataset* dataset, QWidget* parent = nullptr);

  QString id() const override;
  QString title() const override;
  QString subtitle() const override;
  QIcon icon() const override;

  QString filePath() const { return path_; }  // the file the settings show: after a failed read, the loaded one
  QString loadedDataFile() const override { return path_; }
  QString previewPath() const { return previewPath_; }  // after a failed read, the refused file
  bool isLoading() const;
  MessageBar* messageBar() const { return messageBar_; }
  ChartPanel* seriesChart() const;
  EventsView* eventsView() const { return events_; }
  LabelledSeriesView* labelledView() const { return labelled_; }
  OfflineDatasetView* offlineView() const { return offline_; }
  QList<ChartPanel*> charts() const override;  // of the tab shown
  QComboBox* readAsCombo() const;  // automatic, time series or event log
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
  void openDataFile(const QString& path);
  void cancelLoading();

 signals:
  // After each attempt to read the file: ok when the data set is ready for training.
  void loadFinished(bool ok);

 private:
  QWidget* buildContent();
  // Opens the file as openDataFile does; with `remembered`, read as it was in the last session.
  void open(const QString& path, const RememberedDataset* remembered);
  // Hands the file to the Events view when it is to be read as an event log.
  bool openAsEventLog(const EventLogOptions& columns);
  void onEventsLoadFinished(bool ok);
  // Hands the file to the Classification view when it holds labelled series, or to the
  // Reinforcement learning view when it is an offline data set.
  bool openAsLabelledSeries();
  bool openAsOfflineDataset();
  // The file goes to `view` (classification or reinforcement learning), which reads it whole:
  // a table or log still being read is stopped, and the tab shows that view.
  void handOverTo(QWidget* view);
  // After the Classification or the Reinforcement learning view tried to read `attempted` (or, for
  // the latter, to generate it); `kind` is what that view shows.
  void onWholeFileLoadFinished(bool ok, const QString& attempted, LoadedData kind);
  // Asks for the environment, the policy, the steps, the seed and the file, and generates it.
  void generateOfflineDataset();

  // False, with the reason shown, when the file cannot be read with these overrides.
  bool detect(const CsvDialectOverrides& overrides, bool keepChoices);
  void showDetection(bool keepChoices);
  void fillPreview();  // the detection's first rows
  // `rows` of path_ under `title`, numbered by their file `lines` (unnumbered when they do not match).
  void showPreviewRows(const QString& title, const std::vector<std::vector<std::string>>& rows,
                       const std::vector<int>& lines);
  // The rows around a failing line past the preview, as the loader read them; false when it has none.
  bool showFailedLines(int line);
  void startLoading();
  void onLoaded(std::shared_ptr<const TimeSeriesTable> table);
  void onLoadCancelled();
  void onLoadFailed(const QString& message, int line);
  // path_ could not be read (`line`: where, 0 when no line is at fault): says why, shows the line,
  // and gives the settings back to the data set that stays loaded.
  void refuseFile(const QString& message, int line);
  // The reading controls, channels and target of the loaded table, without touching the preview.
  void restoreKeptSettings();
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
  void drawSeries();
  void showSplitOutcome(const QString& summary, const QString& error);
  // Empties the time series' settings, preview and chart; the data set itself is left alone.
  void clearTablePanel();

  CurrentDataset* dataset_;
  QString path_;        // the file the settings and the preview show
  QString failedPath_;  // the file the last attempt failed to read; empty after a successful one
  CsvDialectOverrides overrides_;
  CsvDetection detection_;      // with the user's overrides
  CsvDetection autoDetection_;  // without them: what "Reset" returns to
  bool detected_ = false;
  bool readAsRestored_ = false;  // the kind shown is the last session's, for its file only
  bool restoring_ = false;       // the last session's data set is being read; its settings stay
  ImportKind loadedReadAs_ = ImportKind::automatic;  // the kind chosen when the loaded data set was read
  int highlightedRow_ = -1;
  QString previewPath_;            // the file the preview shows
  std::vector<int> previewLines_;  // (preview rows) the file line of each; empty when unknown
  DataLoader* loader_;

  MessageBar* messageBar_ = nullptr;
  DataSourceBar* sourceBar_ = nullptr;
  DialectPanel* dialect_ = nullptr;
  QWidget* progressRow_ = nullptr;
  QProgressBar* progress_ = nullptr;
  SeriesSplitChart* chart_ = nullptr;
  QStandardItemModel* preview_ = nullptr;
  QTableView* previewView_ = nullptr;
  QGroupBox* previewBox_ = nullptr;
  QTabWidget* views_ = nullptr;
  EventsView* events_ = nullptr;
  LabelledSeriesView* labelled_ = nullptr;
  OfflineDatasetView* offline_ = nullptr;
};

}  // namespace aaren::ui
