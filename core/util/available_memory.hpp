#pragma once
// How much more memory this process may take before the system refuses it or kills the process:
// the kernel's estimate of what can be allocated without swapping (MemAvailable), lowered to the
// room left under a container's memory limit (cgroup v2 memory.max or v1 memory.limit_in_bytes),
// where reclaimable file cache does not count as used.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace aaren {

// nullopt where the system does not say (not Linux, /proc not mounted).
std::optional<std::size_t> available_memory_bytes();

// The parts, for tests and for systems laid out differently. `meminfo` is /proc/meminfo's text.
std::optional<std::size_t> meminfo_available_bytes(std::string_view meminfo);
// `limit` is memory.max or memory.limit_in_bytes ("max" or a number), `usage` memory.current or
// memory.usage_in_bytes, `stat` memory.stat (its inactive_file or total_inactive_file is cache
// that can be dropped). nullopt when there is no limit.
std::optional<std::size_t> cgroup_room_bytes(std::string_view limit, std::string_view usage, std::string_view stat);

// "1.5 GiB", "640 MiB", "12 KiB", "300 bytes": for messages.
std::string format_bytes(double bytes);

}  // namespace aaren
