// The report read back as its reader sees it. A student's run of seven hourly channels and two
// models, trained one epoch: every cell's text fits its cell as laid out (ReportLayout measures each
// one), the pages rendered to pictures and read by OCR show every test metric of metrics.json whole
// beside its channel's name, the summary leads with the target, the configuration is never cut, a
// one-epoch loss is drawn, the wording reads once, and the forecast after the data is a compact table
// with every step in a CSV beside the PDF. Tables far wider than a page are set smaller, then split,
// and never cut.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPdfWriter>
#include <QProcess>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QXYSeries>
#include <cmath>

#include "support/trained_runs.hpp"
#include "ui/chart_panel.hpp"
#include "ui/report/report_layout.hpp"
#include "ui/report/run_figures.hpp"
#include "ui/report/run_report.hpp"

using namespace aaren::ui;

namespace {

const QStringList kChannels{"HUFL", "HULL", "MUFL", "MULL", "LUFL", "LULL", "OT"};

// Seven hourly channels in the style of the ETT data: daily cycles around levels from 2 to 40, so
// that errors in the data's units have two digits before the point.
QString writeHourlySeries(const QString& path, int rows) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  QTextStream out(&file);
  out << "date," << kChannels.join(QLatin1Char(',')) << '\n';
  const QDateTime first(QDate(2016, 7, 1), QTime(0, 0), QTimeZone::utc());
  for (int t = 0; t < rows; ++t) {
    out << first.addSecs(3600LL * t).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    for (int c = 0; c < kChannels.size(); ++c) {
      const double level = c == kChannels.size() - 1 ? 40.0 : 2.0 + 3.0 * c;
      out << ',' << level + (0.3 * level) * std::sin(2 * M_PI * (t + 3 * c) / 24.0) + 0.4 * std::sin(0.37 * t * (c + 1));
    }
    out << '\n';
  }
  return path;
}

QJsonObject readJson(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()).object() : QJsonObject();
}

// As the report prints a metric (ui/report/run_figures.cpp): four significant digits.
QString printed(double value) {
  return std::abs(value) >= 1e4 && std::abs(value) < 1e12 ? QString::number(value, 'f', 0) : QString::number(value, 'g', 4);
}

int pdfPages(const QString& pdf) {
  QFile file(pdf);
  if (!file.open(QIODevice::ReadOnly)) return 0;
  const QByteArray bytes = file.readAll();
  int pages = 0;
  for (qsizetype at = bytes.indexOf("/Type /Page"); at >= 0; at = bytes.indexOf("/Type /Page", at + 1))
    if (at + 11 >= bytes.size() || bytes[at + 11] != 's') ++pages;
  return pages;
}

QString run(const QString& program, const QStringList& arguments) {
  QProcess process;
  process.start(program, arguments);
  if (!process.waitForFinished(-1) || process.exitCode() != 0)
    qFatal("%s failed: %s", qPrintable(program), process.readAllStandardError().constData());
  return QString::fromUtf8(process.readAllStandardOutput());
}

}  // namespace

class TestReportReading : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void everyCellFitsItsCell();
  void theOcrReadsEveryMetricWholeBesideItsChannel();
  void theSummaryLeadsWithTheTarget();
  void theConfigurationIsNeverCut();
  void aOneEpochLossIsDrawn();
  void theWordingReadsOnce();
  void theFutureIsACompactTableAndAFullCsv();
  void aTableWiderThanThePageIsSplitNotCut();

 private:
  QTemporaryDir folder_;
  QString csv_, runDir_, pdf_;
  std::optional<RunOnDisk> run_;
  WrittenReport written_;
};

void TestReportReading::initTestCase() {
  QVERIFY(folder_.isValid());
  // A long folder name: the configuration table must show the data file's path whole.
  const QString data = folder_.filePath(QStringLiteral("a-folder-with-a-rather-long-name-for-the-course/week-07"));
  QVERIFY(QDir().mkpath(data));
  csv_ = writeHourlySeries(data + QStringLiteral("/ETT-style-hourly.csv"), 1200);
  runDir_ = folder_.filePath(QStringLiteral("runs/hourly"));
  for (const auto kind : {aaren::ModelKind::aaren, aaren::ModelKind::transformer}) {
    aaren::ForecastRunRequest request;
    request.data_path = csv_.toStdString();
    request.csv.target = "OT";
    request.data.seq_len = 96;
    request.data.horizon = 96;
    request.model.kind = kind;
    request.model.d_model = 8;
    request.model.heads = 2;
    request.model.layers = 1;
    request.model.d_ff = 16;
    request.train.epochs = 1;
    request.train.batch = 32;
    request.out_dir = (runDir_ + (kind == aaren::ModelKind::aaren ? QStringLiteral("/aaren") : QStringLiteral("/transformer"))).toStdString();
    aaren::train_forecast_run(request);
  }
  run_ = readRunOnDisk(runDir_, csv_);
  pdf_ = folder_.filePath(QStringLiteral("hand-in.pdf"));
  written_ = writeRunReport(*run_, pdf_);
  QVERIFY(written_.pages >= 2);
}

