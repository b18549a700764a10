#include <QImage>
#include <QRegularExpression>
#include <algorithm>
#include <stdexcept>

#include "ui/explore/cell_tab.hpp"
#include "ui/explore/explore_page.hpp"
#include "ui/explore/explore_scene.hpp"
#include "ui/explore/formula_panel.hpp"
#include "ui/explore/frame_export.hpp"
#include "ui/explore/input_panel.hpp"
#include "ui/explore/linear_attention_view.hpp"
#include "ui/explore/scan_tab.hpp"

// ExplorePage::applyScene: a lesson scene (docs/lessons.md) shown on the page's own controls, so
// that after it the lecturer can go on by hand from exactly what the class sees.

namespace aaren::ui {

namespace {

[[noreturn]] void refuse(const QString& message) { throw std::invalid_argument(message.toStdString()); }

ScanDisplay scanDisplayNamed(const QString& name) {
  if (name == QLatin1String("sequential")) return ScanDisplay::sequential;
  if (name == QLatin1String("hillis-steele")) return ScanDisplay::hillisSteele;
  if (name == QLatin1String("brent-kung")) return ScanDisplay::brentKung;
  if (name == QLatin1String("side-by-side")) return ScanDisplay::sideBySide;
  refuse(QObject::tr("algorithm '%1' is not one of sequential, hillis-steele, brent-kung, side-by-side").arg(name));
}

CellMode cellModeNamed(const QString& name) {
  if (name == QLatin1String("token")) return CellMode::tokenByToken;
  if (name == QLatin1String("block")) return CellMode::blockByBlock;
  refuse(QObject::tr("cell mode '%1' is not one of token, block").arg(name));
}

void checkNumbers(const ExploreScene& scene) {
  if (scene.scores.isEmpty() && (scene.tokens < kMinExploreTokens || scene.tokens > kMaxExploreTokens))
    refuse(QObject::tr("tokens %1 is outside %2..%3").arg(scene.tokens).arg(kMinExploreTokens).arg(kMaxExploreTokens));
  if (scene.valueDims < 1 || scene.valueDims > kMaxExploreValueDims)
    refuse(QObject::tr("valueDims %1 is outside 1..%2").arg(scene.valueDims).arg(kMaxExploreValueDims));
  if (scene.seed < 0) refuse(QObject::tr("seed %1 is negative").arg(scene.seed));
  if (scene.blockSize < 1) refuse(QObject::tr("blockSize %1 is below 1").arg(scene.blockSize));
  if (scene.step < -1) refuse(QObject::tr("step %1 is below 0 (-1 means the last step)").arg(scene.step));
}

// Typed scores with values: the scene's, or random values of its seed for as many tokens.
ExploreInputs typedInputs(const ExploreScene& scene, QString& valuesText) {
  valuesText = scene.values;
  if (valuesText.trimmed().isEmpty()) {
    static const QRegularExpression scoreSeparators(QStringLiteral("[,;\\s]+"));
    const int count = int(scene.scores.split(scoreSeparators, Qt::SkipEmptyParts).size());
    const ExploreInputs random = randomInputs(count, scene.valueDims, unsigned(scene.seed));
    QStringList tokens;
    for (int t = 0; t < count; ++t) {
      QStringList components;
      for (int j = 0; j < random.dv; ++j) components << QString::number(random.value(t)[j]);
      tokens << components.join(QLatin1Char(' '));
    }
    valuesText = tokens.join(QStringLiteral("; "));
  }
  return parseTypedInputs(scene.scores, valuesText);
}

}  // namespace

void ExplorePage::applyScene(const ExploreScene& scene) {
  int index = -1;
  QStringList ids;
  for (int i = 0; i < views_.size(); ++i) {
    ids << views_[i]->id();
    if (views_[i]->id() == scene.view) index = i;
  }
  if (index < 0) refuse(tr("view '%1' is not one of %2").arg(scene.view, ids.join(QStringLiteral(", "))));
  checkNumbers(scene);
  const ScanDisplay display = scanDisplayNamed(scene.algorithm);
  const CellMode mode = cellModeNamed(scene.cellMode);

  if (scene.scores.isEmpty()) {
    inputs_->setRandom(scene.tokens, scene.valueDims, scene.seed, scene.scoreShift);
  } else {
    QString valuesText;
    typedInputs(scene, valuesText);  // throws std::invalid_argument naming the wrong entry
    inputs_->setTyped(scene.scores, valuesText);
  }
  const int tokens = inputs_->inputs().tokens();
  for (const TokenRange& range : scene.litBoxes)
    if (range.first < 0 || range.first > range.last || range.last >= tokens)
      refuse(tr("lit boxes %1..%2 are not tokens within 1..%3 (0-based first <= last < %3)")
                 .arg(range.first)
                 .arg(range.last)
                 .arg(tokens));
  // A block holds at most every token; only a scene that shows blocks asks for more by mistake.
  if (mode == CellMode::blockByBlock && scene.blockSize > tokens) refuse(tr("blockSize %1 is more than the %2 tokens").arg(scene.blockSize).arg(tokens));

  scan_->setErrata(scene.scanErrata);
  scan_->setDisplay(display);
  cell_->setMode(mode);
  cell_->setBlockSize(std::min(scene.blockSize, tokens));
  cell_->setPaperStart(scene.paperStart);
  cell_->setPrintedTypo(scene.printedTypo);
  const std::optional<FeatureMapKind> featureMap = feature_map_from_string(scene.featureMap.toStdString());
  if (!featureMap) refuse(tr("feature map '%1' is not one of elu1, relu, favor").arg(scene.featureMap));
  const QStringList charts{QStringLiteral("output"), QStringLiteral("error"), QStringLiteral("state")};
  if (!charts.contains(scene.linearChart)) refuse(tr("chart '%1' is not one of %2").arg(scene.linearChart, charts.join(QStringLiteral(", "))));
  linear_->setFeatureMap(*featureMap, scene.features);
  linear_->setChart(LinearAttentionView::Chart(charts.indexOf(scene.linearChart)));
  setShowAhead(scene.showAhead);
  setAnswerWithheld(scene.answerWithheld);
  showView(index);

  StepController& controller = currentView().controller();
  if (scene.step > controller.count())
    refuse(tr("step %1 is past the last step (%2) of the %3 view").arg(scene.step).arg(controller.count()).arg(scene.view));
  controller.setPosition(scene.step < 0 ? controller.count() : scene.step);
  scan_->setLitRanges(scene.litBoxes);
  formula_->setLitTerms(scene.litTerms);
}

QImage ExplorePage::renderStage() { return renderView(*stage_); }

}  // namespace aaren::ui
