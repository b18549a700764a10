#pragma once
// The Train page's settings: which models (any of Aaren, the Transformer and the linear Transformer,
// side by side on the same data and seed), their architecture, the forecast window and features (M, S or MS, beside the Data
// page's target), the training settings and the device.
// Every field explains itself in a tooltip; the defaults are the core's.
#include <QWidget>
#include <utility>
#include <vector>

#include "ui/state/training_choice.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace aaren::ui {

class ModelSettingsForm : public QWidget {
  Q_OBJECT

 public:
  explicit ModelSettingsForm(QWidget* parent = nullptr);

  TrainingChoice choice() const;
  void setChoice(const TrainingChoice& choice);
  void setWindowLengths(int seqLen, int horizon);
  // The loaded series' target ("" for none), shown beside the features that forecast it.
  void setTarget(const QString& target);
  // An event log trains on the CPU only: the CUDA entry is then disabled with that reason (and the
  // CPU chosen); otherwise it is enabled wherever a GPU can be used. An event model has no horizon:
  // its field is hidden.
  void setEventLog(bool eventLog);
  // A classifier reads whole cases and trains on the CPU only: look-back and horizon are hidden,
  // the CUDA entry disabled and the classifier's own settings shown. Call after setEventLog, which
  // shows the horizon again.
  void setLabelledSeries(bool labelled);
  // A Decision Transformer reads the steps of an episode and trains on the CPU only: the window and
  // the features are hidden, the CUDA entry disabled, and its context and act mode shown. Call
  // after setLabelledSeries.
  void setDecisionTransformer(bool decision);
  // The ticked models, in the order they train (kModelKinds'); empty when none is ticked.
  std::vector<ModelKind> models() const;
  // Names run folders: "both" (Aaren and the Transformer), "all" (the three), or the families'
  // names joined by '-' ("aaren", "aaren-linear").
  static QString modelsLabel(const std::vector<ModelKind>& models);

 signals:
  void edited();
  void actModeChosen();  // by the user (not by setChoice)

 private:
  // Enables the CUDA entry, or disables it with `reason` as its tooltip and the hint below it.
  void setCudaBlocked(const QString& reason);
  // The reason the data or the features give for the CPU only (events, classifiers, MS), or "".
  QString cpuOnlyReason() const;
  void onFeaturesChanged();
  void setModels(const std::vector<ModelKind>& kinds);
  void onModelsChanged();
  // Below the device: why CUDA is blocked, or which ticked models train on the CPU beside it.
  void updateDeviceHint();
  std::vector<std::pair<ModelKind, QCheckBox*>> modelBoxes_;  // in kModelKinds order
  QSpinBox* dModel_;
  QSpinBox* heads_;
  QSpinBox* layers_;
  QSpinBox* dFf_;
  QSpinBox* seqLen_;
  QWidget* seqLenLabel_;
  QSpinBox* horizon_;
  QWidget* horizonLabel_;
  QComboBox* features_;
  QLabel* featuresLabel_;
  QLabel* featuresTarget_;
  QSpinBox* epochs_;
  QSpinBox* batch_;
  QDoubleSpinBox* lr_;
  QSpinBox* patience_;
  QSpinBox* seed_;
  QComboBox* device_;
  QLabel* deviceHint_ = nullptr;
  // Decision Transformers only (setDecisionTransformer): the context and the act mode.
  bool decision_ = false;
  QWidget* decisionBox_;
  QSpinBox* context_;
  QComboBox* actMode_;
  // Classifiers only (setLabelledSeries): the ensemble, the augmentation and how the epochs are chosen.
  QWidget* classifierBox_;
  QSpinBox* members_;
  QCheckBox* slice_;
  QCheckBox* scale_;
  QCheckBox* jitter_;
  QComboBox* epochsBy_;
  QString cudaBlocked_;      // why the data or features leave only the CPU; empty when CUDA can train
  QString cudaUnavailable_;  // why no GPU can be used at all; empty when one can
  bool eventLog_ = false;
  bool labelled_ = false;
};

}  // namespace aaren::ui
