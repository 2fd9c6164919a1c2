// The last-level cache of the CPU a rank runs on: STREAM sizes its arrays from it (each 4x the cache).
#pragma once

namespace proxylab::stream {

struct LastLevelCache {
  long long bytes = 0;  // 0 if unknown
  int cpus = 1;         // CPUs sharing it
};

// As Linux describes it (sysfs: the highest cache level of cpu0, its size and the CPUs that share it), else
// sysconf's. sysfs first: inside a VM sysconf can report the host's whole L3 (seen: 256 MiB where the guest's
// 2 CPUs share one 32 MiB L3).
LastLevelCache last_level_cache();

}  // namespace proxylab::stream
