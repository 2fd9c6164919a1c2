#include "reshape.hpp"

#include <algorithm>
#include <limits>

#include "backend.hpp"
#include "proxylab/errors.hpp"

namespace proxylab::fft3d {
namespace {

struct Box {
  int lo[3], n[3];
  long long size() const { return (long long)n[0] * n[1] * n[2]; }
};

Box intersect(const Pencil& a, const Pencil& b) {
  Box r;
  for (int ax = 0; ax < 3; ++ax) {
    const int lo = std::max(a.lo[ax], b.lo[ax]), hi = std::min(a.lo[ax] + a.n[ax], b.lo[ax] + b.n[ax]);
    r.lo[ax] = lo;
    r.n[ax] = std::max(0, hi - lo);
  }
  return r;
}

// Element stride of each global axis in a pencil's memory layout.
void axis_strides(const Pencil& p, long long stride[3]) {
  for (int ax = 0; ax < 3; ++ax) stride[ax] = p.stride(ax);
}

long long offset_of(const Pencil& p, const Box& b) {
  long long s[3];
  axis_strides(p, s);
  return (b.lo[0] - p.lo[0]) * s[0] + (b.lo[1] - p.lo[1]) * s[1] + (b.lo[2] - p.lo[2]) * s[2];
}

// Copy between `array` (laid out as pencil `p`) and a contiguous block of box `b` stored in memory order `order`.
BoxCopy block_copy(const Pencil& p, const Box& b, const int order[3], long long block_offset, bool to_block) {
  long long s[3];
  axis_strides(p, s);
  BoxCopy c;
  long long array_stride[3], block_stride[3];
  for (int k = 0; k < 3; ++k) {
    c.n[k] = b.n[order[k]];
    array_stride[k] = s[order[k]];
  }
  block_stride[2] = 1;
  block_stride[1] = c.n[2];
  block_stride[0] = (long long)c.n[1] * c.n[2];
  const long long array_offset = offset_of(p, b);
  for (int k = 0; k < 3; ++k) {
    c.sa[k] = to_block ? array_stride[k] : block_stride[k];
    c.da[k] = to_block ? block_stride[k] : array_stride[k];
  }
  c.src0 = to_block ? array_offset : block_offset;
  c.dst0 = to_block ? block_offset : array_offset;
  return c;
}

// Loop order of a copy: destination strides descending, so the writes run contiguously.
BoxCopy writes_contiguous(BoxCopy c) {
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b + 1 < 3 - a; ++b)
      if (c.da[b] < c.da[b + 1]) {
        std::swap(c.da[b], c.da[b + 1]);
        std::swap(c.sa[b], c.sa[b + 1]);
        std::swap(c.n[b], c.n[b + 1]);
      }
  return c;
}

// Copy of box b straight from an array laid out as `from` into one laid out as `to`.
BoxCopy array_copy(const Pencil& from, const Pencil& to, const Box& b) {
  long long sf[3], st[3];
  axis_strides(from, sf);
  axis_strides(to, st);
  BoxCopy c;
  for (int k = 0; k < 3; ++k) {
    const int ax = from.order[k];
    c.n[k] = b.n[ax];
    c.sa[k] = sf[ax];
    c.da[k] = st[ax];
  }
  c.src0 = offset_of(from, b);
  c.dst0 = offset_of(to, b);
  return writes_contiguous(c);
}

long long elements(const BoxCopy& c) { return (long long)c.n[0] * c.n[1] * c.n[2]; }

// The one axis along which the pieces differ (-1: none, or more than one).
int split_axis(const std::vector<Pencil>& pieces) {
  int axis = -1;
  for (int ax = 0; ax < 3; ++ax)
    for (const Pencil& p : pieces)
      if (p.lo[ax] != pieces.front().lo[ax] || p.n[ax] != pieces.front().n[ax]) {
        if (axis >= 0) return -1;
        axis = ax;
        break;
      }
  return axis;
}

// p laid out with `axis` slowest, the other two as in `order`.
Pencil with_slowest(const Pencil& p, int axis, const int order[3]) {
  Pencil q = p;
  int k = 0;
  q.order[k++] = axis;
  for (int d = 0; d < 3; ++d)
    if (order[d] != axis) q.order[k++] = order[d];
  return q;
}

// Whether b spans p whole along every axis but `axis` (then it is one contiguous range of p laid out with `axis`
// slowest).
bool spans_but(const Box& b, const Pencil& p, int axis) {
  for (int ax = 0; ax < 3; ++ax)
    if (ax != axis && (b.lo[ax] != p.lo[ax] || b.n[ax] != p.n[ax])) return false;
  return true;
}

std::unique_ptr<Timers::Scope> scope(Timers* timers, const char* name, Category cat) {
  return timers ? std::make_unique<Timers::Scope>(timers->scope(name, cat)) : nullptr;
}

}  // namespace

