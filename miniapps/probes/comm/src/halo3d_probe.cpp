// 3-D six-neighbour halo swap (the coarray benchmark's "3D" pattern, seed 003): fixed volume n^3
// per rank (weak scaling), a periodic 3-D process grid from MPI_Dims_create, one ghost layer on each
// of the six faces. Two transfer methods: two-sided (packed faces, MPI_Isend/Irecv) and one-sided
// (MPI_Put of the packed faces into the neighbours' windows between fences: the coarray "remote
// write"). Ghost faces are reset before every swap and checked after it, because the seed reports
// compilers that moved wrong data in exactly this swap.
#include "probes.hpp"
#include "proxylab/layout.hpp"

namespace proxylab::comm {
namespace {

constexpr double sentinel = -1.0;

// Face k = 2 * dim + side (dim 0 = z, 1 = y, 2 = x; side 0 = low, 1 = high); face k ^ 1 is opposite.
struct Faces {
  int n;
  // (z, y, x) of element e of face k, at layer `layer` (0 / n+1 ghost, 1 / n interior) of that face.
  KOKKOS_INLINE_FUNCTION void at(int k, int e, bool ghost, int& z, int& y, int& x) const {
    const int side = k & 1, dim = k >> 1, a = e / n + 1, b = e % n + 1;
    const int c = ghost ? (side ? n + 1 : 0) : (side ? n : 1);
    if (dim == 0) {
      z = c;
      y = a;
      x = b;
    } else if (dim == 1) {
      z = a;
      y = c;
      x = b;
    } else {  // dim == 2
      z = a;
      y = b;
      x = c;
    }
  }
};

KOKKOS_INLINE_FUNCTION double cell3(long long gz, long long gy, long long gx, long long NY, long long NX) {
  return static_cast<double>((gz * NY + gy) * NX + gx);
}

class Swap3D {
 public:
  Swap3D(MPI_Comm comm, int n, bool one_sided) : n_(n), one_sided_(one_sided) {
    int size = 1;
    MPI_Comm_size(comm, &size);
    int dims[3] = {0, 0, 0}, periods[3] = {1, 1, 1};
    MPI_Dims_create(size, 3, dims);
    MPI_Cart_create(comm, 3, dims, periods, 0, &cart_);
    int rank = 0, coords[3];
    MPI_Comm_rank(cart_, &rank);
    MPI_Cart_coords(cart_, rank, 3, coords);
    for (int d = 0; d < 3; ++d) {
      dims_[d] = dims[d];
      origin_[d] = coords[d] * n;
      MPI_Cart_shift(cart_, d, 1, &nbr_[2 * d], &nbr_[2 * d + 1]);
    }
    field_ = View3D<double>("comm::halo3d_field", n + 2, n + 2, n + 2);
    send_ = View1D<double>("comm::halo3d_send", 6 * n * n);
    recv_ = View1D<double>("comm::halo3d_recv", 6 * n * n);
    if (one_sided_)
      MPI_Win_create(recv_.data(), MPI_Aint(6) * n * n * sizeof(double), sizeof(double), MPI_INFO_NULL, cart_, &win_);
    fill();
  }
  ~Swap3D() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;
    if (one_sided_) MPI_Win_free(&win_);
    MPI_Comm_free(&cart_);
  }
  std::string grid() const {
    return std::to_string(dims_[2]) + "x" + std::to_string(dims_[1]) + "x" + std::to_string(dims_[0]);
  }
  long long bytes() const { return 6LL * n_ * n_ * sizeof(double); }

  void reset_ghosts() { copy_faces("comm::halo3d_reset", true, false); }

  void swap() {
    copy_faces("comm::halo3d_pack", false, true);
    const int m = n_ * n_;
    if (one_sided_) {
      MPI_Win_fence(MPI_MODE_NOPRECEDE, win_);
      for (int k = 0; k < 6; ++k)
        MPI_Put(send_.data() + k * m, m, MPI_DOUBLE, nbr_[k], MPI_Aint(k ^ 1) * m, m, MPI_DOUBLE, win_);
      MPI_Win_fence(MPI_MODE_NOSUCCEED, win_);
    } else {
      MPI_Request req[12];
      for (int k = 0; k < 6; ++k) MPI_Irecv(recv_.data() + k * m, m, MPI_DOUBLE, nbr_[k], k ^ 1, cart_, &req[k]);
      for (int k = 0; k < 6; ++k) MPI_Isend(send_.data() + k * m, m, MPI_DOUBLE, nbr_[k], k, cart_, &req[6 + k]);
      MPI_Waitall(12, req, MPI_STATUSES_IGNORE);
    }
    copy_faces("comm::halo3d_unpack", true, true);
  }

