// Chart export: PNG at the requested size and DPI, SVG and PDF that other programs can read, the
// data as CSV, the lecture pack's file names, clear errors without leftovers when a folder cannot
// be written, and a log scale that refuses non-positive values with an explanation.
#include <QtTest>

#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QSvgRenderer>
#include <QValueAxis>
#include <QVBoxLayout>
#include <QXmlStreamReader>
#include <stdexcept>

#include "ui/chart_export.hpp"
#include "ui/chart_panel.hpp"
#include "ui/chart_view.hpp"

using namespace aaren::ui;

namespace {

const QList<QPointF> kAarenPoints{{0, 1.0}, {1, 0.5}, {2, 0.25}};
const QList<QPointF> kTransformerPoints{{0, 1.25}, {1, 0.875}, {2, 0.7}, {3, 0.6125}};

// Two series of different lengths, as a loss chart of two models.
std::unique_ptr<ChartPanel> makeLossChart(const QString& title = QStringLiteral("Training loss")) {
  auto panel = std::make_unique<ChartPanel>(title);
  panel->setAxisTitles(QStringLiteral("step"), QStringLiteral("loss"));
  setSeriesData(panel->addLineSeries(QStringLiteral("Aaren")), kAarenPoints);
  setSeriesData(panel->addLineSeries(QStringLiteral("Transformer")), kTransformerPoints);
  panel->resize(640, 420);
  return panel;
}

QStringList filesIn(const QString& folder) { return QDir(folder).entryList(QDir::Files | QDir::Hidden, QDir::Name); }

QByteArray readAll(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

}  // namespace

class TestChartExport : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void pngHasTheRequestedSizeAndDpi_data();
  void pngHasTheRequestedSizeAndDpi();
  void svgIsValidVectorGraphics();
  void pdfIsOneVectorPage();
  void csvHoldsEverySeries();
  void csvOfDatesUsesIsoText();
  void slugsAreSafeFileNames_data();
  void slugsAreSafeFileNames();
  void unwritableFolderGivesAClearErrorAndNoLeftovers_data();
  void unwritableFolderGivesAClearErrorAndNoLeftovers();
  void exportReplacesAnExistingFileWhole();
  void invalidImageOptionsAreRejected();
  void logScaleRefusesNonPositiveValuesAndExplains();
  void logScaleWithPositiveValuesSwitchesAxes();

 private:
  QTemporaryDir folder_;
};

void TestChartExport::pngHasTheRequestedSizeAndDpi_data() {
  QTest::addColumn<QSize>("size");
  QTest::addColumn<int>("dpi");
  QTest::newRow("screen") << QSize(800, 500) << 96;
  QTest::newRow("slide") << QSize(1920, 1080) << 192;
  QTest::newRow("tall print") << QSize(600, 900) << 300;
}

void TestChartExport::pngHasTheRequestedSizeAndDpi() {
  QFETCH(QSize, size);
  QFETCH(int, dpi);
  auto panel = makeLossChart();
  panel->show();
  QVERIFY(QTest::qWaitForWindowExposed(panel.get()));
  const QSizeF onScreen = panel->chart()->size();
  const QString path = folder_.filePath(QStringLiteral("loss-%1.png").arg(dpi));
  exportPng(*panel, path, {size, dpi});

  const QImage image(path);
  QVERIFY(!image.isNull());
  QCOMPARE(image.size(), size);
  QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), dpi);
  QCOMPARE(qRound(image.dotsPerMeterY() * 0.0254), dpi);
  // Something was drawn: a blank image has one colour.
  QSet<QRgb> colors;
  for (int y = 0; y < image.height(); y += 7)
    for (int x = 0; x < image.width(); x += 7) colors.insert(image.pixel(x, y));
  QVERIFY2(colors.size() > 5, qPrintable(QStringLiteral("only %1 colours").arg(colors.size())));
  // The chart keeps its on-screen size afterwards.
  QCOMPARE(panel->chart()->size(), onScreen);
}

void TestChartExport::svgIsValidVectorGraphics() {
  auto panel = makeLossChart();
  const QString path = folder_.filePath(QStringLiteral("loss.svg"));
  exportSvg(*panel, path, {QSize(1200, 800), 144});

  QFile file(path);
  QVERIFY(file.open(QIODevice::ReadOnly));
  QXmlStreamReader xml(&file);
  int shapes = 0;
  bool sawAaren = false;
  while (!xml.atEnd()) {
    xml.readNext();
    // Lines come out as <polyline> or <path>, depending on how Qt Charts draws them.
    if (xml.isStartElement() && (xml.name() == QLatin1String("path") || xml.name() == QLatin1String("polyline")))
      ++shapes;
    if (xml.isCharacters() && xml.text().contains(QLatin1String("Aaren"))) sawAaren = true;
  }
  QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
  QVERIFY(shapes > 0);
  QVERIFY(sawAaren);
  QSvgRenderer renderer(path);
  QVERIFY(renderer.isValid());
  // The chart is laid out as in a window of 1200 x 800 pixels at the screen's DPI, seen at 144 DPI.
  const QSizeF expected = QSizeF(1200, 800) * (panel->view()->logicalDpiX() / 144.0);
  QVERIFY(qAbs(renderer.viewBoxF().width() - expected.width()) < 0.01);
  QVERIFY(qAbs(renderer.viewBoxF().height() - expected.height()) < 0.01);
}

