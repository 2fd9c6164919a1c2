// Halo exchange strategies (see comm/halo.hpp). The eight neighbour directions are numbered
// k = 0..7 in the order (dx, dy) = (-1,-1) (0,-1) (1,-1) (-1,0) (1,0) (-1,1) (0,1) (1,1), so that
// direction 7 - k is the opposite of k. A message sent towards direction k carries tag k; the
// receiver posts it as "from direction 7 - k". A rank may be its own neighbour (periodic, px = 1).
#include "proxylab/comm/halo.hpp"

#include <mpi.h>

#include <algorithm>

#include "proxylab/comm/mpi_buffer.hpp"
#include "proxylab/errors.hpp"

namespace proxylab {

HaloExchange::HaloExchange(HaloStrategy s, const ProcessGrid& grid, int nx, int ny, int w, int nfields)
    : strategy_(s), grid_(grid), nx_(nx), ny_(ny), w_(w), nfields_(nfields) {}

void HaloExchange::exchange(const View2D<double>& field) {
  if (nfields_ != 1)
    throw RuntimeError("HaloExchange::exchange(View2D): the exchange was created for " + std::to_string(nfields_) +
                       " fields");
  exchange(View3D<double>(field.data(), 1, field.extent(0), field.extent(1)));
}

namespace {

constexpr int dir_dx[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
constexpr int dir_dy[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
constexpr int opposite(int k) { return 7 - k; }

// A rectangle of the (ny + 2w) x (nx + 2w) field, all fields.
struct Box {
  int y0 = 0, h = 0, x0 = 0, wd = 0;
};

// Interior strip sent towards direction k / ghost strip filled from direction k.
Box send_box(int k, int nx, int ny, int w) {
  Box b;
  b.x0 = dir_dx[k] < 0 ? w : dir_dx[k] == 0 ? w : nx;
  b.wd = dir_dx[k] == 0 ? nx : w;
  b.y0 = dir_dy[k] < 0 ? w : dir_dy[k] == 0 ? w : ny;
  b.h = dir_dy[k] == 0 ? ny : w;
  return b;
}
Box recv_box(int k, int nx, int ny, int w) {
  Box b = send_box(k, nx, ny, w);
  b.x0 = dir_dx[k] < 0 ? 0 : dir_dx[k] == 0 ? w : nx + w;
  b.y0 = dir_dy[k] < 0 ? 0 : dir_dy[k] == 0 ? w : ny + w;
  return b;
}

// Boxes packed into (or unpacked from) one flat buffer by a single kernel. Box b holds nf * h * wd
// values stored [field][y][x] at buffer offset at[b]; off[] is the running flat index.
struct BoxList {
  int n = 0, nf = 1;
  int off[9] = {0};
  int at[8] = {0}, y0[8] = {0}, x0[8] = {0}, h[8] = {0}, wd[8] = {0};
  int dir[8] = {0};                                // direction of box b (host side)
  int slot[8] = {-1, -1, -1, -1, -1, -1, -1, -1};  // box of direction k, -1 if none
  int total() const { return off[n]; }
  int span() const {  // buffer elements from the first box's start to the last one's end
    int end = 0;
    for (int b = 0; b < n; ++b) end = end > at[b] + count(b) ? end : at[b] + count(b);
    return end;
  }
  int count(int b) const { return off[b + 1] - off[b]; }
  void add(int k, const Box& box, int buffer_offset) {
    dir[n] = k;
    slot[k] = n;
    at[n] = buffer_offset;
    y0[n] = box.y0;
    x0[n] = box.x0;
    h[n] = box.h;
    wd[n] = box.wd;
    off[n + 1] = off[n] + nf * box.h * box.wd;
    ++n;
  }
  void add(int k, const Box& box) { add(k, box, off[n]); }
};

// Flat index -> (box, field, y, x) position in the field and in the buffer.
struct BoxIndex {
  KOKKOS_INLINE_FUNCTION BoxIndex(const BoxList& L, int idx) {
    b = 0;
    while (idx >= L.off[b + 1]) ++b;
    int r = idx - L.off[b];
    buf = L.at[b] + r;
    const int plane = L.h[b] * L.wd[b];
    f = r / plane;
    r -= f * plane;
    const int yy = r / L.wd[b];
    y = L.y0[b] + yy;
    x = L.x0[b] + (r - yy * L.wd[b]);
  }
  int b, f, y, x, buf;
};

// The packed boxes are complete before MPI (or the copy to MPI's host memory) reads them: one wait.
void pack(const BoxList& L, const View3D<double>& fields, const View1D<double>& buf) {
  if (L.total() == 0) return;
  // POP: boundary_2d (gather the edge rows/columns into the send buffer)
  Kokkos::parallel_for(
      "halo::pack", Kokkos::RangePolicy<ExecSpace>(0, L.total()), KOKKOS_LAMBDA(int idx) {
        const BoxIndex p(L, idx);
        buf(p.buf) = fields(p.f, p.y, p.x);
      });
  Kokkos::fence();
}

// No wait after it: the kernels that read the ghosts run after it on the same execution space, and a host read of
// the field (deep_copy) waits for it.
void unpack(const BoxList& L, const View1D<double>& buf, const View3D<double>& fields) {
  if (L.total() == 0) return;
  // POP: boundary_2d (scatter the received buffer into the ghost cells)
  Kokkos::parallel_for(
      "halo::unpack", Kokkos::RangePolicy<ExecSpace>(0, L.total()), KOKKOS_LAMBDA(int idx) {
        const BoxIndex p(L, idx);
        fields(p.f, p.y, p.x) = buf(p.buf);
      });
}

// The exchange of a rank with itself (periodic, one rank in that direction): ghost box d of `to` filled from interior
// box d of `from` (same shapes), in one kernel where the fields live: no buffer, no MPI, no wait.
void copy_boxes(const BoxList& from, const BoxList& to, const View3D<double>& fields) {
  if (from.total() == 0) return;
  // POP: boundary_2d (the periodic wrap of a block that is its own neighbour)
  Kokkos::parallel_for(
      "halo::self", Kokkos::RangePolicy<ExecSpace>(0, from.total()), KOKKOS_LAMBDA(int idx) {
        const BoxIndex s(from, idx), d(to, idx);
        fields(d.f, d.y, d.x) = fields(s.f, s.y, s.x);
      });
}

bool mpi_finalized() {
  int f = 0;
  MPI_Finalized(&f);
  return f != 0;
}

// Shared by the strategies that move packed buffers (packed, persistent, rma, sendrecv). Packing and unpacking run
// where the fields live; MPI gets the buffers as MPIBuffer says: on host back ends the buffers themselves; with a
// device memory space host copies (an MPI library without GPU support, such as Debian's MPICH, cannot read device
// pointers; it crashed in MPI_Isend), of which only the packed edges cross the bus; with comm.gpu_aware the device
// buffers. Packed, persistent and rma exchange the directions in which the rank is its own neighbour by copy_boxes
// (self_from_, self_to_), never through MPI; sendrecv's two phases send them through MPI. The counts of messages and
// bytes are those of every direction with a neighbour, the rank itself included (the model's edges).
class BufferedHalo : public HaloExchange {
 protected:
  BufferedHalo(HaloStrategy s, const ProcessGrid& grid, int nx, int ny, int w, int nf, CommOptions comm)
      : HaloExchange(s, grid, nx, ny, w, nf), comm_(comm) {
    send_list_.nf = recv_list_.nf = self_from_.nf = self_to_.nf = nf;
    for (int k = 0; k < 8; ++k) {
      nbr_[k] = grid.neighbor(dir_dx[k], dir_dy[k]);
      if (nbr_[k] == MPI_PROC_NULL) continue;
      const Box edge = send_box(k, nx, ny, w);
      messages_ += 1;
      bytes_ += static_cast<long long>(nf) * edge.h * edge.wd * sizeof(double);
      if (nbr_[k] == grid.rank()) {  // ghosts of direction k: what this rank sends towards the opposite direction
        self_from_.add(k, send_box(opposite(k), nx, ny, w));
        self_to_.add(k, recv_box(k, nx, ny, w));
        continue;
      }
      send_list_.add(k, send_box(k, nx, ny, w));
      recv_list_.add(k, recv_box(k, nx, ny, w));
    }
    allocate_send(std::max(send_list_.total(), 1));
    allocate_recv(std::max(recv_list_.total(), 1));
  }
  void exchange_with_self(const View3D<double>& fields) const { copy_boxes(self_from_, self_to_, fields); }
  void check(const View3D<double>& f) const {
    if (int(f.extent(0)) != nfields_ || int(f.extent(1)) != ny_ + 2 * w_ || int(f.extent(2)) != nx_ + 2 * w_)
      throw RuntimeError("HaloExchange: fields view has extents (" + std::to_string(f.extent(0)) + ", " +
                         std::to_string(f.extent(1)) + ", " + std::to_string(f.extent(2)) + "), expected (" +
                         std::to_string(nfields_) + ", " + std::to_string(ny_ + 2 * w_) + ", " +
                         std::to_string(nx_ + 2 * w_) + ")");
  }
  void allocate_send(int n) { send_ = MPIBuffer<double>("halo::send", size_t(n), comm_); }
  void allocate_recv(int n, const std::string& label = "halo::recv") {
    recv_ = MPIBuffer<double>(label, size_t(n), comm_);
  }
  // pack into send_, then hand the packed part to MPI
  void pack_for_mpi(const BoxList& L, const View3D<double>& fields) {
    pack(L, fields, send_.view());
    send_.to_mpi(0, size_t(L.span()));
  }
  // take what MPI received, then unpack it
  void unpack_from_mpi(const BoxList& L, const View3D<double>& fields) {
    recv_.from_mpi(0, size_t(L.span()));
    unpack(L, recv_.view(), fields);
  }
  // MPI's view of the buffers
  double* send_ptr(int b) { return send_.mpi() + send_list_.at[b]; }
  double* recv_ptr(int b) { return recv_.mpi() + recv_list_.at[b]; }
  CommOptions comm_;
  int nbr_[8];
  BoxList send_list_, recv_list_;  // the directions exchanged through MPI
  BoxList self_from_, self_to_;    // the directions in which this rank is its own neighbour
  MPIBuffer<double> send_, recv_;
};

// Pack, MPI_Irecv/MPI_Isend to all neighbours, MPI_Waitall, unpack.
class PackedHalo : public BufferedHalo {
 public:
  PackedHalo(const ProcessGrid& grid, int nx, int ny, int w, int nf, CommOptions comm)
      : BufferedHalo(HaloStrategy::packed, grid, nx, ny, w, nf, comm) {}
  void exchange(const View3D<double>& fields) override {
    check(fields);
    pack_for_mpi(send_list_, fields);
    MPI_Request req[16];
    int nreq = 0;
    for (int b = 0; b < recv_list_.n; ++b) {
      const int k = recv_list_.dir[b];
      MPI_Irecv(recv_ptr(b), recv_list_.count(b), MPI_DOUBLE, nbr_[k], opposite(k), grid_.comm(), &req[nreq++]);
    }
    for (int b = 0; b < send_list_.n; ++b) {
      const int k = send_list_.dir[b];
      MPI_Isend(send_ptr(b), send_list_.count(b), MPI_DOUBLE, nbr_[k], k, grid_.comm(), &req[nreq++]);
    }
    exchange_with_self(fields);
    MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
    unpack_from_mpi(recv_list_, fields);
  }
};

// Persistent requests set up once (the seeds' HALO "persistent isend/irecv"), started each exchange.
class PersistentHalo : public BufferedHalo {
 public:
  PersistentHalo(const ProcessGrid& grid, int nx, int ny, int w, int nf, CommOptions comm)
      : BufferedHalo(HaloStrategy::persistent, grid, nx, ny, w, nf, comm) {
    for (int b = 0; b < recv_list_.n; ++b) {
      const int k = recv_list_.dir[b];
      req_.emplace_back();
      MPI_Recv_init(recv_ptr(b), recv_list_.count(b), MPI_DOUBLE, nbr_[k], opposite(k), grid_.comm(), &req_.back());
    }
    for (int b = 0; b < send_list_.n; ++b) {
      const int k = send_list_.dir[b];
      req_.emplace_back();
      MPI_Send_init(send_ptr(b), send_list_.count(b), MPI_DOUBLE, nbr_[k], k, grid_.comm(), &req_.back());
    }
  }
  ~PersistentHalo() override {
    if (!mpi_finalized())
      for (auto& r : req_) MPI_Request_free(&r);
  }
  void exchange(const View3D<double>& fields) override {
    check(fields);
    pack_for_mpi(send_list_, fields);
    if (!req_.empty()) MPI_Startall(int(req_.size()), req_.data());
    exchange_with_self(fields);
    if (!req_.empty()) MPI_Waitall(int(req_.size()), req_.data(), MPI_STATUSES_IGNORE);
    unpack_from_mpi(recv_list_, fields);
  }

 private:
  std::vector<MPI_Request> req_;
};

// One-sided: packed edges are put straight into the neighbours' receive windows between two fences
// (the SHMEM / Co-Array Fortran form of the seeds' HALO benchmark). Every direction owns a
// fixed-size slot in the window, so a neighbour's slot offset is known without asking.
class RmaHalo : public BufferedHalo {
 public:
  RmaHalo(const ProcessGrid& grid, int nx, int ny, int w, int nf)  // window and puts in host memory (halo.hpp)
      : BufferedHalo(HaloStrategy::rma, grid, nx, ny, w, nf, CommOptions{}) {
    int edge = std::max(nx, ny);
    MPI_Allreduce(MPI_IN_PLACE, &edge, 1, MPI_INT, MPI_MAX, grid.comm());
    slot_ = nf * w * edge;
    BoxList slotted;
    slotted.nf = nf;
    for (int b = 0; b < recv_list_.n; ++b) {
      const int k = recv_list_.dir[b];
      slotted.add(k, recv_box(k, nx, ny, w), k * slot_);
    }
    recv_list_ = slotted;
    allocate_recv(8 * slot_, "halo::window");
    MPI_Win_create(recv_.mpi(), MPI_Aint(8) * slot_ * sizeof(double), sizeof(double), MPI_INFO_NULL, grid.comm(),
                   &win_);
  }
  ~RmaHalo() override {
    if (!mpi_finalized()) MPI_Win_free(&win_);
  }
  void exchange(const View3D<double>& fields) override {
    check(fields);
    pack_for_mpi(send_list_, fields);
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win_);  // every rank has unpacked the previous exchange
    for (int b = 0; b < send_list_.n; ++b) {
      const int k = send_list_.dir[b];
      MPI_Put(send_ptr(b), send_list_.count(b), MPI_DOUBLE, nbr_[k], MPI_Aint(opposite(k)) * slot_, send_list_.count(b),
              MPI_DOUBLE, win_);
    }
    exchange_with_self(fields);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win_);
    unpack_from_mpi(recv_list_, fields);
  }

 private:
  int slot_ = 0;
  MPI_Win win_ = MPI_WIN_NULL;
};

// MPI_Sendrecv in two phases: x edges over the interior rows, then y edges over the rows widened
// into the x ghosts just received, so the corners ride along (the classic POP/HALO sendrecv form).
// A widened row only reaches into an x ghost that has a neighbour, so ghosts off a non-periodic
// edge stay untouched, as in the eight-neighbour strategies.
class SendrecvHalo : public BufferedHalo {
 public:
  SendrecvHalo(const ProcessGrid& grid, int nx, int ny, int w, int nf, CommOptions comm)
      : BufferedHalo(HaloStrategy::sendrecv, grid, nx, ny, w, nf, comm) {
    const bool west = nbr_[3] != MPI_PROC_NULL, east = nbr_[4] != MPI_PROC_NULL;
    const int xa = west ? 0 : w, xb = east ? nx + 2 * w : nx + w;
    for (auto* L : {&xs_, &xr_, &ys_, &yr_}) L->nf = nf;
    for (int k : {3, 4}) {  // west, east
      xs_.add(k, send_box(k, nx, ny, w));
      xr_.add(k, recv_box(k, nx, ny, w));
    }
    for (int k : {1, 6}) {  // south, north, widened into the x ghosts
      Box s = send_box(k, nx, ny, w), r = recv_box(k, nx, ny, w);
      s.x0 = r.x0 = xa;
      s.wd = r.wd = xb - xa;
      ys_.add(k, s);
      yr_.add(k, r);
    }
    const int most = std::max(xs_.total(), ys_.total());
    allocate_send(most);
    allocate_recv(most);
    messages_ = 0;
    bytes_ = 0;
    for (int k : {3, 4, 1, 6})
      if (nbr_[k] != MPI_PROC_NULL) {
        const BoxList& L = (k == 3 || k == 4) ? xs_ : ys_;
        messages_ += 1;
        bytes_ += static_cast<long long>(L.count(L.slot[k])) * sizeof(double);
      }
  }
  void exchange(const View3D<double>& fields) override {
    check(fields);
    phase(fields, xs_, xr_, 3, 4);
    phase(fields, ys_, yr_, 1, 6);
  }

