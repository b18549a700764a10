#include "ui/report/run_report.hpp"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPageSize>
#include <QPdfWriter>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/data/date_continuation.hpp"
#include "core/forecast/forecast_run.hpp"
#include "core/rl/dataset_summary.hpp"
#include "core/rl/decision_run.hpp"
#include "ui/about_info.hpp"
#include "ui/atomic_write.hpp"
#include "ui/chart_export.hpp"
#include "ui/chart_panel.hpp"
#include "ui/pages/future_forecast_csv.hpp"
#include "ui/report/report_layout.hpp"
#include "ui/report/run_figures.hpp"
#include "ui/run_list.hpp"
#include "ui/wording/model_names.hpp"
#include "ui/wording/wording.hpp"

namespace aaren::ui {

namespace {

constexpr int kPreviewRows = 6;
// A forecast after the data of more steps than this is listed by an even sample of its steps.
constexpr int kMostFutureRows = 24;
constexpr int kSampledFutureRows = 12;
constexpr int kReportDpi = 300;
// Charts are drawn twice as wide as high, at a size whose text reads well on a page.
const ImageOptions kWideChart{QSize(1600, 720), 200};
const ImageOptions kSquareChart{QSize(900, 900), 200};
constexpr qreal kWideAspect = 720.0 / 1600.0;

QString epochCount(std::size_t epochs) {
  return countOf(qlonglong(epochs), QObject::tr("epoch"), QObject::tr("epochs"));
}
QString number(double value) { return QString::number(value, 'g', 5); }
QString text(const std::string& value) { return QString::fromStdString(value); }

// Paper is white: a report's charts are light whatever theme the window is in.
QImage chartImage(ChartPanel& chart) {
  chart.setFixedTheme(Theme::light);
  return renderChartImage(chart, kWideChart);
}

// "Aaren", "Aaren and Transformer", "Aaren, Transformer and Linear Transformer".
QString modelNames(const RunOnDisk& run) {
  QStringList names;
  for (const ModelRunEntry& model : run.entry.models) names << modelName(model);
  const QString last = names.isEmpty() ? QString() : names.takeLast();
  return names.isEmpty() ? last : names.join(QStringLiteral(", ")) + QObject::tr(" and ") + last;
}

// "forecasting model", "event models", "classifiers" for the title's line.
QString kindOfModels(const RunOnDisk& run) {
  const bool one = run.entry.models.size() == 1;
  if (run.decides()) return one ? QObject::tr("Decision Transformer") : QObject::tr("Decision Transformers");
  if (run.events()) return one ? QObject::tr("event model") : QObject::tr("event models");
  if (run.classifies()) return one ? QObject::tr("classifier") : QObject::tr("classifiers");
  return one ? QObject::tr("forecasting model") : QObject::tr("forecasting models");
}

void forecastingData(ReportLayout& layout, const RunOnDisk& run) {
  const ForecastData& data = *run.forecasts->models.front().data;
  const TimeSeriesTable& table = data.table;
  const int rows = table.values.rows;
  const bool dated = int(table.dates.size()) == rows;
  QString about = QObject::tr("%1: %2 rows, %3 channel(s) (%4)")
                      .arg(QFileInfo(run.dataPath).fileName())
                      .arg(rows)
                      .arg(table.channel_names.size())
                      .arg(QStringList([&] {
                             QStringList names;
                             for (const std::string& name : table.channel_names) names << text(name);
                             return names;
                           }())
                               .join(QStringLiteral(", ")));
  if (dated && rows > 0)
    about += QObject::tr(", dated %1 to %2 (%3)")
                 .arg(text(table.dates.front()), text(table.dates.back()), text(describe(infer_date_cadence(table.dates))));
  if (table.target >= 0) about += QObject::tr("; the charts show the target, %1").arg(text(table.channel_names[std::size_t(table.target)]));
  about += QObject::tr("; features %1").arg(text(describe(data.options.features)));
  layout.paragraph(about + QLatin1Char('.'));

  TextTable preview;
  preview.header << (dated ? text(table.date_column_name) : QObject::tr("row"));
  for (const std::string& name : table.channel_names) preview.header << text(name);
  for (int r = 0; r < std::min(rows, kPreviewRows); ++r) {
    QStringList row{dated ? text(table.dates[std::size_t(r)]) : QString::number(r + 1)};
    for (int c = 0; c < table.values.cols; ++c) row << number(table.values(r, c));
    preview.rows.push_back(row);
  }
  layout.table(preview, QObject::tr("The first %1 rows, in the data's own units:").arg(preview.rows.size()));

  TextTable split;
  split.header = {QObject::tr("Part"), QObject::tr("Rows"), QObject::tr("From"), QObject::tr("To"), QObject::tr("Windows")};
  auto addPart = [&](const QString& name, RowRange part, int windows) {
    auto at = [&](int row) { return dated ? text(table.dates[std::size_t(row)]) : QObject::tr("row %1").arg(row + 1); };
    split.rows.push_back({name, QString::number(part.size()), part.size() > 0 ? at(part.begin) : QString(),
                          part.size() > 0 ? at(part.end - 1) : QString(), QString::number(windows)});
  };
  addPart(QObject::tr("Training"), data.parts.train, data.train.sample_count());
  addPart(QObject::tr("Validation"), data.parts.validation, data.validation.sample_count());
  addPart(QObject::tr("Test"), data.parts.test, data.test.sample_count());
  layout.table(split, QObject::tr("The split, in time order (%1); a window reads %2 rows and forecasts the next %3:")
                          .arg(text(to_string(data.options.split)))
                          .arg(data.options.seq_len)
                          .arg(data.options.horizon));

  TextTable scaling;
  scaling.header = {QObject::tr("Channel"), QObject::tr("Mean"), QObject::tr("Standard deviation")};
  for (std::size_t c = 0; c < table.channel_names.size(); ++c)
    scaling.rows.push_back({text(table.channel_names[c]), number(data.scaler.mean[c]), number(data.scaler.stddev[c])});
  layout.table(scaling, QObject::tr("The models see z-scores, (value - mean) / standard deviation, with the mean and "
                                    "standard deviation of the training rows only, so nothing of the test part leaks in:"));
  for (const std::string& warning : data.warnings) layout.paragraph(QObject::tr("Note: %1").arg(text(warning)));
}

void eventData(ReportLayout& layout, const RunOnDisk& run) {
  const EventRunData& data = *run.eventData;
  const QString unit = data.log.time_unit.empty() ? QObject::tr("time units") : text(data.log.time_unit);
  layout.paragraph(QObject::tr("%1: %2 events in %3 sequence(s), times in %4%5.")
                       .arg(QFileInfo(run.dataPath).fileName())
                       .arg(data.log.events())
                       .arg(data.log.sequences.size())
                       .arg(unit)
                       .arg(data.log.mark_names.empty()
                                ? QString()
                                : QObject::tr(", %1 mark types").arg(data.log.mark_names.size())));
  TextTable preview;
  preview.header = {QObject::tr("Sequence"), QObject::tr("Event"), QObject::tr("Time")};
  if (!data.log.mark_names.empty()) preview.header << QObject::tr("Mark");
  for (const EventSequence& sequence : data.log.sequences) {
    for (std::size_t i = 0; i < sequence.times.size() && int(preview.rows.size()) < kPreviewRows; ++i) {
      QStringList row{text(sequence.id), QString::number(i + 1), number(sequence.times[i])};
      if (!data.log.mark_names.empty()) row << text(data.log.mark_names[std::size_t(sequence.marks[i])]);
      preview.rows.push_back(row);
    }
    if (int(preview.rows.size()) >= kPreviewRows) break;
  }
  layout.table(preview, QObject::tr("The first events:"));
  TextTable split;
  split.header = {QObject::tr("Part"), QObject::tr("Sequences"), QObject::tr("Events")};
  auto addPart = [&](const QString& name, const std::vector<EventSequence>& part) {
    long events = 0;
    for (const EventSequence& sequence : part) events += long(sequence.times.size());
    split.rows.push_back({name, QString::number(part.size()), QString::number(events)});
  };
  addPart(QObject::tr("Training"), data.split.train);
  addPart(QObject::tr("Validation"), data.split.validation);
  addPart(QObject::tr("Test"), data.split.test);
  layout.table(split, QObject::tr("The split (%1). The models measure time in units of the training part's mean gap, "
                                  "%2 %3; the gaps are scaled by it, nothing else is.")
                          .arg(text(std::string(to_string(data.split.method))), number(data.split.train_mean_gap), unit));
}

void decisionData(ReportLayout& layout, const RunOnDisk& run) {
  const rl::DecisionRunConfig& config = run.entry.models.front().decision()->config;
  if (!run.offline) {
    layout.paragraph(QObject::tr("%1: %2 data on %3 (seed of the file's generation not known here: the file was not "
                                 "found, so only what the run recorded is reported).")
                         .arg(QFileInfo(run.dataPath).fileName(), text(config.data.policy), text(config.data.environment)));
    return;
  }
  const rl::OfflineDataset& d = *run.offline;
  const rl::DatasetSummary summary = rl::summarize_dataset(d);
  const long cut = std::count_if(summary.episodes.begin(), summary.episodes.end(), [](const rl::DatasetEpisode& e) { return e.cut; });
  layout.paragraph(QObject::tr("%1: %2 steps of %3 behaviour on %4, generated with seed %5: %6 whole episodes%7, normalized "
                               "scores %8 to %9, mean %10 (0 is the random policy, 100 the closed-form expert). %11% of "
                               "the episodes were held out for the validation loss.")
                       .arg(QFileInfo(run.dataPath).fileName())
                       .arg(d.steps())
                       .arg(text(d.policy), text(d.environment))
                       .arg(d.seed)
                       .arg(summary.whole_episodes)
                       .arg(cut > 0 ? QObject::tr(" and one cut short by the step budget") : QString())
                       .arg(summary.score_min, 0, 'f', 1)
                       .arg(summary.score_max, 0, 'f', 1)
                       .arg(summary.score_mean, 0, 'f', 1)
                       .arg(100.0 * config.data.val_fraction, 0, 'f', 0));
  if (auto chart = datasetScoresChart(run)) layout.pictures({chartImage(*chart)}, {QString()}, kWideAspect);
}

void classificationData(ReportLayout& layout, const RunOnDisk& run) {
  const ClassifyResults& results = *run.classification;
  const ClassifyRunConfig& config = results.models.front().run.config;
  const ClassifyRunMetrics& metrics = results.models.front().run.metrics;
  const int dims = results.dims;
  const QString cases = dims == 1 ? QObject::tr("univariate cases") : QObject::tr("cases of %1 dimensions each").arg(dims);
  layout.paragraph(QObject::tr("%1: %2, read from %3; the test cases from %4. Each dimension is standardized with the "
                               "training part's mean and deviation.")
                       .arg(text(config.data.problem_name), cases, QFileInfo(results.trainFile).fileName(),
                            results.casesAreTest ? QFileInfo(results.casesFile).fileName() : QObject::tr("none (no test file)")));
  // Cases per class of the file the models were tested on.
  const std::vector<long> tested = results.cases.class_counts();
  TextTable classes;
  classes.header = {QObject::tr("Class"), results.casesAreTest ? QObject::tr("Test cases") : QObject::tr("Training cases")};
  for (int k = 0; k < int(results.classNames.size()); ++k)
    classes.rows.push_back({results.classNames[k], QString::number(tested[std::size_t(k)])});
  int shortest = 0, longest = 0;
  for (const LabelledSeries& c : results.cases.series) {
    shortest = shortest == 0 ? c.length : std::min(shortest, c.length);
    longest = std::max(longest, c.length);
  }
  const QString lengths = shortest == longest ? QObject::tr("%1 steps long").arg(longest)
                                              : QObject::tr("%1 to %2 steps long").arg(shortest).arg(longest);
  // Under cross-validation no case was held out: the folds took turns (the training paragraph says how).
  const QString validation =
      metrics.cross_validation
          ? QObject::tr("the epoch count was chosen by %1-fold cross-validation over all %2 training cases")
                .arg(metrics.cross_validation->folds)
                .arg(metrics.cross_validation->cases)
          : QObject::tr("%1 of the training file's cases were held out for validation (stratified by class)")
                .arg(metrics.validation.cases);
  layout.table(classes, QObject::tr("%1 classes; %2; the tested cases are %3:")
                            .arg(results.classNames.size())
                            .arg(validation, lengths));
}

// What a classifier's paragraph adds for an ensemble and for augmented training cases.
QString classifierTraining(const ClassifierConfig& c) {
  QString text;
  if (c.members > 1)
    text += QObject::tr(" It is an ensemble of %1 classifiers trained side by side from their own initial weights; "
                        "its class probabilities are their mean.")
                .arg(c.members);
  if (c.augmentation.any())
    text += QObject::tr(" The training cases were augmented (%1), drawn anew every epoch.")
                .arg(QString::fromStdString(to_string(c.augmentation)));
  return text;
}

void training(ReportLayout& layout, const RunOnDisk& run) {
  layout.heading(QObject::tr("Training"), layout.pictureHeightPoints(kWideAspect));
  auto loss = lossChart(run);
  // The chart's title names it; a caption only says what the picture alone cannot.
  std::size_t mostEpochs = 0;
  for (const ModelRunEntry& model : run.entry.models) mostEpochs = std::max(mostEpochs, model.epochs().size());
  layout.pictures({chartImage(*loss)},
                  {mostEpochs == 1 ? QObject::tr("One epoch: each loss is a single point, so there is no curve to draw.")
                                   : QString()},
                  kWideAspect);
  for (const ModelRunEntry& model : run.entry.models) {
    const std::vector<EpochRecord>& epochs = model.epochs();
    const auto best = std::min_element(epochs.begin(), epochs.end(),
                                       [](const EpochRecord& a, const EpochRecord& b) { return a.val_loss < b.val_loss; });
    double seconds = 0;
    for (const EpochRecord& epoch : epochs) seconds += epoch.seconds;
    if (best == epochs.end()) continue;
    if (const ClassifyModelFiles* classifier = model.classify()) {
      // A classifier keeps the epoch of the best validation accuracy, the loss breaking ties.
      const ClassifyRunMetrics& m = *classifier->metrics;
      if (const std::optional<CrossValidation>& cv = m.cross_validation) {
        layout.paragraph(QObject::tr("%1: %2, the count chosen by %3-fold cross-validation on the training file "
                                     "(pooled accuracy %4% of its %5 cases), then trained on every training case "
                                     "in %6 s; the last epoch's weights are the ones evaluated. The validation curve "
                                     "is the folds' pooled loss.")
                             .arg(modelName(model), epochCount(std::size_t(cv->chosen_epoch)))
                             .arg(cv->folds)
                             .arg(100.0 * m.validation.accuracy, 0, 'f', 1)
                             .arg(cv->cases)
                             .arg(seconds, 0, 'f', 1) +
                         classifierTraining(classifier->config.model));
        continue;
      }
      layout.paragraph(QObject::tr("%1: %2 in %3 s; the best validation accuracy, %4% of %5 cases, came at "
                                   "epoch %6, and those weights are the ones evaluated.")
                           .arg(modelName(model), epochCount(epochs.size()))
                           .arg(seconds, 0, 'f', 1)
                           .arg(100.0 * m.validation.accuracy, 0, 'f', 1)
                           .arg(m.validation.cases)
                           .arg(m.best_epoch) +
                       classifierTraining(classifier->config.model));
      continue;
    }
    const DecisionModelFiles* decision = model.decision();
    if (decision && decision->metrics && decision->metrics->selection_episodes > 0) {
      // A Decision Transformer keeps the epoch whose weights acted best (core/rl/decision_run.hpp).
      const rl::DecisionRunMetrics& m = *decision->metrics;
      const auto chosen = std::find_if(epochs.begin(), epochs.end(),
                                       [&](const EpochRecord& epoch) { return epoch.epoch == m.best_epoch; });
      if (chosen != epochs.end()) {
        layout.paragraph(QObject::tr("%1: %2 in %3 s; after each, the model acted for %4 episodes (seeds %5 on, apart "
                                     "from the evaluation's), and the weights of epoch %6, which scored %7 there, are "
                                     "the ones evaluated (validation loss %8).")
                             .arg(modelName(model), epochCount(epochs.size()))
                             .arg(seconds, 0, 'f', 1)
                             .arg(m.selection_episodes)
                             .arg(rl::kSelectionFirstSeed)
                             .arg(chosen->epoch)
                             .arg(chosen->val_score, 0, 'f', 1)
                             .arg(number(chosen->val_loss)));
        continue;
      }
    }
    layout.paragraph(QObject::tr("%1: %2 in %3 s; the best validation loss, %4, came at epoch %5, and those weights "
                                 "are the ones evaluated.")
                         .arg(modelName(model), epochCount(epochs.size()))
                         .arg(seconds, 0, 'f', 1)
                         .arg(number(best->val_loss))
                         .arg(best->epoch));
  }
}

// Steps of the forecast after the data that the report's table lists: all of a short horizon, else
// an even sample with the first and the last; the CSV beside the report has every step.
std::vector<int> listedFutureSteps(int horizon) {
  std::vector<int> steps;
  if (horizon <= kMostFutureRows) {
    for (int h = 0; h < horizon; ++h) steps.push_back(h);
    return steps;
  }
  for (int i = 0; i < kSampledFutureRows; ++i) steps.push_back(int(std::lround(double(horizon - 1) * i / (kSampledFutureRows - 1))));
  return steps;
}

void forecasts(ReportLayout& layout, const RunOnDisk& run, const QString& futureCsvName) {
  layout.heading(QObject::tr("Forecasts of test windows"), layout.pictureHeightPoints(kWideAspect) + 30);
  layout.paragraph(QObject::tr("Windows the models never trained on: the look-back (history), what happened (truth) "
                               "and each model's forecast, in the data's own units."));
  for (int window : sampleTestWindows(run)) {
    auto chart = testWindowChart(run, window);
    layout.pictures({chartImage(*chart)}, {QString()}, kWideAspect);
  }
  layout.heading(QObject::tr("Forecast after the data"), layout.pictureHeightPoints(kWideAspect));
  auto future = futureChart(run);
  layout.pictures({chartImage(*future)}, {QString()}, kWideAspect);
  const RunForecastSet& set = *run.forecasts;
  const ForecastData& data = *set.models.front().data;
  const int channel = data.table.target >= 0 ? data.table.target : 0;
  const QString channelName = text(data.table.channel_names[std::size_t(channel)]);
  TextTable table;
  table.header = {QObject::tr("Step"), QObject::tr("Date")};
  for (const ModelForecastSource& model : set.models) table.header << QObject::tr("%1 (%2)").arg(model.modelName, channelName);
  // MS and S forecast the target alone: their forecasts have one column.
  const int column = data.forecast_channel >= 0 ? 0 : channel;
  const WindowForecast& first = set.models.front().future;
  const std::vector<int> steps = listedFutureSteps(first.forecast.rows);
  for (const int h : steps) {
    QStringList row{QString::number(h + 1), h < int(first.dates.size()) ? text(first.dates[std::size_t(h)]) : QString()};
    for (const ModelForecastSource& model : set.models) row << number(model.future.forecast(h, column));
    table.rows.push_back(row);
  }
  layout.table(table, int(steps.size()) < first.forecast.rows
                          ? QObject::tr("%1 of the %2 steps; every step of every channel is in %3, beside this report:")
                                .arg(steps.size())
                                .arg(first.forecast.rows)
                                .arg(futureCsvName)
                          : QObject::tr("Every step; with every channel, they are also in %1, beside this report:")
                                .arg(futureCsvName));
}

void classificationMetrics(ReportLayout& layout, const RunOnDisk& run) {
  const ClassifyResults& results = *run.classification;
  layout.table(metricsTable(run),
               results.casesAreTest
                   ? QObject::tr("Each classifier on the test cases (NLL is the negative log-likelihood of the true "
                                 "class, lower is better), beside the yardsticks on the same cases: the training "
                                 "file's most common class, and the 1-nearest-neighbour classifier by Euclidean "
                                 "distance and by dynamic time warping, over the full window and over the window "
                                 "chosen by leave-one-out on the training file.")
                   : QObject::tr("The run has no test file: each classifier on its own training file, which says "
                                 "little about new cases."));
  QList<QImage> images;
  for (int m = 0; m < int(results.models.size()); ++m) {
    auto chart = confusionChart(run, m);
    chart->setFixedTheme(Theme::light);
    images << renderChartImage(*chart, kSquareChart);
  }
  // Two matrices side by side read well; a third goes below.
  for (int first = 0; first < images.size(); first += 2) {
    const QList<QImage> row = images.mid(first, 2);
    QList<QString> captions;
    for (int m = first; m < first + int(row.size()); ++m)
      captions << QObject::tr("%1: rows are the true classes, columns the predicted ones.").arg(results.models[std::size_t(m)].name);
    layout.pictures(row, captions, 1.0);
  }
}

void decisionMetrics(ReportLayout& layout, const RunOnDisk& run) {
  layout.heading(QObject::tr("Acting in the environment"));
  const ActResults& acting = *run.acting;
  layout.table(metricsTable(run),
               QObject::tr("After training, the weights each model kept acted for seeded episodes aiming at the expert's "
                           "return, %1, and were scored as D4RL scores: 100 (R - R_random) / (R_expert - R_random). "
                           "The time is the median of a step on the machine that trained it; the state is what the "
                           "model keeps between steps after the first episode.")
                   .arg(acting.target_return, 0, 'f', 1));
  for (int m = 0; m < int(acting.models.size()); ++m) {
    const ActedModel& model = acting.models[std::size_t(m)];
    const QImage strip = episodeStripImage(run, m, 6, Theme::light);
    if (strip.isNull()) continue;
    layout.pictures({strip}, {QObject::tr("%1 acting (%2) from the start of seed 1: return %3 in %4 steps%5.")
                                  .arg(model.name, actModeName(model.mode))
                                  .arg(model.episode.total_reward, 0, 'f', 1)
                                  .arg(model.episode.steps)
                                  .arg(model.episode.terminal ? QObject::tr(", where the episode ended") : QString())},
                    qreal(strip.height()) / qreal(strip.width()));
  }
}

void metrics(ReportLayout& layout, const RunOnDisk& run) {
  if (run.decides()) return decisionMetrics(layout, run);
  layout.heading(QObject::tr("Test metrics"));
  if (run.classifies()) return classificationMetrics(layout, run);
  if (run.events()) {
    const EventRunData& data = *run.eventData;
    layout.table(metricsTable(run),
                 QObject::tr("NLL is the negative log-likelihood per test event (lower is better); the Poisson "
                             "process, fitted to the training part, knows only the mean rate, so a model that "
                             "beats it has learned something about when events come. RMSE is the error of the "
                             "predicted next time in %1; for scale, the training part's mean gap is %2.")
                     .arg(data.log.time_unit.empty() ? QObject::tr("the data's time unit") : text(data.log.time_unit),
                          number(data.split.train_mean_gap)));
    return;
  }
  const TimeSeriesTable& table = run.forecasts->models.front().data->table;
  QString about = QObject::tr("Over every test window. MSE and MAE in the data's own units, and on the scaled data as "
                              "the literature reports them, beside two forecasts that need no model: the last value "
                              "repeated, and the value one season earlier.");
  if (run.forecasts->models.front().data->forecast_channel_count() > 1)
    about += table.target >= 0
                 ? QObject::tr(" The target, %1, comes first; the mean over all channels is of the scaled errors only, "
                               "since channels in different units do not add up.")
                       .arg(text(table.channel_names[std::size_t(table.target)]))
                 : QObject::tr(" The mean over all channels is of the scaled errors only, since channels in different "
                               "units do not add up; no target was chosen.");
  layout.table(metricsTable(run), about);
  const TestComparison& first = run.comparisons.front();
  layout.paragraph(first.period.found()
                       ? QObject::tr("The seasonal naive forecast repeats the value one season earlier: %1.").arg(text(first.period.note))
                       : QObject::tr("No seasonal naive forecast: %1.").arg(text(first.period.note)));
  if (run.forecasts->models.front().data->forecast_channel_count() > 1)
    layout.table(channelMetricsTable(run), QObject::tr("Each channel in its own units, the target first:"));
}

}  // namespace

QString futureCsvPathFor(const QString& pdfPath) {
  const QFileInfo pdf(pdfPath);
  return pdf.dir().filePath(pdf.completeBaseName() + QStringLiteral("-future.csv"));
}

WrittenReport writeRunReport(const RunOnDisk& run, const QString& pdfPath) {
  WrittenReport written;
  const bool forecasting = !run.events() && !run.classifies() && !run.decides();
  if (forecasting) written.futureCsvPath = futureCsvPathFor(pdfPath);
  writeFileAtomically(pdfPath, [&](QIODevice& file) {
    QPdfWriter writer(&file);
    writer.setResolution(kReportDpi);
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageMargins(QMarginsF(18, 16, 18, 16), QPageLayout::Millimeter);
    writer.setTitle(QObject::tr("Run report: %1").arg(run.name()));
    writer.setCreator(QStringLiteral("Aaren Studio"));
    ReportLayout layout(writer);
    layout.title(QObject::tr("Run report: %1").arg(run.name()),
                 QObject::tr("%1 %2 trained on %3. Written %4 by Aaren Studio %5.")
                     .arg(modelNames(run), kindOfModels(run),
                          QFileInfo(run.dataPath).fileName(),
                          QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")), applicationVersion()));
    layout.heading(QObject::tr("Data"));
    if (run.events()) eventData(layout, run);
    else if (run.decides()) decisionData(layout, run);
    else if (run.classifies()) classificationData(layout, run);
    else forecastingData(layout, run);
    layout.heading(QObject::tr("Configuration"));
    layout.table(configurationTable(run));
    training(layout, run);
    if (forecasting) forecasts(layout, run, QFileInfo(written.futureCsvPath).fileName());
    metrics(layout, run);
    written.pages = layout.pageCount();
    written.cellsThatDidNotFit = layout.cellsThatDidNotFit();
    written.smallestTablePoints = layout.smallestTablePoints();
  });
  if (forecasting) exportFutureForecastCsv(run.forecasts.get(), written.futureCsvPath);
  return written;
}

WrittenReport writeRunReport(const QString& runDir, const QString& preferredData, const QString& pdfPath) {
  return writeRunReport(readRunOnDisk(runDir, preferredData), pdfPath);
}

}  // namespace aaren::ui
