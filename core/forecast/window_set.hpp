#pragma once
// What training and evaluation need from a dataset: numbered windows of look-back rows and the
// horizon rows that follow, in the scaled units the model trains on.
namespace aaren {

class WindowSet {
 public:
  virtual ~WindowSet() = default;
  virtual long size() const = 0;
  // Copies window i: x (seq_len, C) and its truth y (horizon, K), K the channels the model forecasts
  // (ModelConfig::outputs(): C, or 1 for features MS).
  virtual void copy(long i, float* x, float* y) const = 0;
};

}  // namespace aaren
