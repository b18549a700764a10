#pragma once
// Labelled series for classification (docs/DESIGN.md section 10): what the UEA/UCR .ts reader and
// the two classification CSV readers (long and wide) produce. A case is one series of `length`
// time steps with `dims` values each; cases may differ in length.
#include <string>
#include <vector>

namespace aaren {

struct LabelledSeries {
  std::string case_id;          // .ts and wide CSV: the case's number from 1 ("1", "2", ...); long CSV: its case_id
  int length = 0;               // time steps (>= 1)
  std::vector<double> values;   // (length, dims) row-major; NaN where the file has a missing value
  int label = -1;               // index into LabelledSeriesSet::class_names; -1 when the file gives none
};

struct LabelledSeriesSet {
  std::string source;                    // the file it was read from
  std::string problem_name;              // .ts @problemName; otherwise the file's stem
  int dims = 0;                          // values per time step (>= 1)
  std::vector<std::string> class_names;  // .ts: the @classLabel list in its order; CSV: first-seen order
  std::vector<LabelledSeries> series;

  bool has_labels() const;               // there are cases and every one has a label
  std::vector<long> class_counts() const;  // (class_names.size()) cases per class
  int max_length() const;
};

// Reads a .ts file (by its extension, or a first tag line starting with '@') or a classification
// CSV (long: a header case_id,label,timestep,dim_0,...; wide: label,t0,t1,...); the readers are
// core/classify/ts_reader.hpp and classification_csv.hpp. Throws std::runtime_error
// "FILE:LINE:COL: reason" (a FileLineError; FILE is the file's name, COL counts characters from 1)
// for a malformed file, and "PATH: cannot open (...)" or "FILE is not a text file (...)" for one
// that cannot be read as text.
LabelledSeriesSet read_labelled_series(const std::string& path);

}  // namespace aaren
