#include "ui/lesson/lesson_parser.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>

#include "core/scan/prefix_scan.hpp"
#include "ui/explore/cell_run.hpp"
#include "ui/explore/explore_inputs.hpp"
#include "ui/explore/scan_run.hpp"
#include "ui/lesson/bundled_lessons.hpp"

namespace aaren::ui {

namespace {

using Kind = JsonNode::Kind;

QString tr(const char* text) { return QObject::tr(text); }

// The scene keys every view takes, and those only some views take (docs/lessons.md).
const QStringList kCommonSceneKeys{"id", "title", "view", "narration", "question"};
const QStringList kExploreSceneKeys{"inputs", "step", "show_ahead", "lit_terms"};
const QStringList kScanSceneKeys{"algorithm", "scan_errata", "lit_boxes"};
const QStringList kCellSceneKeys{"cell_mode", "block_size", "paper_start", "printed_typo"};
const QStringList kLinearSceneKeys{"feature_map", "features", "chart"};
const QStringList kAlgorithms{"sequential", "hillis-steele", "brent-kung", "side-by-side"};
const QStringList kCellModes{"token", "block"};

// Limits of a lesson's short Efficiency run: a few seconds on a laptop, not a measurement.
constexpr int kMaxEfficiencyTokens = 65536;
constexpr int kMaxEfficiencyWidth = 1024;
constexpr int kMaxEfficiencyLayers = 8;
constexpr int kMaxEfficiencyRepeats = 5;

// "a" or "an", as the word starts.
QString article(const QString& word) {
  return QStringLiteral("aeiou").contains(word.left(1).toLower()) && !word.isEmpty() ? QStringLiteral("an")
                                                                                     : QStringLiteral("a");
}

QString quoted(const QStringList& names) {
  QStringList q;
  for (const QString& name : names) q << QLatin1Char('"') + name + QLatin1Char('"');
  return q.join(QStringLiteral(", "));
}

QString numberText(double x) { return QString::number(x, 'g', 12); }

class LessonReader {
 public:
  explicit LessonReader(const QString& source) : source_(source) {}

  Lesson lesson(const JsonNode& root) {
    requireKind(root, Kind::object, tr("a lesson"));
    checkKeys(root, {"format", "version", "id", "title", "scenes"}, tr("the lesson"));
    const JsonNode& format = required(root, "format", tr("the lesson"));
    if (text(format, "format") != kLessonFormat)
      fail(format, tr("'format' must be \"%1\", not \"%2\"").arg(kLessonFormat, format.text));
    const JsonNode& version = required(root, "version", tr("the lesson"));
    const int v = integer(version, "version", 1, 1000);
    if (v > kLessonFormatVersion)
      fail(version, tr("this lesson is version %1; this Aaren Studio reads version %2 (a newer release reads it)")
                        .arg(v)
                        .arg(kLessonFormatVersion));
    Lesson lesson;
    lesson.source = source_;
    lesson.id = QFileInfo(source_).completeBaseName();
    if (lesson.id.endsWith(QLatin1String(".lesson"))) lesson.id.chop(7);  // NAME.lesson.json, the file type's name
    if (const JsonNode* id = root.member("id")) lesson.id = identifier(*id, "id");
    lesson.title = nonEmptyText(required(root, "title", tr("the lesson")), "title");
    const JsonNode& scenes = required(root, "scenes", tr("the lesson"));
    requireKind(scenes, Kind::array, tr("'scenes'"));
    if (scenes.items.empty()) fail(scenes, tr("'scenes' is empty; a lesson needs at least one scene"));
    for (const JsonNode& node : scenes.items) {
      LessonScene scene = this->scene(node, int(lesson.scenes.size()) + 1);
      for (const LessonScene& earlier : lesson.scenes)
        if (earlier.id == scene.id) fail(*node.member("id"), tr("two scenes have the id '%1'").arg(scene.id));
      lesson.scenes.append(scene);
    }
    return lesson;
  }

 private:
  [[noreturn]] void fail(TextPosition where, const QString& reason) const { throw LessonError(source_, where, reason); }
  [[noreturn]] void fail(const JsonNode& node, const QString& reason) const { fail(node.position, reason); }

  void requireKind(const JsonNode& node, Kind kind, const QString& what) const {
    if (node.kind != kind)
      fail(node, tr("%1 must be %2, not %3").arg(what, describeKind(kind), describeKind(node.kind)));
  }

