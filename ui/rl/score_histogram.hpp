#pragma once
// The histogram of an offline data set's episodes by normalized score, one colour per part of the
// behaviour (core/rl/dataset_summary.hpp), as the Data page and the report draw it.
#include "core/rl/dataset_summary.hpp"

namespace aaren::ui {

class ClassBarsChart;

// Titles `chart` and draws `summary`'s whole episodes in it; clears it when there are none. Each
// bar is named by its bin's lower edge, so that every label stays whole at any width; the title
// gives the bins' width.
void drawScoreHistogram(ClassBarsChart& chart, const rl::DatasetSummary& summary);

}  // namespace aaren::ui
