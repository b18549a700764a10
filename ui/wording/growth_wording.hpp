#pragma once
// What a streaming run's fitted growth may be called in front of a class, and no more than that
// (core/bench/stream_summary.hpp: growth_shape). A straight line is claimed only when every pass
// fitted alone lies within 0.1 of exponent 1; a bend only when every pass lies above 1.1; runs that
// disagree, or a single run, are reported with their numbers and what to do for a clearer answer.
#include <QString>

#include "core/bench/stream_bench.hpp"

namespace aaren::ui {

// "1.02 (0.98–1.05 over 3 runs)", "1.02 (one run)".
QString exponentWithRange(const bench::GrowthFit& fit);
// One sentence on one model's cumulative-time curve: its exponent, its range and its shape. Aaren
// and the linear Transformer keep a constant state, so a straight line is what they should draw;
// the Transformer's cost grows with its cache, so its straight line says the run was short.
QString growthSentence(const bench::GrowthFit& fit, ModelKind model);
// The measured half of the Figure 5 scene's answer, short: the fitted range of N, each streamed
// model's exponent with its range and its shape in a few words.
QString measuredGrowthAnswer(const bench::StreamBenchResult& result);

}  // namespace aaren::ui
