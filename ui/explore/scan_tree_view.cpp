#include "ui/explore/scan_tree_view.hpp"

#include <QMouseEvent>
#include <QToolTip>
#include <algorithm>
#include <QtMath>
#include <cmath>

#include "ui/appearance.hpp"
#include "ui/explore/explore_style.hpp"
#include "ui/explore/scan_run.hpp"

namespace aaren::ui {

namespace {

constexpr qreal kBoxWidthShare = 0.9;   // of a column
constexpr qreal kBoxHeightShare = 0.7;  // of a row; the rest is room for the arrows
constexpr qreal kTightBoxHeightShare = 0.8;  // where a row is short: the box keeps its line of text
constexpr qreal kMaxRowLines = 6.0;      // rows never grow taller than this many text lines
constexpr int kMaxListedWeights = 16;

}  // namespace

ScanTreeView::ScanTreeView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ScanTreeView::setRun(const ScanRun* run) {
  run_ = run;
  updateGeometry();
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
  updateGeometry();
  update();
}

void ScanTreeView::setBesideOthers(bool beside) {
  if (beside == besideOthers_) return;
  besideOthers_ = beside;
  updateGeometry();
  update();
}

void ScanTreeView::setNumbersShown(bool shown) {
  if (shown == numbersShown_) return;
  numbersShown_ = shown;
  updateGeometry();
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

void ScanTreeView::setLitRanges(const QList<TokenRange>& ranges) {
  litRanges_ = ranges;
  update();
}

void ScanTreeView::setShowAhead(bool on) {
  showAhead_ = on;
  update();
}

std::vector<ScanTreeView::Node> ScanTreeView::litNodes() const {
  std::vector<Node> nodes;
  if (!run_) return nodes;
  const auto lit = [this](int level, int position) {
    const std::vector<int>& held = run_->tokensHeld(level, position);
    return run_->holdsSegment(level, position) && !held.empty() &&
           litRanges_.contains(TokenRange{held.front(), held.back()});
  };
  for (const DrawnState& s : drawnStates())
    if (lit(s.level, s.position)) nodes.push_back({s.level, s.position});
  return nodes;
}

std::optional<ScanTreeView::Operands> ScanTreeView::selectedOperands() const {
  if (!run_ || step_ == 0 || run_->combines(step_).empty()) return std::nullopt;
  const ScanCombine& combine = run_->combines(step_)[std::size_t(selectedCombineIndex())];
  return Operands{{run_->rowHolding(step_ - 1, combine.left), combine.left},
                  {run_->rowHolding(step_ - 1, combine.right), combine.right}};
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
  if (showAhead_)
    return tr("depth %1 of %2 \u00b7 work %3 of %4").arg(shown.depth).arg(total.depth).arg(shown.work).arg(total.work);
  // Without show ahead the totals are the answer to "how many steps and combines?": only what is
  // done so far until the tree has finished.
  if (step_ >= run_->stepCount()) return tr("depth %1 \u00b7 work %2 (done)").arg(shown.depth).arg(shown.work);
  return tr("depth %1 \u00b7 work %2").arg(shown.depth).arg(shown.work);
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
  const qreal headerWidth = width() - 2 * pad;
  const int n = run_ ? std::max(1, run_->tokens()) : 1;
  l.compactLabels = compactAt(width());
  l.headerLines = headerLinesAt(width(), l.compactLabels);
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
  l.boxHeight = std::max(l.row * kBoxHeightShare, std::min(l.row * kTightBoxHeightShare, oneLineBoxHeight()));
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
  if (run_->holdsSegment(level, n)) {
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

qreal ScanTreeView::widestBoxLine(const QFontMetricsF& metrics, bool mOnly, int digits) const {
  qreal widest = 1;
  if (!run_) return widest;
  for (int level = 0; level <= run_->stepCount(); ++level) {
    const StateArray<float>& s = run_->states(level);
    for (int i = 0; i < run_->tokens(); ++i) {
      QStringList lines{(mOnly ? QString() : QStringLiteral("m ")) + formatNumber(s.m[std::size_t(i)], digits)};
      if (!mOnly) lines << QStringLiteral("u ") + formatNumber(s.u[std::size_t(i)], digits);
      if (!mOnly && s.dv == 1) lines << QStringLiteral("w ") + formatNumber(s.w[std::size_t(i)], digits);
      for (const QString& line : lines) widest = std::max(widest, metrics.horizontalAdvance(line));
    }
    // The outputs row writes o = w / u in boxes of the same width.
    for (float o : run_->outputs(level)) widest = std::max(widest, metrics.horizontalAdvance(formatNumber(o, digits)));
  }
  return widest;
}

// Room for every box to write its m at the smallest readable size, rounded to kFewestBoxDigits, or
// with numbers off for boxes of a readable line's height; a smaller window scrolls.
QSize ScanTreeView::minimumSizeHint() const { return minimumSizeFor(numbersShown_); }

int ScanTreeView::minimumWidthWithNumbers() const { return minimumSizeFor(true).width(); }

QSize ScanTreeView::minimumSizeFor(bool numbers) const {
  const QSize floor = sizeInLines(*this, 9, 10);
  if (!run_) return floor;
  QFont readable = font();
  readable.setPixelSize(minimumTextPixels());
  const QFontMetricsF small(readable), normal(font());
  const qreal em = normal.height();
  const qreal column = numbers ? widestBoxLine(small, true, kFewestBoxDigits) / kTextWidthShare / kBoxWidthShare
                               : small.height() / kBoxWidthShare;
  const qreal labels = normal.horizontalAdvance(QStringLiteral("+32")) + 0.8 * em;
  const int width = std::max(floor.width(), qCeil(em + labels + column * run_->tokens()));
  // Beside others, the header as it is now; stacked, one line, and heightForWidth says where it
  // needs two (a minimum taken before the first layout would otherwise assume a narrow tree).
  if (!besideOthers_) return QSize(width, rowsHeightAt(1, numbers));
  return QSize(width, std::max(floor.height(), rowsHeightAt(layout().headerLines, numbers)));
}

int ScanTreeView::heightForWidth(int width) const {
  return rowsHeightAt(headerLinesAt(width, compactAt(width)), numbersShown_);
}

// A box that holds one line of numbers at the smallest readable size, as measureBoxText fits it
// (the tree's line scaled, with a pixel spare for rounding).
qreal ScanTreeView::oneLineBoxHeight() const {
  const qreal smallest = qreal(minimumTextPixels()) / std::max(1, pixelSizeOf(font()));
  return smallest * QFontMetricsF(font()).height() * 0.92 / 0.85 + 1;
}

int ScanTreeView::rowsHeightAt(int headerLines, bool numbers) const {
  QFont readable = font();
  readable.setPixelSize(minimumTextPixels());
  const qreal em = QFontMetricsF(font()).height();
  const qreal row = numbers ? oneLineBoxHeight() / kTightBoxHeightShare : QFontMetricsF(readable).height();
  const int rows = std::max(levelRows_, run_ ? run_->stepCount() : 0) + 2;
  return qCeil(em + (headerLines == 2 ? 2.7 : 1.5) * em + 0.4 * em + row * rows);
}

// Narrow trees keep their columns and label rows with short names.
bool ScanTreeView::compactAt(int width) const {
  const QFontMetricsF fm(font());
  const qreal em = fm.height();
  const int n = run_ ? std::max(1, run_->tokens()) : 1;
  return (width - em - fm.horizontalAdvance(QStringLiteral("o = w / u")) - em) / n < 4.5 * em;
}

// A compact tree beside others writes its counters under its title, so that trees shown together
// keep their rows aligned. The counters' room includes the note a one-line box adds (" · boxes
// show m"), measured on the longest form, so that the header does not jump as the counters grow.
int ScanTreeView::headerLinesAt(int width, bool compact) const {
  const QFontMetricsF fm(font());
  const qreal em = fm.height();
  const qreal titleWidth = QFontMetricsF(exploreFont(font(), 1.1, true)).horizontalAdvance(title_);
  const ScanCounts total = run_ ? run_->totals() : ScanCounts{};
  const QString widest = tr("depth %1 of %2 \u00b7 work %3 of %4").arg(total.depth).arg(total.depth).arg(total.work).arg(total.work);
  const qreal countersWidth = std::max(fm.horizontalAdvance(countersText()), fm.horizontalAdvance(widest)) * 1.5;
  return (compact && besideOthers_) || titleWidth + countersWidth + em > width - em ? 2 : 1;
}

QSize ScanTreeView::sizeHint() const {
  return sizeInLines(*this, 48, 30);
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
