#include "ui/pages/train_page.hpp"

// The Train page's runs: the folder they are written into, and a run shown from the list with its
// losses and its settings in the form.
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QSignalBlocker>
#include <exception>

#include "ui/charts/loss_curves.hpp"
#include "ui/classify/accuracy_curves.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/pages/model_settings_form.hpp"
#include "ui/pages/run_list_view.hpp"
#include "ui/run_list.hpp"
#include "ui/settings.hpp"
#include "ui/state/train_task_profile.hpp"

namespace aaren::ui {

QString TrainPage::runsFolder() const { return runList_->runsFolder(); }

void TrainPage::setRunsFolder(const QString& folder) {
  runsFolder_->setText(QDir::toNativeSeparators(folder));
  Settings().setRunsFolder(folder);
  runList_->setRunsFolder(folder);
}

void TrainPage::browseRunsFolder() {
  const QString folder = QFileDialog::getExistingDirectory(this, tr("Runs Folder"), runsFolder());
  if (!folder.isEmpty()) setRunsFolder(folder);
}

void TrainPage::showRun(const QString& dir) {
  const RunEntry info = readRunEntry(dir);
  QStringList names;
  TrainingChoice choice;
  choice.models.clear();
  const TrainingChoice shown = form_->choice();
  for (const ModelRunEntry& model : info.models) {
    names << modelName(model);
    choice.models.push_back(model.kind());
    choice.model = model.events()     ? model.events()->config.model.backbone
                   : model.classify() ? model.classify()->config.model.backbone
                   : model.decision() ? model.decision()->config.model.backbone
                                      : model.forecast()->config.model;
    choice.train = model.train_settings();
    if (const DecisionModelFiles* decision = model.decision()) {
      // Its backbone reads 3 tokens a step: the form's window stays the forecasters'.
      choice.model.seq_len = shown.model.seq_len;
      choice.model.horizon = shown.model.horizon;
      choice.actMode = decision->config.act_mode;
      if (choice.actMode == rl::ActMode::window) choice.context = decision->config.model.context;
    }
  }
  choice.device = shown.device;  // a run folder does not say where it trained
  const ModelRunEntry& first = info.models.front();
  const LoadedData runData = first.events()     ? LoadedData::event_log
                             : first.classify() ? LoadedData::labelled_series
                             : first.decision() ? LoadedData::offline_dataset
                                                : LoadedData::time_series;
  resetLossChart(names, trainTaskProfile(runData));
  for (std::size_t i = 0; i < info.models.size(); ++i) lossChart_->showEpochs(int(i), info.models[i].epochs());
  const bool classifiers = runData == LoadedData::labelled_series;
  accuracyChart_->reset(classifiers ? names : QStringList());
  for (std::size_t i = 0; i < info.models.size(); ++i)
    if (const ClassifyModelFiles* files = info.models[i].classify(); files && files->metrics)
      accuracyChart_->showAccuracies(int(i), files->metrics->train_accuracy, files->metrics->val_accuracy);
  accuracyChart_->setVisible(classifiers);
  {
    const QSignalBlocker blocker(form_);
    form_->setChoice(choice);
  }
  describeWindow(false);
  currentRun_ = runPath(info.dir);
  currentRunData_ = runData;
  currentRunOnDisk_ = true;
  runList_->selectRun(currentRun_);
  updateControls();
}

void TrainPage::openRun(const QString& dir) {
  if (dir.isEmpty() || isTraining()) return;
  try {
    showRun(dir);
  } catch (const std::exception& error) {
    messageBar_->showError(QString::fromUtf8(error.what()));
    return;
  }
  messageBar_->showMessage(MessageBar::Level::information,
                           tr("Showing the run %1. Its settings are in the form: Start trains a new run with them "
                              "(on the data of the Data page), Continue trains this one further from its weights; "
                              "Forecast shows what it predicts.")
                               .arg(QFileInfo(dir).fileName()));
}

}  // namespace aaren::ui
