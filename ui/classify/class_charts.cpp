#include "ui/classify/class_charts.hpp"

#include <QApplication>
#include <QAreaSeries>
#include <QBrush>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsSimpleTextItem>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>
#include <algorithm>
#include <array>
#include <cmath>

#include "core/io/matrix_csv.hpp"
#include "ui/appearance.hpp"
#include "ui/chart_export.hpp"
#include "ui/theme.hpp"

namespace aaren::ui {

namespace {

constexpr qreal kBarSpan = 0.8;  // of a class's column, shared by its groups' bars

// A filled rectangle on the chart's axes, with no legend entry unless named.
QAreaSeries* addRectangle(ChartPanel& panel, const QRectF& rect, const QColor& fill, const QString& name = {}) {
  auto* upper = new QLineSeries;
  auto* lower = new QLineSeries;
  upper->append(rect.left(), rect.bottom());
  upper->append(rect.right(), rect.bottom());
  lower->append(rect.left(), rect.top());
  lower->append(rect.right(), rect.top());
  auto* area = new QAreaSeries(upper, lower);
  upper->setParent(area);
  lower->setParent(area);
  area->setName(name);
  area->setBrush(fill);
  area->setPen(QPen(fill.darker(115), 1));
  panel.chart()->addSeries(area);
  area->attachAxis(panel.xAxis());
  area->attachAxis(panel.yAxis());
  panel.setInLegend(area, !name.isEmpty());
  return area;
}

AxisLabels classLabels(const QStringList& classNames, bool reversed) {
  AxisLabels labels;
  const int classes = int(classNames.size());
  for (int i = 0; i < classes; ++i) {
    const int k = reversed ? classes - 1 - i : i;
    labels << qMakePair(qreal(i), classNames[k]);
  }
  return labels;
}

QFont cellFont() {
  QFont font = scaledFont(QApplication::font(), Appearance::instance().chartScale());
  if (Appearance::instance().presenterMode()) font = atLeastPixels(font, kPresenterMinimumTextPixels);
  font.setBold(true);
  return font;
}

}  // namespace

QColor classColor(int k) {
  // Okabe and Ito's colour-blind safe set, then a few more.
  static const std::array<QColor, 10> colors = {QColor(0x00, 0x72, 0xb2), QColor(0xe6, 0x9f, 0x00), QColor(0x00, 0x9e, 0x73),
                                                QColor(0xcc, 0x79, 0xa7), QColor(0xd5, 0x5e, 0x00), QColor(0x56, 0xb4, 0xe9),
                                                QColor(0x8c, 0x6d, 0x31), QColor(0x99, 0x99, 0x99), QColor(0x6a, 0x3d, 0x9a),
                                                QColor(0xb1, 0x59, 0x28)};
  return colors[std::size_t(std::max(0, k)) % colors.size()];
}

ClassBarsChart::ClassBarsChart(const QString& title, QWidget* parent) : ChartPanel(title, parent) {
  setYAxisOrigin(AxisOrigin::zero);
}

void ClassBarsChart::clearBars() {
  for (QAreaSeries* bar : std::as_const(bars_)) {
    chart()->removeSeries(bar);
    delete bar;
  }
  bars_.clear();
  heights_.clear();
  groupColors_.clear();
  classNames_.clear();
  groupNames_.clear();
  removeAllSeries();
  setXAxisLabels({});
}

void ClassBarsChart::setCategories(const QString& category) { category_ = category; }

void ClassBarsChart::setBars(const QStringList& classNames, const QList<Group>& groups) {
  clearBars();
  if (classNames.isEmpty() || groups.isEmpty()) return;
  setXAxisLabels(classLabels(classNames, false));
  const bool byClass = groups.size() == 1 && category_.isEmpty();
  classNames_ = classNames;
  for (const Group& group : groups) groupNames_ << group.name;
  const int classes = int(classNames.size());
  const qreal width = kBarSpan / qreal(groups.size());
  QList<QPointF> fit;
  for (int g = 0; g < groups.size(); ++g) {
    // A single group is coloured by class, as the classes' series are; groups by their own colour.
    groupColors_ << (byClass ? QColor() : groups[g].color.isValid() ? groups[g].color : classColor(g));
    QList<qreal> heights;
    bool named = false;
    for (int k = 0; k < classes; ++k) {
      const double value = k < int(groups[g].values.size()) ? groups[g].values[std::size_t(k)] : NAN;
      heights << (std::isfinite(value) ? value : qreal(NAN));
      fit << QPointF(k, 0);
      if (!std::isfinite(value)) continue;
      fit << QPointF(k, value);
      const qreal left = k - kBarSpan / 2 + g * width;
      const QString name = named || groups.size() == 1 ? QString() : groups[g].name;
      named = named || !name.isEmpty();
      const QColor color = byClass ? classColor(k) : groupColors_.back();
      bars_ << addRectangle(*this, QRectF(QPointF(left, 0), QPointF(left + width * 0.92, value)), color, name);
    }
    heights_ << heights;
  }
  addInvisiblePoints(*this, fit);
  setLegendShown(groups.size() > 1);
}

QString ClassBarsChart::tableCsv() const {
  if (heights_.isEmpty()) return {};
  QStringList header{category_.isEmpty() ? QStringLiteral("class") : csvField(category_)};
  for (qsizetype g = 0; g < groupNames_.size(); ++g)
    header << csvField(groupNames_[g].isEmpty() ? yAxis()->titleText() : groupNames_[g]);
  QString text = header.join(QLatin1Char(',')) + QLatin1Char('\n');
  for (qsizetype k = 0; k < classNames_.size(); ++k) {
    QStringList row{csvField(classNames_[k])};
    for (const QList<qreal>& heights : heights_)
      row << (k < heights.size() && std::isfinite(heights[k]) ? QString::fromStdString(format_number(double(heights[k])))
                                                              : QString());
    text += row.join(QLatin1Char(',')) + QLatin1Char('\n');
  }
  return text;
}

ConfusionMatrixChart::ConfusionMatrixChart(QWidget* parent) : ChartPanel(QString(), parent) {
  setTitle(tr("Confusion matrix"));
  setAxisTitles(tr("Predicted class"), tr("True class"));
  setPlaceholderText(tr("Open a classification run to see its confusion matrix"));
  connect(chart(), &QChart::plotAreaChanged, this, &ConfusionMatrixChart::placeCellTexts);
  // After the panel has restyled itself for the new theme or text size.
  connect(&Appearance::instance(), &Appearance::changed, this, &ConfusionMatrixChart::placeCellTexts, Qt::QueuedConnection);
}

ConfusionMatrixChart::~ConfusionMatrixChart() { chart()->disconnect(this); }

void ConfusionMatrixChart::clearMatrix() {
  for (QAreaSeries* series : std::as_const(cells_)) {
    chart()->removeSeries(series);
    delete series;
  }
  for (QAreaSeries* series : std::as_const(scale_)) {
    chart()->removeSeries(series);
    delete series;
  }
  qDeleteAll(texts_);
  cells_.clear();
  scale_.clear();
  texts_.clear();
  counts_.clear();
  classNames_.clear();
  classes_ = 0;
  removeAllSeries();
  setXAxisLabels({});
  setYAxisLabels({});
}

QColor ConfusionMatrixChart::cellColor(double fraction) const {
  const bool dark = Appearance::instance().theme() == Theme::dark;
  const QColor low = dark ? QColor(0x2a, 0x2f, 0x3a) : QColor(0xf4, 0xf7, 0xfb);
  const QColor high = dark ? QColor(0x5a, 0xb0, 0xf0) : QColor(0x08, 0x3d, 0x8c);
  const double t = std::clamp(fraction, 0.0, 1.0);
  return QColor::fromRgbF(float(low.redF() + t * (high.redF() - low.redF())),
                          float(low.greenF() + t * (high.greenF() - low.greenF())),
                          float(low.blueF() + t * (high.blueF() - low.blueF())));
}

void ConfusionMatrixChart::setMatrix(const QStringList& classNames, const std::vector<long>& counts) {
  clearMatrix();
  const int classes = int(classNames.size());
  if (classes == 0 || counts.size() != std::size_t(classes) * std::size_t(classes)) return;
  classes_ = classes;
  classNames_ = classNames;
  counts_ = counts;
  setXAxisLabels(classLabels(classNames, false));
  setYAxisLabels(classLabels(classNames, true));  // the first class on top, as a table reads
  const long most = std::max(1L, *std::max_element(counts.begin(), counts.end()));
  QList<QPointF> centres;
  for (int row = 0; row < classes; ++row)
    for (int column = 0; column < classes; ++column) {
      const qreal y = classes - 1 - row;
      centres << QPointF(column, y);
      const long count = counts[std::size_t(row * classes + column)];
      cells_ << addRectangle(*this, QRectF(QPointF(column - 0.5, y - 0.5), QPointF(column + 0.5, y + 0.5)),
                             cellColor(double(count) / double(most)));
      auto* text = new QGraphicsSimpleTextItem(QString::number(count), chart());
      text->setZValue(20);
      texts_ << text;
    }
  // The colour scale: three swatches in the legend.
  for (const long value : {0L, most / 2, most})
    scale_ << addRectangle(*this, QRectF(-100, -100, 0.001, 0.001), cellColor(double(value) / double(most)),
                           value == 0 ? tr("0 cases") : tr("%1 cases").arg(value));
  addInvisiblePoints(*this, centres);
  setLegendShown(true);
  placeCellTexts();
}

long ConfusionMatrixChart::cellCount(int trueClass, int predictedClass) const {
  if (trueClass < 0 || predictedClass < 0 || trueClass >= classes_ || predictedClass >= classes_) return -1;
  return counts_[std::size_t(trueClass * classes_ + predictedClass)];
}

QString ConfusionMatrixChart::cellText(int trueClass, int predictedClass) const {
  if (trueClass < 0 || predictedClass < 0 || trueClass >= classes_ || predictedClass >= classes_) return {};
  return texts_[trueClass * classes_ + predictedClass]->text();
}

void ConfusionMatrixChart::placeCellTexts() {
  if (classes_ == 0 || texts_.isEmpty()) return;
  // Smaller text where the cells are small (many classes, a small window), but never below what
  // reads: presenter mode's floor, or 7 points.
  QFont font = cellFont();
  const QRectF plot = chart()->plotArea();
  const qreal cell = std::min(plot.width(), plot.height()) / classes_;
  const QFontMetricsF metrics(font);
  const qreal needed = std::max(metrics.height(), metrics.horizontalAdvance(QString::number(*std::max_element(counts_.begin(), counts_.end()))));
  if (cell > 0 && needed > 0.8 * cell) {
    const qreal smallest = Appearance::instance().presenterMode() ? QFontMetricsF(atLeastPixels(font, kPresenterMinimumTextPixels)).height() : 0;
    const qreal factor = std::max(0.8 * cell, smallest) / needed;
    font = scaledFont(font, factor);
    if (!Appearance::instance().presenterMode() && pointSizeOf(font) < 7) font.setPointSizeF(7);
    if (Appearance::instance().presenterMode()) font = atLeastPixels(font, kPresenterMinimumTextPixels);
  }
  const long most = std::max(1L, *std::max_element(counts_.begin(), counts_.end()));
  const QColor light = QColor(Qt::white);
  const bool darkTheme = Appearance::instance().theme() == Theme::dark;
  const QColor dark = Appearance::instance().theme() == Theme::dark ? QColor(0xe8, 0xea, 0xed) : QColor(0x1f, 0x23, 0x28);
  for (int row = 0; row < classes_; ++row)
    for (int column = 0; column < classes_; ++column) {
      QGraphicsSimpleTextItem* text = texts_[row * classes_ + column];
      const long count = counts_[std::size_t(row * classes_ + column)];
      const double fraction = double(count) / double(most);
      text->setFont(font);
      // Dark cells take light text; in the dark theme the scale runs the other way round.
      const bool strong = fraction > 0.5;
      // Zeros recede, so that the few confusions stand out.
      const QColor zero = darkTheme ? QColor(0x6a, 0x72, 0x80) : QColor(0xa3, 0xab, 0xb8);
      text->setBrush(count == 0 ? zero : darkTheme ? (strong ? QColor(0x10, 0x14, 0x1a) : dark) : (strong ? light : dark));
      const QPointF centre = chart()->mapToPosition(QPointF(column, classes_ - 1 - row), cells_.front());
      text->setPos(centre - text->boundingRect().center());
      text->setVisible(chart()->plotArea().contains(centre));
    }
  // The cells' colours follow the theme too.
  for (int i = 0; i < cells_.size(); ++i) {
    const QColor fill = cellColor(double(counts_[std::size_t(i)]) / double(most));
    cells_[i]->setBrush(fill);
    cells_[i]->setPen(QPen(fill.darker(115), 1));
  }
  const std::array<long, 3> scale = {0L, most / 2, most};
  for (int i = 0; i < scale_.size() && i < 3; ++i) scale_[i]->setBrush(cellColor(double(scale[std::size_t(i)]) / double(most)));
}

QString ConfusionMatrixChart::tableCsv() const {
  if (classes_ == 0) return {};
  QStringList header{tr("true class \\ predicted")};
  for (const QString& name : classNames_) header << csvField(name);
  QString text = header.join(QLatin1Char(',')) + QLatin1Char('\n');
  for (int row = 0; row < classes_; ++row) {
    QStringList cells{csvField(classNames_[row])};
    for (int column = 0; column < classes_; ++column)
      cells << QString::number(counts_[std::size_t(row * classes_ + column)]);
    text += cells.join(QLatin1Char(',')) + QLatin1Char('\n');
  }
  return text;
}

}  // namespace aaren::ui
