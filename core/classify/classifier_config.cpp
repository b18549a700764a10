#include "core/classify/classifier_config.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace aaren {

std::string_view to_string(ClassifierPooling pooling) {
  return pooling == ClassifierPooling::mean ? "mean" : "last";
}

std::optional<ClassifierPooling> classifier_pooling_from_string(std::string_view name) {
  if (name == "mean") return ClassifierPooling::mean;
  if (name == "last") return ClassifierPooling::last;
  return std::nullopt;
}

void ClassifierConfig::validate() const {
  backbone.validate();
  // One logit per class; the head's rows are indexed by int.
  constexpr int max_classes = 1 << 16;
  if (classes < 2 || classes > max_classes)
    throw std::invalid_argument("classes must be between 2 and " + std::to_string(max_classes) + ", got " +
                                std::to_string(classes));
  if (pooling != ClassifierPooling::mean && pooling != ClassifierPooling::last)
    throw std::invalid_argument("pooling must be mean or last, got " + std::to_string(int(pooling)));
  if (members < 1 || members > kMostMembers)
    throw std::invalid_argument("an ensemble has 1 to " + std::to_string(kMostMembers) + " members, got " +
                                std::to_string(members));
  // eps = 1 would make every target uniform: nothing left to learn.
  if (!(std::isfinite(label_smoothing) && label_smoothing >= 0 && label_smoothing < 1)) {
    std::ostringstream message;
    message << "label_smoothing must be at least 0 and below 1, got " << label_smoothing;
    throw std::invalid_argument(message.str());
  }
}

}  // namespace aaren
