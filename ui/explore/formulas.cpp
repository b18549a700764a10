#include "ui/explore/formulas.hpp"

#include <QObject>
#include <QStringList>
#include <cmath>
#include <span>

#include "core/scan/state.hpp"
#include "ui/explore/cell_run.hpp"
#include "ui/explore/explore_style.hpp"
#include "ui/explore/scan_run.hpp"
#include "ui/explore/stream_run.hpp"

namespace aaren::ui {

namespace {

QString tr(const char* text) { return QObject::tr(text); }

QString colored(const QString& text, const QColor& color) {
  return QStringLiteral("<span style=\"color:%1\">%2</span>").arg(color.name(), text);
}

QString strong(const QString& text) { return QStringLiteral("<b>%1</b>").arg(text); }

QString sub(const QString& base, const QString& index) { return QStringLiteral("%1<sub>%2</sub>").arg(base, index); }

QString power(const QString& exponent) { return QStringLiteral("e<sup>%1</sup>").arg(exponent); }

QString n(double x) { return formatNumber(x); }

QString v(std::span<const float> x) { return formatVector(x); }

// A table of "name = expression" lines; continuation lines leave the name empty.
class Lines {
 public:
  void add(const QString& name, const QString& expression) {
    rows_ << QStringLiteral("<tr><td align=\"right\" style=\"padding-right:6px\">%1</td><td>%2</td></tr>")
                 .arg(name, expression);
  }
  // A continuation line that explains rather than computes (an aside, formulas.hpp).
  void aside(const QString& expression) {
    add(QString(), expression);
    rows_.last().prepend(kFormulaAside);
  }
  void gap() { rows_ << QStringLiteral("<tr><td colspan=\"2\" style=\"font-size:4pt\">&nbsp;</td></tr>"); }
  QString html() const { return QStringLiteral("<table cellspacing=\"2\">%1</table>").arg(rows_.join(QString())); }

