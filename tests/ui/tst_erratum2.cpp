// Erratum 2 in the cell view: with "Printed update" on, the charts, the notice and the formula show
// the printed exp(c_k - m_k) update beside the meant exp(s_k - m_k), token by token, and the token
// where their outputs part: every number is the core's printed_update_trace on the same inputs.
#include <QtTest>

#include <QCheckBox>
#include <QXYSeries>

#include "core/attention/printed_update.hpp"
#include "ui/chart_panel.hpp"
#include "ui/explore/cell_tab.hpp"
#include "ui/explore/explore_page.hpp"
#include "ui/explore/explore_scene.hpp"
#include "ui/explore/explore_style.hpp"
#include "ui/explore/input_panel.hpp"

using namespace aaren;
using namespace aaren::ui;

class Erratum2Test : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
  void init();
  void cleanup() { page_.reset(); }

  void chartsShowThePrintedOutputsOfTheCore();
  void noticeAndFormulaWriteTheCoresNumbers();
  void theCheckBoxTurnsTheViewOnAndOff();

 private:
  std::vector<PrintedUpdateRow<float>> coreRows() const;
  std::unique_ptr<ExplorePage> page_;
};

void Erratum2Test::init() {
  page_ = std::make_unique<ExplorePage>();
  page_->resize(1300, 820);
  page_->show();
  ExploreScene scene;
  scene.view = QStringLiteral("cell");
  scene.tokens = 10;
  scene.valueDims = 2;
  scene.seed = 4;
  scene.printedTypo = true;
  page_->applyScene(scene);
}

std::vector<PrintedUpdateRow<float>> Erratum2Test::coreRows() const {
  const ExploreInputs& inputs = page_->inputPanel().inputs();
  return printed_update_trace<float>(inputs.scores, inputs.values, inputs.dv);
}

void Erratum2Test::chartsShowThePrintedOutputsOfTheCore() {
  CellTab& cell = page_->cellTab();
  const auto rows = coreRows();
  cell.controller().toEnd();
  int checked = 0;
  for (const ChartPanel* chart : {cell.cellCharts().at(2), cell.cellCharts().at(3)}) {
    const bool outputs = chart == cell.cellCharts().at(3);
    for (int j = 0; j < 2; ++j) {
      const QString name = QStringLiteral("printed [%1]").arg(j + 1);
      const QXYSeries* printed = nullptr;
      for (const QXYSeries* series : chart->dataSeries())
        if (series->name() == name) printed = series;
      QVERIFY2(printed, qPrintable(chart->title() + QStringLiteral(": no series ") + name));
      QCOMPARE(printed->points().size(), qsizetype(rows.size()));
      for (std::size_t k = 0; k < rows.size(); ++k) {
        const float expected = outputs ? rows[k].o_printed[std::size_t(j)] : rows[k].a_printed[std::size_t(j)];
        QCOMPARE(float(printed->points()[qsizetype(k)].y()), expected);
        ++checked;
      }
    }
  }
  QCOMPARE(checked, 40);
}

void Erratum2Test::noticeAndFormulaWriteTheCoresNumbers() {
  CellTab& cell = page_->cellTab();
  const auto rows = coreRows();
  const int parts = first_parting_token(rows, 1e-4f);
  QVERIFY(parts > 0);  // random scores: exp(c - m) is not exp(s - m)
  QCOMPARE(cell.cellRun().printedPartsAt(), parts);
  for (int token = 1; token <= int(rows.size()); ++token) {
    cell.controller().setPosition(token);
    const PrintedUpdateRow<float>& row = rows[std::size_t(token - 1)];
    const QString notice = cell.printedNotice();
    for (const QString& number : {formatNumber(row.printed), formatNumber(row.meant), formatVector(row.o_printed),
                                  formatVector(row.o_meant)})
      QVERIFY2(notice.contains(number), qPrintable(notice + QStringLiteral(" lacks ") + number));
    QVERIFY(notice.contains(token >= parts ? QStringLiteral("parted at token %1").arg(parts)
                                           : QStringLiteral("still agree")));
    const QString formula = page_->formulaHtml();
    QVERIFY(formula.contains(QStringLiteral("Erratum 2 at token %1").arg(token)));
    QVERIFY(formula.contains(formatNumber(row.printed)));
    QVERIFY(formula.contains(formatNumber(row.meant)));
  }
}

void Erratum2Test::theCheckBoxTurnsTheViewOnAndOff() {
  auto* box = page_->findChild<QCheckBox*>(QStringLiteral("cellPrintedTypo"));
  QVERIFY(box && box->isChecked());
  page_->cellTab().controller().setPosition(2);
  box->click();
  QVERIFY(!page_->cellTab().printedTypo());
  QVERIFY(page_->cellTab().printedNotice().isEmpty());
  QVERIFY(!page_->formulaHtml().contains(QStringLiteral("Erratum 2")));
  box->click();
  QVERIFY(page_->cellTab().printedNotice().contains(QStringLiteral("Token 2")));
}

QTEST_MAIN(Erratum2Test)
#include "tst_erratum2.moc"
