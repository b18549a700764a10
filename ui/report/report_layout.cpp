#include "ui/report/report_layout.hpp"

#include <QFontMetricsF>
#include <QPageLayout>
#include <QPdfWriter>
#include <algorithm>

namespace aaren::ui {

namespace {

constexpr qreal kPointsPerInch = 72.0;
constexpr qreal kBodyPoints = 10.0;
constexpr qreal kTablePoints = 8.5;
const QColor kText(0x1d, 0x24, 0x30);
const QColor kMuted(0x5b, 0x65, 0x72);
const QColor kRule(0xcc, 0xcc, 0xdd);
const QColor kHeaderFill(0xee, 0xf0, 0xf5);

QFont font(qreal points, bool bold = false) {
  QFont f(QStringLiteral("Sans Serif"));
  f.setPointSizeF(points);
  f.setBold(bold);
  return f;
}

}  // namespace

ReportLayout::ReportLayout(QPdfWriter& writer) : writer_(writer) {
  painter_.begin(&writer_);
  painter_.setRenderHint(QPainter::Antialiasing);
  painter_.setRenderHint(QPainter::SmoothPixmapTransform);
  width_ = writer_.width();
  height_ = writer_.height();
}

ReportLayout::~ReportLayout() { painter_.end(); }

qreal ReportLayout::toDevice(qreal points) const { return points * writer_.resolution() / kPointsPerInch; }

qreal ReportLayout::textHeight(const QString& text, const QFont& f, qreal width) {
  painter_.setFont(f);
  return painter_.boundingRect(QRectF(0, 0, width, 1e7), Qt::TextWordWrap, text).height();
}

void ReportLayout::ensureRoom(qreal height) {
  if (y_ > 0 && y_ + height > height_) newPage();
}

void ReportLayout::newPage() {
  writer_.newPage();
  ++pages_;
  y_ = 0;
}

void ReportLayout::drawText(const QString& text, const QFont& f, const QColor& color, qreal gapAfter) {
  const qreal height = textHeight(text, f, width_);
  ensureRoom(height);
  painter_.setFont(f);
  painter_.setPen(color);
  painter_.drawText(QRectF(0, y_, width_, height), Qt::TextWordWrap, text);
  y_ += height + toDevice(gapAfter);
}

void ReportLayout::title(const QString& text, const QString& subtitle) {
  drawText(text, font(18, true), kText, 4);
  drawText(subtitle, font(kBodyPoints), kMuted, 10);
}

void ReportLayout::heading(const QString& text, qreal keepPoints) {
  // A heading never ends a page: it keeps room for what follows it.
  ensureRoom(textHeight(text, font(13, true), width_) + toDevice(keepPoints));
  y_ += toDevice(6);
  drawText(text, font(13, true), kText, 2);
  painter_.setPen(QPen(kRule, toDevice(0.6)));
  painter_.drawLine(QPointF(0, y_), QPointF(width_, y_));
  y_ += toDevice(6);
}

void ReportLayout::paragraph(const QString& text) { drawText(text, font(kBodyPoints), kText, 6); }

void ReportLayout::table(const TextTable& table) {
  const QFont body = font(kTablePoints), bold = font(kTablePoints, true);
  const int columns = int(table.header.size());
  if (columns == 0) return;
  // Columns as wide as their widest cell, scaled down together when the page is narrower.
  std::vector<qreal> widths(std::size_t(columns), 0);
  const qreal padding = toDevice(4);
  auto measure = [&](const QStringList& row, const QFont& f) {
    painter_.setFont(f);
    for (int c = 0; c < columns && c < row.size(); ++c)
      widths[std::size_t(c)] = std::max(widths[std::size_t(c)], painter_.fontMetrics().horizontalAdvance(row[c]) + 2 * padding);
  };
  measure(table.header, bold);
  for (const QStringList& row : table.rows) measure(row, body);
  qreal total = 0;
  for (qreal w : widths) total += w;
  const qreal scale = total > width_ ? width_ / total : 1.0;
  for (qreal& w : widths) w *= scale;
  painter_.setFont(body);
  const qreal rowHeight = painter_.fontMetrics().height() + 2 * padding;

  auto drawRow = [&](const QStringList& row, bool header) {
    ensureRoom(rowHeight);
    if (header) painter_.fillRect(QRectF(0, y_, std::min(total * scale, width_), rowHeight), kHeaderFill);
    painter_.setFont(header ? bold : body);
    painter_.setPen(kText);
    qreal x = 0;
    for (int c = 0; c < columns; ++c) {
      const QRectF cell(x + padding, y_, widths[std::size_t(c)] - 2 * padding, rowHeight);
      const Qt::Alignment align = (c == 0 ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter;
      painter_.drawText(cell, int(align), c < row.size() ? row[c] : QString());
      x += widths[std::size_t(c)];
    }
    y_ += rowHeight;
    painter_.setPen(QPen(kRule, toDevice(0.4)));
    painter_.drawLine(QPointF(0, y_), QPointF(x, y_));
  };
  drawRow(table.header, true);
  for (const QStringList& row : table.rows) drawRow(row, false);
  y_ += toDevice(8);
}

qreal ReportLayout::pictureHeightPoints(qreal aspect) const {
  constexpr qreal kCaptionPoints = 24;
  return width_ * aspect * kPointsPerInch / writer_.resolution() + kCaptionPoints;
}

void ReportLayout::pictures(const QList<QImage>& images, const QList<QString>& captions, qreal aspect) {
  if (images.isEmpty()) return;
  const qreal gap = toDevice(8);
  const qreal each = (width_ - gap * (images.size() - 1)) / images.size();
  const QFont small = font(kTablePoints);
  qreal captionHeight = 0;
  for (const QString& caption : captions) captionHeight = std::max(captionHeight, textHeight(caption, small, each));
  ensureRoom(each * aspect + captionHeight + toDevice(4));
  for (int i = 0; i < images.size(); ++i) {
    const qreal x = i * (each + gap);
    painter_.drawImage(QRectF(x, y_, each, each * aspect), images[i]);
    if (i < captions.size()) {
      painter_.setFont(small);
      painter_.setPen(kMuted);
      painter_.drawText(QRectF(x, y_ + each * aspect + toDevice(2), each, captionHeight), Qt::TextWordWrap, captions[i]);
    }
  }
  y_ += each * aspect + captionHeight + toDevice(10);
}

}  // namespace aaren::ui
