#pragma once
// Linear attention's two memories after a token, drawn: S (m x d_v) as a heat map, one row per
// feature and one column per value dimension, and z (m) beside it, red for positive numbers and
// blue for negative ones on one scale for the run; the row of the current token's feature phi(k)
// that fed them is outlined. Numbers are written in the cells where they fit at a readable size.
#include <QWidget>

#include "ui/explore/linear_run.hpp"

namespace aaren::ui {

class LinearMemoryView : public QWidget {
  Q_OBJECT

 public:
  explicit LinearMemoryView(QWidget* parent = nullptr);
  // The run and the token (1-based; 0: before the first) whose memories are drawn.
  void show(const LinearRun* run, int token);
  // Whether the last paint wrote numbers in the cells (false where they do not fit).
  bool numbersShown() const { return numbersShown_; }

  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  const LinearRun* run_ = nullptr;
  int token_ = 0;
  bool numbersShown_ = false;
};

}  // namespace aaren::ui
