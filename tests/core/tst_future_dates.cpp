// The dates after the last row continue the data's own calendar in its own written form: months and
// quarters across year ends, days across month ends and leap days, hours across midnight and New
// Year, decimal years by their median step; and the cadence's name and calendar season.
#include <QtTest>

#include <string>
#include <vector>

#include "core/data/date_continuation.hpp"
#include "core/data/seasonal_period.hpp"

using namespace aaren;

using Dates = std::vector<std::string>;
Q_DECLARE_METATYPE(Dates)
Q_DECLARE_METATYPE(aaren::DateCadence::Unit)

namespace {

QString joined(const Dates& dates) {
  QStringList parts;
  for (const std::string& d : dates) parts << QString::fromStdString(d);
  return parts.join(QStringLiteral(" | "));
}

}  // namespace

class TestFutureDates : public QObject {
  Q_OBJECT

 private slots:
  void continuesTheWrittenForm_data() {
    QTest::addColumn<Dates>("dates");
    QTest::addColumn<Dates>("expected");
    QTest::newRow("monthly across a year end") << Dates{"1960-10", "1960-11", "1960-12"}
                                               << Dates{"1961-01", "1961-02", "1961-03"};
    QTest::newRow("monthly, thirteen months on") << Dates{"1949-01", "1949-02"}
                                                 << Dates{"1949-03", "1949-04", "1949-05", "1949-06", "1949-07",
                                                          "1949-08", "1949-09", "1949-10", "1949-11", "1949-12",
                                                          "1950-01", "1950-02", "1950-03"};
    QTest::newRow("quarterly with a space") << Dates{"1990 Q2", "1990 Q3", "1990 Q4"}
                                            << Dates{"1991 Q1", "1991 Q2", "1991 Q3", "1991 Q4", "1992 Q1"};
    QTest::newRow("quarterly with a dash") << Dates{"1999-Q3", "1999-Q4"} << Dates{"2000-Q1", "2000-Q2"};
    QTest::newRow("yearly") << Dates{"1998", "1999"} << Dates{"2000", "2001"};
    QTest::newRow("monthly on the first day") << Dates{"1949-11-01", "1949-12-01"}
                                              << Dates{"1950-01-01", "1950-02-01"};
    QTest::newRow("monthly on the last day") << Dates{"2019-10-31", "2019-11-30", "2019-12-31"}
                                             << Dates{"2020-01-31", "2020-02-29", "2020-03-31", "2020-04-30"};
    QTest::newRow("daily through a leap day") << Dates{"2016-02-27", "2016-02-28"}
                                              << Dates{"2016-02-29", "2016-03-01"};
    QTest::newRow("daily across a year end") << Dates{"2019-12-30", "2019-12-31"}
                                             << Dates{"2020-01-01", "2020-01-02"};
    QTest::newRow("daily with slashes") << Dates{"2016/12/30", "2016/12/31"} << Dates{"2017/01/01"};
    QTest::newRow("daily, day first with dots") << Dates{"30.12.2016", "31.12.2016"} << Dates{"01.01.2017"};
    QTest::newRow("daily, unpadded day first") << Dates{"7.3.2016", "8.3.2016"} << Dates{"9.3.2016"};
    QTest::newRow("weekly YYYYMMDD") << Dates{"20011222", "20011229"} << Dates{"20020105", "20020112"};
    QTest::newRow("daily with a missing day") << Dates{"2020-01-01", "2020-01-02", "2020-01-04", "2020-01-05"}
                                              << Dates{"2020-01-06"};
    QTest::newRow("hourly across New Year") << Dates{"2018-12-31 22:00:00", "2018-12-31 23:00:00"}
                                            << Dates{"2019-01-01 00:00:00", "2019-01-01 01:00:00"};
    QTest::newRow("hourly ISO in UTC") << Dates{"2018-06-26T22:00:00Z", "2018-06-26T23:00:00Z"}
                                       << Dates{"2018-06-27T00:00:00Z"};
    QTest::newRow("hourly with an offset kept") << Dates{"2018-06-26 22:00+02:00", "2018-06-26 23:00+02:00"}
                                                << Dates{"2018-06-27 00:00+02:00"};
    QTest::newRow("every 15 minutes") << Dates{"2016-07-01 23:30", "2016-07-01 23:45"}
                                      << Dates{"2016-07-02 00:00", "2016-07-02 00:15"};
    QTest::newRow("tenths of a second") << Dates{"2020-01-01 00:00:59.8", "2020-01-01 00:00:59.9"}
                                        << Dates{"2020-01-01 00:01:00.0", "2020-01-01 00:01:00.1"};
    QTest::newRow("decimal years, R's business days") << Dates{"1998.60000", "1998.60385", "1998.60769"}
                                                      << Dates{"1998.61154", "1998.61539"};
    QTest::newRow("decimal years across a year end") << Dates{"1999.75000", "1999.83333", "1999.91667", "2000.00000"}
                                                     << Dates{"2000.08333", "2000.16666"};
    QTest::newRow("month names continue in ISO 8601") << Dates{"Jan 1995", "Feb 1995"} << Dates{"1995-03-01"};
  }
  void continuesTheWrittenForm() {
    QFETCH(Dates, dates);
    QFETCH(Dates, expected);
    const Dates next = continue_dates(dates, int(expected.size()));
    QCOMPARE(joined(next), joined(expected));
  }

