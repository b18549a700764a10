// Lesson files (docs/lessons.md): every mistake is refused with the line and column where it is
// and the reason; the bundled lesson reads, has the scenes the lecture needs, and its answers are
// what the core computes (the prefixes its questions light are those the scan has completed).
#include <QRegularExpression>
#include <QLocale>
#include <QtTest>
#include <cmath>
#include <span>

#include "core/attention/linear_attention.hpp"
#include "core/attention/printed_update.hpp"
#include "core/model/recurrent_state.hpp"
#include "ui/explore/explore_inputs.hpp"
#include "ui/explore/scan_run.hpp"
#include "ui/lesson/bundled_lessons.hpp"
#include "ui/lesson/lesson_parser.hpp"
#include "ui/lesson/positioned_json.hpp"

using namespace aaren;
using namespace aaren::ui;

namespace {

// "@" marks where the mistake is: it is removed, and its line and column are the expected ones.
struct Marked {
  QByteArray text;
  int line = 0;
  int column = 0;
};

Marked marked(const QString& withMarker) {
  const qsizetype at = withMarker.indexOf(QLatin1Char('@'));
  Q_ASSERT(at >= 0);
  const QString before = withMarker.left(at);
  Marked result;
  result.text = (before + withMarker.mid(at + 1)).toUtf8();
  result.line = int(before.count(QLatin1Char('\n'))) + 1;
  result.column = int(at - (before.lastIndexOf(QLatin1Char('\n')) + 1)) + 1;
  return result;
}

// A whole lesson around one scene written at four spaces (its '{' at line 6, column 5).
QString lessonWith(const QString& scene) {
  return QStringLiteral(
             "{\n  \"format\": \"aaren-studio-lesson\",\n  \"version\": 1,\n  \"title\": \"T\",\n"
             "  \"scenes\": [\n    %1\n  ]\n}\n")
      .arg(scene);
}

const LessonScene& sceneWithId(const Lesson& lesson, const QString& id) {
  for (const LessonScene& scene : lesson.scenes)
    if (scene.id == id) return scene;
  qFatal("the bundled lesson has no scene '%s'", qPrintable(id));
}

ExploreInputs inputsOf(const ExploreScene& scene) {
  return scene.scores.isEmpty() ? randomInputs(scene.tokens, scene.valueDims, unsigned(scene.seed), scene.scoreShift)
                                : parseTypedInputs(scene.scores, scene.values);
}

ScanMethod methodOf(const ExploreScene& scene) {
  if (scene.scanErrata) return ScanMethod::hillis_steele_as_printed;
  if (scene.algorithm == QLatin1String("brent-kung")) return ScanMethod::brent_kung;
  if (scene.algorithm == QLatin1String("sequential")) return ScanMethod::sequential;
  return ScanMethod::hillis_steele;
}

QString twoDecimals(double x) { return QString::number(x, 'f', 2); }

}  // namespace

class TestLessonParser : public QObject {
  Q_OBJECT

 private slots:
  void jsonValuesKeepTheirPositions();
  void jsonEscapesAndNumbers();
  void mistakesNameLineColumnAndReason_data();
  void mistakesNameLineColumnAndReason();
  void readsEveryChoiceOfAScene();
  void missingFileNamesTheBundledLessons();
  void bundledLessonReads();
  void bundledQuestionsLightTheCompletedPrefixes();
  void bundledAnswersAreTheCoresNumbers();
  void threeRnnsAnswersAreTheCoresNumbers();
};

void TestLessonParser::jsonValuesKeepTheirPositions() {
  const JsonNode root = readPositionedJson("{\n  \"a\": [1,\n    true],\n\t\"b\": {\"c\": null}\n}");
  QCOMPARE(root.kind, JsonNode::Kind::object);
  QCOMPARE(root.members.size(), std::size_t(2));
  QCOMPARE(root.members[0].keyPosition.line, 2);
  QCOMPARE(root.members[0].keyPosition.column, 3);
  const JsonNode& a = root.members[0].node();
  QCOMPARE(a.position.line, 2);
  QCOMPARE(a.position.column, 8);
  QCOMPARE(a.items[1].position.line, 3);
  QCOMPARE(a.items[1].position.column, 5);
  QCOMPARE(a.items[1].boolean, true);
  // A tab counts as one column.
  QCOMPARE(root.members[1].keyPosition.column, 2);
  QCOMPARE(root.member(QStringLiteral("b"))->member(QStringLiteral("c"))->kind, JsonNode::Kind::null);
  QCOMPARE(root.member(QStringLiteral("b"))->member(QStringLiteral("c"))->position.column, 13);
}