// fft3d: the pack/unpack loops of CASTEP's / 2DECOMP's transposes, one strided 3-D copy on the default execution
// space. The loop order keeps the writes contiguous (copies are made with the destination's strides descending).
void copy_box(const char* kernel_name, Mapping mapping, const BoxCopy& c, const Complex* src, Complex* dst) {
  if (c.n[0] <= 0 || c.n[1] <= 0 || c.n[2] <= 0) return;
  const long long s0 = c.src0, d0 = c.dst0;
  const long long sa0 = c.sa[0], sa1 = c.sa[1], sa2 = c.sa[2], da0 = c.da[0], da1 = c.da[1], da2 = c.da[2];
  if constexpr (backend::host_row_copies) {
    if (mapping == Mapping::mdrange && sa2 == 1 && da2 == 1) {
      // Runs contiguous in both arrays (a block moved in its own order): plain row copies, at a copy's speed
      const int n1 = c.n[1], n2 = c.n[2];
      Kokkos::parallel_for(kernel_name, Kokkos::RangePolicy<HostExec>(0, c.n[0]), [=](int i) {
        for (int j = 0; j < n1; ++j) {
          const Complex* s = src + s0 + i * sa0 + j * sa1;
          Complex* d = dst + d0 + i * da0 + j * da1;
          for (int k = 0; k < n2; ++k) d[k] = s[k];
        }
      });
      return;
    }
    if (mapping == Mapping::mdrange) {
      // Cache-blocked: per i, tiles of tile x tile (j, k) elements, so that whichever of j and k the source runs along
      // contiguously, a tile's rows of both arrays stay in cache (a transposing copy reads each line once).
      constexpr int tile = 8;  // 8 x 8 complex: best of 4..64 for a 128^3 transposing copy (66% of memcpy)
      const int n1 = c.n[1], n2 = c.n[2];
      Kokkos::parallel_for(kernel_name, Kokkos::RangePolicy<HostExec>(0, c.n[0]), [=](int i) {
        const Complex* s = src + s0 + i * sa0;
        Complex* d = dst + d0 + i * da0;
        for (int j0 = 0; j0 < n1; j0 += tile)
          for (int k0 = 0; k0 < n2; k0 += tile) {
            const int j1 = j0 + tile < n1 ? j0 + tile : n1, k1 = k0 + tile < n2 ? k0 + tile : n2;
            for (int j = j0; j < j1; ++j)
              for (int k = k0; k < k1; ++k) d[j * da1 + k * da2] = s[j * sa1 + k * sa2];
          }
      });
      return;
    }
  }
  // Elsewhere the mapping's own 3-D loop (on a GPU: the contiguous k of neighbouring threads writes neighbouring
  // values).
  auto body = KOKKOS_LAMBDA(int i, int j, int k) {
    dst[d0 + i * da0 + j * da1 + k * da2] = src[s0 + i * sa0 + j * sa1 + k * sa2];
  };
  for_each_3d<ExecSpace>(kernel_name, mapping, 0, c.n[0], 0, c.n[1], 0, c.n[2], body);
}

