#include "ui/lecture_pack/lecture_pack.hpp"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <exception>
#include <optional>
#include <stdexcept>

#include "ui/appearance.hpp"
#include "ui/atomic_write.hpp"
#include "ui/chart_panel.hpp"
#include "ui/explore/explore_page.hpp"
#include "ui/explore/explore_view.hpp"
#include "ui/lecture_pack/blank_checks.hpp"
#include "ui/lecture_pack/pack_index.hpp"
#include "ui/lesson/lesson.hpp"
#include "ui/lesson/lesson_export.hpp"
#include "ui/page.hpp"
#include "ui/wording/model_names.hpp"

namespace aaren::ui {

namespace {

const QString kTrainFolder = QStringLiteral("train");
const QString kForecastFolder = QStringLiteral("forecast");
const QString kExploreFolder = QStringLiteral("explore");
const QString kLessonFolder = QStringLiteral("lesson");

QByteArray encodePng(const QImage& image) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  image.save(&buffer, "PNG");
  return bytes;
}

void writeBytes(const QString& path, const QByteArray& bytes) {
  writeFileAtomically(path, [&](QIODevice& file) { file.write(bytes); });
}

QString tableCsv(const TextTable& table) {
  auto line = [](const QStringList& cells) {
    QStringList fields;
    for (QString cell : cells)
      fields << (cell.contains(QLatin1Char(',')) || cell.contains(QLatin1Char('"'))
                     ? QLatin1Char('"') + cell.replace(QLatin1String("\""), QLatin1String("\"\"")) + QLatin1Char('"')
                     : cell);
    return fields.join(QLatin1Char(',')) + QLatin1Char('\n');
  };
  QString text = line(table.header);
  for (const QStringList& row : table.rows) text += line(row);
  return text;
}

class PackWriter {
 public:
  PackWriter(const QString& folder, const ImageOptions& options) : root_(folder), options_(options) {
    pack_.folder = root_.absolutePath();
  }

  void addFolder(const QString& folder, const QString& title) {
    for (const auto& known : pack_.folders)
      if (known.first == folder) return;
    pack_.folders.append({folder, title});
  }

  void refuse(const QString& folder, const QString& title, const QString& reason) {
    pack_.refused.append({folder, title, reason});
  }

  // A chart in PNG, SVG, PDF and CSV, unless it has no data rows or its picture shows none. The
  // files are named `name`, else after the chart's title.
  void addChart(const QString& folder, ChartPanel& chart, const QString& caption, const QString& name = {}) {
    const QString title = chart.title().isEmpty() ? QObject::tr("Untitled chart") : chart.title();
    const QString csv = chartCsv(chart);
    if (const auto reason = emptyCsvReason(csv)) return refuse(folder, title, *reason);
    const auto written = addPicture(folder, title, renderChartImage(chart, options_), caption, name,
                                    [&](const QString& path, ExportFormat format) { exportChart(chart, path, format, options_); });
    if (!written) return;
    writeBytes(absolute(*written + QStringLiteral(".csv")), csv.toUtf8());
    pack_.entries.last().files << *written + QStringLiteral(".csv");
  }

  void addTable(const QString& folder, const QString& title, const TextTable& table, const QString& caption) {
    const QString csv = tableCsv(table);
    if (const auto reason = emptyCsvReason(csv)) return refuse(folder, title, *reason);
    const QString file = uniqueStem(folder, slugify(title)) + QStringLiteral(".csv");
    writeBytes(absolute(file), csv.toUtf8());
    pack_.entries.append({folder, title, caption, QString(), {file}, table});
  }

  // A picture as PNG, with its vector forms written by `writeVector`, unless it is blank. Returns
  // the files' path without suffix, relative to the pack; nullopt when it was left out.
  template <class WriteVector>
  std::optional<QString> addPicture(const QString& folder, const QString& title, const QImage& image,
                                    const QString& caption, const QString& name, const WriteVector& writeVector) {
    if (const auto reason = blankPictureReason(image)) {
      refuse(folder, title, *reason);
      return std::nullopt;
    }
    const QString stem = uniqueStem(folder, name.isEmpty() ? slugify(title) : name);
    PackEntry entry{folder, title, caption, stem + QStringLiteral(".png"), {}, {}};
    writeBytes(absolute(entry.picture), encodePng(image));
    entry.files << entry.picture;
    for (ExportFormat format : {ExportFormat::svg, ExportFormat::pdf}) {
      const QString file = stem + QLatin1Char('.') + suffixOf(format);
      writeVector(absolute(file), format);
      entry.files << file;
    }
    pack_.entries.append(entry);
    return stem;
  }

  // A picture drawn in pixels only (frames of an environment), as PNG, unless it is blank.
  void addImage(const QString& folder, const QString& title, const QImage& image, const QString& caption,
                const QString& name) {
    if (const auto reason = blankPictureReason(image)) return refuse(folder, title, *reason);
    const QString stem = uniqueStem(folder, name.isEmpty() ? slugify(title) : name);
    PackEntry entry{folder, title, caption, stem + QStringLiteral(".png"), {}, {}};
    writeBytes(absolute(entry.picture), encodePng(image));
    entry.files << entry.picture;
    pack_.entries.append(entry);
  }