void TestLessonParser::jsonEscapesAndNumbers() {
  // Columns count characters: "é" and "Σ" are one each though UTF-8 writes them in two bytes.
  const JsonNode root =
      readPositionedJson(QStringLiteral("[\"é\\u03a3\\n\\ud83d\\ude00\", \"Σ\", -1.5e2, 0]").toUtf8());
  QCOMPARE(root.items[0].text, QStringLiteral("éΣ\n\U0001F600"));
  QCOMPARE(root.items[1].position.column, 27);
  QCOMPARE(root.items[2].number, -150.0);
  QCOMPARE(root.items[2].position.column, 32);
  QCOMPARE(root.items[3].number, 0.0);
}

void TestLessonParser::mistakesNameLineColumnAndReason_data() {
  QTest::addColumn<QString>("text");
  QTest::addColumn<QString>("reason");
  const QString scan = QStringLiteral("{\"title\": \"S\", \"view\": \"scan\", \"narration\": \"N\"");

  QTest::newRow("empty file") << QStringLiteral("  @") << "the file is empty";
  QTest::newRow("not an object") << QStringLiteral("@[1, 2]") << "a lesson must be an object";
  QTest::newRow("missing comma") << QStringLiteral("{\n  \"format\": \"aaren-studio-lesson\"\n  @\"version\": 1\n}")
                                 << "expected ',' or '}'";
  QTest::newRow("trailing comma") << lessonWith(QStringLiteral("%1, \"lit_boxes\": [[1, 2],@]}").arg(scan))
                                  << "JSON allows no trailing comma";
  QTest::newRow("unterminated string") << QStringLiteral("{\n  \"title\": @\"Attention") << "no closing";
  QTest::newRow("line break in a string")
      << QStringLiteral("{\n  \"title\": \"Atten@\ntion\"}") << "a line break inside a string";
  QTest::newRow("bad literal") << QStringLiteral("{\"format\": @tru}") << "expected a value";
  QTest::newRow("text after the end") << QStringLiteral("{}\n@}") << "after the end of the JSON value";
  QTest::newRow("duplicate key") << QStringLiteral(
                                        "{\"format\": \"aaren-studio-lesson\",\n \"version\": 1, @\"format\": \"x\"}")
                                 << "written twice";
  QTest::newRow("wrong format") << QStringLiteral("{\"format\": @\"aaren-studio-run\"}")
                                << "'format' must be \"aaren-studio-lesson\"";
  QTest::newRow("newer version") << QStringLiteral("{\"format\": \"aaren-studio-lesson\", \"version\": @2}")
                                 << "this lesson is version 2";
  QTest::newRow("unknown top key") << QStringLiteral(
                                          "{\"format\": \"aaren-studio-lesson\", \"version\": 1, @\"titel\": \"T\"}")
                                   << "unknown key 'titel' in the lesson";
  QTest::newRow("no scenes") << QStringLiteral(
                                    "{\"format\": \"aaren-studio-lesson\", \"version\": 1, \"title\": \"T\", "
                                    "\"scenes\": @[]}")
                             << "'scenes' is empty";
  QTest::newRow("unknown scene key") << lessonWith(QStringLiteral("%1, @\"narator\": \"N\"}").arg(scan))
                                     << "unknown key 'narator' in a scan scene";
  QTest::newRow("key of another view") << lessonWith(QStringLiteral("%1, @\"paper_start\": true}").arg(scan))
                                       << "unknown key 'paper_start' in a scan scene";
  QTest::newRow("unknown view")
      << lessonWith(QStringLiteral("{\"title\": \"S\", \"view\": @\"scna\", \"narration\": \"N\"}"))
      << "'view' must be one of \"scan\", \"cell\", \"figure1\", \"linear\", \"state\", \"efficiency\", \"act\", not "
         "\"scna\"";
  const QString act = QStringLiteral("{\"title\": \"S\", \"view\": \"act\", \"narration\": \"N\"");
  QTest::newRow("unknown act mode") << lessonWith(QStringLiteral("%1, \"act\": {\"mode\": @\"batch\"}}").arg(act))
                                    << "'mode' must be one of \"window\", \"stream\", not \"batch\"";
  QTest::newRow("unknown act key") << lessonWith(QStringLiteral("%1, \"act\": {@\"episodes\": 3}}").arg(act))
                                   << "unknown key 'episodes' in 'act'";
  QTest::newRow("negative act step") << lessonWith(QStringLiteral("%1, \"act\": {\"step\": @-1}}").arg(act))
                                     << "'step' must be a whole number from 0";
  QTest::newRow("explore key in an act scene") << lessonWith(QStringLiteral("%1, @\"inputs\": {}}").arg(act))
                                               << "unknown key 'inputs' in an act scene";
  QTest::newRow("act scene reveal")
      << lessonWith(QStringLiteral("%1, \"question\": {\"prompt\": \"P\", \"answer\": \"A\", \"reveal\": @{\"step\": 2}}}").arg(act))
      << "an act scene's reveal shows the answer only";
  const QString linear = QStringLiteral("{\"title\": \"S\", \"view\": \"linear\", \"narration\": \"N\"");
  QTest::newRow("features without favor")
      << lessonWith(QStringLiteral("%1, \"feature_map\": \"relu\", \"features\": @64}").arg(linear))
      << "'features' needs \"feature_map\": \"favor\"";
  QTest::newRow("unknown feature map") << lessonWith(QStringLiteral("%1, \"feature_map\": @\"gelu\"}").arg(linear))
                                       << "'feature_map' must be one of \"elu1\", \"relu\", \"favor\", not \"gelu\"";
  QTest::newRow("unknown linear chart") << lessonWith(QStringLiteral("%1, \"chart\": @\"loss\"}").arg(linear))
                                        << "'chart' must be one of \"output\", \"error\", \"state\", not \"loss\"";
  QTest::newRow("linear key in a scan scene") << lessonWith(QStringLiteral("%1, @\"chart\": \"error\"}").arg(scan))
                                              << "unknown key 'chart' in a scan scene";
  QTest::newRow("missing narration") << lessonWith(QStringLiteral("@{\"title\": \"S\", \"view\": \"cell\"}"))
                                     << "scene 1 has no 'narration'";
  QTest::newRow("wrong type") << lessonWith(QStringLiteral("%1, \"step\": @\"two\"}").arg(scan))
                              << "'step' must be a number or \"last\"";
  QTest::newRow("boolean as text") << lessonWith(QStringLiteral("%1, \"scan_errata\": @\"yes\"}").arg(scan))
                                   << "'scan_errata' must be true or false, not a string";
  QTest::newRow("too many tokens") << lessonWith(QStringLiteral("%1, \"inputs\": {\"tokens\": @100}}").arg(scan))
                                   << "'tokens' must be a whole number from 2 to 64, not 100";
  QTest::newRow("fractional seed") << lessonWith(QStringLiteral("%1, \"inputs\": {\"seed\": @1.5}}").arg(scan))
                                   << "'seed' must be a whole number";
  QTest::newRow("step past the end") << lessonWith(
                                            QStringLiteral("%1, \"inputs\": {\"tokens\": 8}, \"step\": @4}").arg(scan))
                                     << "'step' must be a whole number from 0 to 3";
  QTest::newRow("box out of range")
      << lessonWith(QStringLiteral("%1, \"inputs\": {\"tokens\": 8}, \"lit_boxes\": [[@0, 3]]}").arg(scan))
      << "'lit_boxes' must be a whole number from 1 to 8, not 0";
  QTest::newRow("box backwards") << lessonWith(QStringLiteral("%1, \"lit_boxes\": [@[5, 2]]}").arg(scan))
                                 << "the last token comes before the first";
  QTest::newRow("values without scores") << lessonWith(
                                                QStringLiteral("%1, \"inputs\": {\"values\": @[1, 2]}}").arg(scan))
                                         << "'values' need 'scores'";
  QTest::newRow("values of two sizes")
      << lessonWith(QStringLiteral("%1, \"inputs\": {\"scores\": [1, 2], \"values\": [[1, 2], @[3]]}}").arg(scan))
      << "every value must have 2 numbers";
  QTest::newRow("fewer values than scores")
      << lessonWith(QStringLiteral("%1, \"inputs\": {\"scores\": [1, 2, 3], \"values\": @[1, 2]}}").arg(scan))
      << "3 scores";
  QTest::newRow("errata with brent-kung")
      << lessonWith(QStringLiteral("%1, \"algorithm\": \"brent-kung\", \"scan_errata\": @true}").arg(scan))
      << "'scan_errata' shows the printed and the corrected Hillis-Steele loop";
  QTest::newRow("the old name of the Brent-Kung scan")
      << lessonWith(QStringLiteral("%1, \"algorithm\": @\"blelloch\"}").arg(scan))
      << "not \"blelloch\" (the work-efficient scan is named brent-kung: it is Brent and Kung's inclusive";
  QTest::newRow("question without answer")
      << lessonWith(QStringLiteral("%1, \"question\": @{\"prompt\": \"Why?\"}}").arg(scan))
      << "'question' has no 'answer'";
  QTest::newRow("reveal step past the end")
      << lessonWith(
             QStringLiteral("%1, \"question\": {\"prompt\": \"P\", \"answer\": \"A\", \"reveal\": {\"step\": @9}}}")
                 .arg(scan))
      << "'step' must be a whole number from 0 to 3";
  QTest::newRow("heads do not divide d_model")
      << lessonWith(QStringLiteral("{\"title\": \"S\", \"view\": \"efficiency\", \"narration\": \"N\", "
                                   "\"efficiency\": {\"d_model\": 64, \"heads\": @5}}"))
      << "'heads' (5) must divide 'd_model' (64)";
  QTest::newRow("unknown model")
      << lessonWith(QStringLiteral("{\"title\": \"S\", \"view\": \"efficiency\", \"narration\": \"N\", "
                                   "\"efficiency\": {\"models\": [\"aaren\", @\"retnet\"]}}"))
      << "'models': 'retnet' is not aaren, transformer or linear";
  QTest::newRow("model named twice")
      << lessonWith(QStringLiteral("{\"title\": \"S\", \"view\": \"efficiency\", \"narration\": \"N\", "
                                   "\"efficiency\": {\"models\": [\"linear\", @\"linear\"]}}"))
      << "'models': 'linear' is named twice";
  QTest::newRow("no model")
      << lessonWith(QStringLiteral("{\"title\": \"S\", \"view\": \"efficiency\", \"narration\": \"N\", "
                                   "\"efficiency\": {\"models\": @[]}}"))
      << "'models' names no model";
  QTest::newRow("scene id with a slash")
      << lessonWith(QStringLiteral("{\"id\": @\"a/b\", \"title\": \"S\", \"view\": \"cell\", \"narration\": \"N\"}"))
      << "'id' must be letters, digits and '-'";
}

