#include "ui/chart_panel.hpp"

// How a ChartPanel looks: the chart theme of the window (or of paper), presenter mode's larger
// text and thicker lines, and the colours and widths the pages chose for their series and bands.
#include <QApplication>
#include <QAreaSeries>
#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QScatterSeries>
#include <QValueAxis>
#include <utility>

#include "ui/appearance.hpp"
#include "ui/chart_annotations.hpp"

namespace aaren::ui {
namespace {

// Set on a series before addSeries() to draw its line this many times the usual width (the Data
// page's target among its channels, ui/charts/series_split_chart.cpp).
constexpr char kWidthFactorProperty[] = "aarenWidthFactor";
constexpr int kBandAlpha = 64;
constexpr qreal kMarkerSize = 7.0;
constexpr int kPlaceholderAlpha = 170;  // of the axis labels' colour: a hint, not data

}  // namespace

void ChartPanel::applyAppearance() {
  const Appearance& appearance = Appearance::instance();
  chart_->setTheme(chartThemeFor(fixedTheme_.value_or(appearance.theme())));  // restyles series, axes and fonts
  chart_->setBackgroundRoundness(0);

  const QFont base = QApplication::font();
  fitTitle();
  chart_->legend()->setFont(base);
  fitLegend();
  // Tick labels one size down, but never below what presenter mode promises the back row.
  const QFont labels = appearance.presenterMode() ? atLeastPixels(scaledFont(base, 0.9), kPresenterMinimumTextPixels)
                                                  : scaledFont(base, 0.9);
  for (QAbstractAxis* axis : {xAxis_, yAxis_}) {
    axis->setLabelsFont(labels);
    axis->setTitleFont(base);
  }
  if (!yScaleVisible_) {
    // Transparent rather than hidden: hidden labels leave the axis title no room and Qt elides it.
    // The theme's colour is kept for showing them again.
    if (yAxis_->labelsColor().alpha() > 0) yLabelsColor_ = yAxis_->labelsColor();
    yAxis_->setLabelsColor(Qt::transparent);
    yAxis_->setGridLineVisible(false);
    yAxis_->setLineVisible(false);
  }
  for (QXYSeries* series : std::as_const(dataSeries_)) styleSeries(series);
  for (QAreaSeries* band : std::as_const(bands_)) styleBand(band);

  const QColor text = chart_->titleBrush().color();
  QColor hint = xAxis_->labelsColor();
  hint.setAlpha(kPlaceholderAlpha);
  placeholder_->setBrush(hint);
  placeholder_->setFont(base);
  // A theme may paint the background with a gradient: its first colour then stands for it.
  const QBrush background = chart_->backgroundBrush();
  const QColor paper = background.gradient() && !background.gradient()->stops().isEmpty()
                           ? background.gradient()->stops().first().second
                           : background.color();
  note_->box()->setStyle(base, text, paper, xAxis_->gridLineColor());
  showEmptyState(empty_);
  if (followsData_) fitToData();
  else placeAnnotation();
}

void ChartPanel::styleSeries(QXYSeries* series) const {
  const Appearance& appearance = Appearance::instance();
  const QColor color = series->property(kColorProperty).value<QColor>();
  if (auto* scatter = qobject_cast<QScatterSeries*>(series)) {
    scatter->setMarkerSize(kMarkerSize * appearance.chartScale());
    if (color.isValid()) scatter->setColor(color);
    scatter->setBorderColor(Qt::transparent);
    return;
  }
  QPen pen = series->pen();
  const QVariant factor = series->property(kWidthFactorProperty);
  pen.setWidthF(appearance.chartLineWidth() * (factor.isValid() ? factor.toReal() : 1.0));
  if (color.isValid()) pen.setColor(color);
  series->setPen(pen);
}

void ChartPanel::styleBand(QAreaSeries* band) const {
  QColor color = band->property(kColorProperty).value<QColor>();
  color.setAlpha(kBandAlpha);
  band->setBrush(color);
  band->setPen(Qt::NoPen);
}

}  // namespace aaren::ui
