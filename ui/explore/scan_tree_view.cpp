#include "ui/explore/scan_tree_view.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "ui/appearance.hpp"
#include "ui/explore/arrow.hpp"
#include "ui/explore/explore_style.hpp"
#include "ui/explore/scan_run.hpp"

namespace aaren::ui {

namespace {

constexpr qreal kBoxWidthShare = 0.88;   // of a column
constexpr qreal kBoxHeightShare = 0.66;  // of a row; the rest is room for the arrows
constexpr qreal kMaxRowLines = 6.0;      // rows never grow taller than this many text lines
constexpr qreal kLargestTextScale = 1.35;  // of the widget font, when the boxes are large
constexpr qreal kSmallestTextScale = 0.62;  // of the normal font
constexpr int kMaxListedWeights = 16;
constexpr int kBoxDigits = 3;  // significant digits inside a box; the tool tip has them all

bool contiguous(const std::vector<int>& tokens) {
  return tokens.empty() || tokens.back() - tokens.front() + 1 == int(tokens.size());
}

}  // namespace

ScanTreeView::ScanTreeView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ScanTreeView::setRun(const ScanRun* run) {
  run_ = run;
  step_ = 0;
  selectedCombine_ = 0;
  hovered_.reset();
  update();
}

void ScanTreeView::setTitle(const QString& title) {
  title_ = title;
  update();
}

void ScanTreeView::setLevelRows(int rows) {
  levelRows_ = std::max(0, rows);
  update();
}

void ScanTreeView::setFlagIncomplete(bool on) {
  flagIncomplete_ = on;
  update();
}

void ScanTreeView::setStep(int step) {
  const int clamped = run_ ? std::clamp(step, 0, run_->stepCount()) : 0;
  if (clamped != step_) selectedCombine_ = 0;
  step_ = clamped;
  update();
}

void ScanTreeView::setSelectedCombine(int index) {
  selectedCombine_ = std::max(0, index);
  update();
}

int ScanTreeView::selectedCombineIndex() const {
  return std::clamp(selectedCombine_, 0, std::max(0, int(run_->combines(step_).size()) - 1));
}

void ScanTreeView::setFocused(bool focused) {
  focused_ = focused;
  update();
}

std::vector<ScanTreeView::DrawnState> ScanTreeView::drawnStates() const {
  std::vector<DrawnState> states;
  if (!run_) return states;
  for (int level = 0; level <= step_; ++level) {
    const StateArray<float>& s = run_->states(level);
    for (int i = 0; i < run_->tokens(); ++i) {
      if (level > 0 && !run_->updatedIn(level, i)) continue;
      const auto w = s.w_at(i);
      states.push_back({level, i, s.m[std::size_t(i)], s.u[std::size_t(i)], std::vector<float>(w.begin(), w.end()),
                        level == step_ && level > 0, run_->holdsPrefix(level, i)});
    }
  }
  return states;
}

bool ScanTreeView::flagged(int position) const {
  return flagIncomplete_ && run_ && step_ == run_->stepCount() && !run_->holdsPrefix(step_, position);
}

std::vector<ScanTreeView::DrawnOutput> ScanTreeView::drawnOutputs() const {
  std::vector<DrawnOutput> outputs;
  if (!run_) return outputs;
  const std::vector<float> o = run_->outputs(step_);
  const std::size_t dv = std::size_t(run_->dv());
  for (int i = 0; i < run_->tokens(); ++i) {
    const bool complete = run_->holdsPrefix(step_, i);
    if (!complete && !flagged(i)) continue;
    const auto first = o.begin() + std::ptrdiff_t(std::size_t(i) * dv);
    outputs.push_back({i, std::vector<float>(first, first + std::ptrdiff_t(dv)), !complete});
  }
  return outputs;
}

std::vector<int> ScanTreeView::flaggedPositions() const {
  std::vector<int> positions;
  if (run_)
    for (int i = 0; i < run_->tokens(); ++i)
      if (flagged(i)) positions.push_back(i);
  return positions;
}

ScanCounts ScanTreeView::countsShown() const { return run_ ? run_->countsThrough(step_) : ScanCounts{}; }

QString ScanTreeView::countersText() const {
  if (!run_) return {};
  const ScanCounts shown = countsShown(), total = run_->totals();
  return tr("depth %1 of %2 \u00b7 work %3 of %4").arg(shown.depth).arg(total.depth).arg(shown.work).arg(total.work);
}

int ScanTreeView::combineIndexOf(int position) const {
  if (!run_) return -1;
  const auto& combines = run_->combines(step_);
  for (std::size_t i = 0; i < combines.size(); ++i)
    if (combines[i].right == position) return int(i);
  return -1;
}

float ScanTreeView::largestValue() const {
  float largest = 0;
  if (!run_)
    return largest;
  for (int level = 0; level <= run_->stepCount(); ++level)
    for (float x : run_->states(level).w) largest = std::max(largest, std::abs(x));
  return largest;
}

ScanTreeView::Layout ScanTreeView::layout() const {
  Layout l;
  const QFontMetricsF fm(font());
  const qreal em = fm.height();
  const qreal pad = 0.5 * em;
  const qreal titleWidth = QFontMetricsF(exploreFont(font(), 1.1, true)).horizontalAdvance(title_);
  const qreal headerWidth = width() - 2 * pad;
  const int n = run_ ? std::max(1, run_->tokens()) : 1;
  // Narrow trees (side by side) keep their columns and label rows with short names; their
  // counters go under the title, so that trees shown together keep their rows aligned.
  l.compactLabels = (width() - 2 * pad - fm.horizontalAdvance(QStringLiteral("o = w / u")) - em) / n < 4.5 * em;
  l.headerLines = l.compactLabels || titleWidth + fm.horizontalAdvance(countersText()) + em > headerWidth ? 2 : 1;
  l.header = QRectF(pad, pad * 0.6, headerWidth, (l.headerLines == 2 ? 2.7 : 1.5) * em);
  l.labelWidth = fm.horizontalAdvance(l.compactLabels ? QStringLiteral("+32") : QStringLiteral("o = w / u")) + 0.8 * em;
  l.levels = std::max(levelRows_, run_ ? run_->stepCount() : 0);
  const int rows = l.levels + 2;
  l.left = pad + l.labelWidth;
  l.top = l.header.bottom() + 0.4 * em;
  const qreal availableWidth = std::max(1.0, width() - l.left - pad);
  const qreal availableHeight = std::max(1.0, height() - l.top - pad);
  l.column = availableWidth / n;
  l.row = std::min(availableHeight / rows, kMaxRowLines * em);
  l.top += (availableHeight - rows * l.row) / 2;
  l.boxWidth = l.column * kBoxWidthShare;
  l.boxHeight = l.row * kBoxHeightShare;
  return l;
}

QRectF ScanTreeView::boxAt(const Layout& l, int rowIndex, int position) const {
  return QRectF(l.left + l.column * (position + 0.5) - l.boxWidth / 2, l.top + l.row * rowIndex, l.boxWidth,
                l.boxHeight);
}

QRectF ScanTreeView::boxOf(const Node& node) const {
  const Layout l = layout();
  return boxAt(l, node.level < 0 ? l.levels + 1 : node.level, node.position);
}

std::optional<ScanTreeView::Node> ScanTreeView::nodeAt(QPointF point) const {
  if (!run_) return std::nullopt;
  for (const DrawnState& s : drawnStates())
    if (boxOf({s.level, s.position}).contains(point)) return Node{s.level, s.position};
  for (const DrawnOutput& o : drawnOutputs())
    if (boxOf({-1, o.position}).contains(point)) return Node{-1, o.position};
  return std::nullopt;
}

QString ScanTreeView::describe(const Node& node) const {
  if (!run_) return {};
  const int n = node.position;
  const int level = node.level < 0 ? step_ : node.level;
  const StateArray<float>& s = run_->states(level);
  const float m = s.m[std::size_t(n)], u = s.u[std::size_t(n)];
  const auto w = s.w_at(n);
  const std::vector<int>& held = run_->tokensHeld(level, n);
  QString text;
  if (node.level == 0) {
    return tr("<b>Token %1</b><br>score s = %2, value v = %3<br>As a state (m, u, w) = (s, 1, v): a segment of "
              "one token, softmax weight 1 on itself.")
        .arg(n + 1)
        .arg(formatExact(m), formatVector(w, 9));
  }
  if (node.level < 0) {
    text = tr("<b>Output o<sub>%1</sub> = w / u</b> after step %2<br>").arg(n + 1).arg(level);
  } else {
    text = tr("<b>Position %1 after step %2</b> (offset %3)<br>").arg(n + 1).arg(level).arg(run_->offset(level));
    const int index = [&] {
      const auto& combines = run_->combines(level);
      for (std::size_t i = 0; i < combines.size(); ++i)
        if (combines[i].right == n) return int(i);
      return -1;
    }();
    if (index >= 0)
      text += tr("combines position %1 (earlier) with position %2 (later)<br>")
                  .arg(run_->combines(level)[std::size_t(index)].left + 1)
                  .arg(n + 1);
  }
  if (contiguous(held)) {
    text += tr("holds tokens %1: the segment [%2..%3]").arg(tokenList(held)).arg(held.front() + 1).arg(held.back() + 1);
    if (run_->holdsPrefix(level, n)) text += tr(", its whole prefix");
    text += QStringLiteral("<br>");
  } else {
    std::vector<int> missing;
    for (int t = 0; t <= n; ++t)
      if (!std::binary_search(held.begin(), held.end(), t)) missing.push_back(t);
    text += tr("holds tokens %1: <b>not a segment</b>, tokens %2 are missing<br>").arg(tokenList(held), tokenList(missing));
  }
  const std::vector<float> outputs = run_->outputs(level);
  const std::span<const float> o(outputs.data() + std::size_t(n) * w.size(), w.size());
  text += tr("m = %1, u = %2, w = %3<br>o = w / u = %4<br>")
              .arg(formatExact(m), formatExact(u), formatVector(w, 9), formatVector(o, 9));
  const std::vector<float> weights = run_->heldWeights(level, n);
  QStringList listed;
  for (std::size_t i = 0; i < weights.size() && int(i) < kMaxListedWeights; ++i)
    listed << tr("x<sub>%1</sub> %2").arg(held[i] + 1).arg(formatNumber(weights[i], 3));
  if (int(weights.size()) > kMaxListedWeights) listed << QStringLiteral("\u2026");
  text += tr("softmax weights e<sup>s<sub>i</sub>\u2212m</sup> / u it stands for: %1").arg(listed.join(QStringLiteral(", ")));
  if (node.level < 0 && flagged(n))
    text += tr("<br><b>Wrong:</b> this is not the attention output of tokens 1..%1.").arg(n + 1);
  return text;
}

QSize ScanTreeView::minimumSizeHint() const {
  return sizeInLines(*this, 9, 10);
}

QSize ScanTreeView::sizeHint() const {
  return sizeInLines(*this, 48, 30);
}

// What every step of painting shares: the painter, the geometry and the measures of this frame.
struct ScanTreeView::PaintContext {
  // How much text fits in a box: three lines (m, u, w), one line (m), or none (colour only).
  struct BoxText {
    int lines = 0;
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
    p.setFont(boxText.font);
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
      QStringList lines{QStringLiteral("m ") + formatNumber(m, kBoxDigits), QStringLiteral("u ") + formatNumber(u, kBoxDigits)};
      if (w.size() == 1) {
        lines << QStringLiteral("w ") + formatNumber(w[0], kBoxDigits);
        drawLines(box, lines, textColor);
      } else {
        lines << QString();
        drawLines(box, lines, textColor);
        const qreal lineHeight = QFontMetricsF(boxText.font).height() * 0.92;
        const QRectF area(box.left() + box.width() * 0.15, box.center().y() + lineHeight * 0.5 + 1,
                          box.width() * 0.7, lineHeight - 2);
        drawValueBars(area, w);
      }
    } else if (boxText.lines == 1) {
      drawLines(box, {formatNumber(m, kBoxDigits)}, textColor);
    } else {
      drawValueBars(box.adjusted(2, 2, -2, -2), w);
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
  paintHeader(c);
  paintRowLabels(c);
  measureBoxText(c);
  c.scale = largestValue();
  paintEdges(c);
  paintStates(c);
  paintOperands(c);
  paintOutputs(c);
  if (hovered_) {
    p.setPen(QPen(colors.text, c.pen * 1.6));
    p.drawRoundedRect(boxOf(*hovered_).adjusted(-1, -1, 1, 1), c.radius, c.radius);
  }
}

// The algorithm on the left, its counters on the right.
void ScanTreeView::paintHeader(PaintContext& c) const {
  const QFont titleFont = exploreFont(font(), 1.1, true);
  c.p.setFont(fittedFont(titleFont, {title_}, QSizeF(c.l.header.width(), QFontMetricsF(titleFont).height()), 1.0, 0.7));
  c.p.setPen(c.colors.text);
  c.p.drawText(c.l.header, Qt::AlignLeft | Qt::AlignTop, title_);
  c.p.setFont(exploreFont(font(), 1.0));
  c.p.setPen(c.colors.muted);
  c.p.drawText(c.l.header, (c.l.headerLines == 2 ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignBottom, countersText());
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
  p.setFont(font());
  p.setPen(c.colors.muted);
  const bool roomForOffsets = l.boxHeight >= 1.9 * em;
  p.drawText(labelRect(0), Qt::AlignRight | Qt::AlignVCenter, l.compactLabels ? QStringLiteral("x") : tr("tokens"));
  for (int level = 1; level <= run_->stepCount(); ++level) {
    p.setPen(level == step_ ? c.colors.result : c.colors.muted);
    p.setFont(exploreFont(font(), 1.0, level == step_));
    const QString name = l.compactLabels ? QString::number(level) : tr("step %1").arg(level);
    const QString label = roomForOffsets ? tr("%1\n+%2").arg(name).arg(run_->offset(level)) : name;
    const bool thin = l.row < 1.2 * em;
    if (!thin || level == step_ || level == 1 || level == run_->stepCount())
      p.drawText(labelRect(level), Qt::AlignRight | Qt::AlignVCenter, label);
  }
  p.setFont(font());
  p.setPen(c.colors.muted);
  p.drawText(labelRect(l.levels + 1), Qt::AlignRight | Qt::AlignVCenter,
             l.compactLabels ? QStringLiteral("o") : tr("o = w / u"));
}

// Three lines where the widest of them fits every box, else the m line alone, else none.
void ScanTreeView::measureBoxText(PaintContext& c) const {
  const QFontMetricsF fm(font());
  qreal widest = 0, widestM = 0;
  const auto consider = [&](const QString& line, bool isM) {
    const qreal width = fm.horizontalAdvance(line);
    widest = std::max(widest, width);
    if (isM) widestM = std::max(widestM, width);
  };
  for (int level = 0; level <= run_->stepCount(); ++level) {
    const StateArray<float>& s = run_->states(level);
    for (int i = 0; i < run_->tokens(); ++i) {
      consider(QStringLiteral("m ") + formatNumber(s.m[std::size_t(i)], kBoxDigits), true);
      consider(QStringLiteral("u ") + formatNumber(s.u[std::size_t(i)], kBoxDigits), false);
      if (s.dv == 1) consider(QStringLiteral("w ") + formatNumber(s.w[std::size_t(i)], kBoxDigits), false);
    }
  }
  const Layout& l = c.l;
  const qreal lineHeight = fm.height() * 0.92;
  const qreal threeLines =
      std::min({kLargestTextScale, l.boxHeight * 0.9 / (3 * lineHeight), l.boxWidth * 0.88 / widest});
  const qreal oneLine = std::min({kLargestTextScale, l.boxHeight * 0.85 / lineHeight, l.boxWidth * 0.88 / widestM});
  // The smallest text is measured against the normal font: presenter mode's larger font may
  // shrink further before the boxes give up their numbers.
  const qreal smallest = kSmallestTextScale / Appearance::instance().chartScale();
  if (threeLines >= smallest) c.boxText = {3, exploreFont(font(), threeLines)};
  else if (oneLine >= smallest) c.boxText = {1, exploreFont(font(), oneLine)};
}

// Lines that carry an unchanged state down, the arrows of every step shown so far, and the
// outline of every later step's results (what is still to come).
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
      const QRectF from = boxAt(l, level - 1, combines[k].left);
      const QRectF through = boxAt(l, level - 1, combines[k].right);
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
    const std::vector<int>& held = run_->tokensHeld(s.level, s.position);
    QColor fill = s.holdsPrefix ? withAlpha(colors.complete, 46) : colors.node;
    QPen outline(s.holdsPrefix ? colors.complete : colors.border, c.pen);
    if (flagIncomplete_ && !contiguous(held)) outline = QPen(colors.wrong, c.pen * 1.4, Qt::DashLine);
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
  const auto& selected = run_->combines(step_);
  if (step_ == 0 || selected.empty()) return;
  const ScanCombine& combine = selected[std::size_t(selectedCombineIndex())];
  c.p.setPen(QPen(c.colors.left, c.pen * 2.2));
  c.p.drawRoundedRect(boxAt(c.l, step_ - 1, combine.left).adjusted(-2, -2, 2, 2), c.radius, c.radius);
  c.p.setPen(QPen(c.colors.right, c.pen * 2.2));
  c.p.drawRoundedRect(boxAt(c.l, step_ - 1, combine.right).adjusted(-2, -2, 2, 2), c.radius, c.radius);
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
    if (c.boxText.lines > 0) {
      QStringList lines;
      for (float x : o.o) lines << formatNumber(x, kBoxDigits);
      if (c.boxText.lines == 1) lines = QStringList{lines.front()};
      c.drawLines(box, lines, o.flagged ? colors.wrong : colors.text);
    } else {
      c.drawValueBars(box.adjusted(2, 2, -2, -2), o.o);
    }
    if (o.flagged) {
      p.setFont(exploreFont(font(), 0.9, true));
      p.setPen(colors.wrong);
      const qreal side = 0.9 * c.em;
      const QRectF corner(box.right() - side * 0.6, box.top() - side * 0.4, side, side);
      c.fillBox(corner, colors.wrong, Qt::NoPen);
      p.setPen(colors.background);
      p.drawText(corner, Qt::AlignCenter, QStringLiteral("\u2717"));
    }
  }
}

void ScanTreeView::mouseMoveEvent(QMouseEvent* event) {
  const std::optional<Node> node = nodeAt(event->position());
  const bool changed = node.has_value() != hovered_.has_value() ||
                       (node && (node->level != hovered_->level || node->position != hovered_->position));
  hovered_ = node;
  if (changed) update();
  if (node) QToolTip::showText(event->globalPosition().toPoint(), describe(*node), this);
  else QToolTip::hideText();
}

void ScanTreeView::mousePressEvent(QMouseEvent* event) {
  const std::optional<Node> node = nodeAt(event->position());
  if (!node || node->level != step_ || step_ == 0) return;
  const int index = combineIndexOf(node->position);
  if (index < 0) return;
  setSelectedCombine(index);
  emit combineSelected(index);
}

void ScanTreeView::leaveEvent(QEvent*) {
  hovered_.reset();
  update();
}

}  // namespace aaren::ui