void TestLessonParser::mistakesNameLineColumnAndReason() {
  QFETCH(QString, text);
  QFETCH(QString, reason);
  const Marked lesson = marked(text);
  try {
    parseLesson(lesson.text, QStringLiteral("broken.json"));
    QFAIL("the lesson was read");
  } catch (const LessonError& error) {
    QVERIFY2(error.reason().contains(reason), qPrintable(error.message()));
    QCOMPARE(error.position().line, lesson.line);
    QCOMPARE(error.position().column, lesson.column);
    QCOMPARE(error.message(),
             QStringLiteral("broken.json:%1:%2: %3").arg(lesson.line).arg(lesson.column).arg(error.reason()));
  }
}

void TestLessonParser::readsEveryChoiceOfAScene() {
  const QString text = lessonWith(QStringLiteral(
      "{\"id\": \"c\", \"title\": \"Cell\", \"view\": \"cell\", \"narration\": \"N\", \"cell_mode\": \"block\", "
      "\"block_size\": 2, \"paper_start\": true, \"printed_typo\": true, \"show_ahead\": true, \"step\": \"last\", "
      "\"inputs\": {\"scores\": [1, -2.5, 3], \"values\": [[1, 2], [3, 4], [5, 6]]}, \"lit_terms\": [\"m\"], "
      "\"question\": {\"prompt\": \"P\", \"answer\": \"A\", \"reveal\": {\"step\": 1, \"lit_terms\": [\"c\"]}}}, "
      "{\"title\": \"Scan\", \"view\": \"scan\", \"narration\": \"M\", \"algorithm\": \"brent-kung\", "
      "\"inputs\": {\"tokens\": 5, \"value_dims\": 2, \"seed\": 3, \"score_shift\": -4}, \"lit_boxes\": [[1, 5]]}, "
      "{\"title\": \"Act\", \"view\": \"act\", \"narration\": \"O\", "
      "\"act\": {\"run\": \"runs/agents\", \"mode\": \"stream\", \"seed\": 4, \"step\": 120}}, "
      "{\"title\": \"Newest\", \"view\": \"act\", \"narration\": \"P\"}"));
  const Lesson lesson = parseLesson(text.toUtf8(), QStringLiteral("/somewhere/my-lesson.json"));
  QCOMPARE(lesson.id, QStringLiteral("my-lesson"));
  QCOMPARE(lesson.scenes.size(), 4);
  // An act scene's run is found beside the lesson; without one, the newest run is shown at its end.
  const ActScene& act = lesson.scenes[2].act;
  QVERIFY(lesson.scenes[2].onForecastPage() && !lesson.scenes[2].onExplorePage());
  QCOMPARE(act.run, QStringLiteral("/somewhere/runs/agents"));
  QVERIFY(act.mode == aaren::rl::ActMode::stream);
  QCOMPARE(act.seed, 4);
  QCOMPARE(act.step, std::optional<int>(120));
  const ActScene& newest = lesson.scenes[3].act;
  QVERIFY(newest.run.isEmpty() && !newest.mode && !newest.step);
  QCOMPARE(newest.seed, 1);
  const LessonScene& cell = lesson.scenes[0];
  QCOMPARE(cell.id, QStringLiteral("c"));
  QCOMPARE(cell.explore.view, QStringLiteral("cell"));
  QCOMPARE(cell.explore.cellMode, QStringLiteral("block"));
  QCOMPARE(cell.explore.blockSize, 2);
  QVERIFY(cell.explore.paperStart && cell.explore.printedTypo && cell.explore.showAhead);
  QCOMPARE(cell.explore.step, -1);
  QCOMPARE(cell.explore.tokens, 3);
  const ExploreInputs numbers = parseTypedInputs(cell.explore.scores, cell.explore.values);
  QCOMPARE(numbers.scores, (std::vector<float>{1.0f, -2.5f, 3.0f}));
  QCOMPARE(numbers.values, (std::vector<float>{1, 2, 3, 4, 5, 6}));
  QCOMPARE(numbers.dv, 2);
  const ExploreScene revealed = cell.exploreScene(true);
  QCOMPARE(revealed.step, 1);
  QCOMPARE(revealed.litTerms, (QStringList{"m", "c"}));
  QCOMPARE(cell.exploreScene(false).litTerms, QStringList{"m"});

  const LessonScene& scan = lesson.scenes[1];
  QCOMPARE(scan.id, QStringLiteral("scene-2"));
  QCOMPARE(scan.explore.algorithm, QStringLiteral("brent-kung"));
  QCOMPARE(scan.explore.tokens, 5);
  QCOMPARE(scan.explore.valueDims, 2);
  QCOMPARE(scan.explore.seed, 3);
  QCOMPARE(scan.explore.scoreShift, -4.0);
  QCOMPARE(scan.explore.step, 0);
  QCOMPARE(scan.explore.litBoxes, (QList<TokenRange>{{0, 4}}));
  QVERIFY(!scan.question);
}