  void withoutACadenceNothingContinues_data() {
    QTest::addColumn<Dates>("dates");
    QTest::newRow("one date") << Dates{"2020-01-01"};
    QTest::newRow("no dates") << Dates{};
    QTest::newRow("going back in time") << Dates{"2020-01-03", "2020-01-02", "2020-01-01"};
    QTest::newRow("not dates") << Dates{"a", "b"};
  }
  void withoutACadenceNothingContinues() {
    QFETCH(Dates, dates);
    QVERIFY(!infer_date_cadence(dates).known());
    QVERIFY(continue_dates(dates, 3).empty());
  }

  void namesTheCadenceAndItsSeason_data() {
    QTest::addColumn<Dates>("dates");
    QTest::addColumn<aaren::DateCadence::Unit>("unit");
    QTest::addColumn<double>("step");
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("period");
    using Unit = DateCadence::Unit;
    QTest::newRow("monthly") << Dates{"1949-01", "1949-02", "1949-03"} << Unit::months << 1.0 << "monthly" << 12;
    QTest::newRow("quarterly") << Dates{"1990-Q1", "1990-Q2"} << Unit::months << 3.0 << "quarterly" << 4;
    QTest::newRow("yearly") << Dates{"1990", "1991"} << Unit::months << 12.0 << "yearly" << 0;
    QTest::newRow("daily") << Dates{"2016-07-01", "2016-07-02"} << Unit::seconds << 86400.0 << "daily" << 7;
    QTest::newRow("weekly") << Dates{"19580329", "19580405"} << Unit::seconds << 604800.0 << "weekly" << 52;
    QTest::newRow("hourly") << Dates{"2016-07-01 00:00", "2016-07-01 01:00"} << Unit::seconds << 3600.0 << "hourly"
                            << 24;
    QTest::newRow("every 15 minutes") << Dates{"2016-07-01 00:00", "2016-07-01 00:15"} << Unit::seconds << 900.0
                                      << "every 15 minutes" << 96;
    QTest::newRow("every 5 days") << Dates{"2016-07-01", "2016-07-06"} << Unit::seconds << 432000.0
                                  << "every 5 days" << 0;
    QTest::newRow("decimal years, monthly") << Dates{"1949.00", "1949.25", "1949.50"} << Unit::decimal_years << 0.25
                                            << "every 0.25 years" << 4;
  }
  void namesTheCadenceAndItsSeason() {
    QFETCH(Dates, dates);
    QFETCH(aaren::DateCadence::Unit, unit);
    QFETCH(double, step);
    QFETCH(QString, name);
    QFETCH(int, period);
    const DateCadence cadence = infer_date_cadence(dates);
    QCOMPARE(int(cadence.unit), int(unit));
    QCOMPARE(cadence.step, step);
    QCOMPARE(QString::fromStdString(describe(cadence)), name);
    QCOMPARE(calendar_period(cadence), period);
  }

  // R's EuStockMarkets: 260 business days a year, written as decimal years.
  void businessDaysInDecimalYearsHaveAYearlySeason() {
    const DateCadence cadence{DateCadence::Unit::decimal_years, 1.0 / 260};
    QCOMPARE(calendar_period(cadence), 260);
    QCOMPARE(calendar_period(DateCadence{DateCadence::Unit::decimal_years, 0.00385}), 260);
    QCOMPARE(calendar_period(DateCadence{DateCadence::Unit::decimal_years, 0.3}), 0);
  }
};

QTEST_APPLESS_MAIN(TestFutureDates)
#include "tst_future_dates.moc"
