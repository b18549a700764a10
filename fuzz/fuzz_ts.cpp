// The readers of classification files (core/classify/: .ts, long and wide CSV) on arbitrary text,
// read as a .ts file, as a CSV file and as a file whose name leaves the choice to its content.
// Refusing the text is fine; an accepted set must keep the promises of LabelledSeriesSet (cases of
// at least one step, (length, dims) values that are finite or NaN, labels that index the class
// names, every case labelled or none), and reading a file must give the same set or the same
// refusal as reading its text in memory.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <set>
#include <string>
#include <string_view>

#include "core/classify/classification_csv.hpp"
#include "core/classify/labelled_series.hpp"
#include "core/classify/labelled_series_reader.hpp"
#include "core/classify/ts_reader.hpp"
#include "fuzz/fuzz_check.hpp"

namespace {

using aaren::fuzz::require;

void check_set(const aaren::LabelledSeriesSet& set) {
  require(!set.series.empty(), "a set has a case");
  require(set.dims >= 1, "a case has at least one dimension");
  std::set<std::string> ids;
  for (const aaren::LabelledSeries& s : set.series) {
    require(s.length >= 1, "every case has a step");
    require(s.values.size() == std::size_t(s.length) * std::size_t(set.dims), "values hold (length, dims) numbers");
    require(std::none_of(s.values.begin(), s.values.end(), [](double x) { return std::isinf(x); }),
            "every value is finite or NaN");
    require(s.label >= -1 && s.label < int(set.class_names.size()), "a label indexes the class names or is -1");
    require((s.label >= 0) == set.has_labels(), "every case has a label or none has");
    require(!s.case_id.empty() && ids.insert(s.case_id).second, "case ids are given and distinct");
  }
  require(set.max_length() >= 1, "the longest case has a step");
  const std::vector<long> counts = set.class_counts();
  require(counts.size() == set.class_names.size(), "one count per class");
  require(std::accumulate(counts.begin(), counts.end(), 0L) == (set.has_labels() ? long(set.series.size()) : 0L),
          "the counts add up to the labelled cases");
}

bool same_set(const aaren::LabelledSeriesSet& a, const aaren::LabelledSeriesSet& b) {
  const auto same_case = [](const aaren::LabelledSeries& x, const aaren::LabelledSeries& y) {
    return x.case_id == y.case_id && x.length == y.length && x.label == y.label &&
           std::equal(x.values.begin(), x.values.end(), y.values.begin(), y.values.end(), [](double p, double q) {
             return std::bit_cast<std::uint64_t>(p) == std::bit_cast<std::uint64_t>(q);
           });
  };
  return a.problem_name == b.problem_name && a.dims == b.dims && a.class_names == b.class_names &&
         std::equal(a.series.begin(), a.series.end(), b.series.begin(), b.series.end(), same_case);
}

// Reads `text` in memory with `parse` and from a file called `name`; both must agree.
template <class Parse>
void check_reader(std::string_view text, const std::string& name, Parse&& parse) {
  aaren::LabelledSeriesSet in_memory, from_file;
  const auto memory_refusal = aaren::fuzz::refusal_of([&] { in_memory = parse(text, name); }, name);
  if (!memory_refusal) check_set(in_memory);
  const std::string path = aaren::fuzz::file_holding(text, name);
  const auto file_refusal = aaren::fuzz::refusal_of([&] { from_file = aaren::read_labelled_series(path); }, name);
  require(memory_refusal == file_refusal, "a file and the same text in memory are refused alike");
  if (!memory_refusal) require(same_set(in_memory, from_file), "a file and the same text in memory give the same set");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // parse_labelled_series adds the text check and the choice of reader to parse_ts and
  // parse_classification_csv, which see the text as it is.
  check_reader(text, "cases.ts", aaren::parse_labelled_series);
  check_reader(text, "cases.csv", aaren::parse_labelled_series);
  for (const auto& name : {std::string("cases.ts"), std::string("cases.csv")}) {
    aaren::LabelledSeriesSet set;
    const auto read = name == "cases.ts" ? aaren::parse_ts : aaren::parse_classification_csv;
    if (aaren::fuzz::accepted([&] { set = read(text, name); }, name)) check_set(set);
  }
  return 0;
}