 private:
  // Send towards `lo` while receiving from `hi`, then the reverse (one MPI_Sendrecv each way).
  void phase(const View3D<double>& fields, const BoxList& S, const BoxList& R, int lo, int hi) {
    pack_for_mpi(S, fields);
    for (int k : {lo, hi}) {
      const int sb = S.slot[k], rb = R.slot[opposite(k)];
      MPI_Sendrecv(send_.mpi() + S.at[sb], S.count(sb), MPI_DOUBLE, nbr_[k], k, recv_.mpi() + R.at[rb], R.count(rb),
                   MPI_DOUBLE, nbr_[opposite(k)], k, grid_.comm(), MPI_STATUS_IGNORE);
    }
    // Ghosts whose neighbour is MPI_PROC_NULL received nothing: unpack only the others.
    BoxList live;
    live.nf = R.nf;
    for (int b = 0; b < R.n; ++b)
      if (nbr_[R.dir[b]] != MPI_PROC_NULL) live.add(R.dir[b], Box{R.y0[b], R.h[b], R.x0[b], R.wd[b]}, R.at[b]);
    unpack_from_mpi(live, fields);
  }
  BoxList xs_, xr_, ys_, yr_;
};

// MPI derived datatypes (subarrays of the field array): no packing by the application.
class DatatypeHalo : public HaloExchange {
 public:
  DatatypeHalo(const ProcessGrid& grid, int nx, int ny, int w, int nf)
      : HaloExchange(HaloStrategy::datatype, grid, nx, ny, w, nf) {
    const int sizes[3] = {nf, ny + 2 * w, nx + 2 * w};
    for (int k = 0; k < 8; ++k) {
      nbr_[k] = grid.neighbor(dir_dx[k], dir_dy[k]);
      if (nbr_[k] == MPI_PROC_NULL) continue;
      stype_[k] = make_type(sizes, send_box(k, nx, ny, w));
      rtype_[k] = make_type(sizes, recv_box(k, nx, ny, w));
      const Box s = send_box(k, nx, ny, w);
      messages_ += 1;
      bytes_ += static_cast<long long>(nf) * s.h * s.wd * sizeof(double);
    }
  }
  ~DatatypeHalo() override {
    if (mpi_finalized()) return;
    for (int k = 0; k < 8; ++k)
      if (nbr_[k] != MPI_PROC_NULL) MPI_Type_free(&stype_[k]), MPI_Type_free(&rtype_[k]);
  }
  void exchange(const View3D<double>& fields) override {
    if (int(fields.extent(0)) != nfields_ || int(fields.extent(1)) != ny_ + 2 * w_ ||
        int(fields.extent(2)) != nx_ + 2 * w_ || !fields.span_is_contiguous())
      throw RuntimeError("HaloExchange(datatype): fields view has the wrong extents or is not contiguous");
    if constexpr (mem_space_on_host) {
      Kokkos::fence();
      exchange_host(fields.data());
    } else {  // device memory: the datatypes describe a host copy
      auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fields);
      exchange_host(host.data());
      Kokkos::deep_copy(fields, host);
    }
  }

