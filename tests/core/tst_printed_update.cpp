// Erratum 2: the printed cell update, exp(c_k - m_k) where exp(s_k - m_k) is meant, computed on the
// same numbers as the meant one. The meant outputs must be softmax attention of every prefix; the
// printed ones follow the printed formula, worked out by hand here, and part from the meant ones.
#include <QtTest>

#include <cmath>
#include <random>
#include <vector>

#include "core/attention/methods.hpp"
#include "core/attention/printed_update.hpp"

namespace aaren {

class PrintedUpdateTest : public QObject {
  Q_OBJECT

 private slots:
  void meantUpdateIsSoftmaxAttentionOfEveryPrefix() {
    std::mt19937 random(11);
    std::normal_distribution<double> normal(0.0, 2.0);
    const int n = 12, dv = 2;
    std::vector<double> s(n), v(std::size_t(n * dv));
    for (double& x : s) x = normal(random);
    for (double& x : v) x = normal(random);
    const auto rows = printed_update_trace<double>(s, v, dv);
    QCOMPARE(int(rows.size()), n);
    std::vector<double> expected(std::size_t(n * dv));
    attend_prefixes<double>(expected, s, v, dv, {AttentionMethod::conventional});
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < dv; ++j)
        QVERIFY2(std::abs(rows[std::size_t(k)].o_meant[std::size_t(j)] - expected[std::size_t(k * dv + j)]) < 1e-12,
                 qPrintable(QStringLiteral("token %1, component %2").arg(k + 1).arg(j)));
  }

  void printedUpdateFollowsThePrintedFormula() {
    // Token 1: m = 1, c = 1, so exp(c - m) = exp(s - m) = 1 and both agree. Token 2 (s = 0):
    // m = 1, c = 1 + e^-1; meant weight e^-1, printed weight exp(c - m) = exp(e^-1).
    const std::vector<double> s{1.0, 0.0}, v{2.0, 4.0};
    const auto rows = printed_update_trace<double>(s, v, 1);
    const double c2 = 1 + std::exp(-1.0);
    QCOMPARE(rows[0].o_printed[0], 2.0);
    QCOMPARE(rows[0].o_meant[0], 2.0);
    QCOMPARE(rows[1].c, c2);
    QCOMPARE(rows[1].meant, std::exp(-1.0));
    QCOMPARE(rows[1].printed, std::exp(c2 - 1.0));
    QCOMPARE(rows[1].a_printed[0], 2.0 + 4.0 * std::exp(c2 - 1.0));
    QCOMPARE(rows[1].o_printed[0], (2.0 + 4.0 * std::exp(c2 - 1.0)) / c2);
    QCOMPARE(rows[1].o_meant[0], (2.0 + 4.0 * std::exp(-1.0)) / c2);
    QCOMPARE(first_parting_token(rows, 1e-9), 2);
  }

  void partsOnTheFirstTokenUnlessItsScoreIsOne() {
    // One token: c_1 = 1 and m_1 = s_1, so exp(c_1 - m_1) = exp(1 - s_1) equals exp(s_1 - m_1) = 1
    // only for s_1 = 1; with s_1 = 1 the two never part on a single token.
    const std::vector<double> s{1.0}, v{3.0};
    QCOMPARE(first_parting_token(printed_update_trace<double>(s, v, 1), 1e-12), 0);
    const std::vector<double> low{-2.0};
    QCOMPARE(first_parting_token(printed_update_trace<double>(low, v, 1), 1e-12), 1);
  }
};

}  // namespace aaren

QTEST_APPLESS_MAIN(aaren::PrintedUpdateTest)
#include "tst_printed_update.moc"