  void checkKeys(const JsonNode& object, const QStringList& allowed, const QString& where) const {
    for (const JsonMember& member : object.members)
      if (!allowed.contains(member.key))
        fail(member.keyPosition,
             tr("unknown key '%1' in %2 (its keys are %3)").arg(member.key, where, quoted(allowed)));
  }

  const JsonNode& required(const JsonNode& object, const char* key, const QString& where) const {
    const JsonNode* node = object.member(QString::fromLatin1(key));
    if (!node) fail(object, tr("%1 has no '%2'").arg(where, QString::fromLatin1(key)));
    return *node;
  }

  QString text(const JsonNode& node, const char* key) const {
    requireKind(node, Kind::string, QStringLiteral("'%1'").arg(QString::fromLatin1(key)));
    return node.text;
  }

  QString nonEmptyText(const JsonNode& node, const char* key) const {
    const QString value = text(node, key).trimmed();
    if (value.isEmpty()) fail(node, tr("'%1' is empty").arg(QString::fromLatin1(key)));
    return value;
  }

  QString identifier(const JsonNode& node, const char* key) const {
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9-]*$"));
    const QString value = text(node, key);
    if (!pattern.match(value).hasMatch())
      fail(
          node,
          tr("'%1' must be letters, digits and '-' (it names files), not \"%2\"").arg(QString::fromLatin1(key), value));
    return value;
  }

  QString choice(const JsonNode& node, const char* key, const QStringList& allowed) const {
    const QString value = text(node, key);
    if (!allowed.contains(value)) {
      const std::string renamed = renamed_scan_note(value.toStdString());
      fail(node, tr("'%1' must be one of %2, not \"%3\"%4")
                     .arg(QString::fromLatin1(key), quoted(allowed), value,
                          renamed.empty() ? QString() : QStringLiteral(" (%1)").arg(QString::fromStdString(renamed))));
    }
    return value;
  }

  bool boolean(const JsonNode& node, const char* key) const {
    requireKind(node, Kind::boolean, QStringLiteral("'%1'").arg(QString::fromLatin1(key)));
    return node.boolean;
  }

  double number(const JsonNode& node, const char* key, double min, double max) const {
    requireKind(node, Kind::number, QStringLiteral("'%1'").arg(QString::fromLatin1(key)));
    if (node.number < min || node.number > max)
      fail(node, tr("'%1' must be from %2 to %3, not %4")
                     .arg(QString::fromLatin1(key), numberText(min), numberText(max), numberText(node.number)));
    return node.number;
  }

  int integer(const JsonNode& node, const char* key, int min, int max) const {
    requireKind(node, Kind::number, QStringLiteral("'%1'").arg(QString::fromLatin1(key)));
    if (node.number != std::floor(node.number) || node.number < min || node.number > max)
      fail(node, tr("'%1' must be a whole number from %2 to %3, not %4")
                     .arg(QString::fromLatin1(key))
                     .arg(min)
                     .arg(max)
                     .arg(numberText(node.number)));
    return int(node.number);
  }

  LessonScene scene(const JsonNode& node, int number) {
    const QString where = tr("scene %1").arg(number);
    requireKind(node, Kind::object, where);
    LessonScene scene;
    const JsonNode& viewNode = required(node, "view", where);
    scene.view = choice(viewNode, "view", {kLessonScanView, kLessonCellView, kLessonFigureView, kLessonLinearView, kLessonStateView,
                                         kLessonEfficiencyView, kLessonActView});
    QStringList allowed = kCommonSceneKeys;
    if (scene.view == kLessonEfficiencyView)
      allowed << QStringLiteral("efficiency");
    else if (scene.view == kLessonActView)
      allowed << QStringLiteral("act");
    else
      allowed << kExploreSceneKeys;
    if (scene.view == kLessonScanView) allowed << kScanSceneKeys;
    if (scene.view == kLessonCellView) allowed << kCellSceneKeys;
    if (scene.view == kLessonLinearView) allowed << kLinearSceneKeys;
    checkKeys(node, allowed, QStringLiteral("%1 %2").arg(article(scene.view), tr("%1 scene").arg(scene.view)));

    scene.id = QStringLiteral("scene-%1").arg(number);
    if (const JsonNode* id = node.member("id")) scene.id = identifier(*id, "id");
    scene.title = nonEmptyText(required(node, "title", where), "title");
    scene.narration = nonEmptyText(required(node, "narration", where), "narration");
    scene.explore.view = scene.onExplorePage() ? scene.view : QString();

    if (scene.onForecastPage()) {
      if (const JsonNode* act = node.member("act")) scene.act = this->act(*act);
    } else if (scene.onEfficiencyPage()) {
      if (const JsonNode* run = node.member("efficiency"))
        scene.efficiency = efficiency(*run);
      else
        scene.efficiency = defaultEfficiencyRun();
    } else {
      exploreChoices(node, scene.explore);
    }
    if (const JsonNode* question = node.member("question")) scene.question = this->question(*question, scene);
    return scene;
  }

