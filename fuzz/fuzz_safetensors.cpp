// The checkpoint reader (core/io/safetensors.hpp) on arbitrary bytes. Refusing them is fine; an
// accepted checkpoint must hold finite values that fill each tensor's shape, and writing it again
// must give a file that reads back to the same names, shapes, values and metadata.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/safetensors.hpp"
#include "fuzz/fuzz_check.hpp"

namespace {

using aaren::fuzz::require;

std::uint64_t values_in(const std::vector<std::int64_t>& shape) {
  std::uint64_t count = 1;
  for (const std::int64_t dim : shape) {
    require(dim >= 0, "no dimension is negative");
    count *= std::uint64_t(dim);
  }
  return count;
}

bool same_tensor(const aaren::Tensor& a, const aaren::Tensor& b) {
  const auto same_bits = [](float x, float y) {
    return std::bit_cast<std::uint32_t>(x) == std::bit_cast<std::uint32_t>(y);
  };
  return a.name == b.name && a.shape == b.shape &&
         std::equal(a.data.begin(), a.data.end(), b.data.begin(), b.data.end(), same_bits);
}

void check_content(const aaren::SafetensorsContent& content, const std::string& source) {
  std::vector<aaren::TensorView> views;
  for (const aaren::Tensor& tensor : content.tensors) {
    require(tensor.data.size() == values_in(tensor.shape), "the values fill the shape");
    require(std::all_of(tensor.data.begin(), tensor.data.end(), [](float x) { return std::isfinite(x); }),
            "every value is finite");
    require(content.find(tensor.name) == &tensor, "names are unique");
    views.push_back({tensor.name, tensor.shape, tensor.data});
  }
  const aaren::SafetensorsContent again =
      aaren::parse_safetensors(aaren::serialize_safetensors(views, content.metadata), source);
  require(again.metadata == content.metadata, "the metadata reads back");
  require(std::equal(again.tensors.begin(), again.tensors.end(), content.tensors.begin(), content.tensors.end(),
                     same_tensor),
          "the tensors read back in the same order");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::string source = "model.safetensors";
  aaren::SafetensorsContent content;
  if (aaren::fuzz::accepted([&] { content = aaren::parse_safetensors(bytes, source); }, source))
    check_content(content, source);
  return 0;
}
