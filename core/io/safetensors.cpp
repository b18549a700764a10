#include "core/io/safetensors.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>

#include "core/io/atomic_file.hpp"
#include "core/io/json_fields.hpp"
#include "core/io/text_file.hpp"

namespace aaren {

namespace {

static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big,
              "checkpoints are converted to and from little-endian byte order, which needs a plain-endian host");

constexpr std::size_t kLengthFieldBytes = 8;
constexpr std::size_t kHeaderAlignment = 8;
constexpr std::uint64_t kFloatBytes = 4;
// The limit of the reference implementation: a larger length is corruption, not a real header.
constexpr std::uint64_t kMaxHeaderBytes = std::uint64_t(100) << 20;
constexpr std::string_view kMetadataKey = "__metadata__";
constexpr std::string_view kDtype = "F32";

using OrderedJson = nlohmann::ordered_json;

[[noreturn]] void fail(const std::string& source, const std::string& problem) {
  throw std::runtime_error(source + ": " + problem);
}

std::string in_quotes(std::string_view name) {
  std::string text = "'";
  text += name;
  text += '\'';
  return text;
}

template <class Integer>
std::string list_text(std::span<const Integer> values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(values[i]);
  }
  text += ']';
  return text;
}

std::string shape_text(std::span<const std::int64_t> shape) { return list_text(shape); }

std::string offsets_text(std::uint64_t begin, std::uint64_t end) {
  const std::uint64_t offsets[] = {begin, end};
  return list_text<std::uint64_t>(offsets);
}

// Values a shape of non-negative dimensions describes; nullopt when their byte count would not fit
// a signed 64-bit integer. The dimensions other than zero count too, so that [0, 2^62] is refused
// rather than read as an empty tensor with an absurd extent.
std::optional<std::uint64_t> value_count(std::span<const std::int64_t> shape) {
  constexpr std::uint64_t kMaxValues = std::uint64_t(std::numeric_limits<std::int64_t>::max()) / kFloatBytes;
  std::uint64_t nonzero_product = 1;
  bool has_zero = false;
  for (const std::int64_t dim : shape) {
    if (dim == 0) {
      has_zero = true;
      continue;
    }
    if (nonzero_product > kMaxValues / std::uint64_t(dim)) return std::nullopt;
    nonzero_product *= std::uint64_t(dim);
  }
  return has_zero ? 0 : nonzero_product;
}

void append_u64_little_endian(std::string& out, std::uint64_t value) {
  for (std::size_t i = 0; i < 8; ++i) out.push_back(char((value >> (8 * i)) & 0xFF));
}

std::uint64_t read_u64_little_endian(std::string_view bytes) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < 8; ++i) value |= std::uint64_t(static_cast<unsigned char>(bytes[i])) << (8 * i);
  return value;
}

void append_floats_little_endian(std::string& out, std::span<const float> values) {
  if constexpr (std::endian::native == std::endian::little) {
    out.append(reinterpret_cast<const char*>(values.data()), values.size_bytes());
  } else {
    for (const float value : values) {
      const auto bits = std::bit_cast<std::uint32_t>(value);
      for (std::size_t i = 0; i < 4; ++i) out.push_back(char((bits >> (8 * i)) & 0xFF));
    }
  }
}

void copy_floats_from_little_endian(std::span<float> out, std::string_view bytes) {
  if (out.empty()) return;  // an empty vector's data() may be null, which memcpy must not see
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(out.data(), bytes.data(), out.size_bytes());
  } else {
    for (std::size_t k = 0; k < out.size(); ++k) {
      std::uint32_t bits = 0;
      for (std::size_t i = 0; i < 4; ++i)
        bits |= std::uint32_t(static_cast<unsigned char>(bytes[4 * k + i])) << (8 * i);
      out[k] = std::bit_cast<float>(bits);
    }
  }
}

std::optional<std::size_t> first_non_finite(std::span<const float> values) {
  const auto it = std::find_if(values.begin(), values.end(), [](float x) { return !std::isfinite(x); });
  if (it == values.end()) return std::nullopt;
  return std::size_t(it - values.begin());
}

