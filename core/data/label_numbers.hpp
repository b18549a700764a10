#pragma once
// The class labels of a file read again for a saved run (a classification test file, an event log's
// marks): the file numbers its labels in its own order, the run in the order it was trained on.
#include <string>
#include <vector>

namespace aaren {

class RunLabelNumbers {
 public:
  RunLabelNumbers(const std::vector<std::string>& file_names, const std::vector<std::string>& run_names);

  // The run's number for the file's label `file_label`, or -1 where the run was not trained on it.
  int of(int file_label) const { return to_run_[std::size_t(file_label)]; }
  // "'a', 'b', 'c'": the run's labels, for a message that refuses one it does not know.
  const std::string& known() const { return known_; }

 private:
  std::vector<int> to_run_;
  std::string known_;
};

}  // namespace aaren
