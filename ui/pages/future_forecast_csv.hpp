#pragma once
// The forecast past the last row of a run's data as a CSV file a spreadsheet reads: one row per
// step of the horizon, its date continuing the data's own (as `aaren forecast --last` writes them),
// then each model's forecast of each channel in the data's units.
#include <QString>

namespace aaren::ui {

struct RunForecastSet;

// The file's text. Throws std::runtime_error saying why when there is nothing to write (no run, or
// a forecast without steps): an empty CSV is never written.
QString futureForecastCsv(const RunForecastSet* set);

// Writes it whole or not at all (ui/atomic_write.hpp); throws std::runtime_error with the reason.
void exportFutureForecastCsv(const RunForecastSet* set, const QString& path);

}  // namespace aaren::ui
