#pragma once
// A strip of frames from one acted episode: the environment drawn at evenly spaced steps, side by
// side, each with its step, return so far and action, for the report and the lecture pack.
#include <QImage>
#include <vector>

#include "ui/rl/act_results.hpp"
#include "ui/theme.hpp"

namespace aaren::ui {

// The steps a strip of `frames` shows of an episode of `steps` steps: the first, the last and
// evenly between (fewer when the episode is shorter); 1-based.
std::vector<int> stripSteps(int steps, int frames);

// Model `model` of `results` at stripSteps(its episode's steps, frames), `columns` frames a row, each
// frame `frameSize` pixels with its caption in `captionPixels`-pixel text, in `theme`. A null image
// for an episode of no step.
QImage renderEpisodeStrip(const ActResults& results, int model, int frames, int columns, QSize frameSize,
                          int captionPixels, Theme theme);

}  // namespace aaren::ui
