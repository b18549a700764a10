#include "ui/explore/linear_memory_view.hpp"

#include <QPainter>
#include <algorithm>
#include <cmath>

#include "ui/explore/explore_style.hpp"

namespace aaren::ui {

namespace {

// White at 0, to red (positive) or blue (negative) at the run's largest magnitude.
QColor cellColor(double value, double largest, const ExploreColors& colors) {
  const double t = largest > 0 ? std::min(1.0, std::abs(value) / largest) : 0.0;
  const QColor end = value >= 0 ? QColor(0xc0, 0x39, 0x2b) : QColor(0x2e, 0x6b, 0xc6);
  const QColor start = colors.node;
  return QColor::fromRgbF(float(start.redF() + t * (end.redF() - start.redF())),
                          float(start.greenF() + t * (end.greenF() - start.greenF())),
                          float(start.blueF() + t * (end.blueF() - start.blueF())));
}

}  // namespace

LinearMemoryView::LinearMemoryView(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void LinearMemoryView::show(const LinearRun* run, int token) {
  run_ = run;
  token_ = token;
  update();
}

QSize LinearMemoryView::minimumSizeHint() const { return sizeInLines(*this, 12, 10); }

void LinearMemoryView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const ExploreColors colors = beginPainting(p, *this);
  numbersShown_ = false;
  if (!run_ || run_->tokens() == 0) return;
  const int m = run_->features(), dv = run_->valueDim();
  const qreal em = QFontMetricsF(font()).height();
  const qreal pad = 0.5 * em;
  const QFont title = atLeastReadable(exploreFont(font(), 1.0, true));
  setPaintFont(p, title);
  p.setPen(colors.text);
  const QRectF header(pad, pad, width() - 2 * pad, 1.5 * em);
  p.drawText(header, Qt::AlignLeft | Qt::AlignVCenter,
             token_ > 0 ? tr("S and z after token %1").arg(token_) : tr("S and z, empty"));

  // The largest magnitude over the whole run sets the colour scale, so that colours compare
  // between tokens.
  const double largest = run_->largestMemory();
  const int columns = dv + 1;  // S's d_v columns, a gap, z
  const QRectF grid(pad + 2.2 * em, header.bottom() + 1.6 * em, width() - 3 * pad - 2.2 * em,
                    height() - header.bottom() - 2.4 * em);
  const qreal cellWidth = std::min(grid.width() / (columns + 0.4), 9.0 * em);
  const qreal cellHeight = std::min(grid.height() / m, 4.0 * em);
  // Numbers grow with their cells, up to half as large again as the text.
  const QFont number =
      atLeastReadable(exploreFont(font(), std::clamp(std::min(cellHeight / (1.8 * em), cellWidth / (5.0 * em)), 0.85, 1.5)));
  const QFontMetricsF numberMetrics(number);
  const bool numbers = cellHeight >= numberMetrics.height() * 1.05 &&
                       cellWidth >= numberMetrics.horizontalAdvance(QStringLiteral("−0.000")) * 1.1;
  const qreal zLeft = grid.left() + dv * cellWidth + 0.4 * cellWidth;
  const auto cellRect = [&](int row, int column) {
    const qreal left = column < dv ? grid.left() + column * cellWidth : zLeft;
    return QRectF(left, grid.top() + row * cellHeight, cellWidth, cellHeight);
  };

  // Column heads: v_1 .. v_dv over S, z over z.
  setPaintFont(p, atLeastReadable(font()));
  p.setPen(colors.muted);
  for (int c = 0; c <= dv; ++c) {
    const QRectF cell = cellRect(0, c);
    p.drawText(QRectF(cell.left(), grid.top() - 1.4 * em, cell.width(), 1.3 * em), Qt::AlignCenter,
               c < dv ? (dv == 1 ? QStringLiteral("S") : QStringLiteral("S·%1").arg(c + 1)) : QStringLiteral("z"));
  }
  if (cellHeight * m >= 3 * em) {
    p.save();
    p.translate(pad + 0.8 * em, grid.top() + cellHeight * m / 2);
    p.rotate(-90);
    p.drawText(QRectF(-cellHeight * m / 2, -0.8 * em, cellHeight * m, 1.6 * em), Qt::AlignCenter,
               tr("feature 1 .. %1").arg(m));
    p.restore();
  }

  const LinearTokenFrame* frame = token_ > 0 ? &run_->frame(token_) : nullptr;
  for (int row = 0; row < m; ++row)
    for (int c = 0; c <= dv; ++c) {
      const double value = !frame ? 0.0 : c < dv ? frame->s[std::size_t(row * dv + c)] : frame->z[std::size_t(row)];
      const QRectF cell = cellRect(row, c);
      p.fillRect(cell, cellColor(value, largest, colors));
      if (numbers && frame) {
        setPaintFont(p, number);
        p.setPen(std::abs(value) > 0.6 * largest ? QColor(Qt::white) : colors.text);
        p.drawText(cell, Qt::AlignCenter, formatNumber(value, 3));
      }
    }
  numbersShown_ = numbers && frame;
  p.setPen(QPen(colors.border, explorePenWidth() * 0.6));
  p.setBrush(Qt::NoBrush);
  p.drawRect(QRectF(cellRect(0, 0).topLeft(), cellRect(m - 1, dv - 1).bottomRight()));
  p.drawRect(QRectF(cellRect(0, dv).topLeft(), cellRect(m - 1, dv).bottomRight()));
}

}  // namespace aaren::ui
