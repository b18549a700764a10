#include "core/data/label_numbers.hpp"

#include <map>

namespace aaren {

RunLabelNumbers::RunLabelNumbers(const std::vector<std::string>& file_names, const std::vector<std::string>& run_names) {
  std::map<std::string, int> run_index;
  for (std::size_t k = 0; k < run_names.size(); ++k) run_index[run_names[k]] = int(k);
  for (const std::string& name : file_names) {
    const auto it = run_index.find(name);
    to_run_.push_back(it == run_index.end() ? -1 : it->second);
  }
  for (const std::string& name : run_names) known_ += (known_.empty() ? "'" : ", '") + name + "'";
}

}  // namespace aaren
