#pragma once
// Lays a report out on PDF pages top to bottom: headings, wrapped paragraphs, tables and pictures,
// each moved to a new page when it does not fit what is left of the current one. Sizes are in
// points of an A4 page, whatever the writer's resolution.
//
// A table never cuts a cell: text wraps at spaces (a word wider than its column, such as a path,
// at any character), a number is never broken, and a table too wide for the page first sets its
// text smaller, down to kSmallestTablePoints, then is split into several tables that each repeat
// the first column. Every cell's text is measured against its cell as it is drawn; a cell that
// does not fit is recorded (cellsThatDidNotFit) so that a test can fail on it.
#include <QImage>
#include <QList>
#include <QStringList>
#include <QPainter>
#include <QString>

#include "ui/report/run_figures.hpp"

class QPdfWriter;

namespace aaren::ui {

class ReportLayout {
 public:
  explicit ReportLayout(QPdfWriter& writer);  // starts painting the first page
  ~ReportLayout();

  void title(const QString& text, const QString& subtitle);
  // Starts a new page unless `keepPoints` more fit below the heading (what must follow it).
  void heading(const QString& text, qreal keepPoints = 60);
  void paragraph(const QString& text);
  // `intro`, a sentence that introduces the table, is kept on the page of the table's first rows.
  void table(const TextTable& table, const QString& intro = {});
  // Tables are set in kTablePoints, never below kSmallestTablePoints.
  static constexpr qreal kTablePoints = 8.5;
  static constexpr qreal kSmallestTablePoints = 6.5;
  // Pictures side by side across the width, each as wide as the width allows; `aspect` is height / width.
  void pictures(const QList<QImage>& images, const QList<QString>& captions, qreal aspect);
  // The height in points of one picture across the width, with its caption.
  qreal pictureHeightPoints(qreal aspect) const;
  void newPage();
  int pageCount() const { return pages_; }
  // "page 3: 'OT MSE' needs 41.2 pt, its cell has 30.5 pt": empty when every cell held its text.
  const QStringList& cellsThatDidNotFit() const { return unfit_; }
  qreal smallestTablePoints() const { return smallestTablePoints_; }

 private:
  qreal toDevice(qreal points) const;
  qreal toPoints(qreal device) const;
  qreal textHeight(const QString& text, const QFont& font, qreal width);
  void ensureRoom(qreal height);
  void drawText(const QString& text, const QFont& font, const QColor& color, qreal gapAfter);
  qreal advance(const QString& text, const QFont& font);
  struct ColumnWidths;
  ColumnWidths measureColumns(const TextTable& table, const QList<int>& columns, qreal points);
  void drawTable(const TextTable& table, const QList<int>& columns, qreal points, const ColumnWidths& widths);

  QPdfWriter& writer_;
  QPainter painter_;
  qreal width_ = 0, height_ = 0;  // of the page's printable area, device units
  qreal y_ = 0;
  int pages_ = 1;
  QStringList unfit_;
  QString intro_;  // of the table being laid out, until it is drawn above the table's first part
  qreal smallestTablePoints_ = kTablePoints;
};

}  // namespace aaren::ui
