#pragma once
// When an event model's RMSE of the next event's time says little, and why, in plain words. The
// predicted time is the mean of a log-normal mixture: one component with a long tail moves that mean
// far past every event, and a squared error lets those few predictions dominate. An RMSE many mean
// gaps long (Aaren's 56 years on the coal-mining log, where disasters come about a year apart) is
// then no sign that the density is bad; the NLL per event says how well the whole density fits.
#include <QString>

namespace aaren::ui {

// An RMSE more than this many mean gaps between events is flagged.
inline constexpr double kLargeRmseInMeanGaps = 3.0;

struct RmseContext {
  QString modelName;
  double rmse = 0;         // of the predicted next time, in the data's time unit
  double meanGap = 0;      // between the events scored, in the same unit
  QString timeUnit;        // "years"; empty when the log names none
  double nllPerEvent = 0;  // the model's test NLL per event
  double poissonNll = 0;   // a Poisson process's, fitted to the training part
  bool gapOfTraining = false;  // meanGap is the training part's (the model's time scale), not the test part's
};

bool isLargeRmse(double rmse, double meanGap);
// The explanation when isLargeRmse(), else an empty string.
QString largeRmseNote(const RmseContext& context);
// For a view that already shows each model's RMSE and NLL: how many mean gaps long an RMSE is
// (" (59 mean gaps)") when isLargeRmse(), else an empty string; and the explanation, said once
// below every model's line.
QString largeRmseFlag(double rmse, double meanGap);
QString largeRmseExplanation();

}  // namespace aaren::ui
