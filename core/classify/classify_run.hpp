#pragma once
// The whole classification workflow behind `aaren train --task classify` / `aaren forecast --task
// classify` and the app (docs/DESIGN.md section 10): read a labelled file (.ts, long or wide CSV),
// choose the epoch count by cross-validation on it or split a stratified validation part off it,
// standardize every channel with the training part's statistics, train (one classifier or an
// ensemble) with the best weights kept on disk as they improve (validation accuracy, the loss
// breaking ties), and report on a test file: accuracy, per-class precision, recall and F1, and
// the confusion matrix. A saved run classifies the cases of any file with the same classes and
// channels, and shows its class probabilities step by step as a series unfolds.
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/classify/classify_run_folder.hpp"
#include "core/classify/labelled_series.hpp"
#include "core/train/memory_estimate.hpp"

namespace aaren {

// The files as a run sees them: class names numbered as the run numbers them, values standardized
// with the run's statistics (NaN kept where missing).
struct ClassifyRunData {
  LabelledSeriesSet train_file;
  // Indices into train_file.series. With cross-validation every case is in train and none in
  // validation: the folds are drawn from train.
  std::vector<long> train, validation;
  int cv_folds = 0;
  int members = 1;  // the ensemble's, "auto" resolved
  std::optional<LabelledSeriesSet> test_file;
  // With a labelled test file: the yardsticks' accuracies on it, from the files as read (before
  // standardizing, which would weigh the channels of a multivariate case differently); left out
  // when they would cost more than kMostYardstickCells.
  std::optional<NeighbourBaselines> test_baselines;
};

// cv_folds' "auto": cross-validation with kAutoCvFolds folds (at most one a case) when TRAIN has
// fewer than kCrossValidateBelow cases, a held-out part otherwise (docs/results.md measures why).
inline constexpr int kCvFoldsAuto = -1;
inline constexpr int kAutoCvFolds = 5;
inline constexpr long kCrossValidateBelow = 1000;
int auto_cv_folds(long training_cases);  // 0 for a held-out part

// ClassifierConfig::members' "auto" in a request: an ensemble of kAutoMembers when TRAIN has fewer
// than kCrossValidateBelow cases, one classifier otherwise (docs/results.md measures why).
inline constexpr int kMembersAuto = 0;
inline constexpr int kAutoMembers = 3;
int auto_members(long training_cases);

// The ensemble and the augmentation `aaren train --task classify` and the Train page start from,
// chosen by measurement (docs/results.md, "Ensembles and augmentation").
inline constexpr int kDefaultMembers = kMembersAuto;
inline constexpr ClassifyAugmentation kDefaultAugmentation{};

struct ClassifyRunRequest {
  std::string data_path;   // TRAIN
  std::string test_path;   // TEST; "" for none
  double val_fraction = 0.2;
  // 2 or more: the epoch count is chosen by this many folds of cross-validation on TRAIN and the
  // model then trains on all of it (core/classify/cross_validation.hpp); val_fraction is unused.
  // 0: a stratified val_fraction of TRAIN is held out and chooses the best epoch. kCvFoldsAuto:
  // chosen by TRAIN's size (auto_cv_folds).
  int cv_folds = 0;
  // The architecture: backbone kind, d_model, heads, layers, d_ff; pooling, instance_norm,
  // label_smoothing, augmentation, members (or kMembersAuto, chosen by TRAIN's size). channels,
  // classes and seq_len (the longest series of either file) come from the data.
  ClassifierConfig model;
  TrainSettings train;
  std::string out_dir;
  // Called once the files are read and split (standardized), before the memory check.
  std::function<void(const ClassifyRunData&)> on_data_read;
  // Called once training is found to fit in memory, just before it starts.
  std::function<void(const TrainingMemoryCheck&)> on_memory_checked;
};

struct ClassifyRunOutcome {
  ClassifyRunConfig config;
  ClassifyRunMetrics metrics;
};

// What works on small archives without tuning: the defaults of TrainSettings with 100 epochs, batch
// 16 and patience 20 (a few hundred cases make few steps per epoch).
TrainSettings classification_train_settings();

// Trains one model and writes its run folder. Throws std::runtime_error for a file that cannot be
// read or used (naming it, and the line and column where it can), before anything is written.
ClassifyRunOutcome train_classify_run(const ClassifyRunRequest& request, const TrainCallbacks& callbacks = {});

// Indices of a stratified split: of each class's cases (in file order, shuffled with `seed`),
// round(fraction * count) go to validation, at least one when the class has two or more and
// fraction > 0, never all of them. Every case must have a label.
struct StratifiedSplit {
  std::vector<long> train, validation;
};
StratifiedSplit stratified_split(const LabelledSeriesSet& set, double fraction, unsigned seed);

// A file read for a saved run: its labels renumbered as the run's classes (a label the run was not
// trained on is refused, naming it and the case), its channels checked, and its values
// standardized with the run's statistics. Unlabelled cases are kept (label -1). A case longer than
// the model's seq_len is refused naming it.
LabelledSeriesSet prepare_classify_cases(const ClassifyRunConfig& config, const std::string& path);

struct CasePrediction {
  std::string case_id;
  int label = -1;                      // -1 when the file gives none
  int predicted = 0;
  std::vector<double> probabilities;   // (K)
};

std::vector<CasePrediction> classify_cases(const LoadedClassifyRun& run, const LabelledSeriesSet& prepared);

// Over the labelled predictions (unlabelled ones are left out).
ClassificationReport classification_report(std::span<const CasePrediction> predictions,
                                           const std::vector<std::string>& class_names);

// The class probabilities after each step of one prepared case, as the model streams it:
// (length, K) row-major. Row t equals the parallel model's probabilities on the first t + 1 steps.
std::vector<double> running_class_probabilities(const LoadedClassifyRun& run, const LabelledSeries& prepared_case);

}  // namespace aaren
