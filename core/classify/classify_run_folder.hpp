#pragma once
// The run folder of a classifier (docs/DESIGN.md sections 9 and 10). Its four files and how they
// are written and checked are every task's (core/train/run_folder_format.hpp); what is the
// classifier's own:
//   config.json        "task": "classify"; model: kind, d_model, heads, layers, d_ff, seq_len (the
//                      longest series it takes), channels, classes, pooling, instance_norm,
//                      label_smoothing; data: file, test_file, problem_name, class_names (index =
//                      the model's class), channel_mean and channel_std (of the training part's
//                      present values: the model reads (x - mean) / std), val_fraction, cv_folds
//                      (0, and absent in runs written before it: a held-out part); training
//   model.safetensors  the best weights by ParameterLayout::for_classifier's names, with the
//                      metadata every run carries and "task": "classify"
//   metrics.json       per-epoch losses with train_accuracy and val_accuracy; validation
//                      {accuracy, nll, cases}; test (when a test file was given) {accuracy, nll,
//                      cases, macro_f1, classes [{name, precision, recall, f1, support}],
//                      confusion (rows: true class, columns: predicted), baselines {majority,
//                      majority_class, euclidean, dtw_full, dtw_window, window, window_percent,
//                      window_loo_accuracy, z_normalised}: the yardsticks' test accuracies
//                      (core/classify/nearest_neighbour.hpp; absent in runs written before them)};
//                      cross_validation (with cv_folds) {folds, cases, chosen_epoch, accuracy and loss
//                      per epoch, pooled over the held-out folds}: then validation and each epoch's
//                      val_loss and val_accuracy are the pooled ones
//   loss.csv           epoch, train_loss, val_loss
// The best epoch is the one with the highest validation accuracy, the validation loss breaking ties.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/classify/classifier_config.hpp"
#include "core/classify/classify_task.hpp"
#include "core/classify/cross_validation.hpp"
#include "core/classify/nearest_neighbour.hpp"
#include "core/train/run_folder_format.hpp"
#include "core/train/trainer.hpp"

namespace aaren {

inline constexpr const char* kClassifyRunTask = "classify";  // config.json's "task" (kClassifierRuns)

struct ClassifyDataPreparation {
  std::string data_file;                  // as given when training
  std::string test_file;                  // "" when none was given
  std::string problem_name;
  std::vector<std::string> class_names;   // index = the model's class
  std::vector<double> channel_mean, channel_std;  // (channels)
  double val_fraction = 0.2;              // of TRAIN, stratified by class
  int cv_folds = 0;                       // >= 2: the epochs chosen by cross-validation (val_fraction unused)
};

struct ClassifyRunConfig {
  int version = kRunFormatVersion;
  ClassifierConfig model;
  ClassifyDataPreparation data;
  TrainSettings train;
};

struct ClassReport {
  std::string name;
  double precision = 0, recall = 0, f1 = 0;  // NaN where undefined (no case predicted / none of it)
  long support = 0;                          // cases of the class
};

// How a model did on labelled cases.
struct ClassificationReport {
  ClassifyEvalMetrics overall;
  double macro_f1 = 0;                 // mean of the classes' F1 over those with cases
  std::vector<ClassReport> classes;    // (K)
  std::vector<long> confusion;         // (K, K) row-major: row = true class, column = predicted
};

struct ClassifyRunMetrics : TrainingHistory {
  std::vector<double> train_accuracy, val_accuracy;  // per epoch, in epochs' order
  ClassifyEvalMetrics validation;                    // of the best weights
  std::optional<ClassificationReport> test;          // when a test file was given
  std::optional<NeighbourBaselines> test_baselines;  // with test: the yardsticks on the same cases
  std::optional<CrossValidation> cross_validation;   // with cv_folds: how the epoch count was chosen
};

std::string classify_run_config_json(const ClassifyRunConfig& config);
// Throws std::runtime_error naming the file and field; another task's run is refused as such.
ClassifyRunConfig parse_classify_run_config(std::string_view text, const std::string& source);

std::string serialize_classify_checkpoint(const ClassifyRunConfig& config, const std::vector<float>& params);
std::vector<float> parse_classify_checkpoint(std::string_view bytes, const std::string& source,
                                             const ClassifyRunConfig& config);

void write_classify_run_config(const std::string& dir, const ClassifyRunConfig& config);
void write_classify_checkpoint(const std::string& dir, const ClassifyRunConfig& config, const std::vector<float>& params);
void write_classify_run_metrics(const std::string& dir, const ClassifyRunMetrics& metrics);
ClassifyRunMetrics parse_classify_run_metrics(std::string_view text, const std::string& source);

using LoadedClassifyRun = LoadedRunFolder<ClassifyRunConfig, ClassifyRunMetrics>;
// Validates the folder, the configuration and the checkpoint against each other.
LoadedClassifyRun load_classify_run(const std::string& dir);

}  // namespace aaren
