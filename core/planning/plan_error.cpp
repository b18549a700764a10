#include "core/planning/plan_error.hpp"

namespace aaren {

namespace {

const char* part_name(SplitPart part) {
  switch (part) {
    case SplitPart::training: return "training";
    case SplitPart::validation: return "validation";
    case SplitPart::test: return "test";
  }
  return "";
}

std::string neutral_remedy(const PlanProblem& p) {
  if (p.code == PlanErrorCode::window_length_below_one) return "";
  switch (p.part) {
    case SplitPart::training: return "; lower the look-back or the horizon, or use a longer file";
    case SplitPart::validation: return "; lower the horizon, give validation a larger fraction or use a longer file";
    case SplitPart::test: return "; lower the horizon, give the test part a larger fraction or use a longer file";
  }
  return "";
}

}  // namespace

std::string describe_problem(const PlanProblem& p) {
  const std::string look_back = std::to_string(p.look_back), horizon = std::to_string(p.horizon);
  if (p.code == PlanErrorCode::window_length_below_one)
    return "look-back " + look_back + " and horizon " + horizon + " must both be at least 1";
  const std::string needs = p.part == SplitPart::training
                                ? "look-back " + look_back + " + horizon " + horizon
                                : "horizon " + horizon + " (its look-back reaches into the part before)";
  return "the " + std::string(part_name(p.part)) + " part has " + std::to_string(p.rows) + " rows but " + needs +
         " needs at least " + std::to_string(p.needed);
}

PlanError::PlanError(const PlanProblem& problem)
    : std::invalid_argument(describe_problem(problem) + neutral_remedy(problem)), problem_(problem) {}

}  // namespace aaren
