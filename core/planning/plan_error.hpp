#pragma once
// Why data cannot be prepared for forecasting, as a code and its numbers rather than a sentence, so
// that each front end says it in its own words: the command line names its flags ("lower
// --seq-len/--horizon"), the Train page its fields ("lower the look-back or the horizon").
#include <stdexcept>
#include <string>

namespace aaren {

enum class PlanErrorCode {
  window_length_below_one,    // look-back or horizon below 1
  too_few_rows_for_windows,   // a part of the split holds no window
};

// The part of the chronological split a too_few_rows_for_windows error is about.
enum class SplitPart { training, validation, test };

struct PlanProblem {
  PlanErrorCode code = PlanErrorCode::too_few_rows_for_windows;
  SplitPart part = SplitPart::training;
  int rows = 0;       // the rows the part owns
  int look_back = 0;  // T
  int horizon = 0;    // H
  int needed = 0;     // the rows the part needs: T + H for training, H for the others
};

// The facts without a remedy, the same for every front end:
// "the training part has 140 rows but look-back 96 + horizon 96 needs at least 192".
std::string describe_problem(const PlanProblem& problem);

// what() is describe_problem with a remedy that names neither flags nor fields.
class PlanError : public std::invalid_argument {
 public:
  explicit PlanError(const PlanProblem& problem);
  const PlanProblem& problem() const { return problem_; }

 private:
  PlanProblem problem_;
};

}  // namespace aaren
