#pragma once
// The results of a classification run (docs/DESIGN.md section 10), shown by the Forecast page
// when the run chosen there is a classifier, on two tabs: the confusion matrix of the chosen model as a heat
// map, each class's accuracy (recall) for every model of the run, a misclassified case against
// its true class's and its predicted class's typical series, and the probability of each class as
// a chosen case unfolds, step by step, as the model streams it. The run is loaded and its cases
// classified on a worker thread.
#include <QWidget>
#include <memory>

#include "ui/classify/classify_results.hpp"

class QComboBox;
class QLabel;
class QTabWidget;

namespace aaren::ui {

class BackgroundJob;
class ChartPanel;
class ClassBarsChart;
class ConfusionMatrixChart;
class MessageBar;

class ClassifyResultsView : public QWidget {
  Q_OBJECT

 public:
  explicit ClassifyResultsView(MessageBar* messageBar, QWidget* parent = nullptr);

  QList<ChartPanel*> charts() const;
  ConfusionMatrixChart* confusionChart() const { return confusion_; }
  ClassBarsChart* accuracyChart() const { return accuracy_; }
  ChartPanel* misclassifiedChart() const { return misclassified_; }
  ChartPanel* streamingChart() const { return streaming_; }
  QComboBox* modelChoice() const { return model_; }
  QComboBox* misclassifiedChoice() const { return wrongCase_; }
  QTabWidget* tabs() const { return tabs_; }
  QString summary() const;
  bool isLoading() const;
  std::shared_ptr<const ClassifyResults> results() const { return results_; }

 public slots:
  void openRun(const QString& runDir);  // in the background; runLoaded() follows
  void showResults(std::shared_ptr<const ClassifyResults> results);
  void showModel(int model);
  void showCase(int caseIndex);  // on the streaming chart

 signals:
  void runLoaded(bool ok);

 private:
  void showMisclassified();
  void fillAccuracy();

  MessageBar* messageBar_;
  BackgroundJob* loader_;
  std::shared_ptr<const ClassifyResults> results_;
  QComboBox* model_ = nullptr;
  QComboBox* case_ = nullptr;
  QComboBox* wrongCase_ = nullptr;
  QComboBox* dimension_ = nullptr;
  QLabel* summary_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  ConfusionMatrixChart* confusion_ = nullptr;
  ClassBarsChart* accuracy_ = nullptr;
  ChartPanel* misclassified_ = nullptr;
  ChartPanel* streaming_ = nullptr;
};

}  // namespace aaren::ui