  void exploreChoices(const JsonNode& node, ExploreScene& explore) {
    const JsonNode* inputsNode = node.member("inputs");
    if (inputsNode) inputs(*inputsNode, explore);
    const ExploreInputs numbers = explore.scores.isEmpty() ? randomInputs(explore.tokens, explore.valueDims,
                                                                          unsigned(explore.seed), explore.scoreShift)
                                                           : typedInputs(explore, *inputsNode);
    explore.tokens = numbers.tokens();
    tokens_ = numbers.tokens();

    if (const JsonNode* n = node.member("algorithm")) explore.algorithm = choice(*n, "algorithm", kAlgorithms);
    if (const JsonNode* n = node.member("scan_errata")) {
      explore.scanErrata = boolean(*n, "scan_errata");
      if (explore.scanErrata && explore.algorithm != QLatin1String("hillis-steele"))
        fail(*n, tr("'scan_errata' shows the printed and the corrected Hillis-Steele loop; leave out 'algorithm' or "
                    "make it \"hillis-steele\""));
    }
    if (const JsonNode* n = node.member("cell_mode")) explore.cellMode = choice(*n, "cell_mode", kCellModes);
    if (const JsonNode* n = node.member("block_size")) {
      if (explore.cellMode != QLatin1String("block")) fail(*n, tr("'block_size' needs \"cell_mode\": \"block\""));
      explore.blockSize = integer(*n, "block_size", 1, explore.tokens);
    }
    if (const JsonNode* n = node.member("paper_start")) explore.paperStart = boolean(*n, "paper_start");
    if (const JsonNode* n = node.member("printed_typo")) explore.printedTypo = boolean(*n, "printed_typo");
    if (const JsonNode* n = node.member("show_ahead")) explore.showAhead = boolean(*n, "show_ahead");
    if (const JsonNode* n = node.member("feature_map"))
      explore.featureMap = choice(*n, "feature_map", {QStringLiteral("elu1"), QStringLiteral("relu"), QStringLiteral("favor")});
    if (const JsonNode* n = node.member("features")) {
      if (explore.featureMap != QLatin1String("favor")) fail(*n, tr("'features' needs \"feature_map\": \"favor\""));
      explore.features = integer(*n, "features", 1, 1024);
    }
    if (const JsonNode* n = node.member("chart"))
      explore.linearChart = choice(*n, "chart", {QStringLiteral("output"), QStringLiteral("error"), QStringLiteral("state")});

    stepCount_ = stepCount(explore, numbers);
    if (const JsonNode* n = node.member("step")) explore.step = step(*n);
    if (const JsonNode* n = node.member("lit_boxes")) explore.litBoxes = boxes(*n, "lit_boxes");
    if (const JsonNode* n = node.member("lit_terms")) explore.litTerms = terms(*n, "lit_terms");
  }

  void inputs(const JsonNode& node, ExploreScene& explore) const {
    requireKind(node, Kind::object, tr("'inputs'"));
    checkKeys(node, {"tokens", "value_dims", "seed", "score_shift", "scores", "values"}, tr("'inputs'"));
    const JsonNode* scores = node.member("scores");
    const JsonNode* values = node.member("values");
    if (const JsonNode* n = node.member("tokens")) {
      if (scores) fail(*n, tr("give 'tokens' or 'scores', not both: the scores' count is N"));
      explore.tokens = integer(*n, "tokens", kMinExploreTokens, kMaxExploreTokens);
    }
    if (const JsonNode* n = node.member("value_dims")) {
      if (values) fail(*n, tr("give 'value_dims' or 'values', not both: the values say their size"));
      explore.valueDims = integer(*n, "value_dims", 1, kMaxExploreValueDims);
    }
    if (const JsonNode* n = node.member("seed")) explore.seed = integer(*n, "seed", 0, 1 << 30);
    if (const JsonNode* n = node.member("score_shift")) explore.scoreShift = number(*n, "score_shift", -1000, 1000);
    if (values && !scores) fail(*values, tr("'values' need 'scores' beside them"));
    if (scores) explore.scores = scoreText(*scores);
    if (values) explore.values = valueText(*values);
  }