  // Files another export wrote into the pack: each PNG is checked and removed when blank.
  void adoptFiles(const QString& folder, const QStringList& absolutePaths, const QString& caption) {
    for (const QString& path : absolutePaths) {
      const QString file = root_.relativeFilePath(path);
      const QString title = QFileInfo(path).completeBaseName();
      if (QFileInfo(path).suffix().compare(QStringLiteral("png"), Qt::CaseInsensitive) != 0) {
        pack_.entries.append({folder, title, caption, QString(), {file}, {}});
        continue;
      }
      QFile png(path);
      const QByteArray bytes = png.open(QIODevice::ReadOnly) ? png.readAll() : QByteArray();
      png.close();
      if (const auto reason = blankPictureReason(bytes)) {
        QFile::remove(path);
        refuse(folder, title, *reason);
        continue;
      }
      pack_.entries.append({folder, title, caption, file, {file}, {}});
    }
  }

  LecturePack finish() {
    if (pack_.entries.isEmpty()) {
      QStringList reasons;
      for (const PackRefusal& refusal : pack_.refused) reasons << refusal.title + QStringLiteral(": ") + refusal.reason;
      throw std::runtime_error(QObject::tr("Nothing to put in a lecture pack yet.%1")
                                   .arg(reasons.isEmpty() ? QString() : QStringLiteral("\n") + reasons.join(QLatin1Char('\n')))
                                   .toStdString());
    }
    QList<QPair<QString, QString>> used;
    for (const auto& folder : pack_.folders) {
      bool any = false;
      for (const PackEntry& entry : pack_.entries) any = any || entry.folder == folder.first;
      for (const PackRefusal& refusal : pack_.refused) any = any || refusal.folder == folder.first;
      if (any) used.append(folder);
    }
    pack_.folders = used;
    writeBytes(root_.filePath(QStringLiteral("index.html")), lecturePackIndexHtml(pack_).toUtf8());
    return pack_;
  }

  QString absolute(const QString& relative) const { return root_.filePath(relative); }

  void makeFolder(const QString& folder) {
    if (!root_.mkpath(folder))
      throw std::runtime_error(QObject::tr("Cannot create the folder '%1'.").arg(absolute(folder)).toStdString());
  }

 private:
  QString uniqueStem(const QString& folder, const QString& slug) {
    makeFolder(folder);
    QString stem = folder + QLatin1Char('/') + slug;
    for (int n = 2; used_.contains(stem); ++n) stem = folder + QLatin1Char('/') + slug + QLatin1Char('-') + QString::number(n);
    used_.insert(stem);
    return stem;
  }

