#pragma once
// The colours of a data set's channels on a chart: ten that a reader tells apart (no two blues or
// greens, as the chart theme's five repeating colours gave), each mid-toned so that it reads on the
// light and the dark chart alike, and the target drawn wider than the others.
#include <QColor>

namespace aaren::ui {

inline constexpr int kDistinctChannelColors = 10;
// How much wider the target's line is than the other channels'.
inline constexpr double kTargetLineWidthFactor = 2.0;

// The colour of channel `index` (0-based); past kDistinctChannelColors the colours repeat.
QColor channelColor(int index);

}  // namespace aaren::ui
