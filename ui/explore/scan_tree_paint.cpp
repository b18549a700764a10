#include "ui/explore/scan_tree_view.hpp"

#include <QPainter>
#include <algorithm>
#include <cmath>

#include "ui/appearance.hpp"
#include "ui/explore/arrow.hpp"
#include "ui/explore/explore_style.hpp"
#include "ui/explore/scan_run.hpp"

// How the scan tree paints itself; its state, geometry and hit tests are in scan_tree_view.cpp.

namespace aaren::ui {

namespace {

constexpr qreal kLargestTextScale = 1.35;   // of the widget font, when the boxes are large

}  // namespace

// What every step of painting shares: the painter, the geometry and the measures of this frame.
struct ScanTreeView::PaintContext {
  // How much text fits in a box: three lines (m, u, w) or one line (m).
  struct BoxText {
    int lines = 0;
    int digits = kBoxDigits;  // significant digits of each number
    QFont font;
  };

  QPainter& p;
  const Layout l;
  const ExploreColors colors;
  const qreal pen;
  const qreal em;
  const qreal radius;  // of a box's corners
  BoxText boxText;     // measured once for the tree so that every box uses the same font
  float scale = 0;     // of the value bars: the largest magnitude shown

  void fillBox(const QRectF& box, const QColor& fill, const QPen& outline) const {
    p.setPen(outline);
    p.setBrush(fill);
    p.drawRoundedRect(box, radius, radius);
    p.setBrush(Qt::NoBrush);
  }

  void drawLines(const QRectF& box, const QStringList& lines, const QColor& color) const {
    if (boxText.lines == 0) return;  // numbers off: the structure alone
    setPaintFont(p, atLeastReadable(boxText.font));
    p.setPen(color);
    const qreal lineHeight = QFontMetricsF(boxText.font).height() * 0.92;
    const qreal top = box.center().y() - lineHeight * lines.size() / 2;
    for (qsizetype i = 0; i < lines.size(); ++i)
      p.drawText(QRectF(box.left(), top + lineHeight * i, box.width(), lineHeight), Qt::AlignCenter, lines[i]);
  }

  // One small bar per component, up for positive and down for negative, on a common scale.
  void drawValueBars(const QRectF& area, std::span<const float> values) const {
    if (scale <= 0) return;
    const qreal slot = area.width() / qreal(values.size());
    for (std::size_t j = 0; j < values.size(); ++j) {
      const qreal h = area.height() / 2 * std::clamp(values[j] / scale, -1.0f, 1.0f);
      const QRectF bar(area.left() + slot * (qreal(j) + 0.2), area.center().y() - std::max<qreal>(h, 0), slot * 0.6,
                       std::abs(h));
      p.fillRect(bar, values[j] >= 0 ? colors.result : colors.left);
    }
    p.setPen(QPen(colors.muted, pen * 0.5));
    p.drawLine(QPointF(area.left(), area.center().y()), QPointF(area.right(), area.center().y()));
  }

  void drawState(const QRectF& box, float m, float u, std::span<const float> w, const QColor& textColor) const {
    if (boxText.lines == 3) {
      QStringList lines{QStringLiteral("m ") + formatNumber(m, boxText.digits),
                        QStringLiteral("u ") + formatNumber(u, boxText.digits)};
      if (w.size() == 1) {
        lines << QStringLiteral("w ") + formatNumber(w[0], boxText.digits);
        drawLines(box, lines, textColor);
      } else {
        lines << QString();
        drawLines(box, lines, textColor);
        const qreal lineHeight = QFontMetricsF(boxText.font).height() * 0.92;
        const QRectF area(box.left() + box.width() * 0.15, box.center().y() + lineHeight * 0.5 + 1,
                          box.width() * 0.7, lineHeight - 2);
        drawValueBars(area, w);
      }
    } else {
      drawLines(box, {formatNumber(m, boxText.digits)}, textColor);
    }
  }
};

void ScanTreeView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const ExploreColors colors = beginPainting(p, *this);
  p.setRenderHint(QPainter::TextAntialiasing);
  if (focused_) {
    p.setPen(QPen(withAlpha(colors.result, 90), explorePenWidth()));
    p.drawRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5));
  }
  if (!run_) return;

  const Layout l = layout();
  PaintContext c{p, l, colors, explorePenWidth(), QFontMetricsF(font()).height(),
                 std::min(l.boxHeight, l.boxWidth) * 0.18, {}, 0};
  measureBoxText(c);
  paintHeader(c);
  paintRowLabels(c);
  c.scale = largestValue();
  paintEdges(c);
  paintStates(c);
  paintAhead(c);
  paintOperands(c);
  paintOutputs(c);
  paintLit(c);
  if (hovered_) {
    p.setPen(QPen(colors.text, c.pen * 1.6));
    p.drawRoundedRect(boxOf(*hovered_).adjusted(-1, -1, 1, 1), c.radius, c.radius);
  }
}

