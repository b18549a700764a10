#pragma once
// The side panel beside the Explore page's drawing: the formula of the current step with its
// numbers filled in, in a font one size up so that it reads from the back of a lecture hall. Where
// the text is taller than the panel (a 720-pixel projector) the font steps down, to the body text's
// size in the window and to the presenter floor in presenter mode; then the notes and warnings
// under the formula (formulas.hpp's asides) give way, the last first; only then does it scroll.
#include <QFrame>
#include <QStringList>

class QLabel;
class QScrollArea;

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
  qreal fontScale() const { return fontScale_; }        // the text's size over the body text's
  int asidesLeftOut() const { return asidesLeftOut_; }  // notes and warnings that gave way to the formula

  // 15 lines of the full-size text wide: the text wraps to the panel, and a hint that followed the
  // fitted text would narrow the panel as the text shrinks.
  QSize sizeHint() const override;

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void applyAppearance();
  void showText();
  void fitText();

  QLabel* text_;
  QScrollArea* scroll_;
  qreal fontScale_ = 0;
  int asidesLeftOut_ = 0;
  QString html_;
  QStringList litTerms_;
  QStringList found_;
};

}  // namespace aaren::ui