void TestLessonParser::missingFileNamesTheBundledLessons() {
  try {
    readLesson(QStringLiteral("no-such-lesson.json"));
    QFAIL("a missing file was read");
  } catch (const LessonError&) {
    QFAIL("a missing file is not a mistake in a lesson");
  } catch (const std::runtime_error& error) {
    const QString message = QString::fromUtf8(error.what());
    QVERIFY2(message.contains(QStringLiteral("no-such-lesson.json")) && message.contains(QStringLiteral("section3")),
             qPrintable(message));
  }
}

void TestLessonParser::bundledLessonReads() {
  const QList<BundledLesson> bundled = bundledLessons();
  QVERIFY(!bundled.isEmpty());
  // The menu and the Welcome page list them in a course's order.
  QStringList ids;
  for (const BundledLesson& entry : bundled) ids << entry.id;
  QCOMPARE(ids, (QStringList{"section3", "three-rnns", "agent-memory"}));
  for (const BundledLesson& entry : bundled) {
    const Lesson lesson = readLesson(entry.id);
    QCOMPARE(lesson.id, entry.id);
    QCOMPARE(lesson.title, entry.title);
  }
  const Lesson lesson = readLesson(QStringLiteral("section3"));
  QCOMPARE(lesson.title, QStringLiteral("Attention as an RNN in 20 minutes"));
  QVERIFY(lesson.scenes.size() >= 12);
  // The lecture's order (issue: the twelve scenes of section 3).
  const QStringList order{"softmax",       "rnn-view",    "cell",     "underflow",  "printed-typo",    "combine",
                          "hillis-steele", "algorithm-1", "brent-kung", "work-depth", "transformer-rnn", "figure-5"};
  for (int i = 0; i < order.size(); ++i) QCOMPARE(lesson.scenes[i].id, order[i]);
  QVERIFY(sceneWithId(lesson, "underflow").explore.paperStart);
  QVERIFY(sceneWithId(lesson, "printed-typo").explore.printedTypo);
  QVERIFY(sceneWithId(lesson, "algorithm-1").explore.scanErrata);
  QCOMPARE(sceneWithId(lesson, "transformer-rnn").view, QStringLiteral("figure1"));
  QVERIFY(sceneWithId(lesson, "figure-5").onEfficiencyPage());
  // Its narration speaks of the paper's two models: those two stream.
  QCOMPARE(sceneWithId(lesson, "figure-5").efficiency.models,
           (std::vector<ModelKind>{ModelKind::aaren, ModelKind::transformer}));
  int questions = 0;
  for (const LessonScene& scene : lesson.scenes) {
    QVERIFY2(scene.narration.size() > 80, qPrintable(scene.id));
    QVERIFY2(!scene.explore.showAhead, qPrintable(scene.id));  // nothing given away in a lesson
    // Read out in the bar as it is written: no TeX braces such as "Σ_{i≤k}".
    QStringList texts{scene.title, scene.narration};
    if (scene.question) texts << scene.question->prompt << scene.question->answer;
    for (const QString& text : std::as_const(texts))
      for (const char* tex : {"_{", "^{", "\\"})
        QVERIFY2(!text.contains(QLatin1String(tex)), qPrintable(scene.id + QStringLiteral(": ") + text));
    questions += scene.question ? 1 : 0;
  }
  QVERIFY(questions >= 8);
}

