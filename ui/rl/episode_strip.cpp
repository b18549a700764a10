#include "ui/rl/episode_strip.hpp"

#include <QPainter>
#include <algorithm>
#include <cmath>
#include <span>

#include "ui/charts/model_colors.hpp"
#include "ui/rl/environment_picture.hpp"
#include "ui/wording/wording.hpp"

namespace aaren::ui {

std::vector<int> stripSteps(int steps, int frames) {
  std::vector<int> shown;
  if (steps < 1 || frames < 1) return shown;
  const int count = std::min(steps, frames);
  for (int i = 0; i < count; ++i) {
    const int step = count == 1 ? steps : 1 + int(std::lround(double(i) * double(steps - 1) / double(count - 1)));
    if (shown.empty() || step != shown.back()) shown.push_back(step);
  }
  return shown;
}

QImage renderEpisodeStrip(const ActResults& results, int model, int frames, int columns, QSize frameSize,
                          int captionPixels, Theme theme) {
  const ActedModel& acted = results.models.at(std::size_t(model));
  const rl::EpisodeOutcome& e = acted.episode;
  const std::vector<int> steps = stripSteps(e.steps, frames);
  if (steps.empty()) return {};
  const int S = acted.config.model.state_dim, A = acted.config.model.action_dim;
  const int count = int(steps.size()), across = std::clamp(columns, 1, count), rows = (count + across - 1) / across;
  QImage strip(QSize(frameSize.width() * across, frameSize.height() * rows), QImage::Format_ARGB32_Premultiplied);
  strip.fill(Qt::white);
  QPainter painter(&strip);
  EnvironmentPicture picture;
  picture.setFixedTheme(theme);
  picture.setEnvironment(results.environment);
  QFont font = picture.font();
  font.setPixelSize(captionPixels);
  picture.setFont(font);
  picture.resize(frameSize);
  double soFar = 0;
  int summed = 0;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const int row = steps[i] - 1;
    while (summed <= row) soFar += e.rewards[std::size_t(summed++)];
    const std::span<const double> observation(e.observations.data() + std::size_t(row) * std::size_t(S), std::size_t(S));
    picture.setFrame(observation, e.actions[std::size_t(row) * std::size_t(A)] / acted.config.data.action_scale,
                     QObject::tr("step %1 · return %2").arg(steps[i]).arg(fixedDecimals(soFar, 1)), modelColor(acted.kind));
    picture.render(&painter, QPoint(frameSize.width() * (int(i) % across), frameSize.height() * (int(i) / across)));
  }
  return strip;
}

}  // namespace aaren::ui
