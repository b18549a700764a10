#pragma once
// How the whole application looks right now: the theme and presenter mode. There is one instance;
// every ChartPanel follows its changed() signal, so charts created at any time look like the rest.
#include <QFont>
#include <QObject>

#include "ui/theme.hpp"

namespace aaren::ui {

class Appearance : public QObject {
  Q_OBJECT

 public:
  static constexpr qreal kDefaultPresenterFontScale = 1.6;
  static constexpr qreal kMinPresenterFontScale = 1.0;
  static constexpr qreal kMaxPresenterFontScale = 3.0;

  // Created on first use, owned by the application object.
  static Appearance& instance();

  Theme theme() const { return theme_; }
  bool presenterMode() const { return presenterMode_; }
  qreal presenterFontScale() const { return presenterFontScale_; }

  // What charts use: 1 normally, the presenter font scale in presenter mode.
  qreal chartScale() const { return presenterMode_ ? presenterFontScale_ : 1.0; }
  qreal chartLineWidth() const { return 2.0 * chartScale(); }

  // Each applies palette, fonts and stylesheet to the application at once.
  void setTheme(Theme theme);
  void setPresenterMode(bool on);
  void setPresenterFontScale(qreal scale);  // clamped to [kMin, kMax]

 signals:
  void changed();

 private:
  explicit Appearance(QObject* parent);
  void apply();

  Theme theme_ = Theme::light;
  bool presenterMode_ = false;
  qreal presenterFontScale_ = kDefaultPresenterFontScale;
  QFont baseFont_;  // the application font outside presenter mode
};

// The smallest text presenter mode writes, in pixels: what reads from the back row of a hall.
inline constexpr int kPresenterMinimumTextPixels = 18;
// font, or a copy of it at `pixels` pixels when it is smaller than that.
QFont atLeastPixels(QFont font, int pixels);

// A copy of font scaled by factor, whether its size is given in points or in pixels.
QFont scaledFont(QFont font, qreal factor);
qreal pointSizeOf(const QFont& font);

}  // namespace aaren::ui
