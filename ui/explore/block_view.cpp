#include "ui/explore/block_view.hpp"

#include <QPainter>
#include <algorithm>

#include "ui/explore/cell_run.hpp"
#include "ui/explore/explore_style.hpp"

namespace aaren::ui {

BlockView::BlockView(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void BlockView::setRun(const BlockRun* run, const std::vector<float>* scores) {
  run_ = run;
  scores_ = scores;
  block_ = 0;
  update();
}

void BlockView::setBlock(int block) {
  block_ = run_ ? std::clamp(block, 0, int(run_->frames().size())) : 0;
  update();
}

QSize BlockView::minimumSizeHint() const {
  return sizeInLines(*this, 24, 16);
}

void BlockView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const ExploreColors colors = beginPainting(p, *this);
  if (!run_ || !scores_) return;
  // Everything grows with the room there is, up to half again the widget's font.
  const qreal natural = QFontMetricsF(font()).height();
  const qreal zoom = std::clamp(std::min(height() / (22.0 * natural), width() / (34.0 * natural)), 1.0, 1.5);
  const QFont base = exploreFont(font(), zoom);
  const QFontMetricsF fm(base);
  const qreal em = fm.height();
  const qreal pad = 0.7 * em;
  const qreal pen = explorePenWidth();
  const int n = run_->tokens();
  const int b = run_->blockSize();
  const int blocks = int(run_->frames().size());

  setPaintFont(p, atLeastReadable(exploreFont(base, 1.1, true)));
  p.setPen(colors.text);
  const QRectF title(pad, pad * 0.6, width() - 2 * pad, 1.5 * em);
  p.drawText(title, Qt::AlignLeft | Qt::AlignVCenter, tr("Block by block, b = %1").arg(b));
  setPaintFont(p, atLeastReadable(base));
  p.setPen(colors.muted);
  p.drawText(title, Qt::AlignRight | Qt::AlignVCenter, tr("block %1 of %2").arg(block_).arg(blocks));

  // The tokens, grouped in blocks: done, current, still to come.
  const qreal gap = std::min(0.5 * em, width() * 0.3 / std::max(1, blocks));
  const qreal stripTop = title.bottom() + 0.6 * em;
  // Spare height goes to the strip, the state boxes and the meters alike.
  const qreal spare = std::max(0.0, height() - pad - stripTop - 17.5 * em);
  const qreal stripHeight = 2.2 * em + spare * 0.1;
  const qreal slot = (width() - 2 * pad - gap * (blocks - 1)) / std::max(1, n);
  const BlockFrame* current = block_ > 0 ? &run_->frames()[std::size_t(block_ - 1)] : nullptr;
  // The scores where they fit whole at a readable size; the softmax bars beside write them too.
  const QFont scoreFont = atLeastReadable(exploreFont(base, 0.85));
  qreal widestScore = 0;
  for (int i = 0; i < n; ++i)
    widestScore = std::max(widestScore, QFontMetricsF(scoreFont).horizontalAdvance(formatNumber((*scores_)[std::size_t(i)], 3)));
  const bool scoreText = slot - 4 >= widestScore;
  setPaintFont(p, scoreFont);
  for (int i = 0; i < n; ++i) {
    const int blockIndex = i / b;
    const QRectF box(pad + slot * i + gap * blockIndex + 1, stripTop, slot - 2, stripHeight);
    const bool done = blockIndex < block_ - 1;
    const bool now = blockIndex == block_ - 1;
    const QColor fill = now ? withAlpha(colors.result, 60) : done ? withAlpha(colors.complete, 46) : colors.node;
    p.setPen(QPen(now ? colors.result : done ? colors.complete : colors.faint, now ? pen * 1.6 : pen));
    p.setBrush(fill);
    p.drawRoundedRect(box, 3, 3);
    p.setBrush(Qt::NoBrush);
    if (scoreText) {
      p.setPen(blockIndex < block_ ? colors.text : colors.muted);
      p.drawText(box, Qt::AlignCenter, formatNumber((*scores_)[std::size_t(i)], 3));
    }
  }
  setPaintFont(p, atLeastReadable(exploreFont(base, 0.85)));
  p.setPen(colors.muted);
  p.drawText(QRectF(pad, stripTop + stripHeight + 0.1 * em, width() - 2 * pad, 1.2 * em), Qt::AlignLeft | Qt::AlignTop,
             tr("scores of the tokens, in blocks of %1").arg(b));

  // running (before) (+) block = running (after), and the output.
  const qreal stateTop = stripTop + stripHeight + 1.8 * em + spare * 0.08;
  const qreal operatorWidth = 2.2 * em;
  const qreal boxWidth = (width() - 2 * pad - 2 * operatorWidth) / 3;
  const BlockFrame* previous = block_ > 1 ? &run_->frames()[std::size_t(block_ - 2)] : nullptr;
  const QString headings[] = {
      tr("running, before"),
      current ? tr("block %1: tokens %2..%3").arg(block_).arg(current->first + 1).arg(current->last + 1) : tr("next block"),
      tr("running, after")};
  // Each box holds its heading (one line, or two where it does not fit) and three lines of numbers.
  const QFont headingFont = atLeastReadable(exploreFont(base, 0.95, true));
  const QFontMetricsF hm(headingFont);
  const qreal headingWidth = boxWidth - 0.6 * em;
  int headingLines = 1;
  for (const QString& heading : headings)
    if (hm.horizontalAdvance(heading) > headingWidth) headingLines = 2;
  const qreal bodyLine = QFontMetricsF(atLeastReadable(base)).height();
  const qreal stateHeight = std::max(4.4 * em + spare * 0.4, headingLines * hm.height() + 3 * bodyLine + 0.6 * em);
  const auto stateBox = [&](int index) {
    return QRectF(pad + index * (boxWidth + operatorWidth), stateTop, boxWidth, stateHeight);
  };
  const auto drawState = [&](const QRectF& box, const QString& heading, float m, float u, const std::vector<float>& w,
                             const QColor& accent, bool known) {
    p.setPen(QPen(known ? accent : colors.faint, pen * (known ? 1.6 : 1), known ? Qt::SolidLine : Qt::DashLine));
    p.setBrush(known ? withAlpha(accent, 28) : colors.node);
    p.drawRoundedRect(box, 6, 6);
    p.setBrush(Qt::NoBrush);
    const QRectF headingRect = box.adjusted(0.3 * em, 0.15 * em, -0.3 * em, 0);
    setPaintFont(p, headingFont);
    p.setPen(known ? colors.text : colors.muted);
    p.drawText(headingRect, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, heading);
    if (!known) return;
    const QStringList lines{QStringLiteral("m ") + formatNumber(m, 3), QStringLiteral("u ") + formatNumber(u, 3),
                            QStringLiteral("w ") + formatVector(w, 3)};
    const QRectF body = box.adjusted(0.3 * em, 0.25 * em + headingLines * hm.height(), -0.3 * em, -0.15 * em);
    setPaintFont(p, atLeastReadable(fittedFont(base, lines, body.size(), 1.5)));
    p.drawText(body, Qt::AlignCenter, lines.join(QLatin1Char('\n')));
  };
  const std::vector<float> zeros(std::size_t(run_->dv()), 0.0f);
  drawState(stateBox(0), headings[0], previous ? previous->m : negative_infinity<float>(),
            previous ? previous->u : 0.0f, previous ? previous->w : zeros, colors.complete, block_ > 0);
  drawState(stateBox(1), headings[1], current ? current->blockM : 0, current ? current->blockU : 0,
            current ? current->blockW : zeros, colors.result, current != nullptr);
  drawState(stateBox(2), headings[2], current ? current->m : 0, current ? current->u : 0,
            current ? current->w : zeros, colors.complete, current != nullptr);
  setPaintFont(p, atLeastReadable(exploreFont(base, 1.6, true)));
  p.setPen(colors.text);
  p.drawText(QRectF(stateBox(0).right(), stateTop, operatorWidth, stateHeight), Qt::AlignCenter, QStringLiteral("\u2295"));
  p.drawText(QRectF(stateBox(1).right(), stateTop, operatorWidth, stateHeight), Qt::AlignCenter, QStringLiteral("="));
  if (current) {
    const QString output = tr("o = w / u = %1").arg(formatVector(current->o));
    setPaintFont(p, atLeastReadable(fittedFont(exploreFont(base, 1.2, true), {output}, QSizeF(stateBox(2).right() - pad, 1.6 * em))));
    p.setPen(colors.complete);
    p.drawText(QRectF(pad, stateTop + stateHeight + 0.2 * em, stateBox(2).right() - pad, 1.6 * em), Qt::AlignRight,
               output);
  }

  // What each way holds at once.
  const int dv = run_->dv();
  struct Meter {
    QString label;
    int numbers;
    QColor color;
  };
  const Meter meters[] = {
      {tr("block by block, b = %1").arg(b), run_->numbersHeld(), colors.result},
      {tr("recurrent cell"), recurrentNumbersHeld(dv), colors.complete},
      {tr("conventional softmax (all N tokens)"), conventionalNumbersHeld(n, dv), colors.left},
  };
  const int largest = std::max({meters[0].numbers, meters[1].numbers, meters[2].numbers});
  const qreal metersTop = stateTop + stateHeight + 3.4 * em + spare * 0.08;
  const qreal rowHeight = std::min(1.7 * em + spare * 0.1, (height() - pad - metersTop) / 3);
  if (rowHeight < 0.9 * em) return;
  setPaintFont(p, atLeastReadable(exploreFont(base, 0.95, true)));
  p.setPen(colors.text);
  p.drawText(QRectF(pad, metersTop - 1.4 * em, width() - 2 * pad, 1.3 * em), Qt::AlignLeft | Qt::AlignVCenter,
             tr("Numbers held at once"));
  const qreal labelWidth = fm.horizontalAdvance(meters[2].label) + em;
  const qreal barSpace = width() - 2 * pad - labelWidth - 3 * em;
  setPaintFont(p, atLeastReadable(base));
  for (int i = 0; i < 3; ++i) {
    const qreal top = metersTop + i * rowHeight;
    p.setPen(colors.muted);
    p.drawText(QRectF(pad, top, labelWidth, rowHeight), Qt::AlignLeft | Qt::AlignVCenter, meters[i].label);
    const qreal length = barSpace * meters[i].numbers / std::max(1, largest);
    p.fillRect(QRectF(pad + labelWidth, top + rowHeight * 0.2, length, rowHeight * 0.6), meters[i].color);
    p.setPen(colors.text);
    p.drawText(QRectF(pad + labelWidth + length + 0.4 * em, top, 3 * em, rowHeight), Qt::AlignLeft | Qt::AlignVCenter,
               QString::number(meters[i].numbers));
  }
}

}  // namespace aaren::ui
