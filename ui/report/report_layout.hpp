#pragma once
// Lays a report out on PDF pages top to bottom: headings, wrapped paragraphs, tables and pictures,
// each moved to a new page when it does not fit what is left of the current one. Sizes are in
// points of an A4 page, whatever the writer's resolution.
#include <QImage>
#include <QList>
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
  void table(const TextTable& table);
  // Pictures side by side across the width, each as wide as the width allows; `aspect` is height / width.
  void pictures(const QList<QImage>& images, const QList<QString>& captions, qreal aspect);
  // The height in points of one picture across the width, with its caption.
  qreal pictureHeightPoints(qreal aspect) const;
  void newPage();
  int pageCount() const { return pages_; }

 private:
  qreal toDevice(qreal points) const;
  qreal textHeight(const QString& text, const QFont& font, qreal width);
  void ensureRoom(qreal height);
  void drawText(const QString& text, const QFont& font, const QColor& color, qreal gapAfter);

  QPdfWriter& writer_;
  QPainter painter_;
  qreal width_ = 0, height_ = 0;  // of the page's printable area, device units
  qreal y_ = 0;
  int pages_ = 1;
};

}  // namespace aaren::ui
