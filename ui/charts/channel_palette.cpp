#include "ui/charts/channel_palette.hpp"

#include <array>

namespace aaren::ui {

namespace {

// Luminance between about 0.16 and 0.27: a contrast of at least 3:1 against a white chart and 2.5:1
// against the dark theme's; at least 30 apart in CIELAB from each other.
constexpr std::array<QRgb, kDistinctChannelColors> kChannelColors = {
    0x1f77b4,  // blue
    0xd9730d,  // orange
    0x2a9d3f,  // green
    0xd62728,  // red
    0x9467bd,  // purple
    0xa0632d,  // brown
    0xd6519e,  // pink
    0x7f7f7f,  // grey
    0x8c8c14,  // olive
    0x138d90,  // teal
};

}  // namespace

QColor channelColor(int index) {
  const int count = int(kChannelColors.size());
  return QColor::fromRgb(kChannelColors[std::size_t(((index % count) + count) % count)]);
}

}  // namespace aaren::ui
