#pragma once
// Short sentences that narrate each step for the lecture hall, built from the recorded runs.
#include <QString>
#include <vector>

#include "core/scan/prefix_scan.hpp"

namespace aaren::ui {

class BlockRun;
class CellRun;
class ScanRun;
class StreamRun;

// showAhead off: no step or combine totals before a run has finished (they are the class's answer).
QString scanCaption(const ScanRun& run, int step, bool showAhead);
// Several algorithms on the same tokens, at the shared position (each stops at its own end).
QString scanComparisonCaption(const std::vector<const ScanRun*>& runs, int position, bool showAhead);
QString errataCaption(const ScanRun& printed, const ScanRun& corrected, int position);
// answerWithheld: no "still N numbers of state" (a lesson asks how many numbers the state holds).
QString cellCaption(const CellRun& run, int token, bool answerWithheld = false);
QString blockCaption(const BlockRun& run, int block);
QString streamCaption(const StreamRun& run, int token);

QString methodName(ScanMethod method);  // "Sequential", "Hillis–Steele", "Brent–Kung", "Algorithm 1 as printed"

}  // namespace aaren::ui
