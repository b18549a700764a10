#pragma once
// What keeps a blank picture or an empty table out of a lecture pack: a picture must show plotted
// colour (the saturated colours of series, bars and highlights, not the greys of the background,
// axes, grid and text), and a CSV table at least one row of data under its header.
#include <QByteArray>
#include <QImage>
#include <QString>
#include <optional>

namespace aaren::ui {

// A pixel is plotted colour when its channels spread by at least this much (greys spread by
// little, a theme's tinted background by less than 40).
inline constexpr int kPlottedChroma = 60;
// A picture needs at least this share of plotted pixels: more than a legend's markers alone.
inline constexpr double kMinPlottedShare = 0.001;

qsizetype plottedPixelCount(const QImage& image);

// Why the picture would be blank to a reader ("it shows no plotted colour: 12 of 1600000 pixels"),
// or nullopt when it is not.
std::optional<QString> blankPictureReason(const QImage& image);
// The same for an encoded file (PNG bytes), which is decoded first.
std::optional<QString> blankPictureReason(const QByteArray& encoded);

// The data rows of a CSV text (lines after the header that hold more than separators).
qsizetype csvDataRows(const QString& csv);
std::optional<QString> emptyCsvReason(const QString& csv);

}  // namespace aaren::ui