// nlohmann keeps only the last of repeated keys; a repeated tensor name would silently drop a tensor.
// Deep nesting is refused for the reason kMaxJsonNesting gives.
OrderedJson parse_header(std::string_view header, const std::string& source) {
  struct OpenObject {
    std::string owner;  // the key whose value this object is; empty for the header itself
    std::set<std::string> keys;
  };
  std::vector<OpenObject> open_objects;
  std::string last_key;
  const auto check_keys_and_nesting = [&](int depth, OrderedJson::parse_event_t event, OrderedJson& parsed) {
    using Event = OrderedJson::parse_event_t;
    if ((event == Event::object_start || event == Event::array_start) && depth >= kMaxJsonNesting)
      fail(source, "header is not valid JSON (" + json_nesting_reason() + ")");
    if (event == Event::object_start) {
      open_objects.push_back({open_objects.empty() ? std::string() : last_key, {}});
    } else if (event == Event::object_end) {
      open_objects.pop_back();
    } else if (event == Event::key) {
      last_key = parsed.get_ref<const std::string&>();
      OpenObject& object = open_objects.back();
      if (!object.keys.insert(last_key).second) {
        if (open_objects.size() > 1)
          fail(source, "header entry " + in_quotes(object.owner) + " has the key " + in_quotes(last_key) + " twice");
        if (last_key == kMetadataKey) fail(source, "header has two " + in_quotes(kMetadataKey) + " entries");
        fail(source, "tensor " + in_quotes(last_key) + " appears twice in the header");
      }
    }
    return true;
  };
  try {
    return OrderedJson::parse(header.begin(), header.end(), check_keys_and_nesting);
  } catch (const OrderedJson::parse_error& error) {
    fail(source, "header is not valid JSON (at byte " + std::to_string(error.byte) + " of " +
                     std::to_string(header.size()) + ": " + json_parse_error_reason(error) + ")");
  } catch (const OrderedJson::out_of_range& error) {
    // A number beyond the range of a double ("1e999"); nlohmann gives no position for it.
    fail(source, "header is not valid JSON (" + json_parse_error_reason(error) + ")");
  }
}

std::map<std::string, std::string> parse_metadata(const OrderedJson& entry, const std::string& source) {
  if (!entry.is_object())
    fail(source, in_quotes(kMetadataKey) + " must be an object of strings, got " + std::string(entry.type_name()));
  std::map<std::string, std::string> metadata;
  for (const auto& [key, value] : entry.items()) {
    if (!value.is_string())
      fail(source, "metadata " + in_quotes(key) + " must be a string, got " + std::string(value.type_name()));
    metadata[key] = value.get<std::string>();
  }
  return metadata;
}

// A tensor as the header describes it, checked against the data section but not yet read.
struct TensorEntry {
  std::string name;
  std::vector<std::int64_t> shape;
  std::uint64_t begin = 0;  // byte range [begin, end) in the data section
  std::uint64_t end = 0;
};