  QString scoreText(const JsonNode& node) const {
    requireKind(node, Kind::array, tr("'scores'"));
    if (node.items.size() < std::size_t(kMinExploreTokens) || node.items.size() > std::size_t(kMaxExploreTokens))
      fail(node, tr("'scores' must list %1 to %2 numbers, not %3")
                     .arg(kMinExploreTokens)
                     .arg(kMaxExploreTokens)
                     .arg(node.items.size()));
    QStringList parts;
    for (const JsonNode& item : node.items) parts << numberText(number(item, "scores", -1e6, 1e6));
    return parts.join(QStringLiteral(", "));
  }

  // One token's value: a number, or a list of 1 to 3 numbers.
  QString valueText(const JsonNode& node) const {
    requireKind(node, Kind::array, tr("'values'"));
    QStringList tokens;
    std::size_t dims = 0;
    for (const JsonNode& item : node.items) {
      QStringList parts;
      if (item.kind == Kind::array) {
        if (item.items.empty() || item.items.size() > std::size_t(kMaxExploreValueDims))
          fail(item, tr("a value must have 1 to %1 numbers, not %2").arg(kMaxExploreValueDims).arg(item.items.size()));
        for (const JsonNode& x : item.items) parts << numberText(number(x, "values", -1e6, 1e6));
      } else {
        parts << numberText(number(item, "values", -1e6, 1e6));
      }
      if (dims != 0 && std::size_t(parts.size()) != dims)
        fail(item, tr("every value must have %1 numbers, like the first; this one has %2").arg(dims).arg(parts.size()));
      dims = std::size_t(parts.size());
      tokens << parts.join(QLatin1Char(' '));
    }
    return tokens.join(QStringLiteral("; "));
  }

  // Scores without values get random values of the seed on the page; any values of the right
  // count stand in for them here, where only N and the values' shape matter.
  ExploreInputs typedInputs(const ExploreScene& explore, const JsonNode& inputsNode) const {
    try {
      if (explore.values.isEmpty()) {
        const qsizetype count = inputsNode.member("scores")->items.size();
        return parseTypedInputs(explore.scores, QStringList(count, QStringLiteral("0")).join(QLatin1Char(';')));
      }
      return parseTypedInputs(explore.scores, explore.values);
    } catch (const std::invalid_argument& error) {
      const JsonNode* at = inputsNode.member("values");
      fail(at ? *at : inputsNode, QString::fromUtf8(error.what()));
    }
  }

  // The positions the scene's view has (docs/lessons.md: "step").
  static int stepCount(const ExploreScene& explore, const ExploreInputs& numbers) {
    if (explore.view == kLessonFigureView || explore.view == kLessonLinearView || explore.view == kLessonStateView)
      return numbers.tokens();
    if (explore.view == kLessonCellView)
      return explore.cellMode == QLatin1String("block") ? int(BlockRun(numbers, explore.blockSize).frames().size())
                                                        : numbers.tokens();
    QList<ScanMethod> methods;
    if (explore.scanErrata)
      methods = {ScanMethod::hillis_steele_as_printed, ScanMethod::hillis_steele};
    else if (explore.algorithm == QLatin1String("sequential"))
      methods = {ScanMethod::sequential};
    else if (explore.algorithm == QLatin1String("brent-kung"))
      methods = {ScanMethod::brent_kung};
    else if (explore.algorithm == QLatin1String("side-by-side"))
      methods = {ScanMethod::sequential, ScanMethod::hillis_steele, ScanMethod::brent_kung};
    else
      methods = {ScanMethod::hillis_steele};
    int steps = 0;
    for (ScanMethod method : methods) steps = std::max(steps, ScanRun(numbers, method).stepCount());
    return steps;
  }

