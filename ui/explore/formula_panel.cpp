#include "ui/explore/formula_panel.hpp"

#include <QApplication>
#include <QLabel>
#include <QScrollArea>
#include <QTextCursor>
#include <QTextDocument>
#include <QVBoxLayout>

#include "ui/appearance.hpp"
#include "ui/explore/explore_style.hpp"
#include "ui/explore/formulas.hpp"
#include "ui/readable_scripts.hpp"

namespace aaren::ui {

namespace {

constexpr qreal kFormulaFontScale = 1.1;
// In the window the body text's size; in presenter mode, whose body text is well above the floor,
// down to the floor itself.
constexpr qreal kSmallestFontScale = 1.0;
constexpr qreal kSmallestPresenterFontScale = 0.7;
constexpr qreal kFontScaleStep = 0.025;
// Wide enough for a combine written out with four-digit numbers, and no wider: the drawing needs the room.
constexpr qreal kWidthInLines = 13.0;
constexpr qreal kHintWidthInLines = 15.0;
constexpr qreal kMaxWidthInLines = 21.0;

// html without its last `count` asides, each from its marker to the end of the element after it
// (a paragraph or a table row: neither holds another of its kind).
QString withoutLastAsides(QString html, int count) {
  for (int at = html.size(); count > 0; --count) {
    at = html.lastIndexOf(kFormulaAside, at - 1);
    if (at < 0) break;
    const int open = at + int(kFormulaAside.size()) + 1;  // after the '<' of the element
    int nameEnd = open;
    while (nameEnd < html.size() && html[nameEnd].isLetterOrNumber()) ++nameEnd;
    const QString close = QStringLiteral("</%1>").arg(html.mid(open, nameEnd - open));
    const int end = html.indexOf(close, at);
    html.remove(at, end < 0 ? html.size() - at : end + int(close.size()) - at);
  }
  return html;
}

int asideCount(const QString& html) { return int(html.count(kFormulaAside)); }

// A line of the text at its full size: the panel's widths are measured in it, whatever size the
// text is fitted to.
qreal fullSizeLine() { return QFontMetricsF(scaledFont(QApplication::font(), kFormulaFontScale)).height(); }

}  // namespace

FormulaPanel::FormulaPanel(QWidget* parent) : QFrame(parent), text_(new QLabel(this)), scroll_(new QScrollArea(this)) {
  setObjectName(QStringLiteral("card"));
  text_->setObjectName(QStringLiteral("formulaText"));
  text_->setTextFormat(Qt::RichText);
  text_->setWordWrap(true);
  text_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  text_->setContentsMargins(12, 10, 12, 10);

  QScrollArea* scroll = scroll_;
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
  fitText();
}

QString FormulaPanel::html() const { return html_; }

void FormulaPanel::setLitTerms(const QStringList& terms) {
  litTerms_ = terms;
  fitText();
}

// Lit terms are found in the text as it reads, across tags, and marked in a copy of the document.
void FormulaPanel::showText() {
  found_.clear();
  const QString html = withReadableScripts(withoutLastAsides(html_, asidesLeftOut_), text_->font());
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
  const qreal line = fullSizeLine();
  setMinimumWidth(qRound(line * kWidthInLines));
  setMaximumWidth(qRound(line * kMaxWidthInLines));
  updateGeometry();
  fitText();
}

QSize FormulaPanel::sizeHint() const { return {qRound(fullSizeLine() * kHintWidthInLines), QFrame::sizeHint().height()}; }

void FormulaPanel::resizeEvent(QResizeEvent* event) {
  QFrame::resizeEvent(event);
  fitText();
}

// The full size first, then smaller steps while the text is taller than the room the scroll area
// shows it in, then the asides out, last first.
void FormulaPanel::fitText() {
  const QFont body = QApplication::font();
  const bool presenter = Appearance::instance().presenterMode();
  const qreal smallest = presenter ? kSmallestPresenterFontScale : kSmallestFontScale;
  const auto show = [&](qreal scale) {
    fontScale_ = scale;
    text_->setFont(scaledFont(body, scale));
    showText();
  };
  asidesLeftOut_ = 0;
  show(kFormulaFontScale);
  const QSize room = scroll_->maximumViewportSize();
  if (room.width() <= 0) return;
  const auto tooTall = [&] { return text_->heightForWidth(room.width()) > room.height(); };
  for (qreal scale = kFormulaFontScale - kFontScaleStep; tooTall() && scale >= smallest - 1e-9; scale -= kFontScaleStep) {
    if (presenter && QFontInfo(scaledFont(body, scale)).pixelSize() < kPresenterMinimumTextPixels) break;
    show(scale);
  }
  for (const int asides = asideCount(html_); tooTall() && asidesLeftOut_ < asides;) {
    ++asidesLeftOut_;
    showText();
  }
  // The scroll area decides on its bars when it next lays out; a picture taken before that would
  // show the bar of the text's first size.
  QEvent layoutRequest(QEvent::LayoutRequest);
  QCoreApplication::sendEvent(scroll_, &layoutRequest);
}

}  // namespace aaren::ui
