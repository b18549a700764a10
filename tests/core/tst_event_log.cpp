// Event logs from CSV files: the columns chosen for the bundled logs and the reference data,
// date-times in a chosen unit, marks, the messages for malformed files (each naming the line and
// the column), and the train / validation / test split with the origins of its parts.
#include <QtTest>

#include <QTemporaryDir>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/events/event_log.hpp"
#include "core/events/event_split.hpp"
#include "support/test_files.hpp"

using namespace aaren;

namespace {

// Sequences "s0", "s1", ... of `events` each, times 0, 1, 2, ... within each.
std::string sequences_csv(int sequences, int events) {
  std::string out = "seq,time\n";
  for (int s = 0; s < sequences; ++s)
    for (int e = 0; e < events; ++e) out += "s" + std::to_string(s) + "," + std::to_string(e) + "\n";
  return out;
}

}  // namespace

class TestEventLog : public QObject {
  Q_OBJECT

 private slots:
  void coalDisastersAreOneUnmarkedSequenceInYears() {
    const EventLog log = read_event_log(bundled("coal_mining_disasters.csv"));
    QCOMPARE(log.columns.time, std::string("date_decimal_year"));
    QVERIFY(!log.columns.time_is_date);
    QVERIFY(log.columns.sequence.empty());
    QVERIFY(log.columns.mark.empty());
    QVERIFY(any_contains(log.columns.left_out, "date_approx: holds dates"));
    QCOMPARE(log.time_unit, std::string("years"));
    QCOMPARE(log.sequences.size(), std::size_t(1));
    QCOMPARE(log.events(), 191L);
    QVERIFY(log.mark_names.empty() && log.sequences[0].marks.empty() && log.sequences[0].features.empty());
    QCOMPARE(log.sequences[0].times.front(), 1851.2026);
    QCOMPARE(log.sequences[0].origin, 1851.2026);
    QVERIFY(!log.sequences[0].first_gap_known);
    QCOMPARE(log.sequences[0].first_line, 2);
    QCOMPARE(event_gaps(log.sequences[0]).size(), std::size_t(190));
  }

  void geyserKeepsTheDurationAsAFeature() {
    const EventLog log = read_event_log(bundled("old_faithful_geyser.csv"));
    QCOMPARE(log.columns.time, std::string("t_start_min"));
    QCOMPARE(log.time_unit, std::string("minutes"));
    QVERIFY(log.columns.sequence.empty());
    QCOMPARE(log.columns.mark, std::string("duration_min"));
    QCOMPARE(log.columns.mark_use, MarkUse::feature);
    QCOMPARE(log.feature_name, std::string("duration_min"));
    QVERIFY(any_contains(log.columns.left_out, "eruption: counts the events"));
    QVERIFY(any_contains(log.columns.left_out, "waiting_min: holds the gaps between events"));
    QCOMPARE(log.events(), 299L);
    const EventSequence& s = log.sequences.at(0);
    QCOMPARE(s.features.size(), std::size_t(299));
    QVERIFY(s.marks.empty() && log.mark_names.empty());
    QCOMPARE(s.times[0], 80.0);
    QCOMPARE(s.times[1], 151.0);
    QCOMPARE(s.features[0], 4.0166667);
    QCOMPARE(s.features[1], 2.15);
    QVERIFY(log.warnings.empty());
  }

  void geyserDurationCanBeCategoricalOrLeftOut() {
    EventLogOptions options;
    options.mark_use = MarkUse::none;
    const EventLog unmarked = read_event_log(bundled("old_faithful_geyser.csv"), options);
    QVERIFY(unmarked.columns.mark.empty());
    QVERIFY(unmarked.sequences[0].features.empty() && unmarked.sequences[0].marks.empty());

    options.mark_use = MarkUse::feature;
    options.mark_column = "waiting_min";
    const EventLog waiting = read_event_log(bundled("old_faithful_geyser.csv"), options);
    QCOMPARE(waiting.feature_name, std::string("waiting_min"));
    QCOMPARE(waiting.sequences[0].features[1], 71.0);
  }