  // Ghost face cells that do not hold the value of the periodic global cell they mirror.
  long long wrong_ghosts() const {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), field_);
    const long long NZ = 1LL * n_ * dims_[0], NY = 1LL * n_ * dims_[1], NX = 1LL * n_ * dims_[2];
    const Faces F{n_};
    long long wrong = 0;
    for (int k = 0; k < 6; ++k)
      for (int e = 0; e < n_ * n_; ++e) {
        int z, y, x;
        F.at(k, e, true, z, y, x);
        const long long gz = (origin_[0] + z - 1 + NZ) % NZ, gy = (origin_[1] + y - 1 + NY) % NY,
                        gx = (origin_[2] + x - 1 + NX) % NX;
        wrong += h(z, y, x) != cell3(gz, gy, gx, NY, NX);
      }
    return wrong;
  }

  // Public only because they hold KOKKOS_LAMBDAs, which nvcc rejects in private or protected member functions.
  void fill() {
    const int n = n_;
    const long long z0 = origin_[0], y0 = origin_[1], x0 = origin_[2], NY = 1LL * n * dims_[1], NX = 1LL * n * dims_[2];
    auto f = field_;
    Kokkos::parallel_for(
        "comm::halo3d_fill", Kokkos::RangePolicy<ExecSpace>(0, n * n * n), KOKKOS_LAMBDA(int i) {
          const int z = i / (n * n), y = (i / n) % n, x = i % n;
          f(z + 1, y + 1, x + 1) = cell3(z0 + z, y0 + y, x0 + x, NY, NX);
        });
    Kokkos::fence();
  }
  // ghost: faces of the ghost layer (else the interior layer); buffer: between field and buffer
  // (pack: field -> send, unpack: recv -> field), else write the sentinel.
  void copy_faces(const char* name, bool ghost, bool buffer) {
    const Faces F{n_};
    const int m = n_ * n_;
    auto f = field_;
    auto s = send_, r = recv_;
    // coarray benchmark: halo swap (pack / unpack of the six faces)
    Kokkos::parallel_for(
        name, Kokkos::RangePolicy<ExecSpace>(0, 6 * m), KOKKOS_LAMBDA(int i) {
          int z, y, x;
          F.at(i / m, i % m, ghost, z, y, x);
          if (!buffer)
            f(z, y, x) = sentinel;
          else if (ghost)
            f(z, y, x) = r(i);
          else
            s(i) = f(z, y, x);
        });
    Kokkos::fence();
  }

 private:
  int n_;
  bool one_sided_;
  MPI_Comm cart_ = MPI_COMM_NULL;
  MPI_Win win_ = MPI_WIN_NULL;
  int dims_[3] = {1, 1, 1}, origin_[3] = {0, 0, 0}, nbr_[6] = {0, 0, 0, 0, 0, 0};
  View3D<double> field_;
  View1D<double> send_, recv_;
};

}  // namespace

void probe_halo3d(RunContext& ctx, const Settings& s) {
  std::string grid;
  {
    Swap3D probe(ctx.comm, 1, false);
    grid = probe.grid();
  }
  ResultTable table(ctx, "halo3d",
                    "halo3d: six-neighbour swap, n^3 cells per rank, " + grid +
                        " periodic ranks (x by y by z), one ghost layer; GB/s = bytes sent per rank / time",
                    {"method", "n", "bytes", "reps", "t_min_us", "t_med_us", "t_max_us", "gbs_med"});
  long long wrong = 0, checked = 0;
  for (int n : s.halo3d_sizes)
    for (bool one_sided : {false, true}) {
      Swap3D probe(ctx.comm, n, one_sided);
      const int reps = repetitions_for(probe.bytes(), s.repetitions), total = s.warmup + reps;
      std::vector<double> t(total, 0.0);
      for (int rep = 0; rep < total; ++rep) {
        probe.reset_ghosts();
        start_repetition(ctx);
        const double t0 = MPI_Wtime();
        probe.swap();
        t[rep] = MPI_Wtime() - t0;
        wrong += probe.wrong_ghosts();
        checked += 6LL * n * n;
      }
      const Stats st = reduce_times(ctx.comm, t, s.warmup);
      const double bw = st.median > 0 ? probe.bytes() / st.median * 1e-9 : 0.0;
      table.row({one_sided ? "put" : "isend", n, probe.bytes(), reps, st.min * 1e6, st.median * 1e6, st.max * 1e6, bw});
    }
  check_payloads(ctx, "halo3d", wrong, checked);
}

}  // namespace proxylab::comm
