// The formula panel on a short screen: the text steps down to the body text's size in the window
// and to the presenter floor in presenter mode, then the notes and warnings under the formula
// (asides) give way, the last first, and only then does the panel scroll; with room again it shows
// everything at its full size.
#include <QtTest>

#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>

#include "ui/appearance.hpp"
#include "ui/explore/formula_panel.hpp"
#include "ui/explore/formulas.hpp"

using namespace aaren::ui;

namespace {

constexpr qreal kFullScale = 1.1;

// A formula of `lines` lines and two asides after it, the second one lit by the test.
QString formulaWithAsides(int lines) {
  QString html = QStringLiteral("<p><b>The formula</b></p>");
  for (int i = 0; i < lines; ++i) html += QStringLiteral("<p>m<sub>%1</sub> = max(m, s) = %1.25</p>").arg(i);
  html += kFormulaAside + QStringLiteral("<p>first note, a sentence that explains rather than computes</p>");
  html += kFormulaAside + QStringLiteral("<p>second note: the underflow</p>");
  return html;
}

int textPixels(const FormulaPanel& panel) {
  return QFontInfo(panel.findChild<QLabel*>(QStringLiteral("formulaText"))->font()).pixelSize();
}

// A panel of `html`, shown at width x height.
void showPanel(FormulaPanel& panel, const QString& html, int width, int height) {
  panel.setHtml(html);
  panel.resize(width, height);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
}

bool scrolls(const FormulaPanel& panel) {
  return panel.findChild<QScrollArea*>(QStringLiteral("formulaScroll"))->verticalScrollBar()->isVisible();
}

}  // namespace

class FormulaPanelTest : public QObject {
  Q_OBJECT

 private slots:
  void cleanup() { Appearance::instance().setPresenterMode(false); }

  void fullSizeWhereItFits() {
    FormulaPanel panel;
    showPanel(panel, formulaWithAsides(3), 500, 900);
    QCOMPARE(panel.fontScale(), kFullScale);
    QCOMPARE(panel.asidesLeftOut(), 0);
    QVERIFY(!scrolls(panel));
  }

  void shrinksToTheBodyTextInTheWindow() {
    FormulaPanel panel;
    showPanel(panel, formulaWithAsides(9), 420, 900);
    const int full = textPixels(panel);
    panel.resize(420, 330);
    QCoreApplication::processEvents();
    QVERIFY2(panel.fontScale() < kFullScale, qPrintable(QString::number(panel.fontScale())));
    QVERIFY(panel.fontScale() >= 1.0 - 1e-9);
    QVERIFY(textPixels(panel) < full);
    // Room again: the whole text at its full size.
    panel.resize(420, 900);
    QCoreApplication::processEvents();
    QCOMPARE(panel.fontScale(), kFullScale);
    QCOMPARE(panel.asidesLeftOut(), 0);
  }

  void asidesGiveWayLastFirstBeforeItScrolls() {
    Appearance::instance().setPresenterMode(true);
    FormulaPanel panel;
    panel.setLitTerms({QStringLiteral("underflow"), QStringLiteral("max(m, s)")});
    showPanel(panel, formulaWithAsides(6), 480, 900);
    QCOMPARE(panel.asidesLeftOut(), 0);
    QVERIFY(panel.litTermsFound().contains(QStringLiteral("underflow")));
    // Shorter until the smallest text no longer fits with both notes: the last one goes first.
    int height = 900;
    while (panel.asidesLeftOut() == 0 && height > 100) {
      height -= 10;
      panel.resize(480, height);
      QCoreApplication::processEvents();
    }
    QCOMPARE(panel.asidesLeftOut(), 1);
    QVERIFY(textPixels(panel) >= kPresenterMinimumTextPixels);
    QVERIFY(!scrolls(panel));
    const QString shown = panel.findChild<QLabel*>(QStringLiteral("formulaText"))->text();
    QVERIFY(shown.contains(QStringLiteral("first note")));
    QVERIFY(!shown.contains(QStringLiteral("second note")));
    QVERIFY(!panel.litTermsFound().contains(QStringLiteral("underflow")));
    QVERIFY(panel.litTermsFound().contains(QStringLiteral("max(m, s)")));
    // Too short for the formula itself: both notes are out, the text is at the floor, and it scrolls.
    panel.resize(480, 120);
    QCoreApplication::processEvents();
    QCOMPARE(panel.asidesLeftOut(), 2);
    QVERIFY(textPixels(panel) >= kPresenterMinimumTextPixels);
    QVERIFY(scrolls(panel));
  }
};

QTEST_MAIN(FormulaPanelTest)
#include "tst_formula_panel.moc"