TensorEntry parse_tensor_entry(const std::string& name, const OrderedJson& entry, std::uint64_t data_bytes,
                               const std::string& source) {
  const std::string tensor = "tensor " + in_quotes(name);
  if (!entry.is_object())
    fail(source, tensor + ": the entry must be an object with dtype, shape and data_offsets, got " +
                     std::string(entry.type_name()));
  for (const char* field : {"dtype", "shape", "data_offsets"})
    if (!entry.contains(field)) fail(source, tensor + ": the entry has no " + in_quotes(field));

  const OrderedJson& dtype = entry.at("dtype");
  if (!dtype.is_string()) fail(source, tensor + ": 'dtype' must be a string, got " + dtype.dump());
  if (dtype.get_ref<const std::string&>() != kDtype)
    fail(source, tensor + " has dtype " + dtype.get<std::string>() + "; Aaren Studio reads only F32 checkpoints");

  TensorEntry parsed{name, {}, 0, 0};
  const OrderedJson& shape = entry.at("shape");
  if (!shape.is_array()) fail(source, tensor + ": 'shape' must be a list of whole numbers, got " + shape.dump());
  for (const OrderedJson& dim : shape) {
    if (!dim.is_number_integer())
      fail(source, tensor + ": 'shape' must be a list of whole numbers, got " + shape.dump());
    if (dim.is_number_unsigned() && dim.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
      fail(source, tensor + ": shape " + shape.dump() + " is absurdly large (corrupt header?)");
    if (dim.get<std::int64_t>() < 0) fail(source, tensor + ": shape " + shape.dump() + " has a negative dimension");
    parsed.shape.push_back(dim.get<std::int64_t>());
  }
  const std::optional<std::uint64_t> values = value_count(parsed.shape);
  if (!values) fail(source, tensor + ": shape " + shape_text(parsed.shape) + " is absurdly large (corrupt header?)");

  const OrderedJson& offsets = entry.at("data_offsets");
  const bool offsets_valid =
      offsets.is_array() && offsets.size() == 2 &&
      std::all_of(offsets.begin(), offsets.end(), [](const OrderedJson& x) { return x.is_number_unsigned(); });
  if (!offsets_valid)
    fail(source,
         tensor + ": 'data_offsets' must be two non-negative whole numbers [begin, end], got " + offsets.dump());
  parsed.begin = offsets[0].get<std::uint64_t>();
  parsed.end = offsets[1].get<std::uint64_t>();
  if (parsed.begin > parsed.end)
    fail(source, tensor + ": data_offsets " + offsets_text(parsed.begin, parsed.end) + " end before they begin");
  if (parsed.end > data_bytes)
    fail(source, tensor + ": data_offsets " + offsets_text(parsed.begin, parsed.end) +
                     " reach past the end of the data section, which holds " + std::to_string(data_bytes) +
                     " bytes (truncated file?)");
  const std::uint64_t expected_bytes = *values * kFloatBytes;
  if (parsed.end - parsed.begin != expected_bytes)
    fail(source, tensor + ": shape " + shape_text(parsed.shape) + " needs " + std::to_string(expected_bytes) +
                     " bytes, but data_offsets " + offsets_text(parsed.begin, parsed.end) + " span " +
                     std::to_string(parsed.end - parsed.begin));
  return parsed;
}

// The tensors must tile the data section exactly, as the reference writer lays them out: a byte
// that two tensors share, or that none owns, means the header and the data disagree.
void check_layout(std::vector<TensorEntry>& entries, std::uint64_t data_bytes, const std::string& source) {
  std::stable_sort(entries.begin(), entries.end(), [](const TensorEntry& a, const TensorEntry& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  std::uint64_t covered = 0;
  const TensorEntry* previous = nullptr;
  for (const TensorEntry& entry : entries) {
    if (entry.begin < covered)
      fail(source, "tensors " + in_quotes(previous->name) + " and " + in_quotes(entry.name) +
                       " overlap in the data section (bytes " + offsets_text(entry.begin, covered) + ")");
    if (entry.begin > covered)
      fail(source, "bytes " + offsets_text(covered, entry.begin) +
                       " of the data section belong to no tensor (before tensor " + in_quotes(entry.name) + ")");
    covered = entry.end;
    previous = &entry;
  }
  if (covered != data_bytes)
    fail(source, std::to_string(data_bytes - covered) + " bytes after the last tensor belong to no tensor");
}

}  // namespace

const Tensor* SafetensorsContent::find(std::string_view name) const {
  const auto it = std::find_if(tensors.begin(), tensors.end(), [&](const Tensor& t) { return t.name == name; });
  return it == tensors.end() ? nullptr : &*it;
}

std::string serialize_safetensors(const std::vector<TensorView>& tensors,
                                  const std::map<std::string, std::string>& metadata) {
  OrderedJson header = OrderedJson::object();
  if (!metadata.empty()) header[std::string(kMetadataKey)] = metadata;
  std::set<std::string_view> names;
  std::uint64_t data_bytes = 0;
  for (const TensorView& view : tensors) {
    const std::string tensor = "tensor " + in_quotes(view.name);
    if (view.name == kMetadataKey)
      throw std::invalid_argument(tensor + ": the name is reserved for the file's metadata");
    if (!names.insert(view.name).second) throw std::invalid_argument(tensor + " is given twice");
    if (std::any_of(view.shape.begin(), view.shape.end(), [](std::int64_t dim) { return dim < 0; }))
      throw std::invalid_argument(tensor + ": shape " + shape_text(view.shape) + " has a negative dimension");
    const std::optional<std::uint64_t> values = value_count(view.shape);
    if (!values) throw std::invalid_argument(tensor + ": shape " + shape_text(view.shape) + " is absurdly large");
    if (*values != view.data.size())
      throw std::invalid_argument(tensor + ": shape " + shape_text(view.shape) + " does not match its " +
                                  std::to_string(view.data.size()) + " values");
    if (const auto index = first_non_finite(view.data))
      throw std::invalid_argument(tensor + " holds a non-finite value at index " + std::to_string(*index) +
                                  "; a checkpoint with it could not be read back");
    const std::uint64_t bytes = *values * kFloatBytes;
    header[view.name] = {{"dtype", std::string(kDtype)},
                         {"shape", view.shape},
                         {"data_offsets", OrderedJson::array({data_bytes, data_bytes + bytes})}};
    data_bytes += bytes;
  }

  std::string header_text;
  try {
    header_text = header.dump();
  } catch (const OrderedJson::type_error&) {
    throw std::invalid_argument("tensor names and metadata must be valid UTF-8");
  }
  // Spaces are JSON whitespace, so the padding that aligns the data section is part of the header.
  header_text.append((kHeaderAlignment - header_text.size() % kHeaderAlignment) % kHeaderAlignment, ' ');

  std::string bytes;
  bytes.reserve(kLengthFieldBytes + header_text.size() + data_bytes);
  append_u64_little_endian(bytes, header_text.size());
  bytes += header_text;
  for (const TensorView& view : tensors) append_floats_little_endian(bytes, view.data);
  return bytes;
}

void write_safetensors(const std::string& path, const std::vector<TensorView>& tensors,
                       const std::map<std::string, std::string>& metadata) {
  std::string bytes;
  try {
    bytes = serialize_safetensors(tensors, metadata);
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(path + ": " + error.what());
  }
  write_file_atomically(path, bytes);
}

SafetensorsContent parse_safetensors(std::string_view bytes, const std::string& source) {
  if (bytes.size() < kLengthFieldBytes)
    fail(source, "the file is " + std::to_string(bytes.size()) +
                     " bytes long, too short for a safetensors checkpoint (its header length alone takes 8)");
  const std::uint64_t header_bytes = read_u64_little_endian(bytes);
  const std::uint64_t bytes_after_length = bytes.size() - kLengthFieldBytes;
  if (header_bytes > kMaxHeaderBytes)
    fail(source, "header length " + std::to_string(header_bytes) +
                     " exceeds the 100 MiB limit (corrupt file, or not a safetensors checkpoint)");
  if (header_bytes > bytes_after_length)
    fail(source, "header length " + std::to_string(header_bytes) + " runs past the end of the file (" +
                     std::to_string(bytes_after_length) + " bytes follow the length; truncated file?)");
  if (header_bytes == 0) fail(source, "header length is 0 (corrupt file, or not a safetensors checkpoint)");

  const std::string_view header_text = bytes.substr(kLengthFieldBytes, header_bytes);
  // nlohmann stops at a NUL byte as if the text ended there, which would accept a header length
  // that runs into the data; JSON text never holds a raw NUL.
  if (const std::size_t nul = header_text.find('\0'); nul != std::string_view::npos)
    fail(source, "header holds a NUL byte at byte " + std::to_string(nul + 1) + " of " + std::to_string(header_bytes) +
                     " (wrong header length, or a damaged file)");
  const OrderedJson header = parse_header(header_text, source);
  if (!header.is_object()) fail(source, "header is not a JSON object but " + std::string(header.type_name()));
  const std::string_view data = bytes.substr(kLengthFieldBytes + header_bytes);

  SafetensorsContent content;
  std::vector<TensorEntry> entries;
  for (const auto& [key, entry] : header.items()) {
    if (key == kMetadataKey)
      content.metadata = parse_metadata(entry, source);
    else
      entries.push_back(parse_tensor_entry(key, entry, data.size(), source));
  }
  check_layout(entries, data.size(), source);

  for (TensorEntry& entry : entries) {
    Tensor tensor{std::move(entry.name), std::move(entry.shape),
                  std::vector<float>((entry.end - entry.begin) / kFloatBytes)};
    copy_floats_from_little_endian(tensor.data, data.substr(entry.begin, entry.end - entry.begin));
    if (const auto index = first_non_finite(tensor.data))
      fail(source, "tensor " + in_quotes(tensor.name) + " holds a non-finite value at index " + std::to_string(*index));
    content.tensors.push_back(std::move(tensor));
  }
  return content;
}

SafetensorsContent read_safetensors(const std::string& path) { return parse_safetensors(read_text_file(path), path); }

void check_tensors(const SafetensorsContent& content, const std::vector<ExpectedTensor>& expected,
                   const std::string& source) {
  std::vector<std::string> problems;
  std::set<std::string_view> expected_names;
  for (const ExpectedTensor& want : expected) {
    expected_names.insert(want.name);
    const Tensor* found = content.find(want.name);
    if (found == nullptr)
      problems.push_back("tensor " + in_quotes(want.name) + " is missing");
    else if (found->shape != want.shape)
      problems.push_back(in_quotes(want.name) + " has shape " + shape_text(found->shape) +
                         " but the configuration implies " + shape_text(want.shape));
  }
  for (const Tensor& tensor : content.tensors)
    if (!expected_names.contains(tensor.name))
      problems.push_back("unexpected tensor " + in_quotes(tensor.name) + " (written by a different architecture?)");
  if (problems.empty()) return;
  std::string message = problems.front();
  if (problems.size() > 1)
    message +=
        " (and " + std::to_string(problems.size() - 1) + " more mismatch" + (problems.size() > 2 ? "es" : "") + ")";
  fail(source, message);
}

}  // namespace aaren
