#include "ui/pages/train_page.hpp"

// How the Train page's controls are laid out: the data summary and the settings form on the left,
// scrolling where the screen is short, with the buttons and the progress below them, always in
// sight; the runs folder row above the run list.
#include <QDir>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include "ui/hint_label.hpp"
#include "ui/pages/model_settings_form.hpp"
#include "ui/pages/run_list_view.hpp"
#include "ui/state/current_dataset.hpp"

namespace aaren::ui {

QWidget* TrainPage::buildControls() {
  auto* panel = new QWidget;
  auto* dataBox = new QGroupBox(tr("Data"), panel);
  dataSummary_ = new QLabel(dataBox);
  dataSummary_->setWordWrap(true);
  auto* dataLayout = new QVBoxLayout(dataBox);
  dataLayout->addWidget(dataSummary_);
  // Labelled series only: the file the classifiers are tested on.
  testRow_ = new QWidget(dataBox);
  auto* testLayout = new QHBoxLayout(testRow_);
  testLayout->setContentsMargins(0, 0, 0, 0);
  testLayout->addWidget(new QLabel(tr("Test file"), testRow_));
  testFile_ = new QLineEdit(testRow_);
  testFile_->setObjectName(QStringLiteral("testFile"));
  testFile_->setPlaceholderText(tr("none: test on nothing"));
  testFile_->setToolTip(tr("The labelled file the trained classifiers are tested on; by default the *_TEST file "
                           "beside a *_TRAIN file"));
  testLayout->addWidget(testFile_, 1);
  auto* browseTest = new QPushButton(tr("Choose…"), testRow_);
  testLayout->addWidget(browseTest);
  connect(browseTest, &QPushButton::clicked, this, &TrainPage::browseTestFile);
  connect(testFile_, &QLineEdit::editingFinished, this,
          [this] { dataset_->setTestPath(QDir::fromNativeSeparators(testFile_->text().trimmed())); });
  testRow_->hide();
  dataLayout->addWidget(testRow_);

  form_ = new ModelSettingsForm(panel);
  windowHint_ = makeHint(panel);

  auto* layout = new QVBoxLayout(panel);
  layout->setContentsMargins(0, 0, 12, 0);
  layout->setSpacing(10);
  layout->addWidget(dataBox);
  layout->addWidget(form_);
  layout->addWidget(windowHint_);
  layout->addStretch(1);
  return panel;
}

QWidget* TrainPage::buildActions() {
  auto* panel = new QWidget;
  start_ = new QPushButton(tr("Start"), panel);
  start_->setObjectName(QStringLiteral("startButton"));
  start_->setDefault(true);
  start_->setToolTip(tr("Train with these settings into a new run folder"));
  pause_ = new QPushButton(tr("Pause"), panel);
  pause_->setObjectName(QStringLiteral("pauseButton"));
  pause_->setToolTip(tr("Hold training after the current step; Resume continues exactly where it stopped"));
  stop_ = new QPushButton(tr("Stop"), panel);
  stop_->setObjectName(QStringLiteral("stopButton"));
  stop_->setToolTip(tr("End training after the current step; the best weights so far are kept and evaluated"));
  continue_ = new QPushButton(tr("Continue"), panel);
  continue_->setObjectName(QStringLiteral("continueButton"));
  continue_->setToolTip(tr("Train the shown run further: start from its saved weights, with the training settings "
                           "above, into a new run folder"));
  connect(start_, &QPushButton::clicked, this, &TrainPage::startTraining);
  connect(continue_, &QPushButton::clicked, this, &TrainPage::continueTraining);
  connect(pause_, &QPushButton::clicked, this, [this] { isPaused() ? resumeTraining() : pauseTraining(); });
  connect(stop_, &QPushButton::clicked, this, &TrainPage::stopTraining);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(start_);
  buttons->addWidget(continue_);
  buttons->addWidget(pause_);
  buttons->addWidget(stop_);

  progress_ = new QProgressBar(panel);
  progress_->setObjectName(QStringLiteral("trainingProgress"));
  progress_->setRange(0, kProgressSteps);
  progress_->setValue(0);
  progress_->setTextVisible(false);
  progressText_ = makeHint(panel, tr("Not training."));

  auto* layout = new QVBoxLayout(panel);
  layout->setContentsMargins(0, 8, 12, 0);
  layout->setSpacing(10);
  layout->addLayout(buttons);
  layout->addWidget(progress_);
  layout->addWidget(progressText_);
  return panel;
}

QWidget* TrainPage::buildRunsFolderRow() {
  auto* row = new QWidget(this);
  runsFolder_ = new QLineEdit(row);
  runsFolder_->setObjectName(QStringLiteral("runsFolderEdit"));
  runsFolder_->setToolTip(tr("Each training run gets its own folder in here"));
  auto* change = new QPushButton(tr("Change…"), row);
  connect(change, &QPushButton::clicked, this, &TrainPage::browseRunsFolder);
  connect(runsFolder_, &QLineEdit::editingFinished, this, [this] {
    const QString folder = QDir::fromNativeSeparators(runsFolder_->text().trimmed());
    if (!folder.isEmpty() && folder != runList_->runsFolder()) setRunsFolder(folder);
  });
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(new QLabel(tr("Folder"), row));
  layout->addWidget(runsFolder_, 1);
  layout->addWidget(change);
  return row;
}

}  // namespace aaren::ui
