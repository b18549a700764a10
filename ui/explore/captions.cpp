#include "ui/explore/captions.hpp"

#include <QObject>
#include <QStringList>
#include <cmath>

#include "ui/explore/cell_run.hpp"
#include "ui/explore/explore_style.hpp"
#include "ui/explore/scan_run.hpp"
#include "ui/explore/stream_run.hpp"

namespace aaren::ui {

namespace {

QString tr(const char* text) { return QObject::tr(text); }

int completePrefixes(const ScanRun& run, int step) {
  int count = 0;
  for (int i = 0; i < run.tokens(); ++i) count += run.holdsPrefix(step, i) ? 1 : 0;
  return count;
}

QString doneSentence(const ScanRun& run) {
  return tr("Done: %1 parallel steps, %2 combines in all.").arg(run.totals().depth).arg(run.totals().work);
}

// The scan often taught as Blelloch's is this inclusive one; his published scan is exclusive. Its
// count is 2(N - 1) for N a power of two (it pads other lengths up to one).
// Without show ahead the count stays out: the class is asked to predict combine counts.
QString blellochDifference(int n, bool withCount) {
  const bool powerOfTwo = n > 0 && (n & (n - 1)) == 0;
  return powerOfTwo && withCount ? tr("Not Blelloch's published scan: that one is exclusive, sets the root to the identity and swaps "
                         "on the way down, %1 combines.")
                          .arg(2 * (n - 1))
                    : tr("Not Blelloch's published scan: that one is exclusive, sets the root to the identity and swaps "
                         "on the way down.");
}

// "1 combine", "3 combines": a step of a short scan may have only one.
QString combinesNoun(int combines) {
  return combines == 1 ? tr("1 combine") : tr("%1 combines").arg(combines);
}

bool upSweep(const ScanRun& run, int step) { return step == 1 || run.offset(step) > run.offset(step - 1); }

// Without show ahead the step and combine counts are what the class is asked to predict: the
// opening sentence names the method only, and the totals come with the last step.
QString startSentence(const ScanRun& run, bool showAhead) {
  const int n = run.tokens();
  if (!showAhead) {
    switch (run.method()) {
      case ScanMethod::sequential:
        return tr("%1 tokens, each a state (s, 1, v). The sequential scan folds them in one after another.").arg(n);
      case ScanMethod::hillis_steele:
        return tr("%1 tokens, each a state (s, 1, v). Hillis\u2013Steele combines every position with the one 1, 2, "
                  "4, \u2026 places to its left, all positions at once.")
            .arg(n);
      case ScanMethod::brent_kung:
        return tr("%1 tokens, each a state (s, 1, v). Brent\u2013Kung first sums blocks up a tree (up-sweep), then "
                  "hands the prefixes down (down-sweep). %2")
            .arg(n)
            .arg(blellochDifference(n, false));
      case ScanMethod::hillis_steele_as_printed: break;
    }
  }
  switch (run.method()) {
    case ScanMethod::sequential:
      return tr("%1 tokens, each a state (s, 1, v). The sequential scan folds them in one after another: %2 steps.")
          .arg(n)
          .arg(run.totals().depth);
    case ScanMethod::hillis_steele:
      return tr("%1 tokens, each a state (s, 1, v). Hillis\u2013Steele combines every position with the one 1, 2, 4, "
                "\u2026 places to its left: %2 steps, all positions at once.")
          .arg(n)
          .arg(run.totals().depth);
    case ScanMethod::brent_kung:
      return tr("%1 tokens, each a state (s, 1, v). Brent\u2013Kung first sums blocks up a tree (up-sweep), then hands "
                "the prefixes down (down-sweep): %2 steps, only %3 combines. %4")
          .arg(n)
          .arg(run.totals().depth)
          .arg(run.totals().work)
          .arg(blellochDifference(n, true));
    case ScanMethod::hillis_steele_as_printed:
      return tr("%1 tokens. Algorithm 1 as printed loops i = 1..\u2308log\u2082 N\u2309 with offset 2^i, so it "
                "starts at offset 2: offset 1 never runs.")
          .arg(n);
  }
  return {};
}

}  // namespace

QString methodName(ScanMethod method) {
  switch (method) {
    case ScanMethod::sequential: return tr("Sequential");
    case ScanMethod::hillis_steele: return tr("Hillis\u2013Steele");
    case ScanMethod::brent_kung: return tr("Brent\u2013Kung");
    case ScanMethod::hillis_steele_as_printed: return tr("Algorithm 1 as printed");
  }
  return {};
}

QString scanCaption(const ScanRun& run, int step, bool showAhead) {
  if (step == 0) return startSentence(run, showAhead);
  const int combines = int(run.combines(step).size());
  const int offset = run.offset(step);
  const int complete = completePrefixes(run, step);
  QString text;
  switch (run.method()) {
    case ScanMethod::sequential:
      text = tr("Step %1: position %2 takes in the prefix 1..%1 to its left. One combine per step: the steps "
                "cannot overlap.")
                 .arg(step)
                 .arg(step + 1);
      break;
    case ScanMethod::hillis_steele:
    case ScanMethod::hillis_steele_as_printed:
      text = tr("Step %1, offset %2: every position from %3 on takes in the state %2 places to its left, %4 "
                "at once. %5 of %6 prefixes are complete.")
                 .arg(step)
                 .arg(offset)
                 .arg(offset + 1)
                 .arg(combinesNoun(combines))
                 .arg(complete)
                 .arg(run.tokens());
      break;
    case ScanMethod::brent_kung:
      text = upSweep(run, step)
                 ? tr("Up-sweep, offset %1: %2 sum%3 blocks of %4 tokens, like a tournament tree. %5 of %6 "
                      "prefixes are complete.")
                       .arg(offset)
                       .arg(combinesNoun(combines))
                       .arg(combines == 1 ? QStringLiteral("s") : QString())
                       .arg(2 * offset)
                       .arg(complete)
                       .arg(run.tokens())
                 : tr("Down-sweep, offset %1: %2 hand%3 complete prefixes to the positions in between. %4 of %5 "
                      "prefixes are complete.")
                       .arg(offset)
                       .arg(combinesNoun(combines))
                       .arg(combines == 1 ? QStringLiteral("s") : QString())
                       .arg(complete)
                       .arg(run.tokens());
      break;
  }
  if (step == run.stepCount()) text += QLatin1Char(' ') + doneSentence(run);
  return text;
}

QString scanComparisonCaption(const std::vector<const ScanRun*>& runs, int position, bool showAhead) {
  if (runs.empty()) return {};
  QStringList parts, finished;
  for (const ScanRun* run : runs) {
    const bool done = position >= run->stepCount();
    // Without show ahead a run's totals appear once it has finished: they answer the question.
    if (showAhead || done)
      parts << tr("%1 %2 steps, %3 combines").arg(methodName(run->method())).arg(run->totals().depth).arg(run->totals().work);
    if (done) finished << methodName(run->method());
  }
  const int n = runs.front()->tokens();
  if (!showAhead && finished.size() < int(runs.size())) {
    const QString sofar = parts.isEmpty() ? QString() : QLatin1Char(' ') + parts.join(QStringLiteral("; ")) + QLatin1Char('.');
    return position == 0 ? tr("The same %1 tokens three ways; each header counts its steps (depth) and combines (work) as it goes.").arg(n)
                         : tr("The same %1 tokens three ways.%2").arg(n).arg(sofar);
  }
  const QString progress = position == 0 ? QString()
                           : finished.size() == int(runs.size()) ? tr(" All three have finished.")
                           : finished.isEmpty()                  ? tr(" None has finished yet.")
                           : finished.size() == 1 ? tr(" %1 has finished.").arg(finished.front())
                                                  : tr(" %1 have finished.").arg(finished.join(tr(" and ")));
  return tr("The same %1 tokens three ways. %2. Hillis\u2013Steele trades work (about N log\u2082 N = %3) for few "
            "steps; Brent\u2013Kung keeps work under 2N = %4.%5")
      .arg(n)
      .arg(parts.join(QStringLiteral("; ")))
      .arg(qRound(n * std::log2(double(n))))
      .arg(2 * n)
      .arg(progress);
}

QString errataCaption(const ScanRun& printed, const ScanRun& corrected, int position) {
  if (position == 0)
    return tr("Above: Algorithm 1 as printed, offsets 2^i for i = 1..\u2308log\u2082 N\u2309 (2, 4, \u2026). Below: "
              "the corrected loop, offsets 2^i for i = 0..\u2308log\u2082 N\u2309\u22121 (1, 2, 4, \u2026).");
  if (position < printed.stepCount())
    return tr("Offset %1 above, %2 below. Without offset 1 a position only ever meets positions an even "
              "distance away: odd and even tokens never mix.")
        .arg(printed.offset(position))
        .arg(corrected.offset(std::min(position, corrected.stepCount())));
  const std::vector<int> wrong = printed.incompletePrefixes();
  return tr("The printed loop ends with %1 of %2 prefixes wrong (marked \u2717): each holds only every other token. "
            "The corrected loop gets all %2 right in %3 steps.")
      .arg(wrong.size())
      .arg(printed.tokens())
      .arg(corrected.stepCount());
}

QString cellCaption(const CellRun& run, int token, bool answerWithheld) {
  const int d = run.dv();
  if (token == 0)
    return std::isinf(run.m0())
               ? tr("The recurrent cell starts from (a, c, m) = (0, 0, \u2212\u221e) and takes one token at a time. Its "
                    "state is %1 numbers whatever the number of tokens.")
                     .arg(d + 2)
               : tr("The cell starts from m\u2080 = %1, as printed in the paper. Watch c when every score is far below "
                    "it.")
                     .arg(formatNumber(run.m0()));
  const CellTraceRow<float>& prev = run.row(token - 1);
  const CellTraceRow<float>& now = run.row(token);
  const float s = run.inputs().scores[std::size_t(token - 1)];
  if (now.c == 0.0f)
    return tr("Token %1 (s = %2): e^(s \u2212 m) = e^(%3) underflows to 0 in float32, so c = 0 and o = 0 / 0 = NaN. "
              "Starting at m\u2080 = \u2212\u221e avoids this.")
        .arg(token)
        .arg(formatNumber(s), formatNumber(s - now.m));
  // Before the first token a and c are 0: there is nothing to rescale, whatever m_0 was.
  const QString maximum =
      now.m <= prev.m ? tr("the maximum stays %1").arg(formatNumber(now.m))
      : token == 1    ? tr("the first score sets the maximum to %1; there is nothing before it to rescale")
                         .arg(formatNumber(now.m))
                      : tr("a new maximum %1: the old sums shrink by e^(%2)").arg(formatNumber(now.m), formatNumber(prev.m - now.m));
  const QString sentence = tr("Token %1 (s = %2): %3. o = a / c = %4, the same as the parallel softmax over tokens 1..%1 (%5).")
                               .arg(token)
                               .arg(formatNumber(s), maximum, formatVector(now.o), formatVector(run.conventional(token)));
  if (answerWithheld) return sentence;
  return sentence + QLatin1Char(' ') + tr("Still %1 numbers of state.").arg(d + 2);
}

QString blockCaption(const BlockRun& run, int block) {
  if (block == 0)
    return tr("Block by block (paper, Appendix A): %1 blocks of up to %2 tokens, each summarized alone and then "
              "combined into the running state. Memory O(b): %3 numbers.")
        .arg(run.frames().size())
        .arg(run.blockSize())
        .arg(run.numbersHeld());
  const BlockFrame& frame = run.frames()[std::size_t(block - 1)];
  QString text = tr("Block %1: tokens %2..%3 summarized on their own (m = %4), then combined into the running state: "
                    "o = %5.")
                     .arg(block)
                     .arg(frame.first + 1)
                     .arg(frame.last + 1)
                     .arg(formatNumber(frame.blockM), formatVector(frame.o));
  if (block == int(run.frames().size()))
    text += QLatin1Char(' ') + tr("The core's block method agrees: %1.").arg(formatVector(run.coreOutput()));
  return text;
}

QString streamCaption(const StreamRun& run, int token) {
  if (token == 0)
    return tr("Figure 1 of the paper: how each model takes a new token. Aaren updates one constant-size state per "
              "layer; a Transformer runs a new RNN over all cached tokens.");
  const StreamTokenCost& cost = run.cost(token);
  return tr("Token %1 arrives. Aaren: %2 updates, its state stays %3 floats. Transformer: a new RNN over all %1 "
            "cached tokens, %4 scores; its KV cache grows to %5 floats.")
      .arg(token)
      .arg(cost.aarenScores)
      .arg(cost.aarenFloats)
      .arg(cost.transformerScores)
      .arg(cost.transformerFloats);
}

}  // namespace aaren::ui
