// RunLabelNumbers: a file read again for a saved run numbers its labels as the run does, whatever
// order the file lists them in; a label the run does not know is -1, and the run's labels are
// quoted for the message that refuses it (classification test files, event logs' marks).
#include <QtTest>

#include "core/data/label_numbers.hpp"

using aaren::RunLabelNumbers;

class TestLabelNumbers : public QObject {
  Q_OBJECT

 private slots:
  void fileLabelsTakeTheRunsNumbers() {
    const RunLabelNumbers numbers({"walking", "badminton", "standing"}, {"badminton", "running", "standing", "walking"});
    QCOMPARE(numbers.of(0), 3);
    QCOMPARE(numbers.of(1), 0);
    QCOMPARE(numbers.of(2), 2);
    QCOMPARE(numbers.known(), std::string("'badminton', 'running', 'standing', 'walking'"));
  }

  void aLabelTheRunDoesNotKnowIsMinusOne() {
    const RunLabelNumbers numbers({"low", "extreme"}, {"low", "high"});
    QCOMPARE(numbers.of(0), 0);
    QCOMPARE(numbers.of(1), -1);
    QCOMPARE(numbers.known(), std::string("'low', 'high'"));
  }

  void labelsAreMatchedExactly() {
    // "1" and "01" are different labels here; an event log merges integer labels when it reads them.
    const RunLabelNumbers numbers({"01", "A"}, {"1", "a"});
    QCOMPARE(numbers.of(0), -1);
    QCOMPARE(numbers.of(1), -1);
  }
};

QTEST_APPLESS_MAIN(TestLabelNumbers)
#include "tst_label_numbers.moc"
