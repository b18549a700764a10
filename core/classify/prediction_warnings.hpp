#pragma once
// What a student must be told about a classifier's predictions beyond its accuracy: a model that
// gives one class to every case has learned nothing about the series, however its accuracy reads
// (it is the share of that class).
#include <string>

#include "core/classify/classify_run_folder.hpp"

namespace aaren {

// "predicts 'walking' for all 40 cases: it does not tell the classes apart, and its accuracy (25%)
// is that class's share of the cases"; empty when it predicts two classes or more, or has no cases.
std::string one_class_warning(const ClassificationReport& report);

}  // namespace aaren
