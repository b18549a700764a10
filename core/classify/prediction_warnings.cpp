#include "core/classify/prediction_warnings.hpp"

#include <cstdio>

namespace aaren {

std::string one_class_warning(const ClassificationReport& report) {
  const std::size_t classes = report.classes.size();
  if (classes < 2 || report.confusion.size() != classes * classes) return {};
  int predicted = -1;
  long cases = 0;
  for (std::size_t column = 0; column < classes; ++column) {
    long in_column = 0;
    for (std::size_t row = 0; row < classes; ++row) in_column += report.confusion[row * classes + column];
    if (in_column == 0) continue;
    if (predicted >= 0) return {};
    predicted = int(column);
    cases = in_column;
  }
  if (predicted < 0 || cases < 2) return {};  // one case has one class, whatever the model
  char share[32];
  std::snprintf(share, sizeof share, "%.0f%%", 100.0 * report.overall.accuracy);
  return "predicts '" + report.classes[std::size_t(predicted)].name + "' for all " + std::to_string(cases) + " cases: it does not tell the classes apart, and its accuracy (" + share +
         ") is that class's share of the cases";
}

}  // namespace aaren
