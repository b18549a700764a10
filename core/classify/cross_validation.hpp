#pragma once
// The epoch count of a classifier chosen by k-fold cross-validation on TRAIN (docs/DESIGN.md section
// 10), for archives so small that a held-out part of a fifth leaves a handful of cases to choose by:
// the training cases are dealt into k folds stratified by class; a model is trained on every fold's
// complement for the configured number of epochs (no early stopping) and each epoch's accuracy and
// loss on the held-out fold are pooled over the folds' cases; the chosen epoch has the highest
// pooled accuracy, the lower pooled loss and then the earlier epoch breaking ties. The run then
// trains on every training case for that many epochs.
#include <vector>

#include "core/classify/classifier_config.hpp"
#include "core/classify/labelled_series.hpp"
#include "core/train/trainer.hpp"

namespace aaren {

struct CrossValidation {
  int folds = 0;
  long cases = 0;                // held out over all folds: every training case once
  std::vector<double> accuracy;  // per epoch, pooled over the folds' held-out cases
  std::vector<double> loss;      // per epoch, mean cross-entropy per held-out case
  int chosen_epoch = 0;          // 1-based
};

// Of each class's cases (in `cases`' order, shuffled with `seed`), dealt in turn to folds 0..k-1,
// continuing with the next fold where the last class stopped, so that folds differ in size by at
// most one. Each fold sorted. Throws std::invalid_argument for k < 2 or more folds than cases.
std::vector<std::vector<long>> stratified_folds(const LabelledSeriesSet& set, const std::vector<long>& cases, int k,
                                                unsigned seed);

// The pooled curves' best epoch (above). Throws std::invalid_argument for empty or unequal curves.
int choose_epoch(const std::vector<double>& accuracy, const std::vector<double>& loss);

// Trains k models, one per fold, each initialized with settings.seed; `callbacks` see every fold's
// progress (TrainProgress::fold and folds say which) and may cancel (then the result holds the epochs every fold finished, and chosen_epoch
// is 0). set's values must already be standardized.
CrossValidation cross_validate_epochs(const ClassifierConfig& config, const LabelledSeriesSet& set,
                                      const std::vector<long>& cases, int k, const TrainSettings& settings,
                                      const TrainCallbacks& callbacks = {});

}  // namespace aaren
