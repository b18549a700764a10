#pragma once
// A run in one PDF to hand in (File > Export Report…, aaren-studio --export-report): the data (the
// first rows, the split, the scaling), the configuration of each model side by side, the loss
// curves, forecasts of a few test windows and of the horizon after the data, and the test metrics
// beside the baselines in the data's own units; for event runs NLL, RMSE and the Poisson process; for
// classification runs the classes, each classifier's accuracy beside the yardsticks and its
// confusion matrix.
// Everything is read from the run folder and its data file, never from what a page shows.
#include <QString>
#include <QStringList>

namespace aaren::ui {

struct RunOnDisk;

struct WrittenReport {
  int pages = 0;
  QString futureCsvPath;           // forecasting runs: every step of the forecast after the data
  QStringList cellsThatDidNotFit;  // empty unless a table cell's text overflowed it (ReportLayout)
  qreal smallestTablePoints = 0;   // the smallest text any table was set in
};

// Writes the PDF whole or not at all, and for a forecasting run the forecast after the data as a
// CSV beside it ("report.pdf" and "report-future.csv"). Throws std::runtime_error naming the file
// and the reason when one cannot be written.
WrittenReport writeRunReport(const RunOnDisk& run, const QString& pdfPath);

// Reads the run first (readRunOnDisk: a missing or broken run, or data that cannot be found or
// read, throws naming the problem).
WrittenReport writeRunReport(const QString& runDir, const QString& preferredData, const QString& pdfPath);

// Where writeRunReport puts the CSV of the forecast after the data: beside the PDF.
QString futureCsvPathFor(const QString& pdfPath);

}  // namespace aaren::ui
