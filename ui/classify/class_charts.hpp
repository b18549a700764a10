#pragma once
// The charts of classification (docs/DESIGN.md section 10), each a ChartPanel so that it zooms,
// follows the theme and presenter mode and exports like every other chart: bars per class (class
// counts, per-class accuracy), and the confusion matrix as a heat map with the exact count in each
// cell and a colour scale in the legend.
#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>
#include <vector>

#include "ui/chart_panel.hpp"

class QAreaSeries;
class QGraphicsSimpleTextItem;

namespace aaren::ui {

// The colour of class k, distinct for the first ten and readable on the light and the dark theme.
QColor classColor(int k);

// Bars per class: one group of bars per data set (a model, or the file's counts), side by side. A
// single group's bars take their classes' colours; several groups are told apart by theirs.
class ClassBarsChart : public ChartPanel {
  Q_OBJECT

 public:
  struct Group {
    QString name;
    QColor color;
    std::vector<double> values;  // (classes); NaN: no bar
  };

  explicit ClassBarsChart(const QString& title = {}, QWidget* parent = nullptr);
  // Bars that are not classes (the bins of a histogram): a single group keeps its own colour, and
  // `category` heads the first column of the table (instead of "class").
  void setCategories(const QString& category);
  void setBars(const QStringList& classNames, const QList<Group>& groups);
  void clearBars();
  // The height of each group's bar of each class, as drawn: [group][class].
  QList<QList<qreal>> barHeights() const { return heights_; }
  // The colour of each group's bars; with one group, whose bars take their class's colour, none.
  QList<QColor> groupColors() const { return groupColors_; }
  // class, then one column per group.
  QString tableCsv() const override;

 private:
  QList<QAreaSeries*> bars_;
  QList<QList<qreal>> heights_;
  QList<QColor> groupColors_;
  QStringList classNames_, groupNames_;
  QString category_;  // empty: the bars are classes
};

// The confusion matrix: rows are the true classes (top to bottom in class order), columns the
// predicted ones; a cell's colour grows with its count, and its count is written in it.
class ConfusionMatrixChart : public ChartPanel {
  Q_OBJECT

 public:
  explicit ConfusionMatrixChart(QWidget* parent = nullptr);
  ~ConfusionMatrixChart() override;
  // counts: (K, K) row-major, row = true class.
  void setMatrix(const QStringList& classNames, const std::vector<long>& counts);
  void clearMatrix();
  int classes() const { return classes_; }
  // The count written in the cell of (true class, predicted class); -1 when there is none.
  long cellCount(int trueClass, int predictedClass) const;
  QString cellText(int trueClass, int predictedClass) const;  // as drawn
  // true class, then one column of counts per predicted class.
  QString tableCsv() const override;

 private:
  void placeCellTexts();
  QColor cellColor(double fraction) const;

  int classes_ = 0;
  QStringList classNames_;
  std::vector<long> counts_;
  QList<QAreaSeries*> cells_;
  QList<QAreaSeries*> scale_;  // the legend's colour scale
  QList<QGraphicsSimpleTextItem*> texts_;
};

}  // namespace aaren::ui