  void detectionPreviewsTheColumns() {
    const EventLogColumns columns = detect_event_columns(bundled("old_faithful_geyser.csv"));
    QCOMPARE(columns.time, std::string("t_start_min"));
    QCOMPARE(columns.time_reason, std::string("named like a time, with values that never decrease"));
    QCOMPARE(columns.time_why, ColumnReason::named_like_time_and_ordered);
    QCOMPARE(columns.mark, std::string("duration_min"));
    QCOMPARE(columns.left_out.size(), std::size_t(2));
    // The same reasons as codes, in the order of left_out ("eruption", then "waiting_min").
    QCOMPARE(columns.left_out_why,
             (std::vector<ColumnReason>{ColumnReason::counts_the_events, ColumnReason::holds_the_gaps}));
  }

  void duplicateTimesGiveOneWarning() {
    const EventLog log = parse_event_log("time\n1\n2\n2\n3\n3\n3\n", "ties.csv");
    QCOMPARE(log.events(), 6L);
    QCOMPARE(log.warnings.size(), std::size_t(1));
    QCOMPARE(log.warnings[0],
             std::string("3 events share their time with the previous event (first at line 4); their gaps are 0"));
    const std::vector<double> gaps = event_gaps(log.sequences[0]);
    QCOMPARE(gaps, (std::vector<double>{1, 0, 1, 0, 0}));
  }

  void dateTimesAreConvertedToTheUnit_data() {
    QTest::addColumn<int>("unit");
    QTest::addColumn<double>("second");
    QTest::addColumn<double>("third");
    QTest::addColumn<QString>("unitName");
    QTest::newRow("hours") << int(TimeUnit::hours) << 6.0 << 24.0 + 36.0 << "hours";
    QTest::newRow("days") << int(TimeUnit::days) << 0.25 << 2.5 << "days";
    QTest::newRow("minutes") << int(TimeUnit::minutes) << 360.0 << 3600.0 << "minutes";
    QTest::newRow("years") << int(TimeUnit::years) << 0.25 / 365.25 << 2.5 / 365.25 << "years";
  }
  void dateTimesAreConvertedToTheUnit() {
    QFETCH(int, unit);
    QFETCH(double, second);
    QFETCH(double, third);
    QFETCH(QString, unitName);
    EventLogOptions options;
    options.unit = TimeUnit(unit);
    // The third event is written with a UTC offset: 2024-03-03 14:00+02:00 is 12:00 UTC.
    const EventLog log = parse_event_log(
        "when,kind\n2024-03-01 00:00,quake\n2024-03-01 06:00,storm\n2024-03-03T14:00:00+02:00,quake\n", "dated.csv",
        options);
    QVERIFY(log.columns.time_is_date);
    QCOMPARE(log.columns.time, std::string("when"));
    QCOMPARE(log.time_unit, unitName.toStdString());
    QCOMPARE(log.time_zero, std::string("2024-03-01 00:00"));
    const std::vector<double>& t = log.sequences.at(0).times;
    QCOMPARE(t[0], 0.0);
    QVERIFY(std::abs(t[1] - second) <= 1e-12 * second);
    QVERIFY(std::abs(t[2] - third) <= 1e-12 * third);
  }

  void textMarksAreNumberedByFirstAppearance() {
    const EventLog log = parse_event_log("time,type\n0.5,storm\n1.5,quake\n2,storm\n4,flood\n", "marks.csv");
    QCOMPARE(log.columns.mark, std::string("type"));
    QCOMPARE(log.columns.mark_use, MarkUse::categorical);
    QCOMPARE(log.mark_names, (std::vector<std::string>{"storm", "quake", "flood"}));
    QCOMPARE(log.sequences[0].marks, (std::vector<int>{0, 1, 0, 2}));
    QVERIFY(log.sequences[0].features.empty());
  }