void TestReportReading::everyCellFitsItsCell() {
  QVERIFY2(written_.cellsThatDidNotFit.isEmpty(), qPrintable(written_.cellsThatDidNotFit.join(QLatin1Char('\n'))));
  QVERIFY(written_.smallestTablePoints >= ReportLayout::kSmallestTablePoints);
  QCOMPARE(pdfPages(pdf_), written_.pages);
}

// The PDF's text layer keeps a number whole even where its cell cuts it off on the page: only the
// page as a picture shows what a reader sees.
void TestReportReading::theOcrReadsEveryMetricWholeBesideItsChannel() {
  const QString pdftoppm = QStandardPaths::findExecutable(QStringLiteral("pdftoppm"));
  const QString tesseract = QStandardPaths::findExecutable(QStringLiteral("tesseract"));
  if (pdftoppm.isEmpty() || tesseract.isEmpty())
    QSKIP("pdftoppm (poppler-utils) and tesseract (tesseract-ocr) are needed to read the pages; scripts/test installs them");
  // The metrics come last: the last two pages hold them.
  const QString prefix = folder_.filePath(QStringLiteral("page"));
  run(pdftoppm, {QStringLiteral("-r"), QStringLiteral("300"), QStringLiteral("-gray"), QStringLiteral("-png"),
                 QStringLiteral("-f"), QString::number(std::max(1, written_.pages - 1)), QStringLiteral("-l"),
                 QString::number(written_.pages), pdf_, prefix});
  QStringList lines;
  const QStringList pictures = QDir(folder_.path()).entryList({QStringLiteral("page*.png")}, QDir::Files, QDir::Name);
  QVERIFY(!pictures.isEmpty());
  for (const QString& picture : pictures)
    lines << run(tesseract, {folder_.filePath(picture), QStringLiteral("stdout"), QStringLiteral("--psm"), QStringLiteral("6")})
                 .split(QLatin1Char('\n'));
  const QString read = lines.join(QLatin1Char('\n'));
  auto lineWith = [&](const QString& label, const QString& value) {
    const QRegularExpression whole(QStringLiteral("(^|[^0-9.])%1([^0-9]|$)").arg(QRegularExpression::escape(value)));
    for (const QString& line : lines)
      if (line.contains(label) && line.contains(whole)) return true;
    return false;
  };

  for (const QString& model : {QStringLiteral("aaren"), QStringLiteral("transformer")}) {
    const QJsonObject comparison = readJson(runDir_ + QLatin1Char('/') + model + QStringLiteral("/metrics.json"))
                                       .value(QStringLiteral("test_comparison"))
                                       .toObject();
    const QJsonObject original = comparison.value(QStringLiteral("model")).toObject().value(QStringLiteral("original")).toObject();
    const QJsonArray mse = original.value(QStringLiteral("channel_mse")).toArray();
    const QJsonArray mae = original.value(QStringLiteral("channel_mae")).toArray();
    QCOMPARE(mse.size(), kChannels.size());
    for (int c = 0; c < kChannels.size(); ++c) {
      QVERIFY2(lineWith(kChannels[c], printed(mse[c].toDouble())),
               qPrintable(QStringLiteral("%1 MSE %2 of %3 not read beside its channel in:\n%4")
                              .arg(model, printed(mse[c].toDouble()), kChannels[c], read)));
      QVERIFY2(lineWith(kChannels[c], printed(mae[c].toDouble())),
               qPrintable(QStringLiteral("%1 MAE %2 of %3 not read beside its channel in:\n%4")
                              .arg(model, printed(mae[c].toDouble()), kChannels[c], read)));
    }
  }
  // Forecaster names whole, never "Transforme" or "Forecaste".
  for (const QString& word : {QStringLiteral("Forecaster"), QStringLiteral("Transformer"), QStringLiteral("Aaren")})
    QVERIFY2(read.contains(QRegularExpression(QStringLiteral("\\b%1\\b").arg(word))), qPrintable(word + QStringLiteral(" in:\n") + read));
}

void TestReportReading::theSummaryLeadsWithTheTarget() {
  const TextTable summary = metricsTable(*run_);
  QCOMPARE(summary.header.value(1), QStringLiteral("OT MSE"));
  QCOMPARE(summary.header.value(2), QStringLiteral("OT MAE"));
  // No average in the data's units over channels in different units: only the scaled mean.
  for (const QString& column : summary.header)
    if (column.startsWith(QStringLiteral("Mean"))) QVERIFY2(column.endsWith(QStringLiteral("(scaled)")), qPrintable(column));
  const aaren::TestComparison& aaren = run_->comparisons.front();
  QCOMPARE(summary.rows.front().value(0), QStringLiteral("Aaren"));
  QCOMPARE(summary.rows.front().value(1), printed(aaren.model.original.channel_mse[6]));
  QCOMPARE(summary.rows.front().value(2), printed(aaren.model.original.channel_mae[6]));
  QCOMPARE(summary.rows.front().value(3), printed(aaren.model.scaled.channel_mse[6]));

  const TextTable channels = channelMetricsTable(*run_);
  QCOMPARE(channels.rows.front().value(0), QStringLiteral("OT (target)"));
  QCOMPARE(int(channels.rows.size()), kChannels.size());
}

