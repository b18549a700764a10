#pragma once
// A CSV file on disk opened for streaming its records, with what a reader reports progress by.
#include <cstdint>
#include <fstream>
#include <string>

#include "core/data/csv_records.hpp"

namespace aaren {

class CsvFile {
 public:
  // Throws std::runtime_error "PATH: cannot open (No such file or directory)" and the like.
  CsvFile(const std::string& path, char delimiter);
  // The reader points into this object's stream.
  CsvFile(const CsvFile&) = delete;
  CsvFile& operator=(const CsvFile&) = delete;

  // The file's name without its folders: what messages call the input.
  const std::string& name() const { return name_; }
  // Bytes on disk, the denominator of progress reports; 0 when the size cannot be read.
  std::uint64_t size() const { return size_; }
  CsvRecordReader& records() { return records_; }

 private:
  std::string name_;
  std::ifstream in_;
  std::uint64_t size_;
  CsvRecordReader records_;
};

}  // namespace aaren
