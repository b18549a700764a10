#include "ui/wording/growth_wording.hpp"

#include <QLocale>
#include <QObject>
#include <QStringList>

#include "core/bench/stream_summary.hpp"
#include "ui/wording/model_names.hpp"

namespace aaren::ui {

namespace {

QString tr(const char* text) { return QObject::tr(text); }
QString fixed(double value) { return QLocale().toString(value, 'f', 2); }
// A constant state: each token costs the same, so its curve should be straight.
bool constantState(ModelKind model) { return model != ModelKind::transformer; }

}  // namespace

QString exponentWithRange(const bench::GrowthFit& fit) {
  if (fit.passes < 2) return tr("%1 (one run)").arg(fixed(fit.time_exponent));
  return tr("%1 (%2\u2013%3 over %4 runs)")
      .arg(fixed(fit.time_exponent), fixed(fit.time_exponent_low), fixed(fit.time_exponent_high))
      .arg(fit.passes);
}

QString growthSentence(const bench::GrowthFit& fit, ModelKind model) {
  const QString name = displayName(model);
  switch (bench::growth_shape(fit)) {
    case bench::GrowthShape::unmeasured:
      return tr("%1: too few samples stood clear of the noise to fit an exponent; stream more tokens.").arg(name);
    case bench::GrowthShape::single_pass:
      return tr("%1: time \u221d N^%2; repeat the run to know how far to trust it.").arg(name, exponentWithRange(fit));
    case bench::GrowthShape::straight:
      return constantState(model) ? tr("%1: time \u221d N^%2, a straight line: a constant cost per token.")
                              .arg(name, exponentWithRange(fit))
                        : tr("%1: time \u221d N^%2, still a straight line at this N: its fixed cost per token "
                             "outweighs the growing attention; a longer run shows the bend.")
                              .arg(name, exponentWithRange(fit));
    case bench::GrowthShape::bends_upward:
      return constantState(model) ? tr("%1: time \u221d N^%2, bending upward on this machine now: something else slowed its "
                             "later steps (another program?); run it again.")
                              .arg(name, exponentWithRange(fit))
                        : tr("%1: time \u221d N^%2, bending upward: each token costs more than the last.")
                              .arg(name, exponentWithRange(fit));
    case bench::GrowthShape::uncertain:
      return tr("%1: time \u221d N^%2; the runs disagree too much to call the curve straight or bent. Close other "
                "programs or raise Repeats.")
          .arg(name, exponentWithRange(fit));
  }
  return {};
}

namespace {

// The shape in a few words, for the answer under a question, where room is short.
QString shortShape(const bench::GrowthFit& fit, ModelKind model) {
  switch (bench::growth_shape(fit)) {
    case bench::GrowthShape::unmeasured: return tr("too few samples above the noise to fit; stream more tokens");
    case bench::GrowthShape::single_pass: return tr("from one run: repeat it to know how far to trust it");
    case bench::GrowthShape::straight:
      return constantState(model) ? tr("a straight line") : tr("still straight at this N; a longer run shows the bend");
    case bench::GrowthShape::bends_upward:
      return constantState(model) ? tr("bending upward: something else slowed it; run it again") : tr("bending upward");
    case bench::GrowthShape::uncertain:
      return tr("the runs disagree too much to tell; close other programs or raise Repeats");
  }
  return {};
}

QString shortModel(const bench::GrowthFit& fit, ModelKind model) {
  if (bench::growth_shape(fit) == bench::GrowthShape::unmeasured)
    return tr("%1 %2").arg(displayName(model), shortShape(fit, model));
  return tr("%1 N^%2, %3").arg(displayName(model), exponentWithRange(fit), shortShape(fit, model));
}

}  // namespace

QString measuredGrowthAnswer(const bench::StreamBenchResult& result) {
  if (result.samples.empty()) return tr("Measured here: nothing yet; the run stopped before its first sample.");
  QStringList models;
  const bench::GrowthFit* reference = nullptr;
  for (const ModelKind kind : result.kinds) {
    const bench::GrowthFit& fit = result.fit[bench::stream_model_index(kind)];
    models << shortModel(fit, kind);
    if (!reference && fit.fit_points > 0) reference = &fit;
  }
  const QString range = reference ? tr(", N = %1\u2013%2").arg(QLocale().toString(qlonglong(reference->fit_from_tokens)),
                                                               QLocale().toString(qlonglong(reference->fit_to_tokens)))
                                  : QString();
  return tr("Measured here%1: %2.").arg(range, models.join(QStringLiteral("; ")));
}

}  // namespace aaren::ui
