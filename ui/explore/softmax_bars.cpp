#include "ui/explore/softmax_bars.hpp"

#include <QPainter>
#include <algorithm>
#include <cmath>

#include "ui/explore/explore_style.hpp"

namespace aaren::ui {

SoftmaxBars::SoftmaxBars(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void SoftmaxBars::setContent(Content content) {
  content_ = std::move(content);
  update();
}

bool SoftmaxBars::outputsAgree() const {
  return !content_.recurrent.empty() && formatVector(content_.recurrent) == formatVector(content_.conventional);
}

QSize SoftmaxBars::minimumSizeHint() const {
  return sizeInLines(*this, 10, 12);
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

  const QRectF titleRect(pad, pad * 0.6, width() - 2 * pad, 1.5 * em);
  const QString title = k == 0 ? tr("Softmax weights") : tr("Softmax weights over tokens 1..%1").arg(k);
  p.setFont(fittedFont(exploreFont(font(), 1.1, true), {title}, titleRect.size()));
  p.setPen(colors.text);
  p.drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter, title);

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
      p.setFont(fittedFont(nameFont, {names[i]}, QSizeF(available, line)));
      p.setPen(colors.text);
      p.drawText(QRectF(outputs.left(), top, available, line), Qt::AlignLeft | Qt::AlignVCenter, names[i]);
      p.setFont(fittedFont(valueFont, {values[i]}, QSizeF(available, line)));
      p.setPen(agree ? colors.complete : colors.wrong);
      p.drawText(QRectF(outputs.left(), oneLine ? top : top + line, available, line), Qt::AlignRight | Qt::AlignVCenter,
                 values[i]);
    }
  }

  // The bars.
  if (c.tokens <= 0) return;
  const qreal scoreRow = 1.3 * em;
  const QRectF plot(pad, titleRect.bottom() + 1.4 * em, width() - 2 * pad,
                    outputs.top() - titleRect.bottom() - 1.4 * em - scoreRow - 0.6 * em);
  if (plot.height() <= 0) return;
  const qreal slot = plot.width() / c.tokens;
  if (c.blockSize > 0)
    for (int first = 0; first < c.tokens; first += 2 * c.blockSize)
      p.fillRect(QRectF(plot.left() + slot * first, plot.top() - 1.2 * em, slot * std::min(c.blockSize, c.tokens - first),
                        plot.height() + 1.2 * em + scoreRow),
                 QColor(colors.faint.red(), colors.faint.green(), colors.faint.blue(), 70));
  float largest = 0;
  for (float w : c.weights)
    if (std::isfinite(w)) largest = std::max(largest, w);
  const bool undefined = std::any_of(c.weights.begin(), c.weights.end(), [](float w) { return !std::isfinite(w); });
  p.setPen(QPen(colors.border, explorePenWidth() * 0.7));
  p.drawLine(plot.bottomLeft(), plot.bottomRight());
  const bool labels = slot >= fm.horizontalAdvance(QStringLiteral("0.00")) * 0.85;
  const QFont small = exploreFont(font(), labels ? 0.85 : 0.7);
  for (int i = 0; i < c.tokens; ++i) {
    const QRectF column(plot.left() + slot * i, plot.top(), slot, plot.height());
    const bool arrived = i < k;
    const bool highlighted = i >= c.highlightFrom && i <= c.highlightTo;
    if (arrived && std::isfinite(c.weights[std::size_t(i)]) && largest > 0) {
      const qreal h = plot.height() * c.weights[std::size_t(i)] / largest;
      const QRectF bar(column.left() + slot * 0.15, plot.bottom() - h, slot * 0.7, h);
      p.fillRect(bar, highlighted ? colors.result : colors.complete);
      if (labels) {
        p.setFont(small);
        p.setPen(colors.text);
        p.drawText(QRectF(column.left(), bar.top() - 1.2 * em, slot, 1.2 * em), Qt::AlignHCenter | Qt::AlignBottom,
                   QString::number(c.weights[std::size_t(i)], 'f', 2));
      }
    } else if (arrived && labels) {
      p.setFont(small);
      p.setPen(colors.wrong);
      p.drawText(QRectF(column.left(), plot.bottom() - 1.4 * em, slot, 1.2 * em), Qt::AlignCenter, QStringLiteral("NaN"));
    } else if (!arrived) {
      p.setPen(QPen(colors.faint, explorePenWidth() * 0.7, Qt::DashLine));
      const qreal h = std::min(plot.height() * 0.15, 1.2 * em);
      p.drawRect(QRectF(column.left() + slot * 0.15, plot.bottom() - h, slot * 0.7, h));
    }
    if (labels && i < int(c.scores.size())) {
      p.setFont(small);
      p.setPen(arrived ? colors.muted : colors.faint);
      p.drawText(QRectF(column.left(), plot.bottom() + 0.2 * em, slot, scoreRow), Qt::AlignHCenter | Qt::AlignTop,
                 formatNumber(c.scores[std::size_t(i)], 3));
    }
  }
  if (undefined) {
    p.setFont(exploreFont(font(), 1.0, true));
    p.setPen(colors.wrong);
    p.drawText(plot, Qt::AlignCenter | Qt::TextWordWrap, tr("c = 0: every weight is 0 / 0"));
  }
  p.setFont(exploreFont(font(), 0.85));
  p.setPen(colors.muted);
  p.drawText(QRectF(plot.left(), plot.bottom() + scoreRow, plot.width(), 0.9 * em), Qt::AlignRight | Qt::AlignTop,
             labels ? tr("scores s") : QString());
}

}  // namespace aaren::ui
