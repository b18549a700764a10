// A wheel over a spin box or combo box nobody clicked into scrolls the panel and leaves the value;
// clicked into, the wheel steps the value as Qt's widgets always have.
#include <QtTest>

#include <QApplication>
#include <QComboBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QWheelEvent>

#include "ui/wheel_guard.hpp"

using namespace aaren::ui;

namespace {

void turnWheelDown(QWidget* widget) {
  const QPointF at(widget->width() / 2.0, widget->height() / 2.0);
  QWheelEvent wheel(at, widget->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                    Qt::NoScrollPhase, false);
  QApplication::sendEvent(widget, &wheel);
}

}  // namespace

class TestWheelGuard : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { installWheelGuard(*qApp); }

  void theWheelScrollsThePanelUntilTheFieldIsClickedInto() {
    QScrollArea area;
    auto* panel = new QWidget;
    auto* layout = new QVBoxLayout(panel);
    auto* epochs = new QSpinBox(panel);
    epochs->setRange(1, 100);
    epochs->setValue(10);
    auto* device = new QComboBox(panel);
    device->addItems({QStringLiteral("CPU"), QStringLiteral("CUDA")});
    layout->addWidget(epochs);
    layout->addWidget(device);
    layout->addSpacing(3000);  // taller than the area: it scrolls
    area.setWidget(panel);
    area.resize(300, 200);
    area.show();
    QVERIFY(QTest::qWaitForWindowExposed(&area));
    QCOMPARE(epochs->focusPolicy(), Qt::StrongFocus);  // the wheel gives no focus
    // The window gave its first field the focus: the user has clicked elsewhere.
    panel->setFocusPolicy(Qt::StrongFocus);
    panel->setFocus();
    QTRY_VERIFY(panel->hasFocus());

    turnWheelDown(epochs);
    turnWheelDown(device);
    QCOMPARE(epochs->value(), 10);
    QCOMPARE(device->currentIndex(), 0);
    QVERIFY2(area.verticalScrollBar()->value() > 0, "the panel scrolled");

    epochs->setFocus();
    QTRY_VERIFY(epochs->hasFocus());
    turnWheelDown(epochs);
    QCOMPARE(epochs->value(), 9);
  }
};

QTEST_MAIN(TestWheelGuard)
#include "tst_wheel_guard.moc"
