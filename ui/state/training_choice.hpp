#pragma once
// What the Train page's form holds: which models, their architecture, the forecast window and the
// features (M, S or MS), a classifier's ensemble, augmentation and epoch choice, a Decision
// Transformer's context and act mode, the training settings and the device. A plain value, so that the settings can remember it.
#include <optional>
#include <vector>

#include "core/classify/classify_run.hpp"
#include "core/data/forecast_features.hpp"
#include "core/model/model_config.hpp"
#include "core/rl/decision_actor.hpp"
#include "core/train/trainer.hpp"
#include "core/util/compute_device.hpp"

namespace aaren::ui {

class Settings;

struct TrainingChoice {
  std::vector<ModelKind> models{ModelKind::aaren, ModelKind::transformer};  // trained in this order
  ModelConfig model;     // kind and channels are set per run; seq_len and horizon are the window
  TrainSettings train;
  ComputeDevice device = ComputeDevice::cpu;
  // What a forecaster reads and forecasts; S and MS forecast the Data page's target.
  ForecastFeatures features = ForecastFeatures::M;
  // Classifiers only: the ensemble's members (or kMembersAuto), the augmentation of the training
  // cases, and how the epoch count is chosen (ClassifyRunRequest::cv_folds: kCvFoldsAuto, 0 for a
  // held-out part, K folds).
  int members = kDefaultMembers;
  ClassifyAugmentation augmentation = kDefaultAugmentation;
  int cvFolds = kCvFoldsAuto;
  // Decision Transformers only: the steps a forward reads (window mode; a stream reads the whole
  // episode), and how the trained model acts.
  int context = 20;
  rl::ActMode actMode = rl::ActMode::window;
};

// The Train page's choice as the last session left it (training/...); nothing when none was saved.
std::optional<TrainingChoice> loadTrainingChoice(const Settings& settings);
void saveTrainingChoice(Settings& settings, const TrainingChoice& choice);

}  // namespace aaren::ui
