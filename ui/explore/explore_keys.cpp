#include <QAction>
#include <QKeyEvent>
#include <QShortcut>

#include "ui/appearance.hpp"
#include "ui/explore/cell_tab.hpp"
#include "ui/explore/explore_page.hpp"
#include "ui/explore/scan_tab.hpp"
#include "ui/explore/shortcut_overlay.hpp"
#include "ui/explore/step_controller.hpp"

// The Explore page's keys (listed for the user by keyboardShortcuts(), shortcut_overlay.cpp). They
// work anywhere on the page except inside a text field, which keeps the keys it types with.

namespace aaren::ui {

namespace {

constexpr double kSpeedFactor = 1.5;  // one + or - press

}  // namespace

void ExplorePage::bindKeys() {
  const auto bind = [this](const QKeySequence& keys, auto action) {
    auto* shortcut = new QShortcut(keys, this);
    shortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(shortcut, &QShortcut::activated, this, action);
  };
  const auto onController = [this](void (StepController::*slot)()) {
    return [this, slot] { (currentView().controller().*slot)(); };
  };
  bind(QKeySequence(Qt::Key_Space), onController(&StepController::togglePlay));
  bind(QKeySequence(Qt::Key_Left), onController(&StepController::stepBack));
  bind(QKeySequence(Qt::Key_Right), onController(&StepController::stepForward));
  bind(QKeySequence(Qt::Key_Home), onController(&StepController::toStart));
  bind(QKeySequence(Qt::Key_End), onController(&StepController::toEnd));
  bind(QKeySequence(Qt::Key_Equal), [this] { changeSpeed(kSpeedFactor); });  // '+' unshifted; '+': keyPressEvent
  bind(QKeySequence(Qt::Key_Minus), [this] { changeSpeed(1 / kSpeedFactor); });
  for (int i = 0; i < views_.size(); ++i) bind(QKeySequence(Qt::Key(Qt::Key_1 + i)), [this, i] { showView(i); });
  bind(QKeySequence(Qt::Key_E), [this] { toggleErrata(); });
  // The scan algorithm by its initial, from any view: the scan tree comes up with it, at step 0.
  const struct {
    Qt::Key key;
    ScanDisplay display;
  } scanKeys[] = {{Qt::Key_S, ScanDisplay::sequential},
                  {Qt::Key_H, ScanDisplay::hillisSteele},
                  {Qt::Key_K, ScanDisplay::brentKung},
                  {Qt::Key_A, ScanDisplay::sideBySide}};
  for (const auto& scanKey : scanKeys)
    bind(QKeySequence(scanKey.key), [this, display = scanKey.display] {
      showView(int(views_.indexOf(scan_)));
      if (scan_->errata()) scan_->setErrata(false);  // the erratum shows Hillis-Steele only
      scan_->setDisplay(display);
      emit statusMessage(tr("Scan: %1").arg(scan_->displayName()));
    });
  bind(QKeySequence(Qt::Key_P), [this] {
    // The window's presenter action also goes full screen; without a window, the appearance alone.
    if (auto* action = window()->findChild<QAction*>(QStringLiteral("presenterAction"))) action->toggle();
    else Appearance::instance().setPresenterMode(!Appearance::instance().presenterMode());
  });
}

// '?' and '+' are typed with Shift on most layouts, which a key sequence would have to name; the
// character they type is the same everywhere. Text fields accept their keys, so these reach the
// page only from the drawings.
void ExplorePage::keyPressEvent(QKeyEvent* event) {
  if (event->text() == QLatin1String("?")) {
    ShortcutOverlay::showOver(this);
  } else if (event->text() == QLatin1String("+")) {
    changeSpeed(kSpeedFactor);
  } else {
    Page::keyPressEvent(event);
  }
}

void ExplorePage::changeSpeed(double factor) {
  StepController& controller = currentView().controller();
  controller.setSpeed(controller.speed() * factor);
  emit statusMessage(tr("Speed: %1 steps per second").arg(controller.speed(), 0, 'g', 3));
}

void ExplorePage::toggleErrata() {
  if (&currentView() == scan_) scan_->setErrata(!scan_->errata());
  else if (&currentView() == cell_) cell_->setPrintedTypo(!cell_->printedTypo());
}

}  // namespace aaren::ui
