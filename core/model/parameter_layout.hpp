#pragma once
// Every parameter of a model lives in one flat buffer; this layout names the views into it with
// PyTorch-style names (DESIGN.md section 4), so AdamW is one loop, a device copy is one memcpy and
// a checkpoint loads into an equivalent PyTorch module by name.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/model/model_config.hpp"

namespace aaren {

struct ParameterEntry {
  std::string name;
  std::vector<std::int64_t> shape;
  std::size_t offset = 0;
  std::size_t size = 0;
};

// Offsets into the flat buffer, by role. `q0` is kNone for the Transformer.
struct BlockOffsets {
  std::size_t ln1_w, ln1_b;
  std::size_t q0, wq_w, wq_b, wk_w, wk_b, wv_w, wv_b, wo_w, wo_b;
  std::size_t ln2_w, ln2_b;
  std::size_t fc1_w, fc1_b, fc2_w, fc2_b;
};

class ParameterLayout {
 public:
  static constexpr std::size_t kNone = std::size_t(-1);

  explicit ParameterLayout(const ModelConfig& config);

  const std::vector<ParameterEntry>& entries() const { return entries_; }
  std::size_t total() const { return total_; }
  std::size_t block_total(int layer) const;  // parameters of one block (for `aaren params`)

  std::size_t embed_w, embed_b;
  std::vector<BlockOffsets> blocks;
  std::size_t lnf_w, lnf_b, head_w, head_b;

 private:
  std::size_t add(const std::string& name, std::vector<std::int64_t> shape);
  std::vector<ParameterEntry> entries_;
  std::size_t total_ = 0;
};

}  // namespace aaren