  void integerMarksAreNumberedInNumericOrder() {
    const EventLog log = parse_event_log("time,code\n1,30\n2,7\n3,12\n4,07\n5,30\n", "codes.csv");
    QCOMPARE(log.mark_names, (std::vector<std::string>{"7", "12", "30"}));
    QCOMPARE(log.sequences[0].marks, (std::vector<int>{2, 0, 1, 0, 2}));
  }

  void severalPossibleMarksAreLeftToTheUser() {
    const EventLog log = parse_event_log("time,size,colour\n1,2.5,red\n2,3.5,blue\n3,1.25,red\n", "two.csv");
    QVERIFY(log.columns.mark.empty());
    QVERIFY(any_contains(log.warnings, "columns size, colour could each be the mark"));
    EventLogOptions options;
    options.mark_column = "colour";
    const EventLog chosen = parse_event_log("time,size,colour\n1,2.5,red\n2,3.5,blue\n3,1.25,red\n", "two.csv", options);
    QCOMPARE(chosen.mark_names, (std::vector<std::string>{"red", "blue"}));
  }

  void sequencesAreReadInFileOrder() {
    const EventLog log = parse_event_log("user_id,t,type\nu7,0,a\nu7,1,b\nu2,5,a\nu2,5.5,a\nu2,9,b\n", "users.csv");
    QCOMPARE(log.columns.sequence, std::string("user_id"));
    QCOMPARE(log.columns.time, std::string("t"));
    QCOMPARE(log.sequences.size(), std::size_t(2));
    QCOMPARE(log.sequences[0].id, std::string("u7"));
    QCOMPARE(log.sequences[1].id, std::string("u2"));
    QCOMPARE(log.sequences[1].times, (std::vector<double>{5, 5.5, 9}));
    QCOMPARE(log.sequences[1].marks, (std::vector<int>{0, 0, 1}));
    QCOMPARE(log.sequences[1].first_line, 4);
    QCOMPARE(log.sequences[1].origin, 5.0);
  }