void TestChartExport::pdfIsOneVectorPage() {
  auto panel = makeLossChart();
  const QString path = folder_.filePath(QStringLiteral("loss.pdf"));
  exportPdf(*panel, path, {QSize(1440, 720), 144});  // 10 x 5 inches

  const QByteArray pdf = readAll(path);
  QVERIFY(pdf.startsWith("%PDF"));
  QVERIFY(pdf.contains("/Type /Page"));
  const QRegularExpression pageObject(QStringLiteral("/Type /Page[^s]"));
  QCOMPARE(QString::fromLatin1(pdf).count(pageObject), 1);
  // 10 x 5 inches is 720 x 360 points.
  const QRegularExpressionMatch box =
      QRegularExpression(QStringLiteral("/MediaBox \\[0 0 ([0-9.]+) ([0-9.]+)\\]")).match(QString::fromLatin1(pdf));
  QVERIFY(box.hasMatch());
  QCOMPARE(box.captured(1).toDouble(), 720.0);
  QCOMPARE(box.captured(2).toDouble(), 360.0);
}

void TestChartExport::csvHoldsEverySeries() {
  auto panel = makeLossChart();
  const QString path = folder_.filePath(QStringLiteral("loss.csv"));
  exportCsv(*panel, path);

  const QStringList lines = QString::fromUtf8(readAll(path)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  QCOMPARE(lines.value(0), QStringLiteral("Aaren step,Aaren loss,Transformer step,Transformer loss"));
  QCOMPARE(lines.size(), 1 + int(kTransformerPoints.size()));
  for (int row = 0; row < kTransformerPoints.size(); ++row) {
    const QStringList cells = lines[row + 1].split(QLatin1Char(','));
    QCOMPARE(cells.size(), 4);
    if (row < kAarenPoints.size()) {
      QCOMPARE(cells[0].toDouble(), kAarenPoints[row].x());
      QCOMPARE(cells[1].toDouble(), kAarenPoints[row].y());
    } else {
      QVERIFY(cells[0].isEmpty() && cells[1].isEmpty());
    }
    QCOMPARE(cells[2].toDouble(), kTransformerPoints[row].x());
    QCOMPARE(cells[3].toDouble(), kTransformerPoints[row].y());
  }
}

void TestChartExport::csvOfDatesUsesIsoText() {
  ChartPanel panel(QStringLiteral("Passengers"));
  panel.setXAxisKind(XAxisKind::dateTime);
  const QDateTime first(QDate(1949, 1, 1), QTime(0, 0));
  auto* series = panel.addLineSeries(QStringLiteral("passengers, monthly"));
  setSeriesData(series, {{qreal(first.toMSecsSinceEpoch()), 112}, {qreal(first.addMonths(1).toMSecsSinceEpoch()), 118}});
  const QStringList lines = chartCsv(panel).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  QCOMPARE(lines.value(0), QStringLiteral("\"passengers, monthly x\",\"passengers, monthly y\""));
  QCOMPARE(lines.value(1), first.toString(Qt::ISODate) + QStringLiteral(",112"));
  QCOMPARE(lines.value(2), first.addMonths(1).toString(Qt::ISODate) + QStringLiteral(",118"));
}

void TestChartExport::slugsAreSafeFileNames_data() {
  QTest::addColumn<QString>("text");
  QTest::addColumn<QString>("slug");
  QTest::newRow("words") << "Training loss" << "training-loss";
  QTest::newRow("punctuation") << "Loss vs. step (Aaren)" << "loss-vs-step-aaren";
  QTest::newRow("accents") << "Prévision été" << "prevision-ete";
  QTest::newRow("path characters") << "../a/b\\c:d" << "a-b-c-d";
  QTest::newRow("nothing usable") << "∑ ∞" << "chart";
  QTest::newRow("empty") << "" << "chart";
}

void TestChartExport::slugsAreSafeFileNames() {
  QFETCH(QString, text);
  QFETCH(QString, slug);
  QCOMPARE(slugify(text), slug);
}

void TestChartExport::unwritableFolderGivesAClearErrorAndNoLeftovers_data() {
  QTest::addColumn<QString>("format");
  QTest::addColumn<bool>("readOnlyFolder");  // else: the "folder" is a file
  for (const char* format : {"png", "svg", "pdf", "csv"}) {
    QTest::newRow(qPrintable(QStringLiteral("%1, read-only folder").arg(QLatin1String(format)))) << QString::fromLatin1(format) << true;
    QTest::newRow(qPrintable(QStringLiteral("%1, folder is a file").arg(QLatin1String(format)))) << QString::fromLatin1(format) << false;
  }
}

void TestChartExport::unwritableFolderGivesAClearErrorAndNoLeftovers() {
  QFETCH(QString, format);
  QFETCH(bool, readOnlyFolder);
  QTemporaryDir scratch;
  QString folder = scratch.filePath(QStringLiteral("out"));
  QVERIFY(QDir().mkpath(folder));
  if (readOnlyFolder) {
    QVERIFY(QFile::setPermissions(folder, QFile::ReadOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup));
    QFile probe(QDir(folder).filePath(QStringLiteral("probe")));
    if (probe.open(QIODevice::WriteOnly)) {
      probe.remove();
      QFile::setPermissions(folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
      QSKIP("this user can write into read-only folders (root); the 'folder is a file' rows cover the error");
    }
  } else {
    QFile blocker(QDir(folder).filePath(QStringLiteral("not-a-folder")));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    folder = blocker.fileName();
  }
  const QString target = QDir(folder).filePath(QStringLiteral("chart.") + format);
  const QStringList before = filesIn(scratch.filePath(QStringLiteral("out")));
  auto panel = makeLossChart();

  QString message;
  try {
    exportChart(*panel, target, *exportFormatFromSuffix(format), {QSize(400, 300), 96});
  } catch (const std::runtime_error& error) {
    message = QString::fromUtf8(error.what());
  }
  if (readOnlyFolder) QFile::setPermissions(folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);

  QVERIFY2(message.startsWith(QStringLiteral("Cannot write '%1': ").arg(target)), qPrintable(message));
  QVERIFY2(message.size() > QStringLiteral("Cannot write '%1': ").arg(target).size(), "the reason is missing");
  QVERIFY(!QFileInfo::exists(target));
  QCOMPARE(filesIn(scratch.filePath(QStringLiteral("out"))), before);
}

void TestChartExport::exportReplacesAnExistingFileWhole() {
  auto panel = makeLossChart();
  const QString path = folder_.filePath(QStringLiteral("replaced.csv"));
  exportCsv(*panel, path);
  const QByteArray first = readAll(path);
  setSeriesData(panel->dataSeries().at(1), {{0, 2}});
  exportCsv(*panel, path);
  const QByteArray second = readAll(path);
  QVERIFY(second.size() < first.size());
  QCOMPARE(second, chartCsv(*panel).toUtf8());
}

void TestChartExport::invalidImageOptionsAreRejected() {
  auto panel = makeLossChart();
  const QString path = folder_.filePath(QStringLiteral("invalid.png"));
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, exportPng(*panel, path, {QSize(0, 100), 96}));
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, exportPng(*panel, path, {QSize(100, 100), 5}));
  QVERIFY(!QFileInfo::exists(path));
}

