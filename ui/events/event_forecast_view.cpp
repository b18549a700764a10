#include "ui/events/event_forecast_view.hpp"

#include <QFileInfo>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "ui/chart_panel.hpp"
#include "ui/charts/model_colors.hpp"
#include "ui/events/event_rmse_note.hpp"
#include "ui/explore/step_bar.hpp"
#include "ui/explore/step_controller.hpp"
#include "ui/hint_label.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/workers/background_job.hpp"

namespace aaren::ui {

namespace {

constexpr double kBarsWidth = 0.8;  // of one mark's slot, shared by the models' bars

const QColor kEventColor(0x55, 0x5b, 0x66);
const QColor kActualColor(0xc0, 0x26, 0x2d);

QString qstr(const std::string& text) { return QString::fromStdString(text); }

}  // namespace

EventForecastView::EventForecastView(MessageBar* messages, QWidget* parent)
    : QWidget(parent),
      messages_(messages),
      loader_(new BackgroundJob(this)),
      controller_(new StepController(this)),
      stepBar_(new StepBar(this)),
      caption_(makeHint(this)),
      metrics_(makeHint(this)),
      density_(new ChartPanel(tr("Next event"), this)),
      marks_(new ChartPanel(tr("Next mark"), this)) {
  density_->setObjectName(QStringLiteral("nextEventChart"));
  density_->setAxisTitles(tr("time"), tr("density"));
  density_->setYAxisOrigin(AxisOrigin::zero);
  // The events are marked on the time axis on purpose: "events so far: 0, constant" would read as
  // a value of theirs.
  density_->setFlatSeriesNoted(false);
  density_->setPlaceholderText(tr("Open an event run to see its next-event density"));
  marks_->setObjectName(QStringLiteral("nextMarkChart"));
  marks_->setAxisTitles(tr("mark"), tr("probability"));
  marks_->setYAxisOrigin(AxisOrigin::zero);
  marks_->hide();
  caption_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  metrics_->setObjectName(QStringLiteral("eventMetricsNote"));
  metrics_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  stepBar_->setController(controller_);
  stepBar_->setStepNoun(tr("event"));

  auto* charts = new QSplitter(Qt::Horizontal, this);
  charts->setChildrenCollapsible(false);
  charts->addWidget(density_);
  charts->addWidget(marks_);
  charts->setStretchFactor(0, 3);
  charts->setStretchFactor(1, 1);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(charts, 1);
  layout->addWidget(caption_);
  layout->addWidget(stepBar_);
  layout->addWidget(metrics_);

  connect(controller_, &StepController::positionChanged, this, &EventForecastView::showPosition);
  connect(loader_, &BackgroundJob::succeeded, this, [this](const QVariant& result) {
    messages_->clear();
    showForecasts(result.value<std::shared_ptr<const EventForecastSet>>());
    emit runLoaded(true);
  });
  connect(loader_, &BackgroundJob::failed, this, [this](const QString& message) {
    messages_->showError(message);
    emit runLoaded(false);
  });
}

bool EventForecastView::isLoading() const { return loader_->isRunning(); }

int EventForecastView::currentStep() const { return set_ ? controller_->position() - 1 : -1; }

QString EventForecastView::captionText() const { return caption_->text() + QLatin1Char('\n') + metrics_->text(); }

void EventForecastView::openRun(const QString& runDir) {
  messages_->showMessage(MessageBar::Level::information,
                         tr("Loading %1 and predicting its test events…").arg(QFileInfo(runDir).fileName()));
  loader_->start([runDir](JobContext& context) {
    return QVariant::fromValue(std::shared_ptr<const EventForecastSet>(
        std::make_shared<EventForecastSet>(loadEventForecasts(runDir, context.token()))));
  });
}

void EventForecastView::showForecasts(std::shared_ptr<const EventForecastSet> set) {
  set_ = std::move(set);
  const QString unit = qstr(set_->timeUnit);
  // "density" alone: the chart is short beside a few models' lines below it (presenter mode at
  // 1280x720), and a longer title would be cut; its unit is one over the time axis's.
  density_->setAxisTitles(unit.isEmpty() ? tr("time") : tr("time (%1)").arg(unit), tr("density"));
  marks_->setVisible(!set_->markNames.empty());
  metrics_->setText(metricsText());
  controller_->pause();
  controller_->setCount(int(set_->steps.size()));
  controller_->setPosition(1);
  showPosition(1);
}

void EventForecastView::showPosition(int position) {
  if (!set_) return;
  if (position > 0) {
    showStep(position - 1);
    return;
  }
  density_->removeAllSeries();
  marks_->removeAllSeries();
  caption_->setText(tr("%1 test events. Step forward (or play) to see what each model predicts after each one.")
                        .arg(set_->steps.size()));
}

QString EventForecastView::metricsText() const {
  QStringList lines;
  const QString unit = qstr(set_->timeUnit);
  bool large = false;
  for (const EventModelForecasts& model : set_->models) {
    const EventRunMetrics& metrics = model.run.metrics;
    const QString flag = largeRmseFlag(metrics.test.rmse, set_->testMeanGap);
    large = large || !flag.isEmpty();
    lines << tr("%1 on all %2 test events: NLL %3 per event (a Poisson process: %4), RMSE of the next time %5%6%7")
                 .arg(model.modelName)
                 .arg(metrics.test.events)
                 .arg(metrics.test.nll_per_event, 0, 'f', 3)
                 .arg(metrics.poisson_test_nll_per_event, 0, 'f', 3)
                 .arg(metrics.test.rmse, 0, 'g', 3)
                 .arg(unit.isEmpty() ? QString() : QLatin1Char(' ') + unit, flag);
  }
  if (large) lines << largeRmseExplanation();
  return lines.join(QLatin1Char('\n'));
}

void EventForecastView::showStep(int step) {
  if (!set_ || step < 0 || step >= int(set_->steps.size())) return;
  const EventStep& where = set_->steps[std::size_t(step)];
  const EventSequence& sequence = set_->testSequences[std::size_t(where.sequence)];
  const EventPrediction& first = set_->prediction(0, step);

  // The span follows the data, not the models' means (a long-tailed mean lies decades out): a few
  // mean gaps of the events shown past the current event, far enough to show the actual next one.
  const int firstShown = std::max(0, where.event - kEventsShown + 1);
  double meanGap = where.event > firstShown ? (first.time - sequence.times[std::size_t(firstShown)]) /
                                                  double(where.event - firstShown)
                                            : set_->testMeanGap;
  if (!(meanGap > 0)) meanGap = first.next.time_scale;
  const double span = std::max(kMeanGapsAhead * meanGap, 1.15 * (first.actual_next_time - first.time));

  density_->removeAllSeries();
  QList<QPointF> events;
  for (int i = firstShown; i <= where.event; ++i)
    events.append({sequence.times[std::size_t(i)], 0.0});
  QScatterSeries* eventSeries = density_->addScatterSeries(tr("events so far"), kEventColor);
  eventSeries->setMarkerSize(9);
  setSeriesData(eventSeries, events);
  for (int m = 0; m < int(set_->models.size()); ++m) {
    const NextEventDistribution& next = set_->prediction(m, step).next;
    QList<QPointF> curve;
    curve.reserve(kDensityPoints);
    for (int k = 1; k <= kDensityPoints; ++k) {
      const double time = first.time + span * double(k) / kDensityPoints;
      curve.append({time, next_event_density(next, time)});
    }
    setSeriesData(density_->addLineSeries(tr("%1 density").arg(set_->models[std::size_t(m)].modelName),
                                        modelColor(set_->models[std::size_t(m)].modelName)),
                  curve);
  }
  QScatterSeries* actual = density_->addScatterSeries(tr("actual next event"), kActualColor);
  actual->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
  actual->setMarkerSize(11);
  setSeriesData(actual, {{first.actual_next_time, 0.0}});
  density_->resetView();

  QStringList lines;
  lines << tr("Test event %1 of %2%3, at %4; the next one came at %5.")
               .arg(step + 1)
               .arg(set_->steps.size())
               .arg(set_->testSequences.size() > 1 ? tr(" (sequence '%1')").arg(qstr(sequence.id)) : QString())
               .arg(first.time, 0, 'g', 8)
               .arg(first.actual_next_time, 0, 'g', 8);
  for (int m = 0; m < int(set_->models.size()); ++m) {
    const EventPrediction& p = set_->prediction(m, step);
    lines << tr("%1: expected at %2, NLL of the actual time %3")
                 .arg(set_->models[std::size_t(m)].modelName)
                 .arg(p.next.mean_next_time, 0, 'g', 8)
                 .arg(p.time_nll, 0, 'f', 3);
  }
  caption_->setText(lines.join(QLatin1Char('\n')));
  drawMarks(step);
}

void EventForecastView::drawMarks(int step) {
  marks_->removeAllSeries();
  if (set_->markNames.empty()) return;
  const int models = int(set_->models.size());
  const double width = kBarsWidth / models;
  for (int m = 0; m < models; ++m) {
    const std::vector<double>& probabilities = set_->prediction(m, step).next.mark_probabilities;
    QList<QPointF> outline;  // bars as one closed outline per mark, so the CSV export keeps them
    for (std::size_t k = 0; k < probabilities.size(); ++k) {
      const double left = double(k) - kBarsWidth / 2 + m * width;
      outline << QPointF(left, 0) << QPointF(left, probabilities[k]) << QPointF(left + width, probabilities[k])
              << QPointF(left + width, 0);
    }
    setSeriesData(marks_->addLineSeries(tr("%1 P(mark)").arg(set_->models[std::size_t(m)].modelName),
                                        modelColor(set_->models[std::size_t(m)].modelName)),
                  outline);
  }
  if (const int actual = set_->prediction(0, step).actual_next_mark; actual >= 0) {
    QScatterSeries* series = marks_->addScatterSeries(
        tr("actual mark: %1").arg(qstr(set_->markNames[std::size_t(actual)])), kActualColor);
    setSeriesData(series, {{double(actual), 0.0}});
  }
  marks_->resetView();
}

}  // namespace aaren::ui
