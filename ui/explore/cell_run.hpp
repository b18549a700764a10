#pragma once
// Attention of one query computed as an RNN on the Explore page's inputs, recorded for drawing:
//   CellRun:  the core's RecurrentCell, token by token, from a chosen m_0 (-inf is correct; the
//             paper prints 0), with the conventional softmax of every prefix beside it;
//   BlockRun: block by block (paper, Appendix A): each block of b tokens summarized by the core's
//             scan, then folded into the running (m, u, w) with the core's combine.
#include <vector>

#include "core/attention/methods.hpp"
#include "core/attention/printed_update.hpp"
#include "ui/explore/explore_inputs.hpp"

namespace aaren::ui {

class CellRun {
 public:
  CellRun() = default;
  CellRun(const ExploreInputs& inputs, float m0);

  const ExploreInputs& inputs() const { return inputs_; }
  int tokens() const { return inputs_.tokens(); }
  int dv() const { return inputs_.dv; }
  float m0() const { return m0_; }

  // After token k (1-based): a_k, c_k, m_k and o_k = a_k / c_k. Row 0 is the start state, whose
  // output 0 / 0 is undefined and not drawn.
  const CellTraceRow<float>& row(int k) const { return rows_[std::size_t(k)]; }
  // The softmax weights over tokens 1..k that the state after token k stands for:
  // exp(s_i - m_k) / c_k (NaN when c_k underflowed to 0).
  std::vector<float> prefixWeights(int k) const;
  // The conventional (parallel) softmax of tokens 1..k applied to their values: (dv).
  const std::vector<float>& conventional(int k) const { return conventional_[std::size_t(k - 1)]; }
  int firstUndefinedOutput() const;  // 1-based token whose o_k is NaN, 0 when none
  // Erratum 2 on the same numbers: token k's update as printed, exp(c_k - m_k), beside the
  // meant exp(s_k - m_k), from m_0 = -inf (row k - 1 for token k); and the first token whose
  // outputs part (0 when none).
  const std::vector<PrintedUpdateRow<float>>& printedUpdate() const { return printed_; }
  int printedPartsAt() const { return printedPartsAt_; }

 private:
  ExploreInputs inputs_;
  float m0_ = 0;
  std::vector<CellTraceRow<float>> rows_;          // (N + 1)
  std::vector<std::vector<float>> conventional_;   // (N, dv)
  std::vector<PrintedUpdateRow<float>> printed_;   // (N)
  int printedPartsAt_ = 0;
};

struct BlockFrame {
  int first = 0;  // tokens first..last (0-based) form the block
  int last = 0;
  float blockM = 0, blockU = 0;
  std::vector<float> blockW;  // (dv) the block's own summary
  float m = 0, u = 0;
  std::vector<float> w;       // (dv) the running summary after the block
  std::vector<float> o;       // (dv) w / u
};

class BlockRun {
 public:
  BlockRun() = default;
  BlockRun(const ExploreInputs& inputs, int blockSize);

  int blockSize() const { return blockSize_; }
  int tokens() const { return tokens_; }
  int dv() const { return dv_; }
  const std::vector<BlockFrame>& frames() const { return frames_; }
  // The softmax weights over tokens 1..last of block j (1-based) that the running state stands
  // for: exp(s_i - m) / u.
  std::vector<float> prefixWeights(int block) const;
  // The core's block method (attend_one with AttentionMethod::block) on the same inputs: (dv).
  const std::vector<float>& coreOutput() const { return coreOutput_; }
  int numbersHeld() const;  // blockNumbersHeld(b, dv)

 private:
  int blockSize_ = 1;
  int tokens_ = 0;
  std::vector<float> scores_;
  int dv_ = 1;
  std::vector<BlockFrame> frames_;
  std::vector<float> coreOutput_;
};

// Numbers each way of computing one attention output keeps at once, tokens included:
// the conventional softmax needs all N tokens before it knows their maximum; the block method one
// block of tokens and two (m, u, w) summaries; the recurrent cell one token and (a, c, m).
int conventionalNumbersHeld(int tokens, int dv);
int blockNumbersHeld(int blockSize, int dv);
int recurrentNumbersHeld(int dv);

}  // namespace aaren::ui