void TestLessonParser::bundledQuestionsLightTheCompletedPrefixes() {
  const Lesson lesson = readLesson(QStringLiteral("section3"));
  int checked = 0;
  for (const LessonScene& scene : lesson.scenes) {
    if (scene.view != kLessonScanView || !scene.question || scene.question->revealBoxes.isEmpty()) continue;
    const ScanRun run(inputsOf(scene.explore), methodOf(scene.explore));
    const int step = scene.question->revealStep.value_or(scene.explore.step);
    const int shown = step < 0 ? run.stepCount() : step;
    QList<TokenRange> complete;
    for (int position = 0; position < run.tokens(); ++position)
      if (run.holdsPrefix(shown, position)) complete.append({0, position});
    QCOMPARE(scene.question->revealBoxes, complete);
    ++checked;
  }
  QCOMPARE(checked, 3);  // Hillis-Steele after step 2, Algorithm 1 as printed, Brent-Kung's up-sweep
}

void TestLessonParser::bundledAnswersAreTheCoresNumbers() {
  const Lesson lesson = readLesson(QStringLiteral("section3"));

  // Softmax: the largest weight, its token and its size.
  const LessonScene& softmax = sceneWithId(lesson, "softmax");
  const ExploreInputs typed = inputsOf(softmax.explore);
  double total = 0;
  int largest = 0;
  for (int i = 0; i < typed.tokens(); ++i) {
    total += std::exp(double(typed.scores[std::size_t(i)]));
    if (typed.scores[std::size_t(i)] > typed.scores[std::size_t(largest)]) largest = i;
  }
  const QString weight = twoDecimals(std::exp(double(typed.scores[std::size_t(largest)])) / total);
  QVERIFY2(softmax.question->answer.startsWith(QStringLiteral("Token %1,").arg(largest + 1)),
           qPrintable(softmax.question->answer));
  QVERIFY2(softmax.question->answer.contains(QStringLiteral("≈ ") + weight), qPrintable(weight));

  // The cell: the rescale factor exp(m_3 - m_4) when token 4 brings a new maximum.
  const LessonScene& cell = sceneWithId(lesson, "cell");
  const std::vector<float> s = inputsOf(cell.explore).scores;
  const float m3 = std::max({s[0], s[1], s[2]}), m4 = std::max(m3, s[3]);
  QVERIFY(m4 > m3);
  QVERIFY2(cell.question->answer.contains(QStringLiteral("≈ ") + twoDecimals(std::exp(double(m3 - m4)))),
           qPrintable(cell.question->answer));

  // Erratum 2: the printed weight of token 1, as core/attention/printed_update.hpp computes it.
  const LessonScene& typo = sceneWithId(lesson, "printed-typo");
  const ExploreInputs typoInputs = inputsOf(typo.explore);
  const auto rows = printed_update_trace<float>(std::span<const float>(typoInputs.scores),
                                                std::span<const float>(typoInputs.values), typoInputs.dv);
  QCOMPARE(rows[0].meant, 1.0f);
  QVERIFY2(typo.question->answer.contains(QStringLiteral("≈ ") + twoDecimals(rows[0].printed)),
           qPrintable(typo.question->answer));

  // Work and depth: each scan's counts from the core's trace, in the answer's words.
  const LessonScene& sides = sceneWithId(lesson, "work-depth");
  const ExploreInputs sideInputs = inputsOf(sides.explore);
  QStringList depth, work;
  for (const auto& [method, name] :
       {std::pair{ScanMethod::sequential, "sequential"}, std::pair{ScanMethod::hillis_steele, "Hillis-Steele"},
        std::pair{ScanMethod::brent_kung, "Brent-Kung"}}) {
    const ScanCounts counts = ScanRun(sideInputs, method).totals();
    depth << QStringLiteral("%1 %2").arg(QLatin1String(name)).arg(counts.depth);
    work << QStringLiteral("%1 %2").arg(QLatin1String(name)).arg(counts.work);
  }
  const QString expected =
      QStringLiteral("Depth (steps): %1. Work (combines): %2.").arg(depth.join(", "), work.join(", "));
  QCOMPARE(sides.question->answer, expected);
}

