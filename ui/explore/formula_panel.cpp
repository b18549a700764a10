#include "ui/explore/formula_panel.hpp"

#include <QApplication>
#include <QLabel>
#include <QScrollArea>
#include <QTextCursor>
#include <QTextDocument>
#include <QVBoxLayout>

#include "ui/appearance.hpp"
#include "ui/explore/explore_style.hpp"
#include "ui/readable_scripts.hpp"

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
  scroll->setObjectName(QStringLiteral("formulaScroll"));
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

void FormulaPanel::setHtml(const QString& html) {
  html_ = html;
  showText();
}

QString FormulaPanel::html() const { return html_; }

void FormulaPanel::setLitTerms(const QStringList& terms) {
  litTerms_ = terms;
  showText();
}

// Lit terms are found in the text as it reads, across tags, and marked in a copy of the document.
void FormulaPanel::showText() {
  found_.clear();
  const QString html = withReadableScripts(html_, text_->font());
  if (litTerms_.isEmpty()) {
    text_->setText(html);
    return;
  }
  QTextDocument document;
  document.setDefaultFont(text_->font());
  document.setHtml(html);
  QTextCharFormat lit;
  lit.setBackground(withAlpha(exploreColors().left, 90));
  lit.setFontWeight(QFont::Bold);
  for (const QString& term : litTerms_) {
    bool any = false;
    for (QTextCursor cursor = document.find(term, 0, QTextDocument::FindCaseSensitively); !cursor.isNull();
         cursor = document.find(term, cursor, QTextDocument::FindCaseSensitively)) {
      cursor.mergeCharFormat(lit);
      any = true;
    }
    if (any) found_ << term;
  }
  text_->setText(document.toHtml());
}

void FormulaPanel::applyAppearance() {
  const QFont font = scaledFont(QApplication::font(), kFormulaFontScale);
  text_->setFont(font);
  showText();
  const qreal line = QFontMetricsF(font).height();
  setMinimumWidth(qRound(line * kWidthInLines));
  setMaximumWidth(qRound(line * kMaxWidthInLines));
}

}  // namespace aaren::ui