Reshape::Reshape(std::vector<Pencil> in, std::vector<Pencil> out, MPI_Comm comm, TransposeStrategy strategy,
                 Mapping mapping, int ranks_per_node, SendLayout send)
    : in_(std::move(in)), out_(std::move(out)), mapping_(mapping) {
  int size = 1;
  MPI_Comm_rank(comm, &me_);
  MPI_Comm_size(comm, &size);
  if (int(in_.size()) != size || int(out_.size()) != size)
    throw RuntimeError("fft3d reshape: pieces do not match the communicator size");
  if (size > 1)
    transpose_ = strategy == TransposeStrategy::node_aware && ranks_per_node > 0
                     ? Transpose::create_node_aware(comm, ranks_per_node)
                     : Transpose::create(strategy, comm);
  // Sending in place: every block of every rank one contiguous range of its input piece laid out with the axis the
  // output pieces split slowest (the same on every rank: the pieces are known to all).
  const int split = split_axis(out_);
  sends_in_place_ = send != SendLayout::packed && size > 1 && split >= 0;
  for (int p = 0; p < size && sends_in_place_; ++p)
    for (int q = 0; q < size; ++q)
      if (intersect(in_[p], out_[q]).size() > 0 && !spans_but(intersect(in_[p], out_[q]), in_[p], split))
        sends_in_place_ = false;
  auto send_layout = [&](const Pencil& p) {
    if (!sends_in_place_) return p;
    return with_slowest(p, split, send == SendLayout::receivers_order ? out_[me_].order : p.order);
  };
  for (const Pencil& p : in_) {
    const Pencil layout = send_layout(p);
    wire_order_.push_back({layout.order[0], layout.order[1], layout.order[2]});
  }
  in_layout_ = send_layout(in_[me_]);
  const Pencil& mine_out = out_[me_];
  // This rank's own block is copied directly from the input to the output array (no buffer, no message).
  own_ = array_copy(in_layout_, mine_out, intersect(in_layout_, mine_out));
  for (int q = 0; q < size; ++q) {
    Box s = intersect(in_layout_, out_[q]), r = intersect(in_[q], mine_out);
    if (q == me_) s.n[0] = r.n[0] = 0;
    // sending in place the block to q is where it lies in the input array, and nothing is packed
    const long long send_at = sends_in_place_ ? offset_of(in_layout_, s) : send_total_;
    pack_.push_back(sends_in_place_ ? BoxCopy{} : block_copy(in_layout_, s, in_layout_.order, send_at, true));
    unpack_.push_back(writes_contiguous(block_copy(mine_out, r, wire_order_[q].data(), recv_total_, false)));
    scounts_.push_back(int(2 * s.size())), sdispls_.push_back(int(2 * send_at));
    rcounts_.push_back(int(2 * r.size())), rdispls_.push_back(int(2 * recv_total_));
    send_total_ += s.size();
    recv_total_ += r.size();
  }
  if (sends_in_place_) send_total_ = in_layout_.size();
  // MPI counts and displacements are ints (in doubles): every rank stops together if one overflows.
  const long long limit = std::numeric_limits<int>::max() / 2;
  collective_check<InputError>(comm, send_total_ <= limit && recv_total_ <= limit,
                               "a transpose buffer of " + std::to_string(std::max(send_total_, recv_total_)) +
                                   " complex values exceeds MPI's int counts; allowed: at most " +
                                   std::to_string(limit) + " per rank (use more ranks or a smaller grid)");
}

void Reshape::apply(const Complex* in, Complex* out, const TransposeBuffer& send, const TransposeBuffer& recv,
                    Timers* timers) const {
  if (in == out) throw RuntimeError("fft3d reshape: input and output arrays must differ");
  pack_and_exchange(in, send, recv, timers);
  {
    auto t = scope(timers, "pack", Category::compute);
    copy_box("fft3d::copy_own_block", mapping_, own_, in, out);
    if (timers) Kokkos::fence();  // the timer holds the copy (else the next kernel or FFT is queued behind it)
    packed_bytes_ += elements(own_) * sizeof(Complex);
  }
  unpack(recv.data(), out, timers);
}

void Reshape::pack_and_exchange(const Complex* in, const TransposeBuffer& send, const TransposeBuffer& recv,
                                Timers* timers) const {
  if (!transpose_) return;
  if (sends_in_place_) {
    if (in != send.data()) throw RuntimeError("fft3d reshape: sending in place needs the input in the send buffer");
    Kokkos::fence();  // MPI reads the send buffer the FFT before wrote
  } else {
    auto t = scope(timers, "pack", Category::compute);
    for (int q = 0; q < ranks(); ++q)
      if (q != me_) copy_box("fft3d::pack", mapping_, pack_[q], in, send.data());
    Kokkos::fence();  // MPI reads the send buffer
    packed_bytes_ += send_total_ * sizeof(Complex);
  }
  exchange(send, recv, timers);
}

