#pragma once
// The side panel beside the Explore page's drawing: the formula of the current step with its
// numbers filled in, in a font one size up so that it reads from the back of a lecture hall.
#include <QFrame>

class QLabel;

namespace aaren::ui {

class FormulaPanel : public QFrame {
  Q_OBJECT

 public:
  explicit FormulaPanel(QWidget* parent = nullptr);

  void setHtml(const QString& html);
  QString html() const;

 private:
  void applyAppearance();

  QLabel* text_;
};

}  // namespace aaren::ui
