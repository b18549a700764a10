#include "ui/explore/softmax_bars.hpp"

#include <QPainter>
#include <QtMath>
#include <algorithm>
#include <cmath>

#include "ui/explore/explore_style.hpp"

namespace aaren::ui {

SoftmaxBars::SoftmaxBars(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void SoftmaxBars::setContent(Content content) {
  const bool resized = content.tokens != content_.tokens;
  content_ = std::move(content);
  if (resized) updateGeometry();
  update();
}

bool SoftmaxBars::outputsAgree() const {
  return !content_.recurrent.empty() && formatVector(content_.recurrent) == formatVector(content_.conventional);
}

// Every slot at least one readable line wide, so that its labels fit turned upright.
QSize SoftmaxBars::minimumSizeHint() const {
  const QSize lines = sizeInLines(*this, 10, 12);
  const qreal slot = QFontMetricsF(atLeastReadable(exploreFont(font(), 0.85))).height() * 1.1;
  const qreal pad = 1.2 * fontMetrics().height();
  return QSize(std::max(lines.width(), qCeil(slot * content_.tokens + pad)), lines.height());
}

QSize SoftmaxBars::sizeHint() const {
  return sizeInLines(*this, 24, 22);
}

void SoftmaxBars::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const ExploreColors colors = beginPainting(p, *this);
  const QFontMetricsF fm(font());
  const qreal em = fm.height();
  const qreal pad = 0.6 * em;
  const Content& c = content_;
  const int k = int(c.weights.size());

  // The title on one line, or on two where even the smallest readable size would not fit one.
  const QString title = k == 0 ? tr("Softmax weights") : tr("Softmax weights over tokens 1..%1").arg(k);
  const QFont titleFont =
      atLeastReadable(fittedFont(exploreFont(font(), 1.1, true), {title}, QSizeF(width() - 2 * pad, 1.5 * em)));
  const bool titleFits = QFontMetricsF(titleFont).horizontalAdvance(title) <= width() - 2 * pad;
  const QRectF titleRect(pad, pad * 0.6, width() - 2 * pad, (titleFits ? 1 : 2) * QFontMetricsF(titleFont).lineSpacing() + 0.3 * em);
  setPaintFont(p, titleFont);
  p.setPen(colors.text);
  p.drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, title);

  // The outputs, two ways, at the bottom: name and value on one line when they fit, else on two.
  const QString names[] = {c.recurrentName + QStringLiteral(" ="), tr("parallel softmax =")};
  const QString values[] = {formatVector(c.recurrent), formatVector(c.conventional)};
  const QFont nameFont = exploreFont(font(), 1.05), valueFont = exploreFont(font(), 1.15, true);
  const qreal available = width() - 2 * pad;
  bool oneLine = true;
  for (int i = 0; i < 2; ++i)
    oneLine = oneLine && QFontMetricsF(nameFont).horizontalAdvance(names[i]) +
                                 QFontMetricsF(valueFont).horizontalAdvance(values[i]) + em <= available;
  const qreal line = 1.7 * em;
  const qreal outputsHeight = (oneLine ? 2 : 4) * line;
  const QRectF outputs(pad, height() - pad - outputsHeight, available, outputsHeight);
  if (!c.recurrent.empty()) {
    const bool agree = outputsAgree();
    for (int i = 0; i < 2; ++i) {
      const qreal top = outputs.top() + (oneLine ? i : 2 * i) * line;
      setPaintFont(p, atLeastReadable(fittedFont(nameFont, {names[i]}, QSizeF(available, line))));
      p.setPen(colors.text);
      p.drawText(QRectF(outputs.left(), top, available, line), Qt::AlignLeft | Qt::AlignVCenter, names[i]);
      setPaintFont(p, atLeastReadable(fittedFont(valueFont, {values[i]}, QSizeF(available, line))));
      p.setPen(agree ? colors.complete : colors.wrong);
      p.drawText(QRectF(outputs.left(), oneLine ? top : top + line, available, line), Qt::AlignRight | Qt::AlignVCenter,
                 values[i]);
    }
  }