// "Three RNNs inside attention": the state counts its questions and answers quote are core's, and
// the reveal shows the token the answer names.
void TestLessonParser::threeRnnsAnswersAreTheCoresNumbers() {
  const Lesson lesson = readLesson(QStringLiteral("three-rnns"));
  QVERIFY(lesson.scenes.size() >= 8 && lesson.scenes.size() <= 12);
  const auto count = [](RecurrentFamily family, long tokens, int d) {
    return QLocale::c().toString(qulonglong(state_numbers_per_head(family, tokens, d)));
  };
  const LessonScene& sizes = sceneWithId(lesson, "state-sizes");
  QVERIFY(sizes.question);
  QVERIFY(sizes.question->prompt.contains(count(RecurrentFamily::kv_cache, 8, 16)));
  QVERIFY(sizes.question->prompt.contains(count(RecurrentFamily::linear, 8, 16)));
  QVERIFY(sizes.question->answer.contains(QStringLiteral("= %1 > %2").arg(count(RecurrentFamily::kv_cache, 9, 16),
                                                                            count(RecurrentFamily::linear, 9, 16))));
  // The first token at which the cache is larger, and the one the reveal steps to.
  int crossing = 1;
  while (state_numbers_per_head(RecurrentFamily::kv_cache, crossing, 16) <= state_numbers_per_head(RecurrentFamily::linear, crossing, 16))
    ++crossing;
  QCOMPARE(crossing, 9);
  QCOMPARE(sizes.question->revealStep, std::optional<int>(crossing));
  QVERIFY(sizes.narration.contains(count(RecurrentFamily::aaren, 1, 16)));

  // S and z with d_k = 4 features and one value number: m d_v + m = 8.
  const LessonScene& constant = sceneWithId(lesson, "linear-constant-state");
  QCOMPARE(constant.explore.valueDims, 1);
  QCOMPARE(LinearAttentionState<double>(4, 1).state_numbers(), std::size_t(8));
  QVERIFY(constant.question->answer.startsWith(QStringLiteral("Eight")));
  QCOMPARE(sceneWithId(lesson, "favor-error").explore.linearChart, QStringLiteral("error"));
  QCOMPARE(sceneWithId(lesson, "favor-state").explore.featureMap, QStringLiteral("favor"));
}

QTEST_GUILESS_MAIN(TestLessonParser)
#include "tst_lesson_parser.moc"