 private:
  static MPI_Datatype make_type(const int sizes[3], const Box& b) {
    const int sub[3] = {sizes[0], b.h, b.wd}, start[3] = {0, b.y0, b.x0};
    MPI_Datatype t;
    MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    return t;
  }
  void exchange_host(double* data) {
    MPI_Request req[16];
    int nreq = 0;
    for (int k = 0; k < 8; ++k)
      if (nbr_[k] != MPI_PROC_NULL) MPI_Irecv(data, 1, rtype_[k], nbr_[k], opposite(k), grid_.comm(), &req[nreq++]);
    for (int k = 0; k < 8; ++k)
      if (nbr_[k] != MPI_PROC_NULL) MPI_Isend(data, 1, stype_[k], nbr_[k], k, grid_.comm(), &req[nreq++]);
    MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
  }
  int nbr_[8];
  MPI_Datatype stype_[8], rtype_[8];
};

}  // namespace

std::unique_ptr<HaloExchange> HaloExchange::create(HaloStrategy s, const ProcessGrid& grid, int nx, int ny, int width,
                                                   int nfields, CommOptions comm) {
  const bool ok = width >= 1 && width <= nx && width <= ny && nfields >= 1;
  collective_check<InputError>(grid.comm(), ok,
                               "halo width " + std::to_string(width) + " with a " + std::to_string(nx) + " x " +
                                   std::to_string(ny) + " block and " + std::to_string(nfields) +
                                   " fields; allowed: 1 <= width <= min(nx, ny) of every block, nfields >= 1");
  switch (s) {
    case HaloStrategy::packed:
      return std::make_unique<PackedHalo>(grid, nx, ny, width, nfields, comm);
    case HaloStrategy::sendrecv:
      return std::make_unique<SendrecvHalo>(grid, nx, ny, width, nfields, comm);
    case HaloStrategy::persistent:
      return std::make_unique<PersistentHalo>(grid, nx, ny, width, nfields, comm);
    case HaloStrategy::datatype:
      return std::make_unique<DatatypeHalo>(grid, nx, ny, width, nfields);
    case HaloStrategy::rma:
      return std::make_unique<RmaHalo>(grid, nx, ny, width, nfields);
  }
  throw RuntimeError("HaloExchange::create: unknown strategy");
}

}  // namespace proxylab
