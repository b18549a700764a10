#pragma once
// A run in one PDF to hand in (File > Export Report…, aaren-studio --export-report): the data (the
// first rows, the split, the scaling), the configuration of each model side by side, the loss
// curves, forecasts of a few test windows and of the horizon after the data, and the test metrics
// beside the baselines in the data's own units; for event runs NLL, RMSE and the Poisson process.
// Everything is read from the run folder and its data file, never from what a page shows.
#include <QString>

namespace aaren::ui {

struct RunOnDisk;

// Writes the PDF whole or not at all and returns its number of pages. Throws std::runtime_error
// naming the file and the reason when it cannot be written.
int writeRunReport(const RunOnDisk& run, const QString& pdfPath);

// Reads the run first (readRunOnDisk: a missing or broken run, or data that cannot be found or
// read, throws naming the problem).
int writeRunReport(const QString& runDir, const QString& preferredData, const QString& pdfPath);

}  // namespace aaren::ui
