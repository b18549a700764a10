#pragma once
// Checkpoints in the safetensors format (github.com/huggingface/safetensors): an 8-byte
// little-endian header length N, N bytes of UTF-8 JSON giving each tensor's dtype, shape and byte
// range [begin, end) within the data section, then the data section of raw little-endian values.
// Aaren Studio writes and reads float32 (F32) only. The reader checks everything before it trusts
// anything, so a truncated, corrupt or foreign file gives a message naming the file and the problem.
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace aaren {

struct TensorView {
  std::string name;
  std::vector<std::int64_t> shape;
  std::span<const float> data;  // row-major, product(shape) values
};

struct Tensor {
  std::string name;
  std::vector<std::int64_t> shape;
  std::vector<float> data;  // row-major, product(shape) values
};

struct SafetensorsContent {
  std::map<std::string, std::string> metadata;
  std::vector<Tensor> tensors;  // in file order (by position in the data section)

  // nullptr when no tensor has that name.
  const Tensor* find(std::string_view name) const;
};

// The whole file: the header lists the tensors in the given order, padded with spaces so the data
// section starts at a multiple of 8 bytes. Throws std::invalid_argument for what could not be read
// back: a shape that does not match the data, a duplicate name, the reserved name "__metadata__",
// a non-finite value, names or metadata that are not UTF-8.
std::string serialize_safetensors(const std::vector<TensorView>& tensors,
                                  const std::map<std::string, std::string>& metadata);
// Writes through write_file_atomically: an existing checkpoint is replaced whole or not at all.
void write_safetensors(const std::string& path, const std::vector<TensorView>& tensors,
                       const std::map<std::string, std::string>& metadata);

// `source` names the input in messages. Throws std::runtime_error "SOURCE: PROBLEM".
SafetensorsContent parse_safetensors(std::string_view bytes, const std::string& source);
SafetensorsContent read_safetensors(const std::string& path);

struct ExpectedTensor {
  std::string name;
  std::vector<std::int64_t> shape;
};

// Checks that the file holds exactly the expected tensors with exactly the expected shapes, so that
// loading a checkpoint into a model of another configuration fails with a message saying why.
// Throws std::runtime_error naming the first problem and how many more there are.
void check_tensors(const SafetensorsContent& content, const std::vector<ExpectedTensor>& expected,
                   const std::string& source);

}  // namespace aaren