  QDir root_;
  ImageOptions options_;
  LecturePack pack_;
  QSet<QString> used_;
};

void addPageCharts(PackWriter& writer, Page& page) {
  writer.addFolder(page.id(), page.title());
  for (ChartPanel* chart : page.charts())
    writer.addChart(page.id(), *chart, QObject::tr("As shown on the %1 page.").arg(page.title()));
}

void addRunCharts(PackWriter& writer, const LecturePackSources& sources) {
  if (sources.runDir.isEmpty() && !sources.run) {
    const QString reason = QObject::tr("no run is open: train a model, or open a run, to include its charts");
    writer.refuse(kTrainFolder, QObject::tr("The run's loss curves"), reason);
    writer.refuse(kForecastFolder, QObject::tr("The run's forecasts and metrics"), reason);
    return;
  }
  RunOnDisk read;
  try {
    if (!sources.run) read = readRunOnDisk(sources.runDir, sources.preferredData);
  } catch (const std::exception& error) {
    writer.refuse(kTrainFolder, QObject::tr("The run %1").arg(QFileInfo(sources.runDir).fileName()),
                  QString::fromUtf8(error.what()));
    return;
  }
  const RunOnDisk& run = sources.run ? *sources.run : read;
  const QString summary = runSummary(run);
  auto loss = lossChart(run);
  writer.addChart(kTrainFolder, *loss, QObject::tr("Training and validation loss per epoch, read from the run %1.").arg(summary),
                  QStringLiteral("loss"));
  if (run.decides()) {
    if (auto scores = datasetScoresChart(run))
      writer.addChart(kTrainFolder, *scores, QObject::tr("The offline data set's episodes by normalized score (%1).").arg(summary),
                      QStringLiteral("dataset-scores"));
    for (int m = 0; m < int(run.acting->models.size()); ++m) {
      const ActedModel& model = run.acting->models[std::size_t(m)];
      const QString name = QStringLiteral("episode-") + model.name.toLower().replace(QLatin1Char(' '), QLatin1Char('-'));
      writer.addImage(kForecastFolder, QObject::tr("%1 acting").arg(model.name),
                      episodeStripImage(run, m, 6, Appearance::instance().theme()),
                      QObject::tr("Frames of %1's episode from seed 1's start, acting as %2 (%3).")
                          .arg(model.name, actModeName(model.mode), summary),
                      name);
    }
  } else if (run.classifies()) {
    for (int m = 0; m < int(run.classification->models.size()); ++m) {
      auto confusion = confusionChart(run, m);
      writer.addChart(kForecastFolder, *confusion,
                      QObject::tr("Rows are the true classes, columns the predicted ones (%1).").arg(summary),
                      QStringLiteral("confusion-") + run.classification->models[std::size_t(m)].name.toLower().replace(QLatin1Char(' '), QLatin1Char('-')));
    }
  } else if (!run.events()) {
    auto window = testWindowChart(run, -1);
    writer.addChart(kForecastFolder, *window,
                    QObject::tr("The last test window: the look-back, the truth and each model's forecast, from %1.").arg(summary),
                    QStringLiteral("last-test-window"));
    auto future = futureChart(run);
    writer.addChart(kForecastFolder, *future,
                    QObject::tr("The horizon after the last row of the data, forecast from the last look-back (%1).").arg(summary),
                    QStringLiteral("after-the-data"));
  }
  writer.addTable(kForecastFolder, QObject::tr("Test metrics"), metricsTable(run),
                  run.decides()
                      ? QObject::tr("Each model's normalized score after training (seeded episodes aiming at the "
                                    "expert's return), beside the random policy, the expert and the data set's episodes.")
                  : run.classifies()
                      ? QObject::tr("Each classifier on the test cases, beside the yardsticks on the same cases: the "
                                    "majority class and the 1-nearest-neighbour classifiers.")
                  : run.events() ? QObject::tr("Per event on the test part; the Poisson process is fitted to the training part.")
                                 : QObject::tr("Over every test window, in the data's own units and scaled (as the "
                                               "literature reports them), beside two forecasts that need no model."));
  if (run.forecasts && run.forecasts->models.front().data->table.channel_names.size() > 1)
    writer.addTable(kForecastFolder, QObject::tr("Test metrics per channel"), channelMetricsTable(run),
                    QObject::tr("Each channel's errors in its own units."));
}

// Each view at its last step, where the whole computation is drawn; the page is left as it was.
void addExploreViews(PackWriter& writer, ExplorePage& explore) {
  writer.addFolder(kExploreFolder, explore.title());
  const int shownView = explore.views().indexOf(&explore.currentView());
  for (int i = 0; i < explore.views().size(); ++i) {
    ExploreView* view = explore.views()[i];
    explore.showView(i);
    const int position = view->controller().position();
    view->controller().toEnd();
    try {
      writer.addPicture(kExploreFolder, view->title(), explore.renderStage(), explore.caption(), view->id(),
                        [&](const QString& path, ExportFormat format) { explore.exportCurrentView(path, format); });
    } catch (const std::exception& error) {
      writer.refuse(kExploreFolder, view->title(), QString::fromUtf8(error.what()));
    }
    view->controller().setPosition(position);
  }
  explore.showView(shownView);
}

}  // namespace

QStringList LecturePack::writtenFiles() const {
  const QDir root(folder);
  QStringList files;
  for (const PackEntry& entry : entries)
    for (const QString& file : entry.files) files << root.filePath(file);
  files << root.filePath(QStringLiteral("index.html"));
  return files;
}

QString LecturePack::summary() const {
  QString text = QObject::tr("%n file(s) written to %1; open index.html to see them.", nullptr, int(writtenFiles().size())).arg(folder);
  for (const PackRefusal& refusal : refused)
    text += QStringLiteral("\n") + QObject::tr("Left out %1/%2: %3.").arg(refusal.folder, refusal.title, refusal.reason);
  return text;
}

LecturePack writeLecturePack(const LecturePackSources& sources, const QString& folder, const ImageOptions& options) {
  checkImageOptions(options, QObject::tr("image"));
  if (!QDir().mkpath(folder)) throw std::runtime_error(QObject::tr("Cannot create the folder '%1'.").arg(folder).toStdString());
  PackWriter writer(folder, options);
  for (Page* page : sources.pages) {
    if (page->id() == kTrainFolder || page->id() == kForecastFolder || page->id() == kExploreFolder)
      writer.addFolder(page->id(), page->title());
    else if (page->id() != kExploreFolder && !page->charts().isEmpty()) addPageCharts(writer, *page);
  }
  writer.addFolder(kTrainFolder, QObject::tr("Train"));
  writer.addFolder(kForecastFolder, QObject::tr("Forecast"));
  addRunCharts(writer, sources);
  if (sources.explore) addExploreViews(writer, *sources.explore);
  if (sources.lesson && sources.lessonWindow) {
    writer.addFolder(kLessonFolder, QObject::tr("Lesson: %1").arg(sources.lesson->title));
    writer.makeFolder(kLessonFolder);
    writer.adoptFiles(kLessonFolder, exportLesson(*sources.lessonWindow, *sources.lesson, writer.absolute(kLessonFolder)),
                      QObject::tr("A scene of the lesson, with its narration."));
  }
  return writer.finish();
}

}  // namespace aaren::ui
