// A communication buffer in the default memory space, and the memory MPI is given for it (device.hpp):
//   host back ends                the buffer itself
//   device, comm.gpu_aware=false  a host mirror: to_mpi() copies the part about to be sent there, from_mpi() copies
//                                 the part received back (only those parts cross the bus)
//   device, comm.gpu_aware=true   the device buffer itself, for a GPU-aware MPI
// Kernels pack into and unpack from view(); MPI calls get mpi() (plus offsets).
#pragma once
#include <string>

#include "proxylab/device.hpp"
#include "proxylab/layout.hpp"

namespace proxylab {

template <class T>
class MPIBuffer {
 public:
  MPIBuffer() = default;
  MPIBuffer(const std::string& label, size_t n, bool gpu_aware)
      : view_(label, n > 0 ? n : 1), staged_(!mem_space_on_host && !gpu_aware) {
    if (staged_) host_ = HostView<T*>(label + " (host copy for MPI)", view_.extent(0));
  }
  const View1D<T>& view() const { return view_; }
  T* data() const { return view_.data(); }
  T* mpi() const { return staged_ ? host_.data() : view_.data(); }
  bool staged() const { return staged_; }
  size_t size() const { return view_.extent(0); }
  // Host-memory bytes of the copy MPI gets (0 unless staged): for memory estimates.
  static double host_copy_bytes(double n, bool gpu_aware) {
    return !mem_space_on_host && !gpu_aware ? n * sizeof(T) : 0;
  }

  // Elements [first, first + count) about to be sent: in MPI's memory once this returns.
  void to_mpi(size_t first, size_t count) const {
    if (staged_ && count > 0) Kokkos::deep_copy(part(host_, first, count), part(view_, first, count));
  }
  void to_mpi() const { to_mpi(0, size()); }
  // Elements [first, first + count) MPI has received: in view() once this returns.
  void from_mpi(size_t first, size_t count) const {
    if (staged_ && count > 0) Kokkos::deep_copy(part(view_, first, count), part(host_, first, count));
  }
  void from_mpi() const { from_mpi(0, size()); }

 private:
  template <class V>
  static auto part(const V& v, size_t first, size_t count) {
    return Kokkos::subview(v, std::make_pair(first, first + count));
  }
  View1D<T> view_;
  HostView<T*> host_;
  bool staged_ = false;
};

}  // namespace proxylab
