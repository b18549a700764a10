#include "ui/lecture_pack/blank_checks.hpp"

#include <QObject>
#include <QStringList>
#include <algorithm>

namespace aaren::ui {

qsizetype plottedPixelCount(const QImage& image) {
  const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
  qsizetype plotted = 0;
  for (int y = 0; y < rgb.height(); ++y) {
    const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
    for (int x = 0; x < rgb.width(); ++x) {
      const int r = qRed(line[x]), g = qGreen(line[x]), b = qBlue(line[x]);
      if (std::max({r, g, b}) - std::min({r, g, b}) >= kPlottedChroma) ++plotted;
    }
  }
  return plotted;
}

std::optional<QString> blankPictureReason(const QImage& image) {
  if (image.isNull() || image.width() < 1 || image.height() < 1) return QObject::tr("the picture is empty");
  const qsizetype pixels = qsizetype(image.width()) * image.height();
  const qsizetype plotted = plottedPixelCount(image);
  if (double(plotted) < kMinPlottedShare * double(pixels))
    return QObject::tr("it shows no plotted data, only background, axes and text (%1 coloured pixels of %2)")
        .arg(plotted)
        .arg(pixels);
  return std::nullopt;
}

std::optional<QString> blankPictureReason(const QByteArray& encoded) {
  const QImage image = QImage::fromData(encoded);
  if (image.isNull()) return QObject::tr("the picture does not decode");
  return blankPictureReason(image);
}

qsizetype csvDataRows(const QString& csv) {
  const QStringList lines = csv.split(QLatin1Char('\n'));
  qsizetype rows = 0;
  for (qsizetype i = 1; i < lines.size(); ++i) {
    QString cells = lines[i];
    cells.remove(QLatin1Char(',')).remove(QLatin1Char('"')).remove(QLatin1Char('\r'));
    if (!cells.trimmed().isEmpty()) ++rows;
  }
  return rows;
}

std::optional<QString> emptyCsvReason(const QString& csv) {
  if (csv.trimmed().isEmpty()) return QObject::tr("there is nothing to show yet: no header and no rows of data");
  if (csvDataRows(csv) == 0) return QObject::tr("the table has a header but no rows of data");
  return std::nullopt;
}

}  // namespace aaren::ui
