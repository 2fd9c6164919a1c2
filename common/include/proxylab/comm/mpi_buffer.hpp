// Default-space data handed to MPI, and the memory MPI is given for it (comm/options.hpp): the data itself, or on a
// device without comm.gpu_aware a host copy, to which to_mpi() copies the part about to be sent and from which
// from_mpi() copies the part received back (only those parts cross the bus).
// MPIStage applies the rule to Views the caller owns (a host copy of up to `capacity` elements, shared by them);
// MPIBuffer is a buffer of its own with its stage. Kernels pack into and unpack from the Views; MPI calls get mpi().
// Both take the memory space of the data (the default space's unless given), so that a device build's tests run the
// host path beside the staged one.
#pragma once
#include <algorithm>
#include <string>

#include "proxylab/comm/options.hpp"
#include "proxylab/errors.hpp"
#include "proxylab/layout.hpp"

namespace proxylab {

template <class T, class Space = MemSpace>
class MPIStage {
 public:
  using DataView = Kokkos::View<T*, Kokkos::LayoutRight, Space>;
  // CommOptions::staged_through_host()'s rule for data in Space: memory MPI cannot read, and no comm.gpu_aware.
  static bool stages(CommOptions comm) {
    return !Kokkos::SpaceAccessibility<Kokkos::HostSpace, Space>::accessible && !comm.gpu_aware;
  }

  MPIStage() = default;
  MPIStage(const std::string& label, size_t capacity, CommOptions comm) : staged_(stages(comm)) {
    if (staged_) host_ = HostView<T*>(label + " (host copy for MPI)", capacity > 0 ? capacity : 1);
  }
  bool staged() const { return staged_; }
  // Where MPI finds v's elements (element i at [i]): v's own memory, or the host copy.
  T* mpi(const DataView& v) const { return staged_ ? host_.data() : v.data(); }
  // v's elements [first, first + count), about to be sent: in MPI's memory once this returns.
  void to_mpi(const DataView& v, size_t first, size_t count) const {
    require_within(v, first, count);
    if (staged_ && count > 0) Kokkos::deep_copy(elements(host_, first, count), elements(v, first, count));
  }
  // v's elements [first, first + count), received by MPI: in v once this returns.
  void from_mpi(const DataView& v, size_t first, size_t count) const {
    require_within(v, first, count);
    if (staged_ && count > 0) Kokkos::deep_copy(elements(v, first, count), elements(host_, first, count));
  }
  // Host-memory bytes of the copy MPI gets for n elements (0 unless staged): for memory estimates.
  static double host_copy_bytes(double n, CommOptions comm) { return stages(comm) ? n * sizeof(T) : 0; }

 private:
  void require_within(const DataView& v, size_t first, size_t count) const {
    const size_t limit = staged_ ? std::min(v.extent(0), host_.extent(0)) : v.extent(0);
    if (first + count > limit)
      throw RuntimeError("MPIStage: elements [" + std::to_string(first) + ", " + std::to_string(first + count) +
                         ") of " + v.label() + " (" + std::to_string(v.extent(0)) + " elements; host copy " +
                         std::to_string(host_.extent(0)) + ")");
  }
  HostView<T*> host_;
  bool staged_ = false;
};

template <class T, class Space = MemSpace>
class MPIBuffer {
 public:
  using DataView = typename MPIStage<T, Space>::DataView;
  MPIBuffer() = default;
  MPIBuffer(const std::string& label, size_t n, CommOptions comm)
      : view_(label, n > 0 ? n : 1), stage_(label, view_.extent(0), comm) {}
  const DataView& view() const { return view_; }
  T* data() const { return view_.data(); }
  T* mpi() const { return stage_.mpi(view_); }
  bool staged() const { return stage_.staged(); }
  size_t size() const { return view_.extent(0); }
  static double host_copy_bytes(double n, CommOptions comm) { return MPIStage<T, Space>::host_copy_bytes(n, comm); }

  // Elements [first, first + count) about to be sent: in MPI's memory once this returns.
  void to_mpi(size_t first, size_t count) const { stage_.to_mpi(view_, first, count); }
  void to_mpi() const { to_mpi(0, size()); }
  // Elements [first, first + count) MPI has received: in view() once this returns.
  void from_mpi(size_t first, size_t count) const { stage_.from_mpi(view_, first, count); }
  void from_mpi() const { from_mpi(0, size()); }

 private:
  DataView view_;
  MPIStage<T, Space> stage_;
};

}  // namespace proxylab