  void malformedFilesAreExplained_data() {
    QTest::addColumn<QString>("content");
    QTest::addColumn<bool>("atSplit");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("time goes back") << "seq,time\na,1\na,4.0\na,3.5\n" << false
                                    << "bad.csv, line 4, column 'time': 3.5 is earlier than the previous event's 4.0 "
                                       "(line 3) in sequence 'a'";
    QTest::newRow("time goes back, one sequence") << "time\n1\n2\n0.5\n" << false
                                                  << "bad.csv, line 4, column 'time': 0.5 is earlier than the "
                                                     "previous event's 2 (line 3)";
    QTest::newRow("missing time") << "time,type\n1,a\n,b\n3,a\n" << false
                                  << "bad.csv, line 3, column 'time': the time is missing";
    QTest::newRow("not a number") << "time\n1\nabc\n3\n" << false
                                  << "bad.csv, line 3, column 'time': 'abc' is not a number";
    QTest::newRow("NaN") << "time\n1\n2\nNaN\n4\n" << false
                         << "bad.csv, line 4, column 'time': 'NaN' is not a finite number";
    QTest::newRow("infinite") << "time\n1\ninf\n3\n" << false
                              << "bad.csv, line 3, column 'time': 'inf' is not a finite number";
    QTest::newRow("not a date") << "date,type\n2020-01-01,a\n2020-13-45,b\n2020-01-03,a\n" << false
                                << "bad.csv, line 3, column 'date': '2020-13-45' is not a date";
    QTest::newRow("sequence reappears")
        << "id,time\na,1\na,2\nb,1\nb,2\na,3\n" << false
        << "bad.csv, line 6, column 'id': sequence 'a' appears again after its rows ended at line 3 and sequence "
           "'b' started at line 4";
    QTest::newRow("missing sequence id") << "seq,time\na,1\na,2\n,3\nb,1\nb,2\n" << false
                                         << "bad.csv, line 4, column 'seq': the sequence id is missing";
    QTest::newRow("header only") << "time,type\n" << false << "bad.csv: the file has a header but no events";
    QTest::newRow("missing mark") << "time,type\n1,a\n2,b\n3,\n4,a\n" << false
                                  << "bad.csv, line 4, column 'type': the mark is missing";
    QTest::newRow("short row") << "time,type\n1,a\n2\n3,b\n" << false
                               << "bad.csv, line 3: 1 field, the header has 2";
    QTest::newRow("no time column") << "name,value\nx,3\ny,1\nz,2\n" << false << "bad.csv: no time column";
    QTest::newRow("one-event sequence")
        << "seq,time\na,1\na,2\nb,5\nc,1\nc,2\nd,1\nd,3\ne,1\ne,2\n" << true
        << "bad.csv, line 4, column 'seq': sequence 'b' has 1 event; training needs at least 2 events";
    QTest::newRow("one event in all") << "time,type\n1,a\n" << true
                                      << "bad.csv, line 2, column 'time': the log has 1 event; training needs at "
                                         "least 2 events";
    QTest::newRow("too few sequences") << "seq,time\na,1\na,2\nb,1\nb,2\n" << true
                                       << "bad.csv: 2 sequences are too few to split 0.6/0.2/0.2 by sequence";
    QTest::newRow("too few events") << "time\n1\n2\n3\n" << true
                                    << "bad.csv: 3 events are too few to split 0.6/0.2/0.2 by time";
  }
  void malformedFilesAreExplained() {
    QFETCH(QString, content);
    QFETCH(bool, atSplit);
    QFETCH(QString, fragment);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = write_file(dir, "bad.csv", content.toStdString());
    std::string message;
    try {
      const EventLog log = read_event_log(path);
      QVERIFY2(atSplit, "the file was read without an error");
      split_event_log(log);
    } catch (const std::runtime_error& e) {
      message = e.what();
    }
    QVERIFY2(message.find(fragment.toStdString()) != std::string::npos, message.c_str());
  }

