#pragma once
// The one chart widget of the application. Every chart of every page is a ChartPanel, so they all
// zoom, pan, reset, switch to a log Y axis, follow the theme and presenter mode, and export the same
// way (ui/chart_export.hpp). The view follows new data until the user zooms or pans, and again after
// a reset. Axis ranges and ticks follow the one policy of ui/chart_axes.hpp and notes are placed by
// ui/chart_annotations.hpp, so no chart decides its own.
#include <QColor>
#include <QList>
#include <QMargins>
#include <QPair>
#include <QPointF>
#include <QPolygonF>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <QWidget>
#include <functional>
#include <memory>
#include <optional>

#include "ui/chart_axes.hpp"
#include "ui/theme.hpp"

class QAbstractAxis;
class QAbstractSeries;
class QGraphicsSimpleTextItem;
class QAreaSeries;
class QChart;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QToolButton;
class QXYSeries;

namespace aaren::ui {

class ChartKey;
class ChartNote;
class InteractiveChartView;
class Settings;

enum class XAxisKind { value, dateTime };  // dateTime: x in milliseconds since the epoch

// Texts shown at chosen values of an axis instead of its numbers, in increasing order of value.
using AxisLabels = QList<QPair<qreal, QString>>;

// Replaces all points of a series at once (one redraw instead of one per point). Points with a
// non-finite coordinate are left out: a chart cannot place them.
void setSeriesData(QXYSeries* series, const QList<QPointF>& points);

class ChartPanel;
// Points `panel` fits its axes to, drawn as nothing and left out of the legend (the extent a chart
// holds before its data arrive, or around bars it draws itself).
void addInvisiblePoints(ChartPanel& panel, const QList<QPointF>& points);

class ChartPanel : public QWidget {
  Q_OBJECT

 public:
  explicit ChartPanel(const QString& title = {}, QWidget* parent = nullptr);
  ~ChartPanel() override;

  QString title() const;
  void setTitle(const QString& title);
  // The store its Export… button remembers the folder in (the window's, given when the page is
  // added); without one, the user's default store.
  void setSettingsStore(Settings* settings) { settings_ = settings; }
  Settings* settingsStore() const { return settings_; }
  void setAxisTitles(const QString& xTitle, const QString& yTitle);
  void setXAxisKind(XAxisKind kind, const QString& dateFormat = QStringLiteral("yyyy-MM-dd"));
  XAxisKind xAxisKind() const { return xAxisKind_; }
  // Rows of a raster (sequences, mark types) instead of numbers on the Y axis, each with a grid
  // line, and half a row of room above and below; an empty list gives the numbers back. The Y axis
  // stays linear.
  void setYAxisLabels(const AxisLabels& labels);
  // The same for the X axis: columns of labelled categories (classes), half a column of room on
  // either side.
  void setXAxisLabels(const AxisLabels& labels);
  // Off for a Y that has no scale (events spread out only to be seen): no labels, grid or axis
  // line; the title stays.
  void setYAxisScaleVisible(bool visible);
  bool yAxisScaleVisible() const { return yScaleVisible_; }
  // AxisOrigin::zero for a quantity that cannot be negative: the linear Y axis then starts at 0.
  void setYAxisOrigin(AxisOrigin origin);

  // A chart for paper (a report's pages) keeps the light theme whatever the window's theme is.
  void setFixedTheme(std::optional<Theme> theme);

  // Shown instead of axes and legend while no series has a point ("Train a model to see its loss").
  void setPlaceholderText(const QString& text);
  QString placeholderText() const { return placeholderText_; }
  bool showsPlaceholder() const;

  // A note in a box inside the plot that covers no data (fitted slopes, "at N = …"). Below it the
  // panel names the value of any series drawn flat on the bottom of the Y axis ("Aaren: 2.18 kB,
  // constant"), written by valueText (numbers of 3 significant digits by default).
  void setAnnotation(const QString& text);
  QString annotation() const { return annotation_; }
  void setValueText(std::function<QString(qreal)> valueText);
  // Off for charts whose low values mean "unlikely" rather than "hidden" (class probabilities):
  // the panel then names no series drawn flat on the bottom of the Y axis.
  void setFlatSeriesNoted(bool noted);
  QString annotationShown() const;      // what the box says now, empty when hidden
  QRectF annotationSceneRect() const;   // the box in the chart's scene coordinates, empty when hidden

  // The legend, where the panel finds room for it (a row, a column or a wrapped key: ui/chart_key.hpp);
  // hidden while the chart is empty whatever is set here.
  void setLegendShown(bool shown);
  bool legendShown() const { return legendShown_; }
  QString keyShown() const;  // the key's text while the legend is written as one, else empty
  // Off for a series drawn only to shape the chart (an invisible extent, a band): no legend entry.
  void setInLegend(QAbstractSeries* series, bool listed);