void TestChartExport::logScaleRefusesNonPositiveValuesAndExplains() {
  ChartPanel panel(QStringLiteral("Counts"));
  panel.setLogScaleAvailable(true);
  auto* series = panel.addLineSeries(QStringLiteral("events"));
  setSeriesData(series, {{0, 5}, {1, 0}, {2, 7}});
  QSignalSpy changed(&panel, &ChartPanel::logScaleYChanged);

  QVERIFY(!panel.setLogScaleY(true));
  QVERIFY(!panel.isLogScaleY());
  QVERIFY(qobject_cast<QValueAxis*>(panel.yAxis()));
  QCOMPARE(changed.count(), 0);
  QVERIFY2(panel.notice().contains(QLatin1String("positive")), qPrintable(panel.notice()));
  QVERIFY2(panel.notice().contains(QLatin1String("'events' has the value 0 at x = 1")), qPrintable(panel.notice()));
  QVERIFY(series->attachedAxes().contains(panel.yAxis()));
}

void TestChartExport::logScaleWithPositiveValuesSwitchesAxes() {
  ChartPanel panel(QStringLiteral("Loss"));
  panel.setLogScaleAvailable(true);
  auto* series = panel.addLineSeries(QStringLiteral("loss"));
  setSeriesData(series, {{0, 100}, {1, 10}, {2, 0.1}});
  QSignalSpy changed(&panel, &ChartPanel::logScaleYChanged);

  QVERIFY(panel.setLogScaleY(true));
  auto* log = qobject_cast<QLogValueAxis*>(panel.yAxis());
  QVERIFY(log);
  QVERIFY(series->attachedAxes().contains(log));
  QVERIFY(log->min() > 0 && log->min() <= 0.1 && log->max() >= 100);
  QCOMPARE(changed.count(), 1);
  QVERIFY(panel.notice().isEmpty());

  // New data with a zero cannot stay on a log axis: back to linear, with the reason.
  setSeriesData(series, {{0, 1}, {1, 0}});
  QVERIFY(!panel.isLogScaleY());
  QVERIFY(qobject_cast<QValueAxis*>(panel.yAxis()));
  QVERIFY(series->attachedAxes().contains(panel.yAxis()));
  QVERIFY2(panel.notice().contains(QLatin1String("linear")), qPrintable(panel.notice()));
  QCOMPARE(changed.count(), 2);
}

QTEST_MAIN(TestChartExport)
#include "tst_chart_export.moc"
