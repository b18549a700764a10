// `aaren bench stream` run as a real process: the CSV and the Figure 5 chart (PNG, SVG, PDF) are
// written from one small run, the PNG decodes, the printed summary starts with the memory's read
// bandwidth and ends with each model's rate against it, the fits and the ratio, and every bad
// option is a usage error (exit code 2) that names the mistake.
#include <QtTest>

#include "cli/cli_process.hpp"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

namespace {

// The command must work without a display, whatever the test's environment holds.
CliResult run_displayless(const QStringList& args) {
  CliRunOptions options;
  options.without_display = true;
  return run_cli(args, options);
}

QStringList smallRun(const QString& csv, const QString& chart) {
  return {QStringLiteral("bench"), QStringLiteral("stream"), QStringLiteral("--tokens"), QStringLiteral("128"),
          QStringLiteral("--d-model"), QStringLiteral("16"), QStringLiteral("--heads"), QStringLiteral("2"),
          QStringLiteral("--layers"), QStringLiteral("1"), QStringLiteral("--d-ff"), QStringLiteral("32"),
          QStringLiteral("--repeat"), QStringLiteral("1"), QStringLiteral("--out"), csv,
          QStringLiteral("--chart"), chart};
}

QByteArray readAll(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

quint32 bigEndian32(const QByteArray& bytes, qsizetype at) {
  quint32 value = 0;
  for (qsizetype i = 0; i < 4; ++i) value = (value << 8) | quint8(bytes[at + i]);
  return value;
}

quint32 crc32(const QByteArray& bytes) {
  quint32 crc = 0xffffffffu;
  for (const char byte : bytes) {
    crc ^= quint8(byte);
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

// Decodes a PNG as far as QtCore can without an image library: the signature, every chunk and its
// CRC, the header, and the compressed pixel data inflated to exactly one filter byte and one row
// of pixels per line. Returns the size, or an empty size and the reason in `why`.
QSize decodePng(const QByteArray& png, QString& why) {
  static const QByteArray signature("\x89PNG\r\n\x1a\n", 8);
  if (!png.startsWith(signature)) {
    why = QStringLiteral("no PNG signature");
    return {};
  }
  QSize size;
  int bitsPerPixel = 0;
  QByteArray compressed;
  bool ended = false;
  for (qsizetype at = signature.size(); !ended;) {
    if (at + 12 > png.size()) {
      why = QStringLiteral("the file ends inside a chunk, before IEND");
      return {};
    }
    const qsizetype length = qsizetype(bigEndian32(png, at));
    if (at + 12 + length > png.size()) {
      why = QStringLiteral("a chunk runs past the end of the file");
      return {};
    }
    const QByteArray type = png.mid(at + 4, 4);
    const QByteArray data = png.mid(at + 8, length);
    if (crc32(type + data) != bigEndian32(png, at + 8 + length)) {
      why = QStringLiteral("chunk %1 has a wrong CRC").arg(QString::fromLatin1(type));
      return {};
    }
    if (type == "IHDR") {
      size = QSize(int(bigEndian32(data, 0)), int(bigEndian32(data, 4)));
      const int depth = quint8(data[8]), colorType = quint8(data[9]), interlace = quint8(data[12]);
      const int channels = colorType == 0 ? 1 : colorType == 2 ? 3 : colorType == 3 ? 1 : colorType == 4 ? 2 : 4;
      bitsPerPixel = depth * channels;
      if (interlace != 0) {
        why = QStringLiteral("interlaced PNG");
        return {};
      }
    } else if (type == "IDAT") {
      compressed += data;
    } else if (type == "IEND") {
      ended = true;
    }
    at += 12 + length;
  }
  if (size.isEmpty() || bitsPerPixel == 0) {
    why = QStringLiteral("no image header");
    return {};
  }
  const qsizetype rowBytes = (qsizetype(size.width()) * bitsPerPixel + 7) / 8;
  const qsizetype expected = qsizetype(size.height()) * (1 + rowBytes);
  QByteArray prefixed(4, '\0');
  for (int i = 0; i < 4; ++i) prefixed[i] = char((quint32(expected) >> (24 - 8 * i)) & 0xff);
  const QByteArray pixels = qUncompress(prefixed + compressed);
  if (pixels.size() != expected) {
    why = QStringLiteral("the pixel data inflates to %1 bytes, not %2").arg(pixels.size()).arg(expected);
    return {};
  }
  for (qsizetype row = 0; row < size.height(); ++row)
    if (quint8(pixels[row * (1 + rowBytes)]) > 4) {
      why = QStringLiteral("row %1 has an unknown filter").arg(row);
      return {};
    }
  return size;
}

}  // namespace

class TestCliBenchStream : public QObject {
  Q_OBJECT

 private slots:
  void writesTheCsvAndTheChart_data() {
    QTest::addColumn<QString>("suffix");
    QTest::newRow("png") << QStringLiteral("png");
    QTest::newRow("svg") << QStringLiteral("svg");
    QTest::newRow("pdf") << QStringLiteral("pdf");
  }

  void writesTheCsvAndTheChart() {
    QFETCH(QString, suffix);
    if (!AAREN_CLI_CHARTS) QSKIP("this aaren draws no charts (AAREN_CLI_CHARTS=OFF): chartlessBuildSaysWhy checks it");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString csv = dir.filePath(QStringLiteral("stream.csv"));
    const QString chart = dir.filePath(QStringLiteral("figure5.") + suffix);
    const CliResult result = run_displayless(smallRun(csv, chart));
    QVERIFY2(!result.crashed && result.exit_code == 0, qPrintable(result.describe()));

    const QList<QByteArray> lines = readAll(csv).trimmed().split('\n');
    QCOMPARE(lines.first(), QByteArray("tokens,aaren_latency_s,transformer_latency_s,aaren_cumulative_s,"
                                       "transformer_cumulative_s,aaren_state_bytes,transformer_state_bytes,"
                                       "aaren_rss_bytes,transformer_rss_bytes,aaren_bytes_read,"
                                       "transformer_bytes_read,linear_latency_s,linear_cumulative_s,"
                                       "linear_state_bytes,linear_rss_bytes,linear_bytes_read"));
    QVERIFY(lines.size() > 10);
    QVERIFY(lines.last().startsWith("128,"));

    const QStringList printed = result.out.trimmed().split(QLatin1Char('\n'));
    QVERIFY2(printed.last().contains(QStringLiteral("linear / aaren")), qPrintable(result.describe()));
    QVERIFY2(printed.at(printed.size() - 2).contains(QStringLiteral("transformer / aaren")), qPrintable(result.describe()));
    // The linear Transformer's state is constant: d_model 16, 2 heads, 1 layer, (S, z) with their
    // compensation terms, 2 x (8 x 8 + 8) floats per head.
    QVERIFY2(result.out.contains(QStringLiteral("linear:      state 1152 B at token 1, 1152 B at token 128")),
             qPrintable(result.describe()));
    QVERIFY(result.out.contains(QStringLiteral("time exponent")));
    QVERIFY(result.out.contains(QStringLiteral("per-token exponent")));
    // The bound: the probe's bandwidth first, then each model's bytes per step and its rate.
    const QRegularExpression probe(QStringLiteral("^memory: one thread reads [0-9.]+ GB/s"));
    QVERIFY2(printed.size() > 2 && probe.match(printed.at(2)).hasMatch(), qPrintable(result.describe()));
    for (const QString& model : {QStringLiteral("aaren:"), QStringLiteral("transformer:"), QStringLiteral("linear:")}) {
      const QRegularExpression rate(QRegularExpression::escape(model) +
                                    QStringLiteral(" +at N = 128 a step reads [0-9.]+ MB: [0-9.]+ GB/s = [0-9]+% of "
                                                   "one thread's read bandwidth"));
      QVERIFY2(rate.match(result.out).hasMatch(), qPrintable(result.describe()));
    }

    const QByteArray bytes = readAll(chart);
    if (suffix == QLatin1String("png")) {
      QString why;
      const QSize size = decodePng(bytes, why);
      QVERIFY2(!size.isEmpty(), qPrintable(why));
      const double aspect = double(size.width()) / double(size.height());
      QVERIFY2(std::abs(aspect - 2.0) < 0.05, qPrintable(QStringLiteral("width / height = %1").arg(aspect)));
    } else if (suffix == QLatin1String("svg")) {
      QVERIFY(bytes.contains("<svg") && bytes.trimmed().endsWith("</svg>"));
    } else {
      QVERIFY(bytes.startsWith("%PDF-") && bytes.trimmed().endsWith("%%EOF"));
    }
  }

  void badOptionsAreUsageErrors_data() {
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("message");
    const QString y = QStringLiteral("--chart");
    QTest::newRow("chart suffix") << QStringList{QStringLiteral("--tokens"), QStringLiteral("64"), y,
                                                 QStringLiteral("figure.txt")}
                                  << QStringLiteral("must end in .png, .svg or .pdf");
    QTest::newRow("chart without suffix") << QStringList{QStringLiteral("--tokens"), QStringLiteral("64"), y,
                                                         QStringLiteral("figure")}
                                          << QStringLiteral("must end in .png, .svg or .pdf");
    QTest::newRow("no tokens") << QStringList{} << QStringLiteral("--tokens");
    QTest::newRow("zero tokens") << QStringList{QStringLiteral("--tokens"), QStringLiteral("0")}
                                 << QStringLiteral("--tokens");
    QTest::newRow("heads do not divide") << QStringList{QStringLiteral("--tokens"), QStringLiteral("64"),
                                                        QStringLiteral("--d-model"), QStringLiteral("16"),
                                                        QStringLiteral("--heads"), QStringLiteral("3")}
                                         << QStringLiteral("does not divide");
    QTest::newRow("device") << QStringList{QStringLiteral("--tokens"), QStringLiteral("64"), QStringLiteral("--device"),
                                           QStringLiteral("tpu")}
                            << QStringLiteral("--device");
    QTest::newRow("unknown model") << QStringList{QStringLiteral("--tokens"), QStringLiteral("64"),
                                                  QStringLiteral("--model"), QStringLiteral("retnet")}
                                   << QStringLiteral("--model must be");
    QTest::newRow("unknown option") << QStringList{QStringLiteral("--tokens"), QStringLiteral("64"),
                                                   QStringLiteral("--colour"), QStringLiteral("red")}
                                    << QStringLiteral("--colour");
  }

  void badOptionsAreUsageErrors() {
    QFETCH(QStringList, options);
    QFETCH(QString, message);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString csv = dir.filePath(QStringLiteral("stream.csv"));
    const CliResult result = run_displayless(QStringList{QStringLiteral("bench"), QStringLiteral("stream"),
                                                QStringLiteral("--out"), csv} + options);
    QVERIFY2(!result.crashed && result.exit_code == 2, qPrintable(result.describe()));
    QVERIFY2(result.err.contains(message), qPrintable(result.describe()));
    QVERIFY2(!QFile::exists(csv), "nothing is measured or written after a usage error");
  }

  void missingOutIsAUsageError() {
    const CliResult result = run_displayless({QStringLiteral("bench"), QStringLiteral("stream"), QStringLiteral("--tokens"),
                                     QStringLiteral("64")});
    QVERIFY2(!result.crashed && result.exit_code == 2, qPrintable(result.describe()));
    QVERIFY2(result.err.contains(QStringLiteral("--out")), qPrintable(result.describe()));
  }

  void unwritableChartIsAnErrorNamingTheFile() {
    if (!AAREN_CLI_CHARTS) QSKIP("this aaren draws no charts (AAREN_CLI_CHARTS=OFF)");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString chart = dir.filePath(QStringLiteral("missing-folder/figure5.png"));
    const CliResult result = run_displayless(smallRun(dir.filePath(QStringLiteral("stream.csv")), chart));
    QVERIFY2(!result.crashed && result.exit_code == 1, qPrintable(result.describe()));
    QVERIFY2(result.err.contains(QStringLiteral("figure5.png")), qPrintable(result.describe()));
  }

  // Built without the user interface (scripts/test's sanitized pass), --chart is refused before
  // anything is measured, saying why.
  void chartlessBuildSaysWhy() {
    if (AAREN_CLI_CHARTS) QSKIP("this aaren draws charts: writesTheCsvAndTheChart checks them");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString csv = dir.filePath(QStringLiteral("stream.csv"));
    const CliResult result = run_displayless(smallRun(csv, dir.filePath(QStringLiteral("figure5.png"))));
    QVERIFY2(!result.crashed && result.exit_code == 1, qPrintable(result.describe()));
    QVERIFY2(result.err.contains(QStringLiteral("built without charts")), qPrintable(result.describe()));
    QVERIFY(!QFile::exists(csv));
  }
};

QTEST_GUILESS_MAIN(TestCliBenchStream)
#include "tst_cli_bench_stream.moc"
