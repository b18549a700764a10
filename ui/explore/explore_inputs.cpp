#include "ui/explore/explore_inputs.hpp"

#include <QObject>
#include <QRegularExpression>
#include <QStringList>
#include <cmath>
#include <random>
#include <stdexcept>

#include "core/model/attention_probe.hpp"

namespace aaren::ui {

namespace {

[[noreturn]] void refuse(const QString& message) { throw std::invalid_argument(message.toStdString()); }

QString numbers(qsizetype count) {
  return count == 1 ? QObject::tr("1 number") : QObject::tr("%1 numbers").arg(count);
}

float roundedToHundredths(double x) { return float(std::round(x * 100.0) / 100.0); }

QStringList splitNumbers(const QString& text, const QRegularExpression& separators) {
  return text.split(separators, Qt::SkipEmptyParts);
}

float parseNumber(const QString& word, const QString& where) {
  bool ok = false;
  // The minus sign of typeset text (U+2212) is accepted as well as '-'.
  QString plain = word;
  plain.replace(QChar(0x2212), QLatin1Char('-'));
  const double value = plain.toDouble(&ok);
  if (!ok) refuse(QObject::tr("%1: '%2' is not a number").arg(where, word));
  if (!std::isfinite(value) || std::abs(value) > 1e30)
    refuse(QObject::tr("%1: %2 is too large; use numbers between -1e30 and 1e30").arg(where, word));
  return float(value);
}

void checkTokenCount(int tokens) {
  if (tokens < kMinExploreTokens || tokens > kMaxExploreTokens)
    refuse(QObject::tr("%1 token%2: the Explore page shows %3 to %4")
               .arg(tokens)
               .arg(tokens == 1 ? QString() : QStringLiteral("s"))
               .arg(kMinExploreTokens)
               .arg(kMaxExploreTokens));
}

}  // namespace

ExploreInputs randomInputs(int tokens, int dv, unsigned seed, double scoreShift) {
  checkTokenCount(tokens);
  if (dv < 1 || dv > kMaxExploreValueDims)
    refuse(QObject::tr("values need 1 to %1 dimensions, not %2").arg(kMaxExploreValueDims).arg(dv));
  std::mt19937 rng(seed);
  std::normal_distribution<double> score(0.0, 1.5), value(0.0, 1.0);
  ExploreInputs inputs;
  inputs.dv = dv;
  inputs.scores.resize(std::size_t(tokens));
  inputs.values.resize(std::size_t(tokens) * std::size_t(dv));
  for (float& s : inputs.scores) s = roundedToHundredths(scoreShift + score(rng));
  for (float& v : inputs.values) v = roundedToHundredths(value(rng));
  inputs.origin = scoreShift == 0.0 ? QObject::tr("random, seed %1").arg(seed)
                                    : QObject::tr("random, seed %1, scores shifted by %2").arg(seed).arg(scoreShift);
  return inputs;
}

ExploreInputs parseTypedInputs(const QString& scoresText, const QString& valuesText) {
  static const QRegularExpression scoreSeparators(QStringLiteral("[,;\\s]+"));
  static const QRegularExpression tokenSeparators(QStringLiteral("[;\\n]+"));
  static const QRegularExpression componentSeparators(QStringLiteral("[,\\s]+"));
  ExploreInputs inputs;
  const QStringList scoreWords = splitNumbers(scoresText, scoreSeparators);
  for (qsizetype i = 0; i < scoreWords.size(); ++i)
    inputs.scores.push_back(parseNumber(scoreWords[i], QObject::tr("score %1").arg(i + 1)));
  checkTokenCount(inputs.tokens());

  QStringList tokenTexts;
  for (const QString& text : valuesText.split(tokenSeparators, Qt::SkipEmptyParts))
    if (!text.trimmed().isEmpty()) tokenTexts << text;
  if (tokenTexts.size() != scoreWords.size())
    refuse(QObject::tr("there are %1 scores but %2 values; give one value (1 to %3 numbers) per score, "
                       "separated by ';'")
               .arg(scoreWords.size())
               .arg(tokenTexts.size())
               .arg(kMaxExploreValueDims));
  for (qsizetype i = 0; i < tokenTexts.size(); ++i) {
    const QStringList words = splitNumbers(tokenTexts[i], componentSeparators);
    const QString where = QObject::tr("value %1").arg(i + 1);
    if (words.size() > kMaxExploreValueDims)
      refuse(QObject::tr("%1 has %2; a value has 1 to %3").arg(where, numbers(words.size())).arg(kMaxExploreValueDims));
    if (i == 0) inputs.dv = int(words.size());
    else if (words.size() != inputs.dv)
      refuse(QObject::tr("%1 has %2 but value 1 has %3: give every value the same number of dimensions")
                 .arg(where, numbers(words.size()), numbers(inputs.dv)));
    for (const QString& word : words) inputs.values.push_back(parseNumber(word, where));
  }
  inputs.origin = QObject::tr("typed in");
  return inputs;
}

ExploreInputs inputsFromProbe(const AttentionProbe& probe, const QString& runName) {
  ExploreInputs inputs;
  inputs.scores = probe.scores;
  inputs.values = probe.values;
  inputs.dv = int(probe.value_dims.size());
  QStringList dims;
  for (int dim : probe.value_dims) dims << QString::number(dim);
  inputs.origin = QObject::tr("%1, layer %2, head %3, value dims %4")
                      .arg(runName)
                      .arg(probe.layer)
                      .arg(probe.head)
                      .arg(dims.join(QStringLiteral(", ")));
  return inputs;
}

}  // namespace aaren::ui
