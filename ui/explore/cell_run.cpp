#include "ui/explore/cell_run.hpp"

#include <algorithm>
#include <cmath>
#include <span>

#include "core/attention/recurrent_cell.hpp"
#include "core/scan/prefix_scan.hpp"

namespace aaren::ui {

namespace {

// Relative difference at which the printed and meant outputs count as parted: well above float32
// rounding of the same sums, well below any difference a reader would see.
constexpr float kPrintedPartingTolerance = 1e-4f;

}  // namespace

CellRun::CellRun(const ExploreInputs& inputs, float m0) : inputs_(inputs), m0_(m0) {
  const int n = tokens(), d = dv();
  RecurrentCell<float> cell(d, m0);
  const std::vector<float> undefined(std::size_t(d), std::nanf(""));
  rows_.push_back({std::vector<float>(cell.a().begin(), cell.a().end()), cell.c(), cell.m(), undefined});
  std::vector<float> o(static_cast<std::size_t>(d));
  for (int k = 0; k < n; ++k) {
    cell.update(inputs.scores[std::size_t(k)], std::span<const float>(inputs.value(k), std::size_t(d)));
    cell.write_output(o);
    rows_.push_back({std::vector<float>(cell.a().begin(), cell.a().end()), cell.c(), cell.m(), o});
  }
  const std::span<const float> scores(inputs.scores), values(inputs.values);
  for (int k = 1; k <= n; ++k) {
    std::vector<float> out(static_cast<std::size_t>(d));
    attend_one<float>(out, scores.first(std::size_t(k)), values.first(std::size_t(k) * std::size_t(d)), d,
                      {AttentionMethod::conventional});
    conventional_.push_back(std::move(out));
  }
  printed_ = printed_update_trace<float>(scores, values, d);
  printedPartsAt_ = first_parting_token(printed_, kPrintedPartingTolerance);
}

std::vector<float> CellRun::prefixWeights(int k) const {
  const CellTraceRow<float>& state = row(k);
  std::vector<float> weights(static_cast<std::size_t>(k));
  for (int i = 0; i < k; ++i) weights[std::size_t(i)] = std::exp(inputs_.scores[std::size_t(i)] - state.m) / state.c;
  return weights;
}

int CellRun::firstUndefinedOutput() const {
  for (int k = 1; k <= tokens(); ++k)
    if (std::any_of(row(k).o.begin(), row(k).o.end(), [](float x) { return std::isnan(x); })) return k;
  return 0;
}

BlockRun::BlockRun(const ExploreInputs& inputs, int blockSize)
    : blockSize_(std::clamp(blockSize, 1, std::max(1, inputs.tokens()))), tokens_(inputs.tokens()),
      scores_(inputs.scores), dv_(inputs.dv) {
  const std::size_t d = std::size_t(dv_);
  float m = negative_infinity<float>(), u = 0;
  std::vector<float> w(d, 0.0f);
  for (int first = 0; first < tokens_; first += blockSize_) {
    const int last = std::min(tokens_, first + blockSize_) - 1;
    const std::size_t length = std::size_t(last - first + 1);
    StateArray<float> block = StateArray<float>::from_tokens(
        std::span<const float>(inputs.scores).subspan(std::size_t(first), length),
        std::span<const float>(inputs.values).subspan(std::size_t(first) * d, length * d), dv_);
    inclusive_scan(block, ScanMethod::sequential);
    const int end = block.n - 1;
    BlockFrame frame;
    frame.first = first;
    frame.last = last;
    frame.blockM = block.m[std::size_t(end)];
    frame.blockU = block.u[std::size_t(end)];
    frame.blockW.assign(block.w_at(end).begin(), block.w_at(end).end());
    combine<float>(m, u, w, m, u, w, frame.blockM, frame.blockU, frame.blockW);
    frame.m = m;
    frame.u = u;
    frame.w = w;
    for (float x : w) frame.o.push_back(x / u);
    frames_.push_back(std::move(frame));
  }
  coreOutput_.resize(d);
  attend_one<float>(coreOutput_, inputs.scores, inputs.values, dv_, {AttentionMethod::block, blockSize_});
}

int BlockRun::numbersHeld() const { return blockNumbersHeld(blockSize_, dv_); }

int conventionalNumbersHeld(int tokens, int dv) { return tokens * (1 + dv) + dv; }

int blockNumbersHeld(int blockSize, int dv) { return blockSize * (1 + dv) + 2 * (dv + 2); }

int recurrentNumbersHeld(int dv) { return (1 + dv) + (dv + 2); }

std::vector<float> BlockRun::prefixWeights(int block) const {
  const BlockFrame& frame = frames_[std::size_t(block - 1)];
  std::vector<float> weights;
  for (int i = 0; i <= frame.last; ++i) weights.push_back(std::exp(scores_[std::size_t(i)] - frame.m) / frame.u);
  return weights;
}

}  // namespace aaren::ui
