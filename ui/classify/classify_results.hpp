#pragma once
// A classification run as the results view shows it (docs/DESIGN.md section 10), without widgets:
// each model of the run (one, or Aaren and the Transformer side by side) with its predictions on
// the run's test file (the training file when it was trained without one) and the report made of
// them, and each class's typical series: the mean over the class's training cases, per step and
// dimension, in the standardized units the model reads. Loading reads files and runs the models,
// so the pages call it on a BackgroundJob.
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

#include "core/classify/classify_run.hpp"

namespace aaren::ui {

struct ClassifyModelResults {
  QString name;            // "Aaren", "Transformer"
  QString dir;             // the model's run folder
  LoadedClassifyRun run;
  std::vector<CasePrediction> predictions;  // one per case of ClassifyResults::cases, in order
  ClassificationReport report;              // of the labelled predictions
};

// The mean of the class's cases at every step some case reaches: (length, dims) row-major; NaN
// where no case has a present value.
struct TypicalSeries {
  int length = 0;
  std::vector<double> values;
};

struct ClassifyResults {
  QString runDir;
  QString trainFile;       // the training file, found as casesFile is
  QString casesFile;       // the file the predictions are of
  bool casesAreTest = true;  // false: the training file, since the run has no test file
  QStringList classNames;
  int dims = 1;
  LabelledSeriesSet cases;  // as the models read them (prepare_classify_cases)
  std::vector<ClassifyModelResults> models;  // Aaren before the Transformer
  std::vector<TypicalSeries> typical;        // (classes), of the training file's cases

  // The cases of `model` whose predicted class is not their label, in file order.
  std::vector<int> misclassified(int model) const;
};

// Reads the run's models, its test file (or training file) and its training file. Throws
// std::runtime_error naming the file and what is wrong.
ClassifyResults loadClassifyResults(const QString& runDir);

// Mean per step and dimension of the cases with `label`.
TypicalSeries typicalSeries(const LabelledSeriesSet& set, int label);

}  // namespace aaren::ui

Q_DECLARE_METATYPE(std::shared_ptr<const aaren::ui::ClassifyResults>)
