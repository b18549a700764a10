#pragma once
// The side panel's text: the formula of the current step with its numbers filled in, every
// number read from a recorded run, as rich text for a QLabel.
#include <QString>

namespace aaren::ui {

class BlockRun;
class CellRun;
class ScanRun;
class StreamRun;

// Put before a paragraph that explains rather than computes (a note, a warning): the formula panel
// leaves such paragraphs out, the last first, where the whole text cannot fit its height.
inline const QString kFormulaAside = QStringLiteral("<!--aside-->");

// Step 0: what a token's state is and how two states combine. Step k: the chosen combine.
QString scanFormula(const ScanRun& run, int step, int combineIndex);
// Token k (1-based) entering the recurrent cell; k = 0 shows the start state.
QString cellFormula(const CellRun& run, int token);
// Erratum 2 at token k (1-based): the update as printed, exp(c_k - m_k), beside the meant
// exp(s_k - m_k), with both outputs and the token where they part.
QString printedUpdateFormula(const CellRun& run, int token);
// Block j (1-based) folded into the running summary; j = 0 shows the start state.
QString blockFormula(const BlockRun& run, int block);
// What token t (1-based) costs each model; t = 0 explains the two ways.
// answerWithheld: without the note of how each model's state grows (a lesson asks it).
QString streamFormula(const StreamRun& run, int token, bool answerWithheld = false);

}  // namespace aaren::ui