  int step(const JsonNode& node) const {
    if (node.kind == Kind::string) {
      if (node.text != QLatin1String("last"))
        fail(node, tr("'step' must be a number or \"last\", not \"%1\"").arg(node.text));
      return -1;
    }
    if (node.kind != Kind::number)
      fail(node, tr("'step' must be a number or \"last\", not %1").arg(describeKind(node.kind)));
    if (node.number != std::floor(node.number) || node.number < 0 || node.number > stepCount_)
      fail(node, tr("'step' must be a whole number from 0 to %1 (this view has %1 steps), not %2")
                     .arg(stepCount_)
                     .arg(numberText(node.number)));
    return int(node.number);
  }

  QList<TokenRange> boxes(const JsonNode& node, const char* key) const {
    requireKind(node, Kind::array, QStringLiteral("'%1'").arg(QString::fromLatin1(key)));
    QList<TokenRange> ranges;
    for (const JsonNode& item : node.items) {
      if (item.kind != Kind::array || item.items.size() != 2)
        fail(item, tr("each of '%1' is [first, last], two token numbers from 1 to %2")
                       .arg(QString::fromLatin1(key))
                       .arg(tokens_));
      const int first = integer(item.items[0], key, 1, tokens_);
      const int last = integer(item.items[1], key, 1, tokens_);
      if (last < first) fail(item, tr("[%1, %2]: the last token comes before the first").arg(first).arg(last));
      ranges.append({first - 1, last - 1});
    }
    return ranges;
  }

  QStringList terms(const JsonNode& node, const char* key) const {
    requireKind(node, Kind::array, QStringLiteral("'%1'").arg(QString::fromLatin1(key)));
    QStringList names;
    for (const JsonNode& item : node.items) names << nonEmptyText(item, key);
    return names;
  }

  LessonQuestion question(const JsonNode& node, const LessonScene& scene) const {
    requireKind(node, Kind::object, tr("'question'"));
    checkKeys(node, {"prompt", "answer", "reveal"}, tr("'question'"));
    LessonQuestion question;
    question.prompt = nonEmptyText(required(node, "prompt", tr("'question'")), "prompt");
    question.answer = nonEmptyText(required(node, "answer", tr("'question'")), "answer");
    const JsonNode* reveal = node.member("reveal");
    if (!reveal) return question;
    requireKind(*reveal, Kind::object, tr("'reveal'"));
    if (!scene.onExplorePage() && !reveal->members.empty())
      fail(*reveal, tr("an %1 scene's reveal shows the answer only; leave 'reveal' out").arg(scene.view));
    QStringList allowed{"step", "lit_terms"};
    if (scene.view == kLessonScanView) allowed << QStringLiteral("lit_boxes");
    checkKeys(*reveal, allowed, tr("'reveal' of a %1 scene").arg(scene.view));
    if (const JsonNode* n = reveal->member("step")) question.revealStep = step(*n);
    if (const JsonNode* n = reveal->member("lit_boxes")) question.revealBoxes = boxes(*n, "lit_boxes");
    if (const JsonNode* n = reveal->member("lit_terms")) question.revealTerms = terms(*n, "lit_terms");
    return question;
  }

  // The models an efficiency scene streams, by their file names, each once, at least one.
  std::vector<ModelKind> models(const JsonNode& node) const {
    requireKind(node, Kind::array, tr("'models'"));
    std::vector<ModelKind> kinds;
    for (const JsonNode& item : node.items) {
      const QString name = nonEmptyText(item, "models");
      const std::optional<ModelKind> kind = model_kind_from_string(name.toStdString());
      if (!kind) fail(item, tr("'models': '%1' is not aaren, transformer or linear").arg(name));
      if (std::find(kinds.begin(), kinds.end(), *kind) != kinds.end())
        fail(item, tr("'models': '%1' is named twice").arg(name));
      kinds.push_back(*kind);
    }
    if (kinds.empty()) fail(node, tr("'models' names no model"));
    return kinds;
  }

  static EfficiencyChoice defaultEfficiencyRun() {
    EfficiencyChoice run;
    // The paper's Figure 5: Aaren and the Transformer, unless a scene names its models.
    run.models = {ModelKind::aaren, ModelKind::transformer};
    run.model.d_model = 64;
    run.model.heads = 4;
    run.model.layers = 2;
    run.model.d_ff = 128;
    run.tokens = 4096;
    run.repeats = 1;
    return run;
  }

