// The last-level cache from sysfs, else sysconf (see last_level_cache.hpp).
#include "last_level_cache.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>

namespace proxylab::stream {
namespace {

// CPUs named by a sysfs cpu list ("0-1", "0,2,4-7").
int cpus_in_list(const std::string& list) {
  int n = 0;
  size_t at = 0;
  while (at < list.size()) {
    const size_t end = std::min(list.find(',', at), list.size());
    const std::string item = list.substr(at, end - at);
    const size_t dash = item.find('-');
    n += dash == std::string::npos ? 1 : std::atoi(item.c_str() + dash + 1) - std::atoi(item.c_str()) + 1;
    at = end + 1;
  }
  return n;
}

}  // namespace

LastLevelCache last_level_cache() {
  LastLevelCache best;
  int best_level = 0;
  const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index";
  for (int index = 0; index < 8; ++index) {
    std::ifstream size_file(dir + std::to_string(index) + "/size"), level_file(dir + std::to_string(index) + "/level"),
        type_file(dir + std::to_string(index) + "/type"), cpus_file(dir + std::to_string(index) + "/shared_cpu_list");
    std::string size, type, cpus;
    int level = 0;
    if (!(size_file >> size) || !(level_file >> level) || !(type_file >> type) || type == "Instruction") continue;
    long long v = std::atoll(size.c_str());
    if (size.back() == 'K') v *= 1024;
    if (size.back() == 'M') v *= 1024 * 1024;
    if (v > 0 && level > best_level) {
      best_level = level;
      best.bytes = v;
      best.cpus = (cpus_file >> cpus) ? std::max(1, cpus_in_list(cpus)) : 1;
    }
  }
#ifdef _SC_LEVEL3_CACHE_SIZE
  if (best.bytes == 0) best.bytes = std::max(0L, sysconf(_SC_LEVEL3_CACHE_SIZE));
#endif
  return best;
}

}  // namespace proxylab::stream