void Reshape::exchange_and_unpack(const TransposeBuffer& send, const TransposeBuffer& recv, Complex* out,
                                  Timers* timers) const {
  if (!transpose_) return;
  exchange(send, recv, timers);
  unpack(recv.data(), out, timers);
}

// The blocks to send are in MPI's memory first (staged: copied to the host), the received ones in the buffer after.
void Reshape::exchange(const TransposeBuffer& send, const TransposeBuffer& recv, Timers* timers) const {
  auto t = scope(timers, "transpose", Category::communication);
  if (sends_in_place_) {  // the peers' blocks only (the own block lies among them)
    for (int q = 0; q < ranks(); ++q)
      if (q != me_ && scounts_[q] > 0) send.to_mpi(size_t(sdispls_[q] / 2), size_t(scounts_[q] / 2));
  } else {
    send.to_mpi(0, size_t(send_total_));
  }
  transpose_->exchange(reinterpret_cast<const double*>(send.mpi()), scounts_, sdispls_,
                       reinterpret_cast<double*>(recv.mpi()), rcounts_, rdispls_);
  recv.from_mpi(0, size_t(recv_total_));
}

void Reshape::unpack(const Complex* recv, Complex* out, Timers* timers) const {
  auto t = scope(timers, "unpack", Category::compute);
  for (int q = 0; q < ranks(); ++q)
    if (q != me_) copy_box("fft3d::unpack", mapping_, unpack_[q], recv, out);
  if (timers) Kokkos::fence();  // the timer holds the copies
  unpacked_bytes_ += recv_total_ * sizeof(Complex);
}

// The part of this rank's box exchanged with rank q (outgoing: in[me] ∩ out[q], else in[q] ∩ out[me]) as stored
// at base + offset: in a rank's array laid out as `layout` (order == nullptr) or as a contiguous block in memory
// order `order`.
Block Reshape::block(const Complex* base, long long offset, const Pencil& layout, const int order[3], int q,
                     bool outgoing) const {
  const Box box = outgoing ? intersect(in_[me_], out_[q]) : intersect(in_[q], out_[me_]);
  Block k;
  k.base = const_cast<Complex*>(base) + offset;
  for (int ax = 0; ax < 3; ++ax) {
    k.lo[ax] = box.lo[ax];
    k.n[ax] = box.n[ax];
  }
  if (order) {
    k.stride[order[2]] = 1;
    k.stride[order[1]] = box.n[order[2]];
    k.stride[order[0]] = (long long)box.n[order[2]] * box.n[order[1]];
  } else {
    for (int ax = 0; ax < 3; ++ax) k.stride[ax] = layout.stride(ax);
    k.base += offset_of(layout, box);
  }
  return k;
}

std::vector<Block> Reshape::received(const Complex* in, const TransposeBuffer& recv) const {
  std::vector<Block> v;
  for (int q = 0; q < ranks(); ++q)
    if (intersect(in_[q], out_[me_]).size() > 0)
      v.push_back(q == me_ ? block(in, 0, in_layout_, nullptr, q, false)
                           : block(recv.data(), rdispls_[q] / 2, in_layout_, wire_order_[q].data(), q, false));
  return v;
}

std::vector<Block> Reshape::to_send(Complex* out, const TransposeBuffer& send) const {
  if (sends_in_place_) throw RuntimeError("fft3d reshape: a reshape that sends in place has no blocks to fill");
  std::vector<Block> v;
  for (int q = 0; q < ranks(); ++q)
    if (intersect(in_[me_], out_[q]).size() > 0)
      v.push_back(q == me_ ? block(out, 0, out_[me_], nullptr, q, true)
                           : block(send.data(), sdispls_[q] / 2, in_[me_], in_[me_].order, q, true));
  return v;
}

}  // namespace proxylab::fft3d