  EfficiencyChoice efficiency(const JsonNode& node) const {
    requireKind(node, Kind::object, tr("'efficiency'"));
    checkKeys(node, {"models", "tokens", "d_model", "heads", "layers", "d_ff", "repeats"}, tr("'efficiency'"));
    EfficiencyChoice run = defaultEfficiencyRun();
    if (const JsonNode* n = node.member("models")) run.models = models(*n);
    if (const JsonNode* n = node.member("tokens")) run.tokens = integer(*n, "tokens", 16, kMaxEfficiencyTokens);
    if (const JsonNode* n = node.member("d_model")) run.model.d_model = integer(*n, "d_model", 1, kMaxEfficiencyWidth);
    const JsonNode* heads = node.member("heads");
    if (heads) run.model.heads = integer(*heads, "heads", 1, kMaxEfficiencyWidth);
    if (const JsonNode* n = node.member("layers")) run.model.layers = integer(*n, "layers", 1, kMaxEfficiencyLayers);
    if (const JsonNode* n = node.member("d_ff")) run.model.d_ff = integer(*n, "d_ff", 1, 4 * kMaxEfficiencyWidth);
    if (const JsonNode* n = node.member("repeats")) run.repeats = integer(*n, "repeats", 1, kMaxEfficiencyRepeats);
    if (run.model.d_model % run.model.heads != 0)
      fail(heads ? *heads : node,
           tr("'heads' (%1) must divide 'd_model' (%2)").arg(run.model.heads).arg(run.model.d_model));
    return run;
  }

  // A run named relative to the lesson file is found beside it.
  ActScene act(const JsonNode& node) const {
    requireKind(node, Kind::object, tr("'act'"));
    checkKeys(node, {"run", "mode", "seed", "step"}, tr("'act'"));
    ActScene scene;
    if (const JsonNode* n = node.member("run")) {
      const QString run = nonEmptyText(*n, "run");
      scene.run = QDir::cleanPath(QFileInfo(source_).dir().absoluteFilePath(run));
    }
    if (const JsonNode* n = node.member("mode"))
      scene.mode = choice(*n, "mode", {QStringLiteral("window"), QStringLiteral("stream")}) == QLatin1String("stream")
                       ? rl::ActMode::stream
                       : rl::ActMode::window;
    if (const JsonNode* n = node.member("seed")) scene.seed = integer(*n, "seed", 0, 1'000'000'000);
    if (const JsonNode* n = node.member("step")) scene.step = integer(*n, "step", 0, 1'000'000);
    return scene;
  }

  QString source_;
  int tokens_ = 0;     // N of the scene being read
  int stepCount_ = 0;  // the positions its view has
};

}  // namespace

LessonError::LessonError(const QString& file, TextPosition position, const QString& reason)
    : std::runtime_error(
          QStringLiteral("%1:%2:%3: %4").arg(file).arg(position.line).arg(position.column).arg(reason).toStdString()),
      file_(file),
      position_(position),
      reason_(reason) {}

Lesson parseLesson(const QByteArray& text, const QString& source) {
  JsonNode root;
  try {
    root = readPositionedJson(text);
  } catch (const PositionedError& error) {
    throw LessonError(source, error.position(), error.reason());
  }
  return LessonReader(source).lesson(root);
}

Lesson readLesson(const QString& fileOrId) {
  const QString bundled = bundledLessonPath(fileOrId);
  const QString path = !QFileInfo::exists(fileOrId) && !bundled.isEmpty() ? bundled : fileOrId;
  QFile file(path);
  if (!QFileInfo(path).isFile())
    throw std::runtime_error(
        QObject::tr("cannot read the lesson '%1': there is no such file (the bundled lessons are %2)")
            .arg(fileOrId,
                 [] {
                   QStringList ids;
                   for (const BundledLesson& lesson : bundledLessons()) ids << lesson.id;
                   return ids.join(QStringLiteral(", "));
                 }())
            .toStdString());
  if (!file.open(QIODevice::ReadOnly))
    throw std::runtime_error(
        QObject::tr("cannot read the lesson '%1': %2").arg(fileOrId, file.errorString()).toStdString());
  return parseLesson(file.readAll(), path);
}

}  // namespace aaren::ui