  // The bars, each with its weight above and its score below: written across when they fit the
  // slot, else turned upright (many tokens, presenter mode's larger text).
  if (c.tokens <= 0) return;
  const QFont small = atLeastReadable(exploreFont(font(), 0.85));
  const QFontMetricsF sm(small);
  const qreal slotWidth = (width() - 2 * pad) / c.tokens;
  qreal widestLabel = sm.horizontalAdvance(QStringLiteral("0.00"));
  for (float score : c.scores) widestLabel = std::max(widestLabel, sm.horizontalAdvance(formatNumber(score, 3)));
  const bool across = slotWidth >= widestLabel * 1.05;
  const qreal labelDepth = across ? sm.height() : widestLabel + 0.3 * em;  // room a label takes up or down
  const qreal scoreRow = labelDepth + 0.2 * em;
  const QRectF plot(pad, titleRect.bottom() + labelDepth + 0.2 * em, width() - 2 * pad,
                    outputs.top() - titleRect.bottom() - labelDepth - scoreRow - 1.2 * em);
  if (plot.height() <= 0) return;
  const qreal slot = plot.width() / c.tokens;
  if (c.blockSize > 0)
    for (int first = 0; first < c.tokens; first += 2 * c.blockSize)
      p.fillRect(QRectF(plot.left() + slot * first, plot.top() - labelDepth, slot * std::min(c.blockSize, c.tokens - first),
                        plot.height() + labelDepth + scoreRow),
                 QColor(colors.faint.red(), colors.faint.green(), colors.faint.blue(), 70));
  float largest = 0;
  for (float w : c.weights)
    if (std::isfinite(w)) largest = std::max(largest, w);
  const bool undefined = std::any_of(c.weights.begin(), c.weights.end(), [](float w) { return !std::isfinite(w); });
  p.setPen(QPen(colors.border, explorePenWidth() * 0.7));
  p.drawLine(plot.bottomLeft(), plot.bottomRight());
  // A label in the slot of column, its near end at y, going up (above a bar) or down (a score).
  const auto label = [&](const QRectF& column, qreal y, bool up, const QString& text, const QColor& color) {
    setPaintFont(p, small);
    p.setPen(color);
    if (across) {
      const QRectF rect(column.left(), up ? y - sm.height() : y, column.width(), sm.height());
      p.drawText(rect, Qt::AlignHCenter | (up ? Qt::AlignBottom : Qt::AlignTop), text);
      return;
    }
    p.save();
    p.translate(column.center().x(), y);
    p.rotate(-90);
    const QRectF rect(up ? 0 : -widestLabel, -sm.height() / 2, widestLabel, sm.height());
    p.drawText(rect, Qt::AlignVCenter | (up ? Qt::AlignLeft : Qt::AlignRight), text);
    p.restore();
  };
  for (int i = 0; i < c.tokens; ++i) {
    const QRectF column(plot.left() + slot * i, plot.top(), slot, plot.height());
    const bool arrived = i < k;
    const bool highlighted = i >= c.highlightFrom && i <= c.highlightTo;
    if (arrived && std::isfinite(c.weights[std::size_t(i)]) && largest > 0) {
      const qreal h = plot.height() * c.weights[std::size_t(i)] / largest;
      const QRectF bar(column.left() + slot * 0.15, plot.bottom() - h, slot * 0.7, h);
      p.fillRect(bar, highlighted ? colors.result : colors.complete);
      if (!c.weightsWithheld)
        label(column, bar.top() - 0.1 * em, true, QString::number(c.weights[std::size_t(i)], 'f', 2), colors.text);
    } else if (!arrived) {  // an arrived weight that is not finite: the line across the plot says why
      p.setPen(QPen(colors.faint, explorePenWidth() * 0.7, Qt::DashLine));
      const qreal h = std::min(plot.height() * 0.15, 1.2 * em);
      p.drawRect(QRectF(column.left() + slot * 0.15, plot.bottom() - h, slot * 0.7, h));
    }
    if (i < int(c.scores.size()))
      label(column, plot.bottom() + 0.2 * em, false, formatNumber(c.scores[std::size_t(i)], 3),
            arrived ? colors.muted : colors.faint);
  }
  if (undefined) {
    setPaintFont(p, atLeastReadable(exploreFont(font(), 1.0, true)));
    p.setPen(colors.wrong);
    p.drawText(plot, Qt::AlignCenter | Qt::TextWordWrap, tr("c = 0: every weight is 0 / 0"));
  }
  setPaintFont(p, atLeastReadable(exploreFont(font(), 0.85)));
  p.setPen(colors.muted);
  p.drawText(QRectF(plot.left(), plot.bottom() + scoreRow, plot.width(), 1.2 * em), Qt::AlignRight | Qt::AlignTop,
             tr("scores s"));
}

}  // namespace aaren::ui
