#include "ui/report/report_layout.hpp"

#include <QFontMetricsF>
#include <QPageLayout>
#include <QPdfWriter>
#include <QRegularExpression>
#include <algorithm>
#include <numeric>
#include <utility>

namespace aaren::ui {

namespace {

constexpr qreal kPointsPerInch = 72.0;
constexpr qreal kBodyPoints = 10.0;
constexpr qreal kParagraphGapPoints = 6;
constexpr qreal kCellPaddingPoints = 3.5;
// A word wider than this share of the page (a path, a long list without spaces) may break anywhere.
constexpr qreal kLongestUnbrokenWordShare = 0.3;
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

// A number in any of the report's spellings: "41.08", "-3.2e-05", "1,234", "97.5%". Never broken.
bool isNumber(const QString& text) {
  static const QRegularExpression pattern(QStringLiteral("^[-+\\x{2212}]?[0-9][0-9.,]*(e[-+]?[0-9]+)?%?$"),
                                          QRegularExpression::CaseInsensitiveOption);
  return pattern.match(text.trimmed()).hasMatch();
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
qreal ReportLayout::toPoints(qreal device) const { return device * kPointsPerInch / writer_.resolution(); }

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

void ReportLayout::paragraph(const QString& text) { drawText(text, font(kBodyPoints), kText, kParagraphGapPoints); }

// Device units, padding included: the narrowest a column can be without breaking a number or (but
// for over-long words) a word, the width that holds every cell on one line, and the width drawn.
struct ReportLayout::ColumnWidths {
  std::vector<qreal> minimum, preferred, shown;
  qreal minimumTotal() const { return std::accumulate(minimum.begin(), minimum.end(), qreal(0)); }
  qreal preferredTotal() const { return std::accumulate(preferred.begin(), preferred.end(), qreal(0)); }
};

// As the painter sets the text, which is what the cells must hold: its advances differ from the
// font metrics' by the text engine's rounding, enough to push a word onto two lines.
qreal ReportLayout::advance(const QString& text, const QFont& f) {
  painter_.setFont(f);
  return painter_.boundingRect(QRectF(0, 0, 1e7, 1e7), 0, text).width();
}

ReportLayout::ColumnWidths ReportLayout::measureColumns(const TextTable& table, const QList<int>& columns, qreal points) {
  const QFont body = font(points), bold = font(points, true);
  const qreal padding = 2 * toDevice(kCellPaddingPoints);
  const qreal longestWord = width_ * kLongestUnbrokenWordShare;
  ColumnWidths widths;
  for (const int column : columns) {
    qreal minimum = 0, preferred = 0;
    auto measure = [&](const QString& text, const QFont& f) {
      for (const QString& line : text.split(QLatin1Char('\n'))) preferred = std::max(preferred, advance(line, f));
      if (isNumber(text)) {
        minimum = std::max(minimum, advance(text.trimmed(), f));
        return;
      }
      for (const QString& word : text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts))
        minimum = std::max(minimum, std::min(advance(word, f), longestWord));
    };
    if (column < table.header.size()) measure(table.header[column], bold);
    for (const QStringList& row : table.rows)
      if (column < row.size()) measure(row[column], body);
    // A point to spare: text exactly as wide as its cell may still be wrapped by the text engine.
    widths.minimum.push_back(minimum + padding + toDevice(1));
    widths.preferred.push_back(std::max(preferred, minimum) + padding + toDevice(1));
  }
  // Every column on one line when the page allows it. Else the first column, which names the rows,
  // keeps its line where it can ("OT (target)", "Last value repeated"), and the others rise above
  // their minimum by a share of what is left, in proportion to how much more they would take.
  widths.shown = widths.preferred;
  if (widths.preferredTotal() <= width_) return widths;
  widths.shown = widths.minimum;
  qreal left = width_ - widths.minimumTotal();
  if (left <= 0) return widths;
  const qreal firstRise = std::min(left, widths.preferred[0] - widths.minimum[0]);
  widths.shown[0] += firstRise;
  left -= firstRise;
  qreal wanted = 0;
  for (std::size_t c = 1; c < widths.shown.size(); ++c) wanted += widths.preferred[c] - widths.minimum[c];
  if (wanted <= 0) return widths;
  const qreal share = std::min(qreal(1), left / wanted);
  for (std::size_t c = 1; c < widths.shown.size(); ++c) widths.shown[c] += (widths.preferred[c] - widths.minimum[c]) * share;
  return widths;
}

void ReportLayout::table(const TextTable& table, const QString& intro) {
  const int columnCount = int(table.header.size());
  if (columnCount == 0) return;
  intro_ = intro;
  QList<int> all;
  for (int c = 0; c < columnCount; ++c) all << c;
  // Smaller text before a split: one table reads better than two.
  qreal points = kTablePoints;
  ColumnWidths widths = measureColumns(table, all, points);
  while (widths.minimumTotal() > width_ && points > kSmallestTablePoints) {
    points = std::max(kSmallestTablePoints, points - 0.25);
    widths = measureColumns(table, all, points);
  }
  if (widths.minimumTotal() <= width_ || columnCount == 1) {
    drawTable(table, all, points, widths);
    return;
  }
  // Still too wide: tables of as many columns as fit, each beginning with the first column.
  QList<int> group{0};
  for (int c = 1; c < columnCount; ++c) {
    QList<int> wider = group;
    wider << c;
    if (group.size() > 1 && measureColumns(table, wider, points).minimumTotal() > width_) {
      drawTable(table, group, points, measureColumns(table, group, points));
      group = {0, c};
    } else {
      group = wider;
    }
  }
  drawTable(table, group, points, measureColumns(table, group, points));
}

void ReportLayout::drawTable(const TextTable& table, const QList<int>& columns, qreal points, const ColumnWidths& widths) {
  smallestTablePoints_ = std::min(smallestTablePoints_, points);
  const QFont body = font(points), bold = font(points, true);
  const qreal padding = toDevice(kCellPaddingPoints);
  const qreal tableWidth = std::accumulate(widths.shown.begin(), widths.shown.end(), qreal(0));
  // A column of numbers is set right, so that digits line up; any other column left.
  std::vector<bool> numeric;
  for (const int column : columns) {
    bool allNumbers = column > 0;
    for (const QStringList& row : table.rows)
      if (column < row.size() && !row[column].trimmed().isEmpty() && !isNumber(row[column])) allNumbers = false;
    numeric.push_back(allNumbers);
  }
  auto cellText = [&](const QStringList& row, int i) { return columns[i] < row.size() ? row[columns[i]] : QString(); };
  auto flagsFor = [&](const QString& text, int i, const QFont& f) {
    int flags = int((numeric[std::size_t(i)] ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    if (isNumber(text)) return flags;  // never broken
    const qreal inner = widths.shown[std::size_t(i)] - 2 * padding;
    for (const QString& word : text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts))
      if (advance(word, f) > inner) return flags | Qt::TextWrapAnywhere;
    return flags | Qt::TextWordWrap;
  };
  auto rowHeight = [&](const QStringList& row, const QFont& f) {
    painter_.setFont(f);
    qreal height = QFontMetricsF(f, &writer_).height();
    for (int i = 0; i < columns.size(); ++i) {
      const QString text = cellText(row, i);
      const qreal inner = widths.shown[std::size_t(i)] - 2 * padding;
      height = std::max(height, painter_.boundingRect(QRectF(0, 0, inner, 1e7), flagsFor(text, i, f), text).height());
    }
    return height + 2 * padding;
  };
  auto drawRow = [&](const QStringList& row, bool header, qreal height) {
    const QFont& f = header ? bold : body;
    if (header) painter_.fillRect(QRectF(0, y_, tableWidth, height), kHeaderFill);
    painter_.setFont(f);
    painter_.setPen(kText);
    qreal x = 0;
    for (int i = 0; i < columns.size(); ++i) {
      const QString text = cellText(row, i);
      const QRectF cell(x + padding, y_ + padding, widths.shown[std::size_t(i)] - 2 * padding, height - 2 * padding);
      const int flags = flagsFor(text, i, f);
      const QRectF needed = painter_.boundingRect(cell, flags, text);
      // Half a point of slack: the text engine's rounding, not a cut glyph.
      if (needed.width() > cell.width() + toDevice(0.5) || needed.height() > cell.height() + toDevice(0.5))
        unfit_ << QStringLiteral("page %1: '%2' needs %3 x %4 pt, its cell has %5 x %6 pt")
                      .arg(pages_)
                      .arg(text)
                      .arg(toPoints(needed.width()), 0, 'f', 1)
                      .arg(toPoints(needed.height()), 0, 'f', 1)
                      .arg(toPoints(cell.width()), 0, 'f', 1)
                      .arg(toPoints(cell.height()), 0, 'f', 1);
      painter_.drawText(cell, flags, text);
      x += widths.shown[std::size_t(i)];
    }
    y_ += height;
    painter_.setPen(QPen(kRule, toDevice(0.4)));
    painter_.drawLine(QPointF(0, y_), QPointF(tableWidth, y_));
  };

  const qreal headerHeight = rowHeight(table.header, bold);
  // The header and the first row start together, and the header comes again on every new page.
  const qreal firstRow = table.rows.empty() ? 0 : rowHeight(table.rows.front(), body);
  if (!intro_.isEmpty()) {
    // The sentence that introduces a table never ends a page without it.
    ensureRoom(textHeight(intro_, font(kBodyPoints), width_) + toDevice(kParagraphGapPoints) + headerHeight + firstRow);
    paragraph(std::exchange(intro_, QString()));
  }
  ensureRoom(headerHeight + firstRow);
  drawRow(table.header, true, headerHeight);
  for (const QStringList& row : table.rows) {
    const qreal height = rowHeight(row, body);
    const int page = pages_;
    ensureRoom(height);
    if (pages_ != page) drawRow(table.header, true, headerHeight);
    drawRow(row, false, height);
  }
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
