#include "ui/explore/formula_panel.hpp"

#include <QApplication>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include "ui/appearance.hpp"

namespace aaren::ui {

namespace {

constexpr qreal kFormulaFontScale = 1.1;
// Wide enough for a combine written out with four-digit numbers, and no wider: the drawing needs the room.
constexpr qreal kWidthInLines = 13.0;
constexpr qreal kMaxWidthInLines = 21.0;

}  // namespace

FormulaPanel::FormulaPanel(QWidget* parent) : QFrame(parent), text_(new QLabel(this)) {
  setObjectName(QStringLiteral("card"));
  text_->setObjectName(QStringLiteral("formulaText"));
  text_->setTextFormat(Qt::RichText);
  text_->setWordWrap(true);
  text_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  text_->setContentsMargins(12, 10, 12, 10);

  auto* scroll = new QScrollArea(this);
  scroll->setWidget(text_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->viewport()->setAutoFillBackground(false);
  text_->setAutoFillBackground(false);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(1, 1, 1, 1);
  layout->addWidget(scroll);
  connect(&Appearance::instance(), &Appearance::changed, this, &FormulaPanel::applyAppearance);
  applyAppearance();
}

void FormulaPanel::setHtml(const QString& html) { text_->setText(html); }

QString FormulaPanel::html() const { return text_->text(); }

void FormulaPanel::applyAppearance() {
  const QFont font = scaledFont(QApplication::font(), kFormulaFontScale);
  text_->setFont(font);
  const qreal line = QFontMetricsF(font).height();
  setMinimumWidth(qRound(line * kWidthInLines));
  setMaximumWidth(qRound(line * kMaxWidthInLines));
}

}  // namespace aaren::ui
