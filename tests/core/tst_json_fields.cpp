// Settings read from JSON: values come back as written, and every error names the file and the field.
#include <QtTest>
#include <limits>
#include <stdexcept>

#include "core/io/json_fields.hpp"
#include "support/error_message.hpp"

using namespace aaren;

namespace {

const std::string kSource = "config.json";

nlohmann::json settings() {
  return nlohmann::json::parse(R"({
    "d_model": 64, "steps": 1e4, "rounded": 64.0, "fraction": 2.5, "huge": 12345678901234567890,
    "negative": -3, "learning_rate": 0.001, "name": "etth1", "flag": true, "text_flag": "yes",
    "columns": ["HUFL", "OT"], "mixed": ["HUFL", 3], "empty_list": [], "nothing": null,
    "long_text": "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"
  })");
}

}  // namespace

class TestJsonFields : public QObject {
  Q_OBJECT

 private slots:
  void parsesObjects() {
    const nlohmann::json obj = parse_json_text("{\"a\": 1, \"b\": {\"c\": [true, null]}}", kSource);
    QCOMPARE(obj.at("a").get<int>(), 1);
    QVERIFY(obj.at("b").at("c").at(0).get<bool>());
    QVERIFY(obj.at("b").at("c").at(1).is_null());
  }

  void acceptsByteOrderMark() {
    const nlohmann::json obj = parse_json_text("\xEF\xBB\xBF{\"d_model\": 32}", kSource);
    QCOMPARE(json_int(obj, "d_model", kSource, 1, 4096), 32);
  }

