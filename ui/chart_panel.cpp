#include "ui/chart_panel.hpp"

#include <QApplication>
#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QtMath>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSignalBlocker>
#include <QToolButton>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include "ui/appearance.hpp"
#include "ui/chart_annotations.hpp"
#include "ui/chart_key.hpp"
#include "ui/chart_view.hpp"
#include "ui/export_dialog.hpp"
#include "ui/settings.hpp"

namespace aaren::ui {

namespace {

constexpr int kMaxDateTicks = 6;
constexpr qreal kHalfDayMs = 12.0 * 3600.0 * 1000.0;
constexpr qreal kRowMargin = 0.5;         // above the top row and below the bottom one of labelled rows
constexpr int kNoteDigits = 3;            // significant digits of a value a note names

QString defaultValueText(qreal value) { return QLocale().toString(value, 'g', kNoteDigits); }

}  // namespace

void setSeriesData(QXYSeries* series, const QList<QPointF>& points) {
  QList<QPointF> finite;
  finite.reserve(points.size());
  for (const QPointF& point : points)
    if (std::isfinite(point.x()) && std::isfinite(point.y())) finite.append(point);
  series->replace(finite);
}

void addInvisiblePoints(ChartPanel& panel, const QList<QPointF>& points) {
  QScatterSeries* fit = panel.addScatterSeries(QString(), QColor(Qt::transparent));
  fit->setMarkerSize(0.1);
  fit->setBorderColor(Qt::transparent);
  setSeriesData(fit, points);
  panel.setInLegend(fit, false);
}

ChartPanel::ChartPanel(const QString& title, QWidget* parent)
    : QWidget(parent), chart_(new QChart), view_(new InteractiveChartView(chart_, this)),
      noticeLabel_(new QLabel(this)), logButton_(new QToolButton(this)) {
  chart_->setTitle(title);
  chart_->setBackgroundRoundness(0);
  // The chart's background then fills the view (and exported images) to the edge.
  chart_->layout()->setContentsMargins(0, 0, 0, 0);
  chart_->setMargins(kChartMargins);
  chart_->legend()->setAlignment(Qt::AlignBottom);
  // Items of the chart's scene, so that they are part of every export.
  placeholder_ = new QGraphicsSimpleTextItem(chart_);
  key_ = new ChartKey(chart_);
  key_->hide();
  note_ = std::make_unique<ChartNote>(chart_, kChartMargins, [this](qreal height) {
    noteHeight_ = std::ceil(height);
    placeBelowPlot();
  });
  valueText_ = defaultValueText;
  replaceAxis(xAxis_, new QValueAxis, Qt::AlignBottom);
  replaceAxis(yAxis_, new QValueAxis, Qt::AlignLeft);

  noticeLabel_->setObjectName(QStringLiteral("chartNotice"));
  noticeLabel_->setWordWrap(true);
  noticeLabel_->hide();

  logButton_->setText(tr("Log Y"));
  logButton_->setCheckable(true);
  logButton_->setAutoRaise(true);
  logButton_->setToolTip(tr("Logarithmic Y axis (all values must be positive)"));
  logButton_->hide();
  connect(logButton_, &QToolButton::toggled, this, [this](bool on) { setLogScaleY(on); });

  auto* resetButton = new QToolButton(this);
  resetButton->setText(tr("Reset view"));
  resetButton->setAutoRaise(true);
  resetButton->setToolTip(tr("Show all data again (double-click the chart or press Home)"));
  connect(resetButton, &QToolButton::clicked, this, &ChartPanel::resetView);

  auto* exportButton = new QToolButton(this);
  exportButton->setText(tr("Export…"));
  exportButton->setAutoRaise(true);
  exportButton->setToolTip(tr("Save this chart as PNG, SVG, PDF or its data as CSV"));
  connect(exportButton, &QToolButton::clicked, this, [this] {
    std::optional<Settings> user;
    exportChartInteractively(*this, settings_ ? *settings_ : user.emplace(), this);
  });

  auto* header = new QHBoxLayout;
  header->setContentsMargins(4, 0, 4, 0);
  header->addWidget(noticeLabel_, 1);
  header->addStretch();
  header->addWidget(logButton_);
  header->addWidget(resetButton);
  header->addWidget(exportButton);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addLayout(header);
  layout->addWidget(view_, 1);
  setMinimumSize(320, 220);

  connect(view_, &InteractiveChartView::viewChangedByUser, this, &ChartPanel::onUserChangedView);
  connect(view_, &InteractiveChartView::resetRequested, this, &ChartPanel::resetView);
  connect(&Appearance::instance(), &Appearance::changed, this, &ChartPanel::applyAppearance);
  connect(chart_, &QChart::plotAreaChanged, this, &ChartPanel::onPlotAreaChanged);
  applyAppearance();
  fitToData();
}

ChartPanel::~ChartPanel() {
  // The chart, its series and axes are deleted after this object's members, with the view:
  // their last signals must not reach this half-destroyed panel.
  for (QXYSeries* series : std::as_const(dataSeries_)) series->disconnect(this);
  for (QAreaSeries* band : std::as_const(bands_)) band->disconnect(this);
  xAxis_->disconnect(this);
  yAxis_->disconnect(this);
}

QString ChartPanel::title() const { return chart_->title(); }

void ChartPanel::setTitle(const QString& title) {
  chart_->setTitle(title);
  fitTitle();
}

void ChartPanel::setYAxisLabels(const AxisLabels& labels) {
  const bool labelled = qobject_cast<QCategoryAxis*>(yAxis_) != nullptr;
  if (labels.isEmpty() && !labelled) return;
  if (logScaleY_) setLogScaleY(false);
  if (labels.isEmpty()) {
    replaceAxis(yAxis_, new QValueAxis, Qt::AlignLeft);
  } else {
    auto* axis = new QCategoryAxis;
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    axis->setStartValue(labels.first().first - 1);
    for (const auto& [value, label] : labels) axis->append(label, value);
    replaceAxis(yAxis_, axis, Qt::AlignLeft);
  }
  applyAppearance();
  if (followsData_) fitToData();
}

void ChartPanel::setXAxisLabels(const AxisLabels& labels) {
  const bool labelled = qobject_cast<QCategoryAxis*>(xAxis_) != nullptr;
  if (labels.isEmpty() && !labelled) return;
  if (labels.isEmpty()) {
    replaceAxis(xAxis_, new QValueAxis, Qt::AlignBottom);
  } else {
    auto* axis = new QCategoryAxis;
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    axis->setStartValue(labels.first().first - 1);
    for (const auto& [value, label] : labels) axis->append(label, value);
    replaceAxis(xAxis_, axis, Qt::AlignBottom);
  }
  xAxisKind_ = XAxisKind::value;
  applyAppearance();
  if (followsData_) fitToData();
}

void ChartPanel::setFlatSeriesNoted(bool noted) {
  if (noted == flatSeriesNoted_) return;
  flatSeriesNoted_ = noted;
  placeAnnotation();
}

void ChartPanel::setYAxisScaleVisible(bool visible) {
  if (visible == yScaleVisible_) return;
  yScaleVisible_ = visible;
  if (visible) {
    yAxis_->setLabelsColor(yLabelsColor_);
    yAxis_->setGridLineVisible(true);
    yAxis_->setLineVisible(true);
  }
  applyAppearance();
}

void ChartPanel::setAxisTitles(const QString& xTitle, const QString& yTitle) {
  xAxis_->setTitleText(xTitle);
  yAxis_->setTitleText(yTitle);
}

void ChartPanel::setXAxisKind(XAxisKind kind, const QString& dateFormat) {
  if (kind == XAxisKind::dateTime) {
    auto* axis = new QDateTimeAxis;
    axis->setFormat(dateFormat);
    axis->setTickCount(kMaxDateTicks);
    replaceAxis(xAxis_, axis, Qt::AlignBottom);
  } else if (xAxisKind_ != kind) {
    replaceAxis(xAxis_, new QValueAxis, Qt::AlignBottom);
  }
  xAxisKind_ = kind;
  applyAppearance();
  fitToData();
}

QLineSeries* ChartPanel::addLineSeries(const QString& name, const QColor& color) {
  auto* series = new QLineSeries;
  series->setName(name);
  addSeries(series, color);
  return series;
}

QScatterSeries* ChartPanel::addScatterSeries(const QString& name, const QColor& color) {
  auto* series = new QScatterSeries;
  series->setName(name);
  addSeries(series, color);
  return series;
}

void ChartPanel::addSeries(QXYSeries* series, const QColor& color) {
  if (color.isValid()) series->setProperty(kColorProperty, color);
  chart_->addSeries(series);
  attachToAxes(series);
  showLegendEntries(series);
  dataSeries_.append(series);
  connect(series, &QXYSeries::pointsReplaced, this, &ChartPanel::onSeriesDataReplaced);
  connect(series, &QObject::destroyed, this, [this, series] { dataSeries_.removeAll(series); });
  styleSeries(series);
  fitLegend();
  onSeriesDataReplaced();
}

void ChartPanel::removeAllSeries() {
  for (QXYSeries* series : std::exchange(dataSeries_, {})) {
    chart_->removeSeries(series);
    delete series;
  }
  clearShadedIntervals();
}

QAreaSeries* ChartPanel::shadeInterval(const QString& label, qreal from, qreal to, const QColor& color) {
  if (from > to) std::swap(from, to);
  auto* upper = new QLineSeries;
  auto* lower = new QLineSeries;
  upper->append({{from, 1}, {to, 1}});
  lower->append({{from, 0}, {to, 0}});
  auto* band = new QAreaSeries(upper, lower);
  upper->setParent(band);
  lower->setParent(band);
  band->setName(label);
  band->setProperty(kColorProperty, color);
  chart_->addSeries(band);
  band->attachAxis(xAxis_);
  band->attachAxis(yAxis_);
  bands_.append(band);
  // Series are drawn in the order they were added: put the data back on top of the new band.
  for (QXYSeries* series : std::as_const(dataSeries_)) {
    chart_->removeSeries(series);
    chart_->addSeries(series);
    attachToAxes(series);
    showLegendEntries(series);
  }
  showLegendEntries(band);
  styleBand(band);
  fitLegend();
  if (followsData_) fitToData();
  updateBandHeights();
  return band;
}

void ChartPanel::clearShadedIntervals() {
  for (QAreaSeries* band : std::exchange(bands_, {})) {
    chart_->removeSeries(band);
    delete band;
  }
  if (followsData_) fitToData();
}

void ChartPanel::setLogScaleAvailable(bool available) {
  logButton_->setVisible(available);
  if (!available) setLogScaleY(false);
}

bool ChartPanel::logScaleAvailable() const { return !logButton_->isHidden(); }

bool ChartPanel::setLogScaleY(bool on) {
  if (on && !logScaleY_) {
    const QString offender = firstNonPositiveValue();
    if (!offender.isEmpty()) {
      showNotice(tr("A log scale needs positive values, but %1. The Y axis stays linear.").arg(offender));
      const QSignalBlocker blocker(logButton_);
      logButton_->setChecked(false);
      return false;
    }
  }
  showNotice({});
  if (on != logScaleY_) {
    if (on) {
      auto* axis = new QLogValueAxis;
      axis->setBase(10);
      axis->setLabelFormat(QStringLiteral("%g"));
      axis->setMinorTickCount(-1);
      replaceAxis(yAxis_, axis, Qt::AlignLeft);
    } else {
      replaceAxis(yAxis_, new QValueAxis, Qt::AlignLeft);
    }
    logScaleY_ = on;
    applyAppearance();
    resetView();
    emit logScaleYChanged(on);
  }
  const QSignalBlocker blocker(logButton_);
  logButton_->setChecked(on);
  return true;
}

QString ChartPanel::notice() const { return noticeLabel_->text(); }

void ChartPanel::resetView() {
  followsData_ = true;
  fitToData();
}

void ChartPanel::onUserChangedView() { followsData_ = false; }

void ChartPanel::onSeriesDataReplaced() {
  if (logScaleY_) {
    const QString offender = firstNonPositiveValue();
    if (!offender.isEmpty()) {
      setLogScaleY(false);
      showNotice(tr("Switched back to a linear Y axis: %1, and a log scale needs positive values.").arg(offender));
    }
  }
  if (followsData_) fitToData();
}

void ChartPanel::fitToData() {
  if (fitting_) return;
  fitting_ = true;
  fitAxes(0);
  placeAnnotation();
  fitting_ = false;
}

// X spans the data exactly, with nice ticks inside it; Y follows ui/chart_axes.hpp's policy, with
// `headroom` (a share of its height) kept free above the data for the note.
void ChartPanel::fitAxes(qreal headroom) {
  ValueExtent x, y;
  bool anyPoint = false;
  for (const QXYSeries* series : std::as_const(dataSeries_))
    for (const QPointF& point : series->points()) {
      anyPoint = true;
      x.include(point.x());
      if (!logScaleY_ || point.y() > 0) y.include(point.y());
    }
  for (const QAreaSeries* band : std::as_const(bands_)) {
    x.include(band->upperSeries()->at(0).x());
    x.include(band->upperSeries()->at(1).x());
  }
  showEmptyState(!anyPoint);
  const QRectF plot = chart_->plotArea();
  fittedPlotSize_ = plot.size();

  // A series that draws its points keeps them whole: the value axes end a share of their span past
  // them, about half a marker on a small plot. A share, not pixels: a pad that followed the plot's
  // size would move the tick labels, the plot, and the pad again.
  bool markers = false;
  for (const QXYSeries* series : std::as_const(dataSeries_))
    markers = markers || (series->isVisible() && (series->pointsVisible() || qobject_cast<const QScatterSeries*>(series)));
  constexpr qreal kMarkerShare = 0.06;

  if (x.empty()) x = {0, 1};
  if (x.min == x.max) {
    const qreal half = xAxisKind_ == XAxisKind::dateTime ? kHalfDayMs : 0.5;
    x = {x.min - half, x.max + half};
  }
  if (qobject_cast<QCategoryAxis*>(xAxis_)) {
    xAxis_->setRange(x.min - kRowMargin, x.max + kRowMargin);
  } else if (auto* date = qobject_cast<QDateTimeAxis*>(xAxis_)) {
    // Round steps of the local calendar: the chart's milliseconds are local wall-clock time.
    const qreal offset = qreal(QDateTime::fromMSecsSinceEpoch(qint64(x.min)).offsetFromUtc()) * 1000.0;
    const DateTicks range =
        dateTicks(x.min + offset, x.max + offset, [this](const QString& format) { return dateTicksFitting(format); });
    if (date->format() != range.format) date->setFormat(range.format);
    date->setTickCount(range.count);
    date->setRange(QDateTime::fromMSecsSinceEpoch(qint64(range.min - offset)),
                   QDateTime::fromMSecsSinceEpoch(qint64(range.max - offset)));
  } else if (QValueAxis* axis = numericAxis(xAxis_)) {
    if (markers) {
      const qreal pad = (x.max - x.min) * kMarkerShare;
      x = {x.min - pad, x.max + pad};
    }
    const AxisRange guess = ticksWithin(x.min, x.max, kMaxTicks);
    applyRange(axis, ticksWithin(x.min, x.max, ticksFitting(*axis, false, plot, guess)));
  }

  if (qobject_cast<QCategoryAxis*>(yAxis_)) {
    if (y.empty()) y = {0, 1};
    yAxis_->setRange(y.min - kRowMargin, y.max + kRowMargin);
  } else if (logScaleY_) {
    const AxisRange range = logAxisRange(y, headroom);
    yAxis_->setRange(range.min, range.max);
  } else if (QValueAxis* axis = numericAxis(yAxis_)) {
    AxisRange range = linearAxisRange(y, yOrigin_, ticksFitting(*axis, true, plot, {}), kValueMargin, headroom);
    if (markers && anyPoint) {
      const qreal pad = (range.max - range.min) * kMarkerShare;
      range.min -= pad;
      range.max += pad;
    }
    applyRange(axis, range);
  }
  updateBandHeights();
}

// The note in the first corner no data crosses. While the view follows the data and every corner
// is taken, the Y axis is raised until the top left corner is free.
void ChartPanel::placeAnnotation() {
  const bool linearY = !logScaleY_ && numericAxis(yAxis_);
  const QString flat = linearY && flatSeriesNoted_ ? flatSeriesNote(dataSeries_, axisRange(yAxis_), valueText_) : QString();
  const QString text = annotation_.isEmpty() ? flat : flat.isEmpty() ? annotation_ : annotation_ + QLatin1Char('\n') + flat;
  const auto lines = [this] {
    return seriesInScene(dataSeries_, chart_->plotArea(), axisRange(xAxis_), axisRange(yAxis_), logScaleY_);
  };
  // While the view follows the data, the Y axis may rise to free a corner; a zoom stays the user's.
  const bool mayRaise = fitting_ && followsData_ && !qobject_cast<QCategoryAxis*>(yAxis_);
  note_->place(text, !empty_, lines, mayRaise ? std::function<void(qreal)>([this](qreal h) { fitAxes(h); }) : nullptr);
}

// The title one size down, and down again, rather than cut to "Cumulative time, Transformer / Aar…".
void ChartPanel::fitTitle() {
  QFont font = scaledFont(QApplication::font(), 1.1);
  font.setBold(true);
  // A tenth spare: the title's text item keeps a margin of its own.
  font = fittingFont(font, chart_->title(), 0.9 * (chart_->size().width() - kChartMargins.left() - kChartMargins.right()));
  if (chart_->titleFont() != font) chart_->setTitleFont(font);
}

void ChartPanel::showEmptyState(bool empty) {
  empty_ = empty;
  xAxis_->setVisible(!empty);
  yAxis_->setVisible(!empty);
  fitLegend();
  placeholder_->setText(placeholderText_.isEmpty() ? tr("No data yet") : placeholderText_);
  placeholder_->setVisible(empty);
  const QRectF plot = chart_->plotArea();
  const QRectF area = plot.isEmpty() ? chart_->rect() : plot;
  placeholder_->setPos(area.center() - placeholder_->boundingRect().center());
}

void ChartPanel::onPlotAreaChanged() {
  fitDateTicks();
  fitTitle();
  fitLegend();
  if (fitting_) return;
  if (followsData_ && chart_->plotArea().size() != fittedPlotSize_) {
    fitToData();
  } else {
    showEmptyState(empty_);
    placeAnnotation();
  }
}

// A zoom or pan by the user: the range stays theirs, the ticks move to nice values inside it.
void ChartPanel::onValueAxisRangeChanged() {
  if (fitting_) return;
  fitting_ = true;  // laying the ticks out moves the range there and back
  const QRectF plot = chart_->plotArea();
  for (QAbstractAxis* abstract : {xAxis_, yAxis_})
    if (QValueAxis* axis = numericAxis(abstract)) {
      const AxisRange guess = ticksWithin(axis->min(), axis->max(), kMaxTicks);
      applyTicks(axis, ticksWithin(axis->min(), axis->max(), ticksFitting(*axis, axis == yAxis_, plot, guess)));
    }
  fitting_ = false;
  placeAnnotation();
}

void ChartPanel::setYAxisOrigin(AxisOrigin origin) {
  yOrigin_ = origin;
  if (followsData_) fitToData();
}

void ChartPanel::setPlaceholderText(const QString& text) {
  placeholderText_ = text;
  showEmptyState(empty_);
}

bool ChartPanel::showsPlaceholder() const { return empty_ && placeholder_->isVisible(); }

void ChartPanel::setAnnotation(const QString& text) {
  const bool changed = text != annotation_;
  annotation_ = text;
  if (followsData_) fitToData();
  else placeAnnotation();
  if (changed) emit annotationChanged();
}

void ChartPanel::setValueText(std::function<QString(qreal)> valueText) {
  valueText_ = valueText ? std::move(valueText) : defaultValueText;
  placeAnnotation();
}

QString ChartPanel::annotationShown() const { return note_->box()->isVisible() ? note_->box()->text() : QString(); }

QRectF ChartPanel::annotationSceneRect() const {
  return note_->box()->isVisible() ? note_->box()->sceneBoundingRect() : QRectF();
}

void ChartPanel::setFixedTheme(std::optional<Theme> theme) {
  fixedTheme_ = theme;
  applyAppearance();
}

// As many date ticks as fit side by side with room between them, so that no date is cut to
// "2020-…" in a narrow chart or with presenter mode's larger text.
int ChartPanel::dateTicksFitting(const QString& format) const {
  auto* axis = qobject_cast<QDateTimeAxis*>(xAxis_);
  if (!axis) return kMaxDateTicks;
  const QString widest = QDateTime(QDate(2000, 12, 28), QTime(23, 58)).toString(format);
  const qreal label = QFontMetricsF(axis->labelsFont()).horizontalAdvance(widest) * 1.3;
  const int fits = label > 0 ? int(chart_->plotArea().width() / label) + 1 : kMaxDateTicks;
  return std::clamp(fits, 2, kMaxDateTicks);
}

// A view the user zoomed or panned keeps its range: its ticks are spread evenly over it. A view
// that follows the data gets round ticks when it is fitted (fitAxes).
void ChartPanel::fitDateTicks() {
  auto* axis = qobject_cast<QDateTimeAxis*>(xAxis_);
  if (!axis || followsData_) return;
  const int ticks = dateTicksFitting(axis->format());
  if (axis->tickCount() != ticks) axis->setTickCount(ticks);
}

void ChartPanel::updateBandHeights() {
  if (updatingBands_ || bands_.isEmpty()) return;
  updatingBands_ = true;
  const auto [bottom, top] = axisRange(yAxis_);
  for (QAreaSeries* band : std::as_const(bands_)) {
    const qreal from = band->upperSeries()->at(0).x();
    const qreal to = band->upperSeries()->at(1).x();
    band->upperSeries()->replace({{from, top}, {to, top}});
    band->lowerSeries()->replace({{from, bottom}, {to, bottom}});
  }
  updatingBands_ = false;
}

void ChartPanel::replaceAxis(QAbstractAxis*& slot, QAbstractAxis* replacement, Qt::Alignment alignment) {
  if (slot) {
    replacement->setTitleText(slot->titleText());
    chart_->removeAxis(slot);
    delete slot;
  }
  chart_->addAxis(replacement, alignment);
  slot = replacement;
  for (QXYSeries* series : std::as_const(dataSeries_)) series->attachAxis(replacement);
  for (QAreaSeries* band : std::as_const(bands_)) band->attachAxis(replacement);
  replacement->setVisible(!empty_);
  // Bands span the visible height, whatever zoom or pan did to it.
  if (auto* value = qobject_cast<QValueAxis*>(replacement); value && alignment == Qt::AlignLeft)
    connect(value, &QValueAxis::rangeChanged, this, &ChartPanel::updateBandHeights);
  if (QValueAxis* value = numericAxis(replacement))
    connect(value, &QValueAxis::rangeChanged, this, &ChartPanel::onValueAxisRangeChanged);
  if (auto* log = qobject_cast<QLogValueAxis*>(replacement))
    connect(log, &QLogValueAxis::rangeChanged, this, &ChartPanel::updateBandHeights);
}

void ChartPanel::attachToAxes(QXYSeries* series) {
  series->attachAxis(xAxis_);
  series->attachAxis(yAxis_);
}

void ChartPanel::showNotice(const QString& text) {
  noticeLabel_->setText(text);
  noticeLabel_->setVisible(!text.isEmpty());
}

QString ChartPanel::firstNonPositiveValue() const {
  for (const QXYSeries* series : dataSeries_)
    for (const QPointF& point : series->points())
      if (point.y() <= 0) {
        const QString x = xAxisKind_ == XAxisKind::dateTime
                              ? QDateTime::fromMSecsSinceEpoch(qint64(point.x())).toString(Qt::ISODate)
                              : QString::number(point.x(), 'g', 6);
        return tr("'%1' has the value %2 at x = %3").arg(series->name(), QString::number(point.y(), 'g', 6), x);
      }
  return {};
}

}  // namespace aaren::ui