 private:
  QStringList rows_;
};

QString heading(const QString& title, const QString& detail = {}) {
  return QStringLiteral("<p style=\"margin-bottom:6px\"><span style=\"font-size:large\"><b>%1</b></span>%2</p>")
      .arg(title, detail.isEmpty() ? QString() : QStringLiteral("<br>") + detail);
}

// Notes and warnings are marked as asides: on a short screen they give way before the formula
// scrolls (FormulaPanel), as the caption under the view says the same.
QString note(const QString& text) {
  return kFormulaAside + QStringLiteral("<p style=\"color:%1\">%2</p>").arg(exploreColors().muted.name(), text);
}

QString warning(const QString& text) {
  return kFormulaAside + QStringLiteral("<p style=\"color:%1\"><b>%2</b></p>").arg(exploreColors().wrong.name(), text);
}

// "e^{x} underflows" when a finite exponent gave exactly 0 in float32.
bool underflowed(float exponent, float factor) { return std::isfinite(exponent) && factor == 0.0f; }

QString weightedSum(const QString& a, const QString& alpha, const QString& b, const QString& beta) {
  return QStringLiteral("%1\u00b7%2 + %3\u00b7%4").arg(a, alpha, b, beta);
}

// e^{m_A - m} with the combine's guard: both maxima -inf give the identity.
QString exponentText(float mPart, float m) {
  if (mPart == negative_infinity<float>()) return QStringLiteral("\u2212\u221e");
  return n(mPart - m);
}

}  // namespace

QString scanFormula(const ScanRun& run, int step, int combineIndex) {
  const ExploreColors c = exploreColors();
  const QString a = colored(strong(QStringLiteral("A")), c.left), b = colored(strong(QStringLiteral("B")), c.right);
  if (step == 0 || run.combines(step).empty()) {
    Lines lines;
    lines.add(tr("token i"), tr("(m, u, w) = (s<sub>i</sub>, 1, v<sub>i</sub>)"));
    lines.gap();
    lines.add(QStringLiteral("m"), tr("= max(m<sub>A</sub>, m<sub>B</sub>)"));
    lines.add(QStringLiteral("u"), QStringLiteral("= ") + weightedSum(sub(QStringLiteral("u"), QStringLiteral("A")),
                                                                      power(QStringLiteral("m<sub>A</sub>\u2212m")),
                                                                      sub(QStringLiteral("u"), QStringLiteral("B")),
                                                                      power(QStringLiteral("m<sub>B</sub>\u2212m"))));
    lines.add(QStringLiteral("w"), QStringLiteral("= ") + weightedSum(sub(QStringLiteral("w"), QStringLiteral("A")),
                                                                      power(QStringLiteral("m<sub>A</sub>\u2212m")),
                                                                      sub(QStringLiteral("w"), QStringLiteral("B")),
                                                                      power(QStringLiteral("m<sub>B</sub>\u2212m"))));
    lines.add(QStringLiteral("o"), tr("= w / u"));
    return heading(tr("The state of a segment"), tr("m: largest score, u = \u03a3 e<sup>s\u2212m</sup>, "
                                                    "w = \u03a3 e<sup>s\u2212m</sup>v")) +
           lines.html() +
           note(tr("%1 is the earlier segment, %2 the later one. The combine is associative, so the prefixes can be "
                   "combined in any grouping: that is what a parallel scan exploits.")
                    .arg(a, b));
  }
  const auto& combines = run.combines(step);
  const int index = std::clamp(combineIndex, 0, int(combines.size()) - 1);
  const ScanCombine& combine = combines[std::size_t(index)];
  const StateArray<float>& before = run.states(step - 1);
  const StateArray<float>& after = run.states(step);
  const int l = combine.left, r = combine.right;
  const float mA = before.m[std::size_t(l)], mB = before.m[std::size_t(r)];
  const float uA = before.u[std::size_t(l)], uB = before.u[std::size_t(r)];
  const auto wA = before.w_at(l), wB = before.w_at(r), w = after.w_at(r);
  const float m = after.m[std::size_t(r)], u = after.u[std::size_t(r)];
  const CombineScales<float> scales = combine_scales(mA, mB);
  const std::vector<float> outputs = run.outputs(step);
  const std::span<const float> o(outputs.data() + std::size_t(r) * w.size(), w.size());

  QString detail = tr("step %1 (offset %2): position %3 \u2190 %4 \u2295 %5")
                       .arg(step)
                       .arg(run.offset(step))
                       .arg(r + 1)
                       .arg(QStringLiteral("%1<sub>%2</sub>").arg(a).arg(l + 1), QStringLiteral("%1<sub>%2</sub>").arg(b).arg(r + 1));
  detail += QStringLiteral("<br>") + tr("%1 holds tokens %2, %3 holds tokens %4")
                                          .arg(a, tokenList(run.tokensHeld(step - 1, l)), b,
                                               tokenList(run.tokensHeld(step - 1, r)));
  Lines lines;
  lines.add(QStringLiteral("m"), tr("= max(%1, %2) = %3").arg(colored(n(mA), c.left), colored(n(mB), c.right), strong(n(m))));
  const QString alpha = power(exponentText(mA, m)), beta = power(exponentText(mB, m));
  lines.add(QStringLiteral("u"), QStringLiteral("= ") + weightedSum(colored(n(uA), c.left), alpha, colored(n(uB), c.right), beta));
  lines.add(QString(), QStringLiteral("= ") + weightedSum(colored(n(uA), c.left), n(scales.scale_a), colored(n(uB), c.right),
                                                          n(scales.scale_b)) +
                           QStringLiteral(" = ") + strong(n(u)));
  lines.add(QStringLiteral("w"), QStringLiteral("= ") + weightedSum(colored(v(wA), c.left), n(scales.scale_a),
                                                                    colored(v(wB), c.right), n(scales.scale_b)));
  lines.add(QString(), QStringLiteral("= ") + strong(v(w)));
  lines.add(QStringLiteral("o"), tr("= w / u = %1").arg(strong(v(o))));
  QString html = heading(tr("Combine"), detail) + lines.html();
  html += note(tr("now holds tokens %1%2")
                   .arg(tokenList(run.tokensHeld(step, r)),
                        run.holdsPrefix(step, r) ? tr(": its whole prefix, so o is the attention output o<sub>%1</sub>").arg(r + 1)
                                                 : QString()));
  if (combines.size() > 1)
    html += note(tr("Combine %1 of %2 in this step, all applied at once. Click a highlighted box to show another.")
                     .arg(index + 1)
                     .arg(combines.size()));
  return html;
}

QString cellFormula(const CellRun& run, int token) {
  const ExploreColors c = exploreColors();
  if (token == 0) {
    const CellTraceRow<float>& start = run.row(0);
    Lines lines;
    lines.add(sub(QStringLiteral("a"), QStringLiteral("0")), QStringLiteral("= ") + v(start.a));
    lines.add(sub(QStringLiteral("c"), QStringLiteral("0")), QStringLiteral("= ") + n(start.c));
    lines.add(sub(QStringLiteral("m"), QStringLiteral("0")), QStringLiteral("= ") + strong(n(start.m)));
    QString html = heading(tr("The recurrent cell"), tr("state (a<sub>k</sub>, c<sub>k</sub>, m<sub>k</sub>), "
                                                        "one token at a time")) +
                   lines.html();
    html += std::isinf(start.m) ? note(tr("m<sub>0</sub> = \u2212\u221e: the first token's own score becomes the "
                                          "maximum, whatever its size."))
                                : warning(tr("m<sub>0</sub> = %1 as printed in the paper: if every score is far below "
                                             "it, e<sup>s\u2212m</sup> underflows to 0 and o = 0 / 0.")
                                              .arg(n(start.m)));
    return html;
  }
  const CellTraceRow<float>& prev = run.row(token - 1);
  const CellTraceRow<float>& now = run.row(token);
  const float s = run.inputs().scores[std::size_t(token - 1)];
  const std::span<const float> value(run.inputs().value(token - 1), std::size_t(run.dv()));
  const CombineScales<float> scales = combine_scales(prev.m, s);
  const QString k = QString::number(token), km1 = QString::number(token - 1);
  const QString keep = power(exponentText(prev.m, now.m)), take = power(exponentText(s, now.m));

  Lines lines;
  lines.add(sub(QStringLiteral("m"), k), tr("= max(m<sub>%1</sub>, s<sub>%2</sub>) = max(%3, %4) = %5")
                                             .arg(km1, k, n(prev.m), colored(n(s), c.result), strong(n(now.m))));
  lines.add(sub(QStringLiteral("a"), k), QStringLiteral("= ") + weightedSum(v(prev.a), keep, colored(v(value), c.result), take));
  lines.add(QString(), QStringLiteral("= ") + weightedSum(v(prev.a), n(scales.scale_a), colored(v(value), c.result),
                                                          n(scales.scale_b)) +
                           QStringLiteral(" = ") + strong(v(now.a)));
  lines.add(sub(QStringLiteral("c"), k), QStringLiteral("= %1\u00b7%2 + %3").arg(n(prev.c), keep, take));
  lines.add(QString(), QStringLiteral("= %1\u00b7%2 + %3 = %4").arg(n(prev.c), n(scales.scale_a), n(scales.scale_b), strong(n(now.c))));
  lines.add(sub(QStringLiteral("o"), k), tr("= a<sub>%1</sub> / c<sub>%1</sub> = %2").arg(k, strong(v(now.o))));
  QString html = heading(tr("Token %1 arrives").arg(token),
                         tr("score s<sub>%1</sub> = %2, value v<sub>%1</sub> = %3")
                             .arg(k, colored(n(s), c.result), colored(v(value), c.result))) +
                 lines.html();
  html += note(tr("Parallel softmax of tokens 1..%1: %2").arg(k, strong(v(run.conventional(token)))));
  if (underflowed(s - now.m, scales.scale_b))
    html += warning(tr("e<sup>%1</sup> is smaller than the smallest float32 (about 1.4\u00b710<sup>\u221245</sup>): it "
                       "underflows to 0.")
                        .arg(n(s - now.m)));
  if (now.c == 0.0f)
    html += warning(tr("c<sub>%1</sub> = 0, so o<sub>%1</sub> = 0 / 0 = NaN. Starting at m<sub>0</sub> = \u2212\u221e "
                       "keeps the largest score's term at e<sup>0</sup> = 1.")
                        .arg(k));
  return html;
}

QString printedUpdateFormula(const CellRun& run, int token) {
  const ExploreColors c = exploreColors();
  const QString parts = run.printedPartsAt() > 0 ? tr("The outputs part at token %1.").arg(run.printedPartsAt())
                                                 : tr("On these numbers the outputs never part.");
  if (token == 0)
    return heading(tr("Erratum 2: the printed update"),
                   tr("printed a<sub>k</sub> = a<sub>k−1</sub>e<sup>m<sub>k−1</sub>−m<sub>k</sub></sup> + "
                      "v<sub>k</sub>e<sup>c<sub>k</sub>−m<sub>k</sub></sup>; meant "
                      "v<sub>k</sub>e<sup>s<sub>k</sub>−m<sub>k</sub></sup>")) +
           note(parts);
  const PrintedUpdateRow<float>& row = run.printedUpdate()[std::size_t(token - 1)];
  const float s = run.inputs().scores[std::size_t(token - 1)];
  const std::span<const float> value(run.inputs().value(token - 1), std::size_t(run.dv()));
  const QString k = QString::number(token);
  Lines lines;
  lines.add(tr("meant"), tr("e<sup>s<sub>%1</sub>−m<sub>%1</sub></sup> = e<sup>%2−%3</sup> = %4")
                             .arg(k, n(s), n(row.m), colored(strong(n(row.meant)), c.complete)));
  lines.add(tr("printed"), tr("e<sup>c<sub>%1</sub>−m<sub>%1</sub></sup> = e<sup>%2−%3</sup> = %4")
                               .arg(k, n(row.c), n(row.m), colored(strong(n(row.printed)), c.wrong)));
  lines.gap();
  lines.add(sub(QStringLiteral("a"), k), tr("meant %1, printed %2")
                                             .arg(colored(v(row.a_meant), c.complete), colored(v(row.a_printed), c.wrong)));
  lines.add(sub(QStringLiteral("o"), k), tr("meant %1, printed %2")
                                             .arg(colored(strong(v(row.o_meant)), c.complete),
                                                  colored(strong(v(row.o_printed)), c.wrong)));
  QString html = heading(tr("Erratum 2 at token %1").arg(token),
                         tr("v<sub>%1</sub> = %2 enters a<sub>%1</sub> with weight e<sup>s−m</sup> (meant) or "
                            "e<sup>c−m</sup> (printed)")
                             .arg(k, v(value))) +
                 lines.html();
  html += run.printedPartsAt() > 0 && token >= run.printedPartsAt() ? warning(parts) : note(parts);
  return html;
}

QString blockFormula(const BlockRun& run, int block) {
  const ExploreColors c = exploreColors();
  if (block == 0)
    return heading(tr("Block by block"), tr("paper, Appendix A: blocks of b = %1 tokens").arg(run.blockSize())) +
           note(tr("Each block is summarized on its own as (m<sub>B</sub>, u<sub>B</sub>, w<sub>B</sub>) and folded "
                   "into the running summary with the combine. Only one block of tokens and two summaries are held: "
                   "%1 numbers, O(b) memory.")
                    .arg(run.numbersHeld()));
  const BlockFrame& frame = run.frames()[std::size_t(block - 1)];
  const BlockFrame* previous = block > 1 ? &run.frames()[std::size_t(block - 2)] : nullptr;
  const float mBefore = previous ? previous->m : negative_infinity<float>();
  const float uBefore = previous ? previous->u : 0.0f;
  const std::vector<float> zeros(std::size_t(run.dv()), 0.0f);
  const std::vector<float>& wBefore = previous ? previous->w : zeros;
  const CombineScales<float> scales = combine_scales(mBefore, frame.blockM);
  const QString blockTag = colored(strong(QStringLiteral("B")), c.result);

  Lines lines;
  lines.add(sub(QStringLiteral("m"), blockTag), tr("= max s<sub>i</sub> = %1").arg(n(frame.blockM)));
  lines.add(sub(QStringLiteral("u"), blockTag), tr("= \u03a3 e<sup>s<sub>i</sub>\u2212m<sub>B</sub></sup> = %1").arg(n(frame.blockU)));
  lines.add(sub(QStringLiteral("w"), blockTag), tr("= \u03a3 e<sup>s<sub>i</sub>\u2212m<sub>B</sub></sup>v<sub>i</sub> = %1").arg(v(frame.blockW)));
  lines.gap();
  lines.add(QStringLiteral("m"), tr("= max(%1, %2) = %3").arg(n(mBefore), colored(n(frame.blockM), c.result), strong(n(frame.m))));
  lines.add(QStringLiteral("u"), QStringLiteral("= ") + weightedSum(n(uBefore), n(scales.scale_a), colored(n(frame.blockU), c.result),
                                                                    n(scales.scale_b)) +
                                     QStringLiteral(" = ") + strong(n(frame.u)));
  lines.add(QStringLiteral("w"), QStringLiteral("= ") + weightedSum(v(wBefore), n(scales.scale_a), colored(v(frame.blockW), c.result),
                                                                    n(scales.scale_b)) +
                                     QStringLiteral(" = ") + strong(v(frame.w)));
  lines.add(QStringLiteral("o"), tr("= w / u = %1").arg(strong(v(frame.o))));
  QString html = heading(tr("Block %1 of %2").arg(block).arg(run.frames().size()),
                         tr("tokens %1..%2 (b = %3)").arg(frame.first + 1).arg(frame.last + 1).arg(run.blockSize())) +
                 lines.html();
  if (block == int(run.frames().size()))
    html += note(tr("The core's block method gives o = %1.").arg(strong(v(run.coreOutput()))));
  html += note(tr("Held at once: %1 numbers, whatever N is.").arg(run.numbersHeld()));
  return html;
}

QString streamFormula(const StreamRun& run, int token, bool answerWithheld) {
  const ExploreColors c = exploreColors();
  const ModelConfig& m = run.config();
  const QString aaren = colored(strong(tr("Aaren")), c.aaren), transformer = colored(strong(tr("Transformer")), c.transformer);
  QString html = heading(tr("A new token, two ways"), tr("d<sub>model</sub> = %1, %2 heads, %3 layers")
                                                          .arg(m.d_model)
                                                          .arg(m.heads)
                                                          .arg(m.layers));
  Lines lines;
  lines.add(aaren, tr("(m, u, w) \u2190 (m, u, w) \u2295 (s<sub>t</sub>, 1, v<sub>t</sub>)"));
  lines.aside(tr("one update per head and layer"));
  lines.gap();
  lines.add(transformer, tr("o<sub>t</sub> = RNN over x<sub>1</sub>..x<sub>t</sub> with the query q<sub>t</sub>"));
  lines.aside(tr("a new many-to-one RNN for every token"));
  html += lines.html();
  if (token == 0) return html;
  const StreamTokenCost& cost = run.cost(token);
  Lines numbers;
  numbers.add(tr("token"), strong(QString::number(token)));
  numbers.add(aaren, tr("%1 scores q\u00b7k, state %2 floats").arg(cost.aarenScores).arg(cost.aarenFloats));
  numbers.add(transformer, tr("%1 scores q\u00b7k, KV cache %2 floats").arg(cost.transformerScores).arg(cost.transformerFloats));
  html += QStringLiteral("<hr>") + numbers.html();
  if (answerWithheld) return html;
  html += note(tr("Aaren's state is d<sub>model</sub> + 2\u00b7heads = %1 floats per layer for any number of tokens; "
                  "the Transformer's cache grows by 2\u00b7d<sub>model</sub> = %2 floats per layer with every token.")
                   .arg(m.d_model + 2 * m.heads)
                   .arg(2 * m.d_model));
  return html;
}

}  // namespace aaren::ui
