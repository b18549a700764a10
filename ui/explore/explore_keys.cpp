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

void ExplorePage::bindKeys() {
  const auto bind = [this](const QKeySequence& keys, auto action) {
    auto* shortcut = new QShortcut(keys, this);
    shortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(shortcut, &QShortcut::activated, this, action);
  };
  bindTransportKeys(
      *this, [this]() -> StepController& { return currentView().controller(); }, [this] { reportSpeed(); });
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
    StepController& controller = currentView().controller();
    controller.setSpeed(controller.speed() * kSpeedStep);
    reportSpeed();
  } else {
    Page::keyPressEvent(event);
  }
}

void ExplorePage::reportSpeed() {
  emit statusMessage(tr("Speed: %1 steps per second").arg(currentView().controller().speed(), 0, 'g', 3));
}

void ExplorePage::toggleErrata() {
  if (&currentView() == scan_) scan_->setErrata(!scan_->errata());
  else if (&currentView() == cell_) cell_->setPrintedTypo(!cell_->printedTypo());
}

}  // namespace aaren::ui
