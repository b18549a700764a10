#include "ui/pages/model_settings_form.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QThread>
#include <QVBoxLayout>
#include <algorithm>

#include "core/train/cpu_only_models.hpp"
#include "gpu/device_info.hpp"
#include "ui/wording/wording.hpp"
#include "ui/workers/training_worker.hpp"

namespace aaren::ui {

namespace {

constexpr int kCpu = 0;  // entries of the device combo
constexpr int kCuda = 1;

QSpinBox* spinBox(QWidget* parent, const char* name, int min, int max, int value, const QString& tip, int step = 1) {
  auto* box = new QSpinBox(parent);
  box->setObjectName(QString::fromLatin1(name));
  box->setRange(min, max);
  box->setSingleStep(step);
  box->setValue(value);
  box->setToolTip(tip);
  box->setAccelerated(true);
  return box;
}

void addPair(QGridLayout* grid, int row, int pair, const QString& label, QWidget* field) {
  grid->addWidget(new QLabel(label, field->parentWidget()), row, 2 * pair);
  grid->addWidget(field, row, 2 * pair + 1);
}

}  // namespace

ModelSettingsForm::ModelSettingsForm(QWidget* parent) : QWidget(parent) {
  const TrainingChoice defaults;
  const ModelConfig& m = defaults.model;
  const TrainSettings& t = defaults.train;

  auto* modelBox = new QGroupBox(tr("Model"), this);
  // Any of the three, one after the other on the same data, split and seed; short words on the boxes,
  // the models' full names in their tooltips.
  auto* modelRow = new QHBoxLayout;
  modelRow->setSpacing(12);
  const std::pair<ModelKind, QString> boxes[] = {
      {ModelKind::aaren, tr("Aaren: exact softmax attention as an RNN, its state constant (the paper's model)")},
      {ModelKind::transformer, tr("Transformer: exact softmax attention, its key-value cache growing with every token")},
      {ModelKind::linear, tr("Linear Transformer (Katharopoulos et al. 2020): softmax replaced by a kernel, a constant "
                             "state like Aaren's, approximate")}};
  for (const auto& [kind, tip] : boxes) {
    auto* box = new QCheckBox(kind == ModelKind::linear ? tr("Linear") : displayName(kind), modelBox);
    box->setObjectName(QStringLiteral("model-") + QString::fromLatin1(to_string(kind).data(), qsizetype(to_string(kind).size())));
    box->setToolTip(tip + tr(". Ticked models train one after the other on the same data, split and seed, so that "
                             "only the token mixer differs"));
    modelBoxes_.push_back({kind, box});
    modelRow->addWidget(box);
    connect(box, &QCheckBox::toggled, this, &ModelSettingsForm::onModelsChanged);
  }
  modelRow->addStretch(1);
  setModels(defaults.models);
  dModel_ = spinBox(modelBox, "dModelSpin", 4, 1024, m.d_model, tr("Width of every token's representation (d_model); "
                                                                   "the number of heads must divide it"), 4);
  heads_ = spinBox(modelBox, "headsSpin", 1, 32, m.heads, tr("Attention heads per layer; each attends over d_model / "
                                                              "heads dimensions"));
  layers_ = spinBox(modelBox, "layersSpin", 1, 12, m.layers, tr("Blocks of attention (or Aaren) and feed-forward "
                                                                "network"));
  dFf_ = spinBox(modelBox, "dFfSpin", 4, 8192, m.d_ff, tr("Hidden width of each block's feed-forward network, "
                                                          "usually 4 x d_model"), 4);
  auto* modelGrid = new QGridLayout(modelBox);
  modelGrid->addWidget(new QLabel(tr("Train"), modelBox), 0, 0);
  modelGrid->addLayout(modelRow, 0, 1, 1, 3);
  addPair(modelGrid, 1, 0, tr("d_model"), dModel_);
  addPair(modelGrid, 1, 1, tr("Heads"), heads_);
  addPair(modelGrid, 2, 0, tr("Layers"), layers_);
  addPair(modelGrid, 2, 1, tr("d_ff"), dFf_);

  auto* trainBox = new QGroupBox(tr("Training"), this);
  seqLen_ = spinBox(trainBox, "lookBackSpin", 1, 4096, m.seq_len,
                    tr("Look-back T: how many past rows the model reads (the paper uses 96)"));
  horizon_ = spinBox(trainBox, "horizonSpin", 1, 2048, m.horizon,
                     tr("Horizon H: how many rows it forecasts at once (the paper: 96, 192, 336, 720)"));
  features_ = new QComboBox(trainBox);
  features_->setObjectName(QStringLiteral("featuresCombo"));
  // Short enough for the narrow form; each entry's tooltip says it in words.
  const std::pair<ForecastFeatures, QString> entries[] = {{ForecastFeatures::M, tr("M: all channels → all")},
                                                          {ForecastFeatures::S, tr("S: target → target")},
                                                          {ForecastFeatures::MS, tr("MS: all channels → target")}};
  for (const auto& [features, text] : entries) {
    features_->addItem(text, QString::fromUtf8(to_string(features).data()));
    features_->setItemData(features_->count() - 1, QString::fromStdString(describe(features)), Qt::ToolTipRole);
  }
  features_->setToolTip(tr("What the model reads and forecasts, as the forecasting literature's --features: M, "
                           "every channel predicts every channel; S, the target alone predicts itself; MS, every "
                           "channel predicts the target. S and MS need a target, chosen on the Data page"));
  featuresTarget_ = new QLabel(trainBox);
  featuresTarget_->setObjectName(QStringLiteral("featuresTarget"));
  featuresTarget_->setWordWrap(true);
  epochs_ = spinBox(trainBox, "epochsSpin", 1, 10000, t.epochs, tr("Passes over the training windows"));
  batch_ = spinBox(trainBox, "batchSpin", 1, 4096, t.batch, tr("Windows per optimizer step"));
  lr_ = new QDoubleSpinBox(trainBox);
  lr_->setObjectName(QStringLiteral("learningRateSpin"));
  lr_->setDecimals(5);
  lr_->setRange(0.00001, 1.0);
  lr_->setSingleStep(0.0001);
  lr_->setValue(t.lr);
  lr_->setToolTip(tr("Peak learning rate of AdamW, reached after a short warm-up and then lowered on a cosine"));
  patience_ = spinBox(trainBox, "patienceSpin", 0, 1000, t.patience,
                      tr("Stop early after this many epochs without a better validation loss (0: never); the best "
                         "weights are kept either way"));
  seed_ = spinBox(trainBox, "seedSpin", 0, 2147483647, int(t.seed),
                  tr("Seeds the initial weights and the order of the windows: the same seed gives the same run"));
  device_ = new QComboBox(trainBox);
  device_->setObjectName(QStringLiteral("deviceCombo"));
  device_->addItem(tr("CPU, %1").arg(countOf(QThread::idealThreadCount(), tr("thread"), tr("threads"))));
  const gpu::DeviceInfo gpuInfo = gpu::query_device();
  if (gpuInfo.available) {
    device_->addItem(tr("CUDA: %1, %2 GiB")
                         .arg(QString::fromStdString(gpuInfo.name))
                         .arg(double(gpuInfo.total_memory_bytes) / double(1ull << 30), 0, 'f', 1));
  } else {
    device_->addItem(tr("CUDA: not available"));
    cudaUnavailable_ = QString::fromStdString(gpu::describe(gpuInfo));
  }
  device_->setToolTip(tr("Where the training steps run; the models are evaluated on the CPU either way"));
  deviceHint_ = new QLabel(trainBox);
  deviceHint_->setObjectName(QStringLiteral("deviceHint"));
  deviceHint_->setWordWrap(true);
  setCudaBlocked(cudaUnavailable_);
  auto* trainGrid = new QGridLayout(trainBox);
  featuresLabel_ = new QLabel(tr("Features"), trainBox);
  trainGrid->addWidget(featuresLabel_, 0, 0);
  trainGrid->addWidget(features_, 0, 1, 1, 3);
  trainGrid->addWidget(featuresTarget_, 1, 1, 1, 3);
  addPair(trainGrid, 2, 0, tr("Look-back"), seqLen_);
  addPair(trainGrid, 2, 1, tr("Horizon"), horizon_);
  horizonLabel_ = trainGrid->itemAtPosition(2, 2)->widget();
  seqLenLabel_ = trainGrid->itemAtPosition(2, 0)->widget();
  addPair(trainGrid, 3, 0, tr("Epochs"), epochs_);
  addPair(trainGrid, 3, 1, tr("Batch"), batch_);
  addPair(trainGrid, 4, 0, tr("Learning rate"), lr_);
  addPair(trainGrid, 4, 1, tr("Patience"), patience_);
  addPair(trainGrid, 5, 0, tr("Seed"), seed_);
  trainGrid->addWidget(new QLabel(tr("Device"), trainBox), 6, 0);
  trainGrid->addWidget(device_, 6, 1, 1, 3);
  trainGrid->addWidget(deviceHint_, 7, 1, 1, 3);
  for (QGridLayout* grid : {modelGrid, trainGrid}) {
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(3, 1);
    grid->setHorizontalSpacing(8);
  }
  for (QComboBox* combo : {device_, features_}) {
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(12);
  }

  auto* classifierBox = new QGroupBox(tr("Classifier"), this);
  classifierBox_ = classifierBox;
  members_ = spinBox(classifierBox, "membersSpin", kMembersAuto, ClassifierConfig::kMostMembers, defaults.members,
                     tr("Classifiers trained side by side from their own initial weights, their class "
                        "probabilities averaged: steadier on small files, that many times the training time. "
                        "Auto: %1 below %2 training cases, else 1")
                         .arg(kAutoMembers)
                         .arg(kCrossValidateBelow));
  members_->setSpecialValueText(tr("Auto, by the file's size"));
  auto* augmentRow = new QHBoxLayout;
  augmentRow->setSpacing(12);
  const auto augmentBox = [&](const char* name, const QString& text, const QString& tip, bool checked) {
    auto* box = new QCheckBox(text, classifierBox);
    box->setObjectName(QString::fromLatin1(name));
    box->setToolTip(tip);
    box->setChecked(checked);
    augmentRow->addWidget(box);
    connect(box, &QCheckBox::toggled, this, &ModelSettingsForm::edited);
    return box;
  };
  slice_ = augmentBox("augmentSlice", tr("Slice"),
                      tr("Each epoch, a random 90% window of every training case, stretched back to its length"),
                      defaults.augmentation.slice);
  scale_ = augmentBox("augmentScale", tr("Scale"),
                      tr("Each epoch, every channel of a training case times a random factor near 1 (sd 0.1)"),
                      defaults.augmentation.scale);
  jitter_ = augmentBox("augmentJitter", tr("Jitter"),
                       tr("Each epoch, small random noise (sd 0.03) added to every value of a training case"),
                       defaults.augmentation.jitter);
  augmentRow->addStretch(1);
  epochsBy_ = new QComboBox(classifierBox);
  epochsBy_->setObjectName(QStringLiteral("epochsByCombo"));
  epochsBy_->addItem(tr("Auto, by the file's size"), kCvFoldsAuto);
  epochsBy_->setItemData(0,
                         tr("%1-fold cross-validation below %2 training cases, a held-out fifth from %2 on")
                             .arg(kAutoCvFolds)
                             .arg(kCrossValidateBelow),
                         Qt::ToolTipRole);
  epochsBy_->addItem(tr("%1-fold cross-validation").arg(kAutoCvFolds), kAutoCvFolds);
  epochsBy_->addItem(tr("10-fold cross-validation"), 10);
  epochsBy_->addItem(tr("A held-out fifth"), 0);
  epochsBy_->setToolTip(tr("How the number of epochs is chosen: by cross-validation on the training file (then each "
                           "model trains on every case; %1 + 1 trainings for %1 folds), or by the best epoch on a "
                           "held-out fifth of it"));
  epochsBy_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  epochsBy_->setMinimumContentsLength(12);
  auto* classifierGrid = new QGridLayout(classifierBox);
  classifierGrid->setHorizontalSpacing(8);
  classifierGrid->setColumnStretch(1, 1);
  classifierGrid->addWidget(new QLabel(tr("Ensemble"), classifierBox), 0, 0);
  classifierGrid->addWidget(members_, 0, 1);
  classifierGrid->addWidget(new QLabel(tr("Augment"), classifierBox), 1, 0);
  classifierGrid->addLayout(augmentRow, 1, 1);
  classifierGrid->addWidget(new QLabel(tr("Epochs by"), classifierBox), 2, 0);
  classifierGrid->addWidget(epochsBy_, 2, 1);
  classifierBox->hide();

  auto* decisionBox = new QGroupBox(tr("Decision Transformer"), this);
  decisionBox->setObjectName(QStringLiteral("decisionBox"));
  decisionBox_ = decisionBox;
  context_ = spinBox(decisionBox, "contextSpin", 1, rl::kMostDecisionContext, defaults.context,
                     tr("Context K: the steps a window reads, three tokens each (return-to-go, state, action); the "
                        "Decision Transformer paper uses 20"));
  actMode_ = new QComboBox(decisionBox);
  actMode_->setObjectName(QStringLiteral("actModeCombo"));
  actMode_->addItem(tr("Window: the last K steps"), int(rl::ActMode::window));
  actMode_->setItemData(0, tr("Trains on segments of K steps; each step re-reads the last K steps (cost grows with K)"),
                        Qt::ToolTipRole);
  actMode_->addItem(tr("Stream: the whole episode"), int(rl::ActMode::stream));
  actMode_->setItemData(1, tr("Trains on whole episodes; Aaren and the linear Transformer carry a constant state from "
                              "step to step, the Transformer a growing KV cache"),
                        Qt::ToolTipRole);
  actMode_->setToolTip(tr("How the trained model acts in the environment"));
  auto* decisionGrid = new QGridLayout(decisionBox);
  decisionGrid->setHorizontalSpacing(8);
  decisionGrid->setColumnStretch(1, 1);
  decisionGrid->addWidget(new QLabel(tr("Act"), decisionBox), 0, 0);
  decisionGrid->addWidget(actMode_, 0, 1);
  decisionGrid->addWidget(new QLabel(tr("Context"), decisionBox), 1, 0);
  decisionGrid->addWidget(context_, 1, 1);
  decisionBox->hide();

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(10);
  layout->addWidget(modelBox);
  layout->addWidget(decisionBox);
  layout->addWidget(trainBox);
  layout->addWidget(classifierBox);

  connect(actMode_, &QComboBox::currentIndexChanged, this, [this] {
    context_->setEnabled(actMode_->currentData().toInt() == int(rl::ActMode::window));
    emit edited();
  });
  connect(actMode_, &QComboBox::activated, this, &ModelSettingsForm::actModeChosen);
  for (QSpinBox* box : {dModel_, heads_, layers_, dFf_, seqLen_, horizon_, epochs_, batch_, patience_, seed_, members_, context_})
    connect(box, &QSpinBox::valueChanged, this, &ModelSettingsForm::edited);
  connect(lr_, &QDoubleSpinBox::valueChanged, this, &ModelSettingsForm::edited);
  connect(device_, &QComboBox::currentIndexChanged, this, [this] {
    updateDeviceHint();
    emit edited();
  });
  connect(features_, &QComboBox::currentIndexChanged, this, &ModelSettingsForm::onFeaturesChanged);
  connect(epochsBy_, &QComboBox::currentIndexChanged, this, &ModelSettingsForm::edited);
  setTarget(QString());
}

void ModelSettingsForm::onFeaturesChanged() {
  if (cudaUnavailable_.isEmpty()) setCudaBlocked(cpuOnlyReason());
  emit edited();
}

QString ModelSettingsForm::cpuOnlyReason() const {
  const std::string reason =
      decision_   ? cpu_only_reason(TrainingTaskKind::rl)
      : labelled_ ? cpu_only_reason(TrainingTaskKind::classify)
      : eventLog_ ? cpu_only_reason(TrainingTaskKind::events)
                  : cpu_only_reason(TrainingTaskKind::forecast,
                                    forecast_features_from_string(features_->currentData().toString().toStdString())
                                        .value_or(ForecastFeatures::M));
  return reason.empty() ? QString() : tr("CUDA: %1.").arg(QString::fromStdString(reason));
}

void ModelSettingsForm::setTarget(const QString& target) {
  featuresTarget_->setText(target.isEmpty() ? tr("No target: S and MS forecast the target, chosen on the Data page.")
                                            : tr("Target: %1 (chosen on the Data page)").arg(target));
}

void ModelSettingsForm::setCudaBlocked(const QString& reason) {
  if (auto* items = qobject_cast<QStandardItemModel*>(device_->model()))
    items->item(kCuda)->setEnabled(reason.isEmpty());
  device_->setItemData(kCuda, reason.isEmpty() ? device_->itemText(kCuda) : reason, Qt::ToolTipRole);
  cudaBlocked_ = reason;
  if (!reason.isEmpty() && device_->currentIndex() == kCuda) device_->setCurrentIndex(kCpu);
  updateDeviceHint();
}

void ModelSettingsForm::updateDeviceHint() {
  QString hint = cudaBlocked_;
  if (hint.isEmpty() && device_->currentIndex() == kCuda) {
    // A CPU-only family among the ticked trains on the CPU, the others on the GPU (as `aaren train
    // --device auto` does).
    QStringList onCpu;
    std::string reason;
    for (const ModelKind kind : models())
      if (const std::string why = cpu_only_reason(kind); !why.empty()) {
        onCpu << displayName(kind);
        reason = why;
      }
    if (!onCpu.isEmpty())
      hint = tr("The %1 trains on the CPU: %2.").arg(onCpu.join(tr(" and ")), QString::fromStdString(reason));
  }
  deviceHint_->setText(hint);
  deviceHint_->setVisible(!hint.isEmpty());
}

void ModelSettingsForm::setEventLog(bool eventLog) {
  eventLog_ = eventLog;
  // An event model predicts one next event: it has no horizon, and no channels to choose among.
  horizon_->setVisible(!eventLog);
  horizonLabel_->setVisible(!eventLog);
  for (QWidget* field : {static_cast<QWidget*>(features_), static_cast<QWidget*>(featuresLabel_),
                         static_cast<QWidget*>(featuresTarget_)})
    field->setVisible(!eventLog);
  seqLen_->setToolTip(eventLog ? tr("Look-back: how many past events the model reads")
                               : tr("Look-back T: how many past rows the model reads (the paper uses 96)"));
  if (!cudaUnavailable_.isEmpty()) return;
  setCudaBlocked(cpuOnlyReason());
}

void ModelSettingsForm::setLabelledSeries(bool labelled) {
  labelled_ = labelled;
  classifierBox_->setVisible(labelled);
  seqLen_->setVisible(!labelled);
  seqLenLabel_->setVisible(!labelled);
  if (!labelled) {  // the horizon and the features are setEventLog's
    if (cudaUnavailable_.isEmpty()) setCudaBlocked(cpuOnlyReason());
    return;
  }
  horizon_->hide();
  horizonLabel_->hide();
  for (QWidget* field : {static_cast<QWidget*>(features_), static_cast<QWidget*>(featuresLabel_),
                         static_cast<QWidget*>(featuresTarget_)})
    field->hide();
  if (!cudaUnavailable_.isEmpty()) return;
  setCudaBlocked(cpuOnlyReason());
}

void ModelSettingsForm::setDecisionTransformer(bool decision) {
  decision_ = decision;
  decisionBox_->setVisible(decision);
  if (decision)
    for (QWidget* field : {static_cast<QWidget*>(seqLen_), seqLenLabel_, static_cast<QWidget*>(horizon_), horizonLabel_,
                           static_cast<QWidget*>(features_), static_cast<QWidget*>(featuresLabel_),
                           static_cast<QWidget*>(featuresTarget_)})
      field->hide();
  if (!cudaUnavailable_.isEmpty()) return;
  setCudaBlocked(cpuOnlyReason());
}

TrainingChoice ModelSettingsForm::choice() const {
  TrainingChoice choice;
  choice.models = models();
  choice.model.d_model = dModel_->value();
  choice.model.heads = heads_->value();
  choice.model.layers = layers_->value();
  choice.model.d_ff = dFf_->value();
  choice.model.seq_len = seqLen_->value();
  choice.model.horizon = horizon_->value();
  choice.train.epochs = epochs_->value();
  choice.train.batch = batch_->value();
  choice.train.lr = lr_->value();
  choice.train.patience = patience_->value();
  choice.train.seed = unsigned(seed_->value());
  choice.device = device_->currentIndex() == kCuda ? ComputeDevice::cuda : ComputeDevice::cpu;
  choice.features = forecast_features_from_string(features_->currentData().toString().toStdString())
                        .value_or(ForecastFeatures::M);
  choice.members = members_->value();
  choice.augmentation = {.slice = slice_->isChecked(), .scale = scale_->isChecked(), .jitter = jitter_->isChecked()};
  choice.cvFolds = epochsBy_->currentData().toInt();
  choice.context = context_->value();
  choice.actMode = rl::ActMode(actMode_->currentData().toInt());
  return choice;
}

void ModelSettingsForm::setChoice(const TrainingChoice& choice) {
  setModels(choice.models);
  dModel_->setValue(choice.model.d_model);
  heads_->setValue(choice.model.heads);
  layers_->setValue(choice.model.layers);
  dFf_->setValue(choice.model.d_ff);
  setWindowLengths(choice.model.seq_len, choice.model.horizon);
  epochs_->setValue(choice.train.epochs);
  batch_->setValue(choice.train.batch);
  lr_->setValue(choice.train.lr);
  patience_->setValue(choice.train.patience);
  seed_->setValue(int(choice.train.seed));
  // Before the device: MS leaves only the CPU to choose.
  features_->setCurrentIndex(std::max(0, features_->findData(QString::fromUtf8(to_string(choice.features).data()))));
  members_->setValue(choice.members);
  slice_->setChecked(choice.augmentation.slice);
  scale_->setChecked(choice.augmentation.scale);
  jitter_->setChecked(choice.augmentation.jitter);
  // A fold count the list lacks (a hand-edited setting) reads as the automatic choice.
  epochsBy_->setCurrentIndex(std::max(0, epochsBy_->findData(choice.cvFolds)));
  context_->setValue(choice.context);
  actMode_->setCurrentIndex(std::max(0, actMode_->findData(int(choice.actMode))));
  const auto* items = qobject_cast<QStandardItemModel*>(device_->model());
  const bool cudaUsable = items && items->item(kCuda)->isEnabled();
  device_->setCurrentIndex(choice.device == ComputeDevice::cuda && cudaUsable ? kCuda : kCpu);
}

void ModelSettingsForm::setWindowLengths(int seqLen, int horizon) {
  seqLen_->setValue(seqLen);
  horizon_->setValue(horizon);
}

std::vector<ModelKind> ModelSettingsForm::models() const {
  std::vector<ModelKind> kinds;  // in kModelKinds order, the order they train in
  for (const auto& [kind, box] : modelBoxes_)
    if (box->isChecked()) kinds.push_back(kind);
  return kinds;
}

void ModelSettingsForm::setModels(const std::vector<ModelKind>& kinds) {
  for (const auto& [kind, box] : modelBoxes_) {
    const QSignalBlocker blocker(box);
    box->setChecked(std::find(kinds.begin(), kinds.end(), kind) != kinds.end());
  }
  if (deviceHint_) updateDeviceHint();
}

void ModelSettingsForm::onModelsChanged() {
  updateDeviceHint();
  emit edited();
}

QString ModelSettingsForm::modelsLabel(const std::vector<ModelKind>& models) {
  if (models == std::vector<ModelKind>{ModelKind::aaren, ModelKind::transformer}) return QStringLiteral("both");
  if (models.size() == std::size(kModelKinds)) return QStringLiteral("all");
  QStringList names;
  for (const ModelKind kind : models) names << QString::fromUtf8(to_string(kind).data(), qsizetype(to_string(kind).size()));
  return names.join(QLatin1Char('-'));
}

}  // namespace aaren::ui
