#include "ui/glyph_icons.hpp"

#include <QGuiApplication>
#include <QIconEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>

namespace aaren::ui {

namespace {

// Every glyph is drawn on a 24 x 24 grid.
constexpr qreal kGrid = 24.0;

void drawWelcome(QPainter& p) {
  p.drawPolyline(QPolygonF{{3.5, 11.5}, {12, 4}, {20.5, 11.5}});
  p.drawPolyline(QPolygonF{{6, 10}, {6, 20}, {18, 20}, {18, 10}});
  p.drawRect(QRectF(10, 14, 4, 6));
}

void drawData(QPainter& p) {
  p.drawRoundedRect(QRectF(3.5, 4.5, 17, 15), 2, 2);
  p.drawLine(QPointF(3.5, 9.5), QPointF(20.5, 9.5));
  p.drawLine(QPointF(3.5, 14.5), QPointF(20.5, 14.5));
  p.drawLine(QPointF(9.5, 4.5), QPointF(9.5, 19.5));
}

void drawTrain(QPainter& p) {
  p.drawPolyline(QPolygonF{{4, 3.5}, {4, 20}, {20.5, 20}});
  QPainterPath loss(QPointF(6.5, 5.5));
  loss.cubicTo(QPointF(9, 15), QPointF(12, 16.5), QPointF(20, 16.5));
  p.drawPath(loss);
}

void drawForecast(QPainter& p) {
  p.drawPolyline(QPolygonF{{3, 16}, {7, 11}, {10, 14}, {13.5, 8}});
  QPen dashed = p.pen();
  dashed.setDashPattern({1.2, 1.6});
  p.save();
  p.setPen(dashed);
  p.drawPolyline(QPolygonF{{13.5, 8}, {17, 11}, {20.5, 6}});
  p.restore();
  p.drawEllipse(QPointF(13.5, 8), 1.2, 1.2);
}

// Four tokens combined pairwise into one summary: the shape of a prefix scan.
void drawExplore(QPainter& p) {
  for (qreal x : {4.5, 9.5, 14.5, 19.5}) p.drawEllipse(QPointF(x, 19), 1.6, 1.6);
  p.drawPolyline(QPolygonF{{4.5, 17}, {7, 12.5}, {9.5, 17}});
  p.drawPolyline(QPolygonF{{14.5, 17}, {17, 12.5}, {19.5, 17}});
  p.drawPolyline(QPolygonF{{7, 12.5}, {12, 5.5}, {17, 12.5}});
  p.drawEllipse(QPointF(12, 4.5), 1.6, 1.6);
}

void drawEfficiency(QPainter& p) {
  p.drawArc(QRectF(3.5, 5.5, 17, 17), 0 * 16, 180 * 16);
  p.drawLine(QPointF(12, 14), QPointF(16.5, 8.5));
  p.drawEllipse(QPointF(12, 14), 1.4, 1.4);
  p.drawLine(QPointF(3.5, 18), QPointF(20.5, 18));
}

void drawOpen(QPainter& p) {
  p.drawPolyline(QPolygonF{{3.5, 18.5}, {3.5, 5.5}, {9.5, 5.5}, {11.5, 8}, {19.5, 8}, {19.5, 10.5}});
  p.drawPolygon(QPolygonF{{3.5, 18.5}, {6.5, 10.5}, {21.5, 10.5}, {18.5, 18.5}});
}

void drawExportChart(QPainter& p) {
  p.drawLine(QPointF(12, 3.5), QPointF(12, 14));
  p.drawPolyline(QPolygonF{{7.5, 9.5}, {12, 14}, {16.5, 9.5}});
  p.drawPolyline(QPolygonF{{4, 14.5}, {4, 20}, {20, 20}, {20, 14.5}});
}

void drawLecturePack(QPainter& p) {
  p.drawRoundedRect(QRectF(8, 3.5, 12, 14), 1.5, 1.5);
  p.drawPolyline(QPolygonF{{5, 7}, {5, 20.5}, {15.5, 20.5}});
  p.drawLine(QPointF(11, 8), QPointF(17, 8));
  p.drawLine(QPointF(11, 11.5), QPointF(17, 11.5));
}

void drawPresenter(QPainter& p) {
  p.drawRoundedRect(QRectF(3, 4, 18, 12), 1.5, 1.5);
  p.drawLine(QPointF(12, 16), QPointF(12, 20));
  p.drawLine(QPointF(8, 20.5), QPointF(16, 20.5));
  p.drawPolyline(QPolygonF{{6.5, 13}, {10, 9.5}, {12.5, 11.5}, {17.5, 7}});
}

class GlyphIconEngine : public QIconEngine {
 public:
  explicit GlyphIconEngine(Glyph glyph) : glyph_(glyph) {}

  void paint(QPainter* painter, const QRect& rect, QIcon::Mode mode, QIcon::State) override {
    const QPalette palette = QGuiApplication::palette();
    QColor color = palette.color(QPalette::WindowText);
    if (mode == QIcon::Selected) color = palette.color(QPalette::HighlightedText);
    if (mode == QIcon::Disabled) color = palette.color(QPalette::Disabled, QPalette::WindowText);

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const qreal side = qMin(rect.width(), rect.height());
    painter->translate(rect.x() + (rect.width() - side) / 2.0, rect.y() + (rect.height() - side) / 2.0);
    painter->scale(side / kGrid, side / kGrid);
    painter->setPen(QPen(color, 1.7, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    painter->setBrush(Qt::NoBrush);
    switch (glyph_) {
      case Glyph::welcome: drawWelcome(*painter); break;
      case Glyph::data: drawData(*painter); break;
      case Glyph::train: drawTrain(*painter); break;
      case Glyph::forecast: drawForecast(*painter); break;
      case Glyph::explore: drawExplore(*painter); break;
      case Glyph::efficiency: drawEfficiency(*painter); break;
      case Glyph::open: drawOpen(*painter); break;
      case Glyph::exportChart: drawExportChart(*painter); break;
      case Glyph::lecturePack: drawLecturePack(*painter); break;
      case Glyph::presenter: drawPresenter(*painter); break;
    }
    painter->restore();
  }

  // The default leaves the pixmap's background uninitialised.
  QPixmap pixmap(const QSize& size, QIcon::Mode mode, QIcon::State state) override {
    QPixmap pixmap(size);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    paint(&painter, QRect(QPoint(0, 0), size), mode, state);
    return pixmap;
  }

  QIconEngine* clone() const override { return new GlyphIconEngine(glyph_); }

 private:
  Glyph glyph_;
};

}  // namespace

QIcon glyphIcon(Glyph glyph) { return QIcon(new GlyphIconEngine(glyph)); }

}  // namespace aaren::ui