void TestReportReading::theConfigurationIsNeverCut() {
  const TextTable table = configurationTable(*run_);
  bool sawPath = false, sawMeans = false;
  for (const QStringList& row : table.rows) {
    for (const QString& cell : row) {
      QVERIFY2(!cell.contains(QChar(0x2026)), qPrintable(cell));
      if (cell == csv_ || cell.endsWith(QStringLiteral("week-07/ETT-style-hourly.csv"))) sawPath = true;
    }
    if (row.first().endsWith(QStringLiteral("scaler_mean"))) {
      sawMeans = true;
      QCOMPARE(row.value(1).split(QStringLiteral(", ")).size(), kChannels.size());
    }
  }
  QVERIFY(sawPath);
  QVERIFY(sawMeans);
}

void TestReportReading::aOneEpochLossIsDrawn() {
  const auto chart = lossChart(*run_);
  int lonePoints = 0;
  for (QXYSeries* series : chart->dataSeries()) {
    QCOMPARE(series->count(), 1);
    QVERIFY2(series->pointsVisible(), qPrintable(series->name()));
    ++lonePoints;
  }
  QCOMPARE(lonePoints, 4);  // training and validation of both models
}

void TestReportReading::theWordingReadsOnce() {
  const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
  if (pdftotext.isEmpty()) QSKIP("pdftotext (poppler-utils) is needed; scripts/test installs it");
  const QString text = run(pdftotext, {pdf_, QStringLiteral("-")}).simplified();
  QVERIFY2(text.contains(QStringLiteral("one season earlier: a period of 24 rows (the dates are hourly).")), qPrintable(text));
  QVERIFY2(text.contains(QStringLiteral("Aaren and Transformer forecasting models trained on")), qPrintable(text));
  QVERIFY2(!text.contains(QStringLiteral("((")) && !text.contains(QStringLiteral("))")), qPrintable(text));
  QVERIFY2(!text.contains(QStringLiteral("1 epochs")), qPrintable(text));
  QVERIFY2(text.contains(QStringLiteral("One epoch: each loss is a single point")), qPrintable(text));
}

void TestReportReading::theFutureIsACompactTableAndAFullCsv() {
  QCOMPARE(written_.futureCsvPath, folder_.filePath(QStringLiteral("hand-in-future.csv")));
  QFile csv(written_.futureCsvPath);
  QVERIFY(csv.open(QIODevice::ReadOnly));
  const QStringList lines = QString::fromUtf8(csv.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  QCOMPARE(lines.size(), 1 + 96);                                // a header and every step
  QCOMPARE(lines.first().split(QLatin1Char(',')).size(), 1 + 2 * kChannels.size());  // both models, every channel
  const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
  if (pdftotext.isEmpty()) QSKIP("pdftotext (poppler-utils) is needed; scripts/test installs it");
  const QString text = run(pdftotext, {pdf_, QStringLiteral("-")}).simplified();
  QVERIFY2(text.contains(QStringLiteral("12 of the 96 steps; every step of every channel is in hand-in-future.csv")), qPrintable(text));
}

void TestReportReading::aTableWiderThanThePageIsSplitNotCut() {
  TextTable wide;
  wide.header << QStringLiteral("Forecaster");
  for (int c = 0; c < 40; ++c) wide.header << QStringLiteral("channel_%1 MSE").arg(c);
  for (const QString& name : {QStringLiteral("Transformer"), QStringLiteral("Seasonal naive (period 24)")}) {
    QStringList row{name};
    for (int c = 0; c < 40; ++c) row << QString::number(1234.5678 + c, 'f', 4);
    wide.rows.push_back(row);
  }
  TextTable longText;
  longText.header = {QStringLiteral("Setting"), QStringLiteral("Value")};
  longText.rows.push_back({QStringLiteral("data.interpolate_missing_values_between_known_rows"), QStringLiteral("true")});
  longText.rows.push_back({QStringLiteral("data.file"), QStringLiteral("/").repeated(1) +
                                                             QStringLiteral("a-very-long-folder-name-without-spaces").repeated(6)});
  QBuffer buffer;
  QVERIFY(buffer.open(QIODevice::WriteOnly));
  QPdfWriter writer(&buffer);
  writer.setResolution(300);
  writer.setPageSize(QPageSize(QPageSize::A4));
  int pages = 0;
  QStringList unfit;
  qreal smallest = 0;
  {
    ReportLayout layout(writer);
    layout.table(wide);
    layout.table(longText);
    pages = layout.pageCount();
    unfit = layout.cellsThatDidNotFit();
    smallest = layout.smallestTablePoints();
  }
  QVERIFY2(unfit.isEmpty(), qPrintable(unfit.join(QLatin1Char('\n'))));
  QCOMPARE(smallest, ReportLayout::kSmallestTablePoints);  // set smaller first, then split
  QVERIFY(pages >= 1);
  QVERIFY(buffer.data().startsWith("%PDF"));
}

QTEST_MAIN(TestReportReading)
#include "tst_report_reading.moc"
