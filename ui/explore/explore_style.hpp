#pragma once
// How the Explore page's drawings look and how they write numbers: colours that follow the light
// and dark themes, pens that thicken in presenter mode, and numbers spelt for a projector
// ("−0.52", "−∞", "NaN").
#include <QColor>
#include <QFont>
#include <QSize>
#include <QSizeF>
#include <QString>
#include <QStringList>
#include <span>

#include "ui/appearance.hpp"

class QPainter;
class QScrollArea;
class QWidget;

namespace aaren::ui {

struct ExploreColors {
  QColor background;
  QColor text;
  QColor muted;
  QColor faint;     // grid, future steps
  QColor node;      // fill of a state box
  QColor border;
  QColor left;      // the earlier operand of a combine
  QColor right;     // the later operand
  QColor result;    // the combine being applied, the current token
  QColor complete;  // a state that holds its whole prefix
  QColor wrong;     // errata: a prefix the printed algorithm gets wrong
  QColor lit;       // a lesson's highlighter: the boxes a question's answer names
  QColor aaren;
  QColor transformer;
};

ExploreColors exploreColors();  // for the current theme
ExploreColors exploreColors(Theme theme);  // for `theme` whatever the window's (a report's pictures are light)
// The highlighter band of lit boxes is ExploreColors::lit at this alpha over the background.
inline constexpr int kLitAlpha = 170;
qreal explorePenWidth();        // 1.5 px, scaled in presenter mode
QColor withAlpha(QColor color, int alpha);  // the same colour, alpha 0-255 (fills behind text)
// What every drawing starts with: antialiasing on, the widget filled with the theme's background.
ExploreColors beginPainting(QPainter& painter, const QWidget& widget);
// A size hint in lines of the widget's font, so that drawings grow with the text (presenter mode).
QSize sizeInLines(const QWidget& widget, int widthInLines, int heightInLines);
QFont exploreFont(const QFont& base, qreal factor, bool bold = false);
// content in a frameless scroll area that fills the room there is and scrolls only where content's
// minimum size (readable text) needs more; it never takes the keyboard from the page.
QScrollArea* scrolledDrawing(QWidget* content, const QString& objectName, QWidget* parent);
// The smallest text the drawings write, in pixels: 18 in presenter mode (read from the back row),
// kMinimumTextPixels otherwise. A drawing that cannot fit its numbers at this size grows (and
// scrolls) rather than shrinking them.
inline constexpr int kMinimumTextPixels = 10;
inline constexpr int kMinimumPresenterTextPixels = kPresenterMinimumTextPixels;
int minimumTextPixels();
QFont atLeastReadable(QFont font);  // font, enlarged to minimumTextPixels() when smaller
int pixelSizeOf(const QFont& font);

// Every drawing sets its text fonts through setPaintFont, which keeps the smallest pixel size
// painted since the last reset, so that tests measure the text a frame really used.
void setPaintFont(QPainter& painter, const QFont& font);
void resetPaintedTextLog();
int smallestPaintedPixelSize();  // 0 when nothing was painted since the reset
// The largest scale of font, at most maxFactor, at which every line fits in box one under the other;
// never below minFactor (text may then overflow rather than become unreadable).
QFont fittedFont(const QFont& font, const QStringList& lines, const QSizeF& box, qreal maxFactor = 1.0,
                 qreal minFactor = 0.55);

// Short forms for drawings (4 significant digits), exact forms for tool tips (9, all of a float).
QString formatNumber(double value, int significantDigits = 4);
QString formatExact(double value);
QString formatVector(std::span<const float> values, int significantDigits = 4);  // "(0.5, −1)" or "0.5"
QString formatVector(std::span<const double> values, int significantDigits = 4);
// Tokens are numbered from 1 on the screen, as in the paper (x_1 .. x_N); indices stay 0-based.
// {1, 2, 3, 4} -> "2..5"; {0, 2, 4} -> "{1, 3, 5}" (not contiguous).
QString tokenList(std::span<const int> tokens);

}  // namespace aaren::ui