  void optionsThatDoNotFitAreRejected() {
    const std::string text = "time,type\n1,a\n2,b\n";
    EventLogOptions unknown;
    unknown.time_column = "when";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parse_event_log(text, "x.csv", unknown));
    EventLogOptions contradictory;
    contradictory.mark_column = "type";
    contradictory.mark_use = MarkUse::none;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parse_event_log(text, "x.csv", contradictory));
    EventLogOptions twice;
    twice.mark_column = "time";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parse_event_log(text, "x.csv", twice));
    EventLogOptions text_feature;
    text_feature.mark_column = "type";
    text_feature.mark_use = MarkUse::feature;
    try {
      parse_event_log(text, "x.csv", text_feature);
      QFAIL("a text mark was read as numbers");
    } catch (const std::runtime_error& e) {
      QVERIFY2(std::string(e.what()).find("x.csv, line 2, column 'type': 'a' is not a number") != std::string::npos,
               e.what());
    }
  }

  void severalSequencesSplitBySequence() {
    const EventLog log = parse_event_log(sequences_csv(10, 4), "ten.csv");
    const EventSplit split = split_event_log(log);
    QCOMPARE(split.method, EventSplitMethod::by_sequence);
    QCOMPARE(split.train.size(), std::size_t(6));
    QCOMPARE(split.validation.size(), std::size_t(2));
    QCOMPARE(split.test.size(), std::size_t(2));
    QCOMPARE(split.train.front().id, std::string("s0"));
    QCOMPARE(split.validation.front().id, std::string("s6"));
    QCOMPARE(split.test.back().id, std::string("s9"));
    for (const EventSequence& s : split.test) {
      QCOMPARE(s.origin, s.times.front());
      QVERIFY(!s.first_gap_known);
    }
    QCOMPARE(split.train_mean_gap, 1.0);
    QCOMPARE(split.marks, 0);

    const EventSplit halves = split_event_log(log, {0.5, 0.3, 0.2});
    QCOMPARE(halves.train.size(), std::size_t(5));
    QCOMPARE(halves.validation.size(), std::size_t(3));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, split_event_log(log, {0.5, 0.5, 0.5}));
  }

  void oneSequenceSplitsByTimeWithOrigins() {
    const EventLog log = read_event_log(bundled("coal_mining_disasters.csv"));
    const EventSplit split = split_event_log(log);
    QCOMPARE(split.method, EventSplitMethod::by_time);
    // 191 events: train floor(0.6 * 191) = 114, test floor(0.2 * 191) = 38, validation the rest.
    QCOMPARE(split.train.at(0).times.size(), std::size_t(114));
    QCOMPARE(split.validation.at(0).times.size(), std::size_t(39));
    QCOMPARE(split.test.at(0).times.size(), std::size_t(38));
    const std::vector<double>& all = log.sequences[0].times;
    const EventSequence& train = split.train[0];
    const EventSequence& validation = split.validation[0];
    const EventSequence& test = split.test[0];
    QVERIFY(!train.first_gap_known);
    QCOMPARE(train.origin, all[0]);
    QVERIFY(validation.first_gap_known && test.first_gap_known);
    QCOMPARE(validation.origin, all[113]);
    QCOMPARE(validation.times.front(), all[114]);
    QCOMPARE(test.origin, all[152]);
    QCOMPARE(event_gaps(validation).size(), std::size_t(39));
    QCOMPARE(event_gaps(validation).front(), all[114] - all[113]);
    QCOMPARE(split.train_mean_gap, (all[113] - all[0]) / 113.0);
  }

  void splitPartsKeepTheirMarks() {
    const EventLog log = parse_event_log("time,type\n1,a\n2,b\n3,a\n4,c\n5,b\n6,a\n7,c\n8,a\n9,b\n10,a\n", "m.csv");
    const EventSplit split = split_event_log(log);
    QCOMPARE(split.marks, 3);
    QCOMPARE(split.train[0].marks, (std::vector<int>{0, 1, 0, 2, 1, 0}));
    QCOMPARE(split.validation[0].marks, (std::vector<int>{2, 0}));
    QCOMPARE(split.test[0].marks, (std::vector<int>{1, 0}));
    QCOMPARE(split.test[0].origin, 8.0);
  }

  void referenceDataHas64SequencesOf1024Events_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("hawkes1") << "hawkes1.csv";
    QTest::newRow("poisson") << "poisson.csv";
  }
  void referenceDataHas64SequencesOf1024Events() {
    QFETCH(QString, file);
    const char* shared = std::getenv("AAREN_SHARED_DATASETS");
    const std::string path = std::string(shared ? shared : "") + "/reference/tpp-synthetic/" + file.toStdString();
    if (!shared || !std::filesystem::exists(path))
      QSKIP("the reference data tpp-synthetic is not present (set AAREN_SHARED_DATASETS to the shared datasets folder)");
    const EventLog log = read_event_log(path);
    QCOMPARE(log.columns.sequence, std::string("seq_id"));
    QCOMPARE(log.columns.time, std::string("time"));
    QVERIFY(log.columns.mark.empty());
    QCOMPARE(log.sequences.size(), std::size_t(64));
    for (const EventSequence& s : log.sequences) QCOMPARE(s.times.size(), std::size_t(1024));
    QCOMPARE(log.sequences[0].id, std::string("0"));
    QCOMPARE(log.sequences[63].id, std::string("63"));
    const EventSplit split = split_event_log(log);
    QCOMPARE(split.train.size(), std::size_t(38));
    QCOMPARE(split.validation.size(), std::size_t(14));
    QCOMPARE(split.test.size(), std::size_t(12));
  }
};

QTEST_GUILESS_MAIN(TestEventLog)
#include "tst_event_log.moc"
