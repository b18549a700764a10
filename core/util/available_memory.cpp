#include "core/util/available_memory.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace aaren {

namespace {

// A limit this large is the kernel's way of saying "none" in cgroup v1.
constexpr std::size_t kNoLimitAbove = std::size_t(1) << 60;

std::string read_small_file(const char* path) {
  std::ifstream in(path);
  if (!in) return {};
  std::ostringstream text;
  text << in.rdbuf();
  return std::move(text).str();
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  return text;
}

std::optional<std::size_t> whole_number(std::string_view text) {
  text = trimmed(text);
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The number after `key` on the line that starts with it ("MemAvailable:  123 kB", "inactive_file 42").
std::optional<std::size_t> field(std::string_view text, std::string_view key) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    if (!line.starts_with(key)) continue;
    line.remove_prefix(key.size());
    if (line.empty() || (line.front() != ':' && line.front() != ' ')) continue;
    line.remove_prefix(1);
    line = trimmed(line);
    if (line.ends_with(" kB")) {
      const std::optional<std::size_t> kib = whole_number(line.substr(0, line.size() - 3));
      if (kib) return *kib * 1024;
      return std::nullopt;
    }
    return whole_number(line);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::size_t> meminfo_available_bytes(std::string_view meminfo) {
  return field(meminfo, "MemAvailable");
}

std::optional<std::size_t> cgroup_room_bytes(std::string_view limit, std::string_view usage, std::string_view stat) {
  const std::optional<std::size_t> max = whole_number(limit);
  if (!max || *max >= kNoLimitAbove) return std::nullopt;  // "max", or v1's huge "unlimited"
  const std::optional<std::size_t> used = whole_number(usage);
  if (!used) return std::nullopt;
  std::optional<std::size_t> cache = field(stat, "inactive_file");
  if (!cache) cache = field(stat, "total_inactive_file");
  const std::size_t in_use = *used - std::min(*used, cache.value_or(0));
  return *max > in_use ? *max - in_use : 0;
}

std::optional<std::size_t> available_memory_bytes() {
  std::optional<std::size_t> available = meminfo_available_bytes(read_small_file("/proc/meminfo"));
  const auto lower_to = [&](std::optional<std::size_t> room) {
    if (room && (!available || *room < *available)) available = room;
  };
  lower_to(cgroup_room_bytes(read_small_file("/sys/fs/cgroup/memory.max"),
                             read_small_file("/sys/fs/cgroup/memory.current"),
                             read_small_file("/sys/fs/cgroup/memory.stat")));
  lower_to(cgroup_room_bytes(read_small_file("/sys/fs/cgroup/memory/memory.limit_in_bytes"),
                             read_small_file("/sys/fs/cgroup/memory/memory.usage_in_bytes"),
                             read_small_file("/sys/fs/cgroup/memory/memory.stat")));
  return available;
}

std::string format_bytes(double bytes) {
  static constexpr const char* kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 5) {
    bytes /= 1024;
    ++unit;
  }
  char text[32];
  if (unit == 0) std::snprintf(text, sizeof text, "%.0f bytes", bytes);
  else std::snprintf(text, sizeof text, bytes < 10 ? "%.1f %s" : "%.0f %s", bytes, kUnits[unit]);
  return text;
}

}  // namespace aaren
