#pragma once
// The Data page's view of an offline reinforcement-learning data set (docs/DESIGN.md section 11):
// a file of `aaren rl generate`, opened or generated here. It shows the environment, the behaviour,
// the steps and episodes and the normalized-score range of the whole episodes; a histogram of the
// episodes' normalized scores, one colour per part of the behaviour (medium-expert's medium and
// expert halves, medium-replay's thirds); and a few episodes' trajectories of a chosen state
// variable. "Generate…" writes a new data set on a worker thread, with progress and cancel, and
// loads it. A file that cannot be read, or a generation cancelled or failed, leaves the data set
// loaded before as it was, and says why.
#include <QString>
#include <QWidget>
#include <memory>

#include "core/rl/dataset_summary.hpp"
#include "ui/rl/generate_dataset_dialog.hpp"
#include "ui/state/current_dataset.hpp"  // the metatype of the data set

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace aaren::ui {

class BackgroundJob;
class ChartPanel;
class ClassBarsChart;
class MessageBar;

// Whether the Data page reads the file as an offline data set: a .safetensors file (a model's
// weights are refused with a message that says what the file is not).
bool looksLikeOfflineDataset(const QString& path);

class OfflineDatasetView : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kEpisodesPerBehaviour = 2;  // drawn in the trajectories chart

  OfflineDatasetView(CurrentDataset* dataset, MessageBar* messageBar, QWidget* parent = nullptr);

  void openFile(const QString& path);
  // Generates and writes request.path in the background, then loads it.
  void generate(const GenerateRequest& request);
  void cancelGenerating();
  bool isLoading() const;
  bool isGenerating() const { return generating_; }
  QString attemptedPath() const { return attempted_; }
  QString summary() const;
  const rl::DatasetSummary& shownSummary() const { return summary_; }
  ClassBarsChart* scoresChart() const { return scores_; }
  ChartPanel* trajectoriesChart() const { return trajectories_; }
  QComboBox* stateCombo() const { return state_; }
  QPushButton* generateButton() const { return generateButton_; }
  QProgressBar* generateProgress() const { return progress_; }
  QList<ChartPanel*> charts() const;

 public slots:
  void showDataset(std::shared_ptr<const rl::OfflineDataset> dataset);  // what the data set holds, or nothing
  void drawTrajectories();

 signals:
  void loadFinished(bool ok);
  // "Generate…" pressed: the page asks the user (GenerateDatasetDialog) and calls generate().
  void generateRequested();

 private:
  void drawScores();
  void setGenerating(bool generating);

  CurrentDataset* dataset_;
  MessageBar* messageBar_;
  BackgroundJob* loader_;
  QString attempted_;
  bool generating_ = false;
  std::shared_ptr<const rl::OfflineDataset> shown_;
  rl::DatasetSummary summary_;
  QLabel* summaryLabel_ = nullptr;
  QComboBox* state_ = nullptr;
  QPushButton* generateButton_ = nullptr;
  QWidget* progressRow_ = nullptr;
  QProgressBar* progress_ = nullptr;
  ClassBarsChart* scores_ = nullptr;
  ChartPanel* trajectories_ = nullptr;
};

}  // namespace aaren::ui
