#pragma once
// The Data page's view of labelled series for classification (docs/DESIGN.md section 10): a .ts
// file of the UEA/UCR archive, or a classification CSV (long: case_id,label,timestep,dim_0,...;
// wide: label,t0,t1,...), read by read_labelled_series on a worker thread. It shows the problem's
// name, cases, dimensions and length range, the cases per class, and a few series of each class
// overlaid in the class's colour, one dimension at a time. A file that cannot be read leaves the
// data set loaded before as it was, and its message (FILE:LINE:COL: reason) is shown.
#include <QString>
#include <QWidget>
#include <memory>

#include "core/classify/labelled_series.hpp"
#include "ui/state/current_dataset.hpp"  // the metatype of the set

class QComboBox;
class QLabel;

namespace aaren::ui {

class BackgroundJob;
class ChartPanel;
class ClassBarsChart;
class CurrentDataset;
class MessageBar;

// Whether the Data page reads the file as labelled series: a .ts file, or a CSV whose header is
// that of a long or wide classification CSV.
bool looksLikeLabelledSeries(const QString& path);

class LabelledSeriesView : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kSeriesPerClass = 3;

  LabelledSeriesView(CurrentDataset* dataset, MessageBar* messageBar, QWidget* parent = nullptr);

  void openFile(const QString& path);
  bool isLoading() const;
  QString attemptedPath() const { return attempted_; }
  QString summary() const;
  ClassBarsChart* countsChart() const { return counts_; }
  ChartPanel* seriesChart() const { return series_; }
  QList<ChartPanel*> charts() const;

 public slots:
  void showSet(std::shared_ptr<const LabelledSeriesSet> set);  // what the dataset holds, or nothing
  void drawSeries();

 signals:
  void loadFinished(bool ok);

 private:
  CurrentDataset* dataset_;
  MessageBar* messageBar_;
  BackgroundJob* loader_;
  QString attempted_;
  std::shared_ptr<const LabelledSeriesSet> shown_;
  QLabel* summary_ = nullptr;
  QComboBox* dimension_ = nullptr;
  ClassBarsChart* counts_ = nullptr;
  ChartPanel* series_ = nullptr;
};

}  // namespace aaren::ui