  QChart* chart() const { return chart_; }
  InteractiveChartView* view() const { return view_; }
  QAbstractAxis* xAxis() const { return xAxis_; }
  QAbstractAxis* yAxis() const { return yAxis_; }

  // The panel owns added series and keeps them on its axes. An invalid colour takes the theme's.
  QLineSeries* addLineSeries(const QString& name, const QColor& color = {});
  QScatterSeries* addScatterSeries(const QString& name, const QColor& color = {});
  void addSeries(QXYSeries* series, const QColor& color = {});
  QList<QXYSeries*> dataSeries() const { return dataSeries_; }
  // What the CSV export writes instead of the data series, for a chart whose series only draw (the
  // bars and cells of a table of numbers): a whole CSV text with its header; empty for none.
  virtual QString tableCsv() const { return {}; }
  void removeAllSeries();  // data series and shaded intervals

  // A translucent band over [from, to] on the x axis, full height, with a legend entry (for example
  // the training, validation and test parts of a series). Bands stay behind the data.
  QAreaSeries* shadeInterval(const QString& label, qreal from, qreal to, const QColor& color);
  QList<QAreaSeries*> shadedIntervals() const { return bands_; }
  void clearShadedIntervals();

  // Shows the "Log Y" button. The Y axis can become logarithmic only while every value is positive.
  void setLogScaleAvailable(bool available);
  bool logScaleAvailable() const;
  // Returns false and explains in notice() when a value is not positive; the axis stays linear.
  bool setLogScaleY(bool on);
  bool isLogScaleY() const { return logScaleY_; }
  QString notice() const;  // the last explanation shown above the chart, empty when none

  bool followsData() const { return followsData_; }

 public slots:
  // Shows all data again and follows new data.
  void resetView();

 signals:
  void logScaleYChanged(bool on);
  void annotationChanged();  // setAnnotation was given another text

 private:
  void fitToData();
  void fitAxes(qreal headroom);
  void placeAnnotation();
  void fitTitle();
  void fitLegend();
  void showLegendEntries(QAbstractSeries* series);
  void placeBelowPlot();
  void showEmptyState(bool empty);
  void onPlotAreaChanged();
  void onValueAxisRangeChanged();
  void onSeriesDataReplaced();
  void onUserChangedView();
  void applyAppearance();
  void fitDateTicks();
  int dateTicksFitting(const QString& format) const;  // with labels in `format`
  void styleSeries(QXYSeries* series) const;
  void styleBand(QAreaSeries* band) const;
  void updateBandHeights();
  void replaceAxis(QAbstractAxis*& slot, QAbstractAxis* replacement, Qt::Alignment alignment);
  void attachToAxes(QXYSeries* series);
  void showNotice(const QString& text);
  QString firstNonPositiveValue() const;  // "'loss' has 0 at x = 3", or empty

  // A colour chosen by the page, kept on the series so theme changes do not replace it.
  static constexpr char kColorProperty[] = "aarenColor";
  static inline const QMargins kChartMargins{10, 8, 14, 8};

  QChart* chart_;
  InteractiveChartView* view_;
  Settings* settings_ = nullptr;
  QLabel* noticeLabel_;
  QToolButton* logButton_;
  QAbstractAxis* xAxis_ = nullptr;
  QAbstractAxis* yAxis_ = nullptr;
  XAxisKind xAxisKind_ = XAxisKind::value;
  QList<QXYSeries*> dataSeries_;
  QList<QAreaSeries*> bands_;
  bool logScaleY_ = false;
  bool followsData_ = true;
  bool yScaleVisible_ = true;
  QColor yLabelsColor_;  // the theme's, while the Y labels are transparent
  bool updatingBands_ = false;
  AxisOrigin yOrigin_ = AxisOrigin::fitData;
  std::optional<Theme> fixedTheme_;
  QString placeholderText_;
  QGraphicsSimpleTextItem* placeholder_;
  bool empty_ = false;
  bool legendShown_ = true;  // the page's wish; the panel also hides it while empty
  ChartKey* key_;
  qreal keyHeight_ = 0;   // room below the plot for the key
  qreal noteHeight_ = 0;  // and for a note too tall for the plot
  QString annotation_;
  std::unique_ptr<ChartNote> note_;
  std::function<QString(qreal)> valueText_;
  bool flatSeriesNoted_ = true;
  bool fitting_ = false;                // while fitToData sets the axes
  QSizeF fittedPlotSize_;               // the plot's size at the last fit
};

}  // namespace aaren::ui
