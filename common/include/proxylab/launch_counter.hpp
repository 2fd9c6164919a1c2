// Kernel launches of this rank, counted through the Kokkos Tools begin callbacks of parallel_for, parallel_reduce
// and parallel_scan (core API since Kokkos 3.3) while a counter is alive. The performance model charges each launch
// a fixed cost (machines/*.yaml kernel_launch_us; docs/model.md): at a few hundred points per rank a step's
// launches, not its flops or bytes, set its time. A Kokkos Tools library loaded by the user (KOKKOS_TOOLS_LIBS)
// keeps working: its callbacks are called after the count and put back when the counter ends. One counter at a
// time; Kokkos launches from the host thread. Counting needs no fence: request_no_global_fences(), called before
// Kokkos::initialize, keeps Kokkos from fencing every execution space before each launch while the counter lives
// (its default for a tool's begin callbacks, which on a GPU would make each launch of a timed loop wait for the
// one before).
// It also counts the host's waits for the device: Kokkos fences (Kokkos::fence, and the fence Kokkos puts after a
// reduction into a host value, and around a deep_copy into a host scalar), seen through the begin-fence callback. On a
// GPU each is a round trip the host waits for; on a host back end the same code path reports them alike, so a change
// that adds one shows on the host.
#pragma once
#include <Kokkos_Core.hpp>
#include <cstdint>

// Kokkos Tools' settings request (set_request_tool_settings_callback): in Kokkos 4.x; Kokkos 3.4 fences but has no
// setter. A macro, since the call must not be compiled where the name does not exist.
#define PROXYLAB_KOKKOS_TOOL_SETTINGS (KOKKOS_VERSION >= 40000)

namespace proxylab {

class LaunchCounter {
 public:
  LaunchCounter() {
    namespace kt = Kokkos::Tools::Experimental;
    State& s = state();
    s = State{};
    const auto before = kt::get_callbacks();
    s.tool_for = before.begin_parallel_for;
    s.tool_reduce = before.begin_parallel_reduce;
    s.tool_scan = before.begin_parallel_scan;
    s.tool_fence = before.begin_fence;
    kt::set_begin_parallel_for_callback(on_for);
    kt::set_begin_parallel_reduce_callback(on_reduce);
    kt::set_begin_parallel_scan_callback(on_scan);
    kt::set_begin_fence_callback(on_fence);
  }
  ~LaunchCounter() {
    namespace kt = Kokkos::Tools::Experimental;
    const State& s = state();
    kt::set_begin_parallel_for_callback(s.tool_for);
    kt::set_begin_parallel_reduce_callback(s.tool_reduce);
    kt::set_begin_parallel_scan_callback(s.tool_scan);
    kt::set_begin_fence_callback(s.tool_fence);
  }
  LaunchCounter(const LaunchCounter&) = delete;
  LaunchCounter& operator=(const LaunchCounter&) = delete;

  std::uint64_t launches() const { return state().launches; }
  std::uint64_t fences() const { return state().fences; }
  // Whether Kokkos reports its own fences (after a reduction into a host value, around a deep_copy into a host scalar)
  // to the callback, as Kokkos 4.x does; older versions report Kokkos::fence at least.
  static constexpr bool sees_internal_fences = KOKKOS_VERSION >= 40000;

  // Whether this Kokkos takes the request.
  static constexpr bool can_request_no_fences = PROXYLAB_KOKKOS_TOOL_SETTINGS;
  // Before Kokkos::initialize. A Kokkos Tools library the user loads replaces this request with its own settings
  // (a kernel timer keeps its fences).
  static void request_no_global_fences() {
#if PROXYLAB_KOKKOS_TOOL_SETTINGS
    Kokkos::Tools::Experimental::set_request_tool_settings_callback(
        [](const std::uint32_t, Kokkos::Tools::Experimental::ToolSettings* settings) {
          settings->requires_global_fencing = false;
        });
#endif
  }

 private:
  using Begin = Kokkos::Tools::beginFunction;
  struct State {
    std::uint64_t launches = 0, fences = 0;
    Begin tool_for = nullptr, tool_reduce = nullptr, tool_scan = nullptr;
    Kokkos::Tools::beginFenceFunction tool_fence = nullptr;
  };
  static State& state() {
    static State s;
    return s;
  }
  static void count(Begin tool, const char* name, std::uint32_t device, std::uint64_t* id) {
    ++state().launches;
    if (tool) tool(name, device, id);
  }
  static void on_for(const char* n, std::uint32_t d, std::uint64_t* id) { count(state().tool_for, n, d, id); }
  static void on_reduce(const char* n, std::uint32_t d, std::uint64_t* id) { count(state().tool_reduce, n, d, id); }
  static void on_scan(const char* n, std::uint32_t d, std::uint64_t* id) { count(state().tool_scan, n, d, id); }
  static void on_fence(const char* n, std::uint32_t d, std::uint64_t* id) {
    ++state().fences;
    if (state().tool_fence) state().tool_fence(n, d, id);
  }
};

}  // namespace proxylab