// The algorithm on the left, its counters on the right.
void ScanTreeView::paintHeader(PaintContext& c) const {
  const QFont titleFont = exploreFont(font(), 1.1, true);
  setPaintFont(c.p, atLeastReadable(fittedFont(titleFont, {title_}, QSizeF(c.l.header.width(), QFontMetricsF(titleFont).height()), 1.0, 0.7)));
  c.p.setPen(c.colors.text);
  c.p.drawText(c.l.header, Qt::AlignLeft | Qt::AlignTop, title_);
  setPaintFont(c.p, atLeastReadable(exploreFont(font(), 1.0)));
  c.p.setPen(c.colors.muted);
  const QString counters = c.boxText.lines != 1              ? countersText()
                           : c.boxText.digits == kBoxDigits ? tr("%1 \u00b7 boxes show m").arg(countersText())
                                                            : tr("%1 \u00b7 boxes show m to %2 digits").arg(countersText()).arg(c.boxText.digits);
  c.p.drawText(c.l.header, (c.l.headerLines == 2 ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignBottom, counters);
}

void ScanTreeView::paintRowLabels(PaintContext& c) const {
  const Layout& l = c.l;
  const qreal em = c.em;
  // Labels keep a readable height even when the rows are thinner than a line (many steps).
  const auto labelRect = [&](int rowIndex) {
    const qreal height = std::max(l.boxHeight, 1.2 * em);
    const qreal center = l.top + l.row * rowIndex + l.boxHeight / 2;
    return QRectF(l.left - l.labelWidth, center - height / 2, l.labelWidth - 0.4 * em, height);
  };
  QPainter& p = c.p;
  setPaintFont(p, atLeastReadable(font()));
  p.setPen(c.colors.muted);
  const bool roomForOffsets = l.boxHeight >= 1.9 * em;
  p.drawText(labelRect(0), Qt::AlignRight | Qt::AlignVCenter, l.compactLabels ? QStringLiteral("x") : tr("tokens"));
  for (int level = 1; level <= run_->stepCount(); ++level) {
    p.setPen(level == step_ ? c.colors.result : c.colors.muted);
    setPaintFont(p, atLeastReadable(exploreFont(font(), 1.0, level == step_)));
    const QString name = l.compactLabels ? QString::number(level) : tr("step %1").arg(level);
    const QString label = roomForOffsets ? tr("%1\n+%2").arg(name).arg(run_->offset(level)) : name;
    const bool thin = l.row < 1.2 * em;
    if (!thin || level == step_ || level == 1 || level == run_->stepCount())
      p.drawText(labelRect(level), Qt::AlignRight | Qt::AlignVCenter, label);
  }
  setPaintFont(p, atLeastReadable(font()));
  p.setPen(c.colors.muted);
  p.drawText(labelRect(l.levels + 1), Qt::AlignRight | Qt::AlignVCenter,
             l.compactLabels ? QStringLiteral("o") : tr("o = w / u"));
}

// Three lines where the widest of them fits every box, else the m line alone, never smaller than
// minimumTextPixels(); when even one line of kBoxDigits digits does not fit at that size, the boxes
// round to kFewestBoxDigits (minimumSizeHint keeps room for that; the tool tip has every digit).
void ScanTreeView::measureBoxText(PaintContext& c) const {
  const QFontMetricsF fm(font());
  const Layout& l = c.l;
  const qreal lineHeight = fm.height() * 0.92;
  const qreal smallest = qreal(minimumTextPixels()) / std::max(1, pixelSizeOf(font()));
  // The largest scale of the tree's font at which the lines fit the box (uncapped).
  const auto fit = [&](int lines, int digits) {
    return std::min(l.boxHeight * (lines == 3 ? 0.9 : 0.85) / (lines * lineHeight),
                    l.boxWidth * kTextWidthShare / widestBoxLine(fm, lines == 1, digits));
  };
  const auto scaled = [&](qreal scale) {
    return atLeastReadable(exploreFont(font(), std::max(smallest, std::min(kLargestTextScale, scale))));
  };
  if (!numbersShown_) c.boxText = {0, kBoxDigits, font()};
  else if (fit(3, kBoxDigits) >= smallest) c.boxText = {3, kBoxDigits, scaled(fit(3, kBoxDigits))};
  else if (fit(1, kBoxDigits) >= smallest) c.boxText = {1, kBoxDigits, scaled(fit(1, kBoxDigits))};
  else c.boxText = {1, kFewestBoxDigits, scaled(fit(1, kFewestBoxDigits))};
  paintedBoxDigits_ = c.boxText.digits;
  paintedBoxLines_ = c.boxText.lines;
}

// Lines that carry an unchanged state down, the arrows of every step shown so far, and with show
// ahead the outline of every later step's results (what is still to come). Without it they are
// left out: counted, they would tell the steps and combines a lesson asks the class to predict.
void ScanTreeView::paintEdges(PaintContext& c) const {
  const Layout& l = c.l;
  QPainter& p = c.p;
  const qreal pen = c.pen;
  const qreal head = std::max(4.0, 0.45 * c.em * std::min(1.0, l.row / (2.5 * c.em)));
  const int selectedIndex = selectedCombineIndex();
  for (int level = 1; level <= step_; ++level) {
    for (int i = 0; i < run_->tokens(); ++i)
      if (!run_->updatedIn(level, i)) {
        p.setPen(QPen(c.colors.faint, pen));
        p.drawLine(QPointF(boxAt(l, level - 1, i).center().x(), boxAt(l, level - 1, i).bottom()),
                   QPointF(boxAt(l, level, i).center().x(), boxAt(l, level, i).bottom()));
      }
    const bool current = level == step_;
    const auto& combines = run_->combines(level);
    for (std::size_t k = 0; k < combines.size(); ++k) {
      // From where each operand's value lives: a state not updated in the step before is drawn higher up.
      const QRectF from = boxAt(l, run_->rowHolding(level - 1, combines[k].left), combines[k].left);
      const QRectF through = boxAt(l, run_->rowHolding(level - 1, combines[k].right), combines[k].right);
      const QRectF to = boxAt(l, level, combines[k].right);
      const bool chosen = current && int(k) == selectedIndex;
      const qreal width = current ? pen * (chosen ? 2.2 : 1.4) : pen * 0.8;
      const QColor leftColor = current ? c.colors.left : c.colors.faint;
      const QColor rightColor = current ? c.colors.right : c.colors.faint;
      drawArrow(p, QPointF(from.center().x(), from.bottom()), QPointF(to.center().x() - to.width() * 0.22, to.top()),
                QPen(leftColor, width), head);
      drawArrow(p, QPointF(through.center().x(), through.bottom()), QPointF(to.center().x(), to.top()),
                QPen(rightColor, width), head);
    }
  }
  if (!showAhead_) return;
  for (int level = step_ + 1; level <= run_->stepCount(); ++level)
    for (const ScanCombine& combine : run_->combines(level)) {
      p.setPen(QPen(c.colors.faint, pen * 0.8, Qt::DashLine));
      p.drawRoundedRect(boxAt(l, level, combine.right), c.radius, c.radius);
    }
}

void ScanTreeView::paintStates(PaintContext& c) const {
  const ExploreColors& colors = c.colors;
  for (const DrawnState& s : drawnStates()) {
    const QRectF box = boxAt(c.l, s.level, s.position);
    QColor fill = s.holdsPrefix ? withAlpha(colors.complete, 46) : colors.node;
    QPen outline(s.holdsPrefix ? colors.complete : colors.border, c.pen);
    if (flagIncomplete_ && !run_->holdsSegment(s.level, s.position)) outline = QPen(colors.wrong, c.pen * 1.4, Qt::DashLine);
    if (s.inCurrentStep) {
      outline = QPen(colors.result, c.pen * 2);
      if (!s.holdsPrefix) fill = withAlpha(colors.result, 30);
    }
    c.fillBox(box, colors.background, Qt::NoPen);
    c.fillBox(box, fill, outline);
    c.drawState(box, s.m, s.u, s.w, colors.text);
  }
}

// The operands of the selected combine, outlined in their arrows' colours.
void ScanTreeView::paintOperands(PaintContext& c) const {
  const std::optional<Operands> operands = selectedOperands();
  if (!operands) return;
  const qreal grow = c.pen * 1.5;
  c.p.setPen(QPen(c.colors.left, c.pen * 2.2));
  c.p.drawRoundedRect(boxAt(c.l, operands->earlier.level, operands->earlier.position).adjusted(-grow, -grow, grow, grow),
                      c.radius, c.radius);
  c.p.setPen(QPen(c.colors.right, c.pen * 2.2));
  c.p.drawRoundedRect(boxAt(c.l, operands->later.level, operands->later.position).adjusted(-grow, -grow, grow, grow),
                      c.radius, c.radius);
}

void ScanTreeView::paintAhead(PaintContext& c) const {
  if (!showAhead_) return;
  for (int level = step_ + 1; level <= run_->stepCount(); ++level) {
    const StateArray<float>& s = run_->states(level);
    for (const ScanCombine& combine : run_->combines(level)) {
      const std::size_t i = std::size_t(combine.right);
      c.drawState(boxAt(c.l, level, combine.right), s.m[i], s.u[i], s.w_at(combine.right), c.colors.muted);
    }
  }
}

// A highlighter's wide yellow band with a dashed outline in the text colour: no operand or state
// colour, so a lit answer never reads as "earlier operand" or "whole prefix".
void ScanTreeView::paintLit(PaintContext& c) const {
  const qreal grow = c.pen * 3;
  c.p.setBrush(Qt::NoBrush);
  for (const Node& node : litNodes()) {
    const QRectF halo = boxOf(node).adjusted(-grow, -grow, grow, grow);
    c.p.setPen(QPen(withAlpha(c.colors.lit, kLitAlpha), c.pen * 4));
    c.p.drawRoundedRect(halo, c.radius + grow, c.radius + grow);
    c.p.setPen(QPen(c.colors.text, c.pen, Qt::DashLine));
    c.p.drawRoundedRect(halo, c.radius + grow, c.radius + grow);
  }
}

// The outputs of the prefixes complete so far (and, in errata mode, the wrong ones).
void ScanTreeView::paintOutputs(PaintContext& c) const {
  QPainter& p = c.p;
  const ExploreColors& colors = c.colors;
  const qreal pen = c.pen;
  const int outputRow = c.l.levels + 1;
  for (int i = 0; i < run_->tokens(); ++i) {
    p.setPen(QPen(colors.faint, pen * 0.8, Qt::DashLine));
    p.drawRoundedRect(boxAt(c.l, outputRow, i), c.radius, c.radius);
  }
  for (const DrawnOutput& o : drawnOutputs()) {
    const QRectF box = boxAt(c.l, outputRow, o.position);
    const QRectF above = boxAt(c.l, step_, o.position);
    p.setPen(QPen(o.flagged ? colors.wrong : colors.complete, pen * 0.8, Qt::DotLine));
    p.drawLine(QPointF(above.center().x(), above.bottom()), QPointF(box.center().x(), box.top()));
    c.fillBox(box, colors.background, Qt::NoPen);
    c.fillBox(box, withAlpha(o.flagged ? colors.wrong : colors.complete, o.flagged ? 40 : 46),
              QPen(o.flagged ? colors.wrong : colors.complete, pen * (o.flagged ? 2 : 1.2)));
    QStringList lines;
    for (float x : o.o) lines << formatNumber(x, c.boxText.digits);
    if (c.boxText.lines == 1) lines = QStringList{lines.front()};
    c.drawLines(box, lines, o.flagged ? colors.wrong : colors.text);
    if (o.flagged) {
      setPaintFont(p, atLeastReadable(exploreFont(font(), 0.9, true)));
      p.setPen(colors.wrong);
      const qreal side = 0.9 * c.em;
      const QRectF corner(box.right() - side * 0.6, box.top() - side * 0.4, side, side);
      c.fillBox(corner, colors.wrong, Qt::NoPen);
      p.setPen(colors.background);
      p.drawText(corner, Qt::AlignCenter, QStringLiteral("\u2717"));
    }
  }
}

}  // namespace aaren::ui
