#pragma once
// The side panel beside the Explore page's drawing: the formula of the current step with its
// numbers filled in, in a font one size up so that it reads from the back of a lecture hall.
#include <QFrame>
#include <QStringList>

class QLabel;

namespace aaren::ui {

class FormulaPanel : public QFrame {
  Q_OBJECT

 public:
  explicit FormulaPanel(QWidget* parent = nullptr);

  void setHtml(const QString& html);
  QString html() const;  // as set, without the lit terms
  // Terms lit with a background wherever the panel's visible text contains them ("m", "u = ").
  void setLitTerms(const QStringList& terms);
  QStringList litTerms() const { return litTerms_; }
  QStringList litTermsFound() const { return found_; }  // the lit terms the current formula contains

 private:
  void applyAppearance();
  void showText();

  QLabel* text_;
  QString html_;
  QStringList litTerms_;
  QStringList found_;
};

}  // namespace aaren::ui