  void syntaxErrorsNameLineAndColumn_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("bad literal, line 1") << "{\"a\": tru}"
                                         << "line 1, column 10";
    QTest::newRow("missing comma, line 3") << "{\n  \"a\": 1\n  \"b\": 2\n}"
                                           << "line 3, column 5";
    QTest::newRow("trailing comma") << "{\n  \"a\": 1,\n}"
                                    << "line 3, column 1";
    QTest::newRow("columns count characters") << "{\"\xC3\xA9t\xC3\xA9\": x}"
                                              << "line 1, column 9";
    QTest::newRow("end of input") << "{\"a\": [1, 2"
                                  << "unexpected end of input";
    QTest::newRow("empty text") << ""
                                << "not valid JSON (line 1, column 1";
    QTest::newRow("text after the object") << "{} {}"
                                           << "line 1, column 4";
    QTest::newRow("NUL byte") << QString::fromLatin1("{\"a\": 1}\n\0{", 11) << "line 2, column 1: a NUL byte";
  }
  void syntaxErrorsNameLineAndColumn() {
    QFETCH(QString, text);
    QFETCH(QString, fragment);
    const QString message = error_of([&] { parse_json_text(text.toStdString(), kSource); });
    QVERIFY2(message.startsWith("config.json: not valid JSON (line "), qPrintable(message));
    QVERIFY2(message.contains(fragment), qPrintable(message));
  }

  void repeatedKeysAreErrors_data() {
    QTest::addColumn<QString>("text");
    QTest::newRow("top level") << R"({"d_model": 64, "d_model": 128})";
    QTest::newRow("nested") << R"({"data": {"d_model": 1, "d_model": 2}})";
  }
  void repeatedKeysAreErrors() {
    QFETCH(QString, text);
    const QString message = error_of([&] { parse_json_text(text.toStdString(), kSource); });
    QCOMPARE(message, QString("config.json: field 'd_model' appears twice"));
  }

  void sameKeyInSiblingObjectsIsFine() {
    const nlohmann::json obj = parse_json_text(R"({"a": {"x": 1}, "b": {"x": 2}})", kSource);
    QCOMPARE(obj.at("b").at("x").get<int>(), 2);
  }

  void reasonIsPrintable() {
    try {
      const nlohmann::json parsed = nlohmann::json::parse(std::string("{\"a\": \x01\xff}"));
      QFAIL(qPrintable("the text should not parse, but gave " + QString::fromStdString(parsed.dump())));
    } catch (const nlohmann::json::parse_error& error) {
      const std::string reason = json_parse_error_reason(error);
      QVERIFY2(reason.find("parse error") == std::string::npos, reason.c_str());
      QVERIFY2(std::all_of(reason.begin(), reason.end(), [](char c) { return c >= 0x20 && c < 0x7F; }), reason.c_str());
      QVERIFY2(!reason.empty(), "the reason should say something");
    }
  }

  void readsValidFields() {
    const nlohmann::json obj = settings();
    QCOMPARE(json_int(obj, "d_model", kSource, 1, 4096), 64);
    QCOMPARE(json_int(obj, "steps", kSource, 1, 100000), 10000);
    QCOMPARE(json_int(obj, "rounded", kSource, 1, 100), 64);
    QCOMPARE(json_int(obj, "negative", kSource, -5, 5), -3);
    QCOMPARE(json_int(obj, "d_model", kSource, 64, 64), 64);
    QCOMPARE(json_number(obj, "learning_rate", kSource, 0.0, 1.0), 0.001);
    QCOMPARE(json_number(obj, "d_model", kSource, 0.0, 100.0), 64.0);
    QCOMPARE(json_string(obj, "name", kSource), std::string("etth1"));
    QCOMPARE(json_bool(obj, "flag", kSource), true);
    QCOMPARE(json_string_list(obj, "columns", kSource), (std::vector<std::string>{"HUFL", "OT"}));
    QVERIFY(json_string_list(obj, "empty_list", kSource).empty());
  }

  void errorsNameTheField_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("expected");
    QTest::newRow("int missing") << "int"
                                 << "heads"
                                 << "config.json: field 'heads' is missing";
    QTest::newRow("int below") << "int"
                               << "d_model"
                               << "config.json: field 'd_model' must be a whole number between 100 and 4096, got 64";
    QTest::newRow("int above") << "int"
                               << "steps"
                               << "config.json: field 'steps' must be a whole number between 100 and 4096, got 10000.0";
    QTest::newRow("int fraction") << "int"
                                  << "fraction"
                                  << "config.json: field 'fraction' must be a whole number between 100 and 4096, "
                                     "got 2.5";
    QTest::newRow("int huge") << "int"
                              << "huge"
                              << "config.json: field 'huge' must be a whole number between 100 and 4096, got "
                                 "12345678901234567890";
    QTest::newRow("int string") << "int"
                                << "name"
                                << "config.json: field 'name' must be a whole number between 100 and 4096, got "
                                   "\"etth1\"";
    QTest::newRow("int null") << "int"
                              << "nothing"
                              << "config.json: field 'nothing' must be a whole number between 100 and 4096, got null";
    QTest::newRow("number missing") << "number"
                                    << "dropout"
                                    << "config.json: field 'dropout' is missing";
    QTest::newRow("number above") << "number"
                                  << "d_model"
                                  << "config.json: field 'd_model' must be a number between 0 and 1, got 64";
    QTest::newRow("number bool") << "number"
                                 << "flag"
                                 << "config.json: field 'flag' must be a number between 0 and 1, got true";
    QTest::newRow("string missing") << "string"
                                    << "target"
                                    << "config.json: field 'target' is missing";
    QTest::newRow("string number") << "string"
                                   << "d_model"
                                   << "config.json: field 'd_model' must be a string, got 64";
    QTest::newRow("bool missing") << "bool"
                                  << "shuffle"
                                  << "config.json: field 'shuffle' is missing";
    QTest::newRow("bool string") << "bool"
                                 << "text_flag"
                                 << "config.json: field 'text_flag' must be true or false, got \"yes\"";
    QTest::newRow("list missing") << "list"
                                  << "channels"
                                  << "config.json: field 'channels' is missing";
    QTest::newRow("list not a list") << "list"
                                     << "name"
                                     << "config.json: field 'name' must be a list of strings, got \"etth1\"";
    QTest::newRow("list item") << "list"
                               << "mixed"
                               << "config.json: field 'mixed' must be a list of strings, but item 2 is 3";
    QTest::newRow("long value shortened")
        << "int"
        << "long_text"
        << "config.json: field 'long_text' must be a whole number between 100 and 4096, got "
           "\"abcdefghijklmnopqrstuvwxyzabcdefghijklm...";
  }
  void errorsNameTheField() {
    QFETCH(QString, kind);
    QFETCH(QString, field);
    QFETCH(QString, expected);
    const nlohmann::json obj = settings();
    const std::string name = field.toStdString();
    const QString message = error_of([&] {
      if (kind == "int") (void)json_int(obj, name, kSource, 100, 4096);
      if (kind == "number") (void)json_number(obj, name, kSource, 0.0, 1.0);
      if (kind == "string") (void)json_string(obj, name, kSource);
      if (kind == "bool") (void)json_bool(obj, name, kSource);
      if (kind == "list") (void)json_string_list(obj, name, kSource);
    });
    QCOMPARE(message, expected);
  }

  void numberRangesWithoutABound_data() {
    QTest::addColumn<double>("min");
    QTest::addColumn<double>("max");
    QTest::addColumn<QString>("requirement");
    constexpr double inf = std::numeric_limits<double>::infinity();
    QTest::newRow("no upper bound") << 100.0 << inf << "must be a number of at least 100, got 64";
    QTest::newRow("no lower bound") << -inf << 10.0 << "must be a number of at most 10, got 64";
  }
  void numberRangesWithoutABound() {
    QFETCH(double, min);
    QFETCH(double, max);
    QFETCH(QString, requirement);
    const nlohmann::json obj = settings();
    const QString message = error_of([&] { (void)json_number(obj, "d_model", kSource, min, max); });
    QCOMPARE(message, "config.json: field 'd_model' " + requirement);
  }

  void optionalFieldsFallBackOnlyWhenMissing() {
    const nlohmann::json obj = settings();
    QCOMPARE(json_int_or(obj, "heads", kSource, 1, 64, 4), 4);
    QCOMPARE(json_int_or(obj, "d_model", kSource, 1, 4096, 4), 64);
    QCOMPARE(json_number_or(obj, "dropout", kSource, 0.0, 1.0, 0.1), 0.1);
    QCOMPARE(json_number_or(obj, "learning_rate", kSource, 0.0, 1.0, 0.1), 0.001);
    QCOMPARE(json_string_or(obj, "target", kSource, "OT"), std::string("OT"));
    QCOMPARE(json_string_or(obj, "name", kSource, "OT"), std::string("etth1"));
    QCOMPARE(json_bool_or(obj, "shuffle", kSource, false), false);
    QCOMPARE(json_bool_or(obj, "flag", kSource, false), true);
    const std::vector<std::string> fallback{"x"};
    QCOMPARE(json_string_list_or(obj, "channels", kSource, fallback), fallback);
    QCOMPARE(json_string_list_or(obj, "columns", kSource, fallback), (std::vector<std::string>{"HUFL", "OT"}));

    // A present but invalid value is an error, never silently replaced by the default.
    QCOMPARE(error_of([&] { (void)json_int_or(obj, "d_model", kSource, 1, 8, 4); }),
             QString("config.json: field 'd_model' must be a whole number between 1 and 8, got 64"));
    QCOMPARE(error_of([&] { (void)json_number_or(obj, "name", kSource, 0.0, 1.0, 0.5); }),
             QString("config.json: field 'name' must be a number between 0 and 1, got \"etth1\""));
    QCOMPARE(error_of([&] { (void)json_string_or(obj, "flag", kSource, "x"); }),
             QString("config.json: field 'flag' must be a string, got true"));
    QCOMPARE(error_of([&] { (void)json_bool_or(obj, "nothing", kSource, true); }),
             QString("config.json: field 'nothing' must be true or false, got null"));
    QCOMPARE(error_of([&] { (void)json_string_list_or(obj, "mixed", kSource, fallback); }),
             QString("config.json: field 'mixed' must be a list of strings, but item 2 is 3"));
  }

  void fieldsNeedAnObject() {
    const nlohmann::json list = nlohmann::json::array({1, 2});
    QCOMPARE(error_of([&] { (void)json_int(list, "d_model", kSource, 1, 8); }),
             QString("config.json: expected a JSON object holding field 'd_model', got array"));
    QCOMPARE(error_of([&] { (void)json_bool_or(list, "flag", kSource, true); }),
             QString("config.json: expected a JSON object holding field 'flag', got array"));
  }
};

QTEST_GUILESS_MAIN(TestJsonFields)
#include "tst_json_fields.moc"
