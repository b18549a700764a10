#pragma once
// The Train page: train Aaren, the Transformer, or both side by side on the data of the Data page,
// on a worker thread that never blocks the window; pause, resume and stop; follow the training and
// validation losses of both models live on one chart; find past runs with their metrics and open
// them again. Runs are written like the command line's (config.json, model.safetensors,
// metrics.json, loss.csv) into a runs folder the user chooses. When the Data page holds an event
// log, the models are event models and the losses are NLL per event. When it holds labelled series
// (a .ts file or a classification CSV), the models are classifiers, tested on a chosen test file,
// and an accuracy chart shows their training and validation accuracy beside the losses.
#include <memory>
#include <optional>
#include <vector>

#include "core/data/split.hpp"
#include "core/data/time_series_csv.hpp"
#include "core/planning/continuation.hpp"

#include "ui/charts/loss_curves.hpp"  // lossChart() is one, for the callers that read its series
#include "ui/page.hpp"
#include "ui/workers/training_worker.hpp"

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace aaren::ui {

struct TrainTaskProfile;

class AccuracyCurvesChart;
class CurrentDataset;
class MessageBar;
class ModelSettingsForm;
struct TrainingChoice;
class RunListView;
class TrainingSession;

class TrainPage : public Page {
  Q_OBJECT

 public:
  explicit TrainPage(CurrentDataset* dataset, QWidget* parent = nullptr);
  ~TrainPage() override;

  QString id() const override;
  QString title() const override;
  QString subtitle() const override;
  QIcon icon() const override;

  ModelSettingsForm* settingsForm() const { return form_; }
  LossCurvesChart* lossChart() const { return lossChart_; }
  AccuracyCurvesChart* accuracyChart() const { return accuracyChart_; }
  QLineEdit* testFileEdit() const { return testFile_; }
  RunListView* runList() const { return runList_; }
  MessageBar* messageBar() const { return messageBar_; }

  QString runsFolder() const;
  void setRunsFolder(const QString& folder);  // remembered for the next session
  bool isTraining() const;
  bool isPaused() const;
  QString currentRun() const { return currentRun_; }  // being trained, last trained or opened
  QString shownRun() const override { return currentRun_; }

  // Shows a run from disk: its loss curves, and its settings in the form. Throws
  // std::runtime_error when dir is not a readable run.
  void showRun(const QString& dir);

  // When training, asks whether to stop; if so, stops and waits until the run folders are written
  // with the best weights. False when the user wants to keep training.
  bool prepareToClose() override;

  // The form's models, architecture, window, training settings and device.
  void restoreSession(const Settings& settings) override;
  void saveSession(Settings& settings) const override;

  // The run Continue would start from (the one shown); empty when there is none.
  QString continuableRun() const;

 public slots:
  bool startTraining();  // false, with the reason in the message bar, when it cannot start
  // Trains the shown run's models further, from their saved weights, with the training settings
  // of the form, into a new run folder. False, with the reason in the message bar, when it cannot.
  bool continueTraining();
  void pauseTraining();
  void resumeTraining();
  void stopTraining();

 signals:
  void trainingProgress(const aaren::ui::TrainingProgress& progress);
  void pausedChanged(bool paused);
  void trainingFinished(const QString& runDir, bool stopped, const QString& error);
  void forecastRequested(const QString& runDir);

 private:
  static constexpr int kProgressSteps = 1000;  // of the progress bar, over every model of a job

  // Starts a job for choice's models; with continueFrom (one run folder per model), each starts
  // from that run's weights.
  bool launch(const TrainingChoice& choice, const QStringList& continueFrom = {});
  bool launchEvents(const TrainingChoice& choice);
  bool launchClassify(const TrainingChoice& choice);
  // A run of fresh weights, of the loaded data's task, into a new folder.
  bool launchFresh(const TrainingChoice& choice);
  void browseTestFile();
  // Fills in job's models (one folder each inside runDir when there are two) and starts it.
  bool startJob(TrainingJob& job, const std::vector<ModelKind>& models, const QString& runDir,
                const QStringList& continueFrom);
  QWidget* buildControls();
  QWidget* buildActions();
  QWidget* buildRunsFolderRow();
  void onDatasetChanged();
  // A classifier on a few hundred cases needs more, smaller steps than the form's forecasting
  // defaults give, a Decision Transformer a larger learning rate, and as a stream smaller batches:
  // epochs, batch, patience and learning rate still at some task's defaults become the loaded
  // task's for the chosen act mode (the general ones where it has none).
  void useTaskDefaults(const TrainTaskProfile& task);
  void resetLossChart(const QStringList& names, const TrainTaskProfile& task);
  // The run shown (its curves, the banner about it, Continue) no longer applies once the data set is
  // of the other task (an event log after a time series, or back): it is cleared. Another file of
  // the same task keeps it: Continue can train it further there, when the channels match. While
  // training, nothing is cleared.
  void forgetRunOfOtherData();
  // Says how many windows each part gets; with adjustToFit, first shortens a look-back and horizon
  // that leave a part without windows. Arithmetic on the split only (core/planning/window_plan.hpp).
  void describeWindow(bool adjustToFit);
  // The rows each part of the Data page's split owns (arithmetic on the split, no copy), or nullopt
  // with the reason; nullopt without a reason when no time series is loaded.
  std::optional<ChronologicalSplit> loadedSplit(QString* problem = nullptr) const;
  void browseRunsFolder();
  void openRun(const QString& dir);
  void onProgress(const TrainingProgress& progress);
  void onModelFinished(const ModelOutcome& outcome);
  void onFinished(bool stopped, const QString& error);
  void updateControls();

  CurrentDataset* dataset_;
  TrainingSession* session_;
  ModelSettingsForm* form_ = nullptr;
  MessageBar* messageBar_ = nullptr;
  QLabel* dataSummary_ = nullptr;
  QLabel* windowHint_ = nullptr;
  QLineEdit* runsFolder_ = nullptr;
  QPushButton* start_ = nullptr;
  QPushButton* continue_ = nullptr;
  QPushButton* pause_ = nullptr;
  QPushButton* stop_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* progressText_ = nullptr;
  LossCurvesChart* lossChart_ = nullptr;
  AccuracyCurvesChart* accuracyChart_ = nullptr;
  QWidget* testRow_ = nullptr;
  QLineEdit* testFile_ = nullptr;
  RunListView* runList_ = nullptr;

  QString currentRun_;
  LoadedData currentRunData_ = LoadedData::nothing;  // what currentRun_'s models were trained on
  bool currentRunOnDisk_ = false;  // currentRun_ has finished (or was opened), so it can be continued
  bool closeWhenStopped_ = false;  // the window asked to close: it does once the run folder is written
  QStringList finishedSummaries_;   // one line per model of the running job
  QStringList finishedNotes_;       // its warnings and explanations, each once (outcomeNotes)
};

}  // namespace aaren::ui
