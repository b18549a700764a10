#include "core/classify/labelled_series.hpp"

#include <algorithm>
#include <filesystem>

#include "core/classify/labelled_series_reader.hpp"
#include "core/io/text_file.hpp"

namespace aaren {

bool LabelledSeriesSet::has_labels() const {
  return !series.empty() &&
         std::all_of(series.begin(), series.end(), [](const LabelledSeries& s) { return s.label >= 0; });
}

std::vector<long> LabelledSeriesSet::class_counts() const {
  std::vector<long> counts(class_names.size(), 0);
  for (const LabelledSeries& s : series)
    if (s.label >= 0 && std::size_t(s.label) < counts.size()) ++counts[std::size_t(s.label)];
  return counts;
}

int LabelledSeriesSet::max_length() const {
  int longest = 0;
  for (const LabelledSeries& s : series) longest = std::max(longest, s.length);
  return longest;
}

LabelledSeriesSet read_labelled_series(const std::string& path) {
  LabelledSeriesSet set = parse_labelled_series(read_text_file(path), std::filesystem::path(path).filename().string());
  set.source = path;
  return set;
}

}  // namespace aaren
