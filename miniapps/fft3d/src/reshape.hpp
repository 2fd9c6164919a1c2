// One transpose of a distributed FFT: every rank's piece in the input stage is cut into the blocks
// the ranks of `comm` own in the output stage (box intersections, as heFFTe's reshapes), packed
// contiguously, exchanged through common's Transpose strategy and unpacked into the output layout.
//   send block to q   = in[me] ∩ out[q]      recv block from q = in[q] ∩ out[me]
// Blocks travel in the input memory order; pack and unpack are one strided 3-D copy kernel (unpack
// loops in the output's order: contiguous writes) on the default execution space. The own block is copied
// directly, in to out. MPI gets the buffers as MPIBuffer says (host memory, staged, or device memory).
// Sending in place (SendLayout other than packed, several ranks): the input array is the send buffer itself, laid out
// as input_layout(): the axis the output pieces split slowest, so that each block to send is one contiguous range of
// it and travels in that order, the other two in the input stage's order (senders_order: a device library writes its
// lines whole) or in the output stage's (receivers_order: FFTW's strided writes do the whole local transpose, as in
// FFTW-MPI's transposed plans, and the copies after the exchange move contiguous runs). The FFT before the reshape
// writes that layout (its strides do the local transpose: strided_stages.hpp), and there is no pack pass.
#pragma once
#include <mpi.h>

#include <array>
#include <memory>
#include <vector>

#include "decomposition.hpp"
#include "field.hpp"
#include "fused_transpose_fft.hpp"
#include "proxylab/comm/transpose.hpp"
#include "proxylab/mapping.hpp"
#include "proxylab/timers.hpp"

namespace proxylab::fft3d {

// dst[dst0 + i*da[0] + j*da[1] + k*da[2]] = src[src0 + i*sa[0] + j*sa[1] + k*sa[2]] over n[0] x n[1] x n[2].
struct BoxCopy {
  long long src0 = 0, dst0 = 0;
  long long sa[3] = {0, 0, 0}, da[3] = {0, 0, 0};
  int n[3] = {0, 0, 0};
};
void copy_box(const char* kernel_name, Mapping mapping, const BoxCopy& c, const Complex* src, Complex* dst);

enum class SendLayout { packed, senders_order, receivers_order };

class Reshape {
 public:
  // in[q], out[q]: the pieces of rank q of comm in the input and output stage.
  // ranks_per_node > 0 (node_aware only): emulate nodes as blocks of that many consecutive ranks of comm.
  // send: other than packed, send from the input array (laid out as input_layout()) where comm has several ranks.
  Reshape(std::vector<Pencil> in, std::vector<Pencil> out, MPI_Comm comm, TransposeStrategy strategy, Mapping mapping,
          int ranks_per_node = 0, SendLayout send = SendLayout::packed);
  // Whether the input array is the send buffer (no pack), and the layout the input array has: the input stage's
  // piece of this rank, in its stage's order or (sending in place) with the output pieces' split axis slowest.
  bool sends_in_place() const { return sends_in_place_; }
  const Pencil& input_layout() const { return in_layout_; }
  const Pencil& output_layout() const { return out_[me_]; }
  // in: input-stage data of this rank (laid out as input_layout(); sending in place: send's data); out: output-stage
  // data (a different array); send/recv: buffers of at least send_size() / recv_size() values. Timers (optional)
  // get pack, transpose, unpack.
  void apply(const Complex* in, Complex* out, const TransposeBuffer& send, const TransposeBuffer& recv,
             Timers* timers) const;

  // The same in two halves, for an FFT fused with the copies (fused_transpose_fft.hpp):
  //   forward: pack_and_exchange() (the others' blocks only), then received() are the parts of the output box
  //            (the own block in `in`, the others' blocks in `recv`) for gather_fft;
  //   reverse: to_send() are the destinations of the input box's parts (the own block in `out`, the others' in
  //            `send`) for fft_scatter, then exchange_and_unpack() (the others' blocks only).
  // (Host back ends: the fused FFTs run on the host.)
  void pack_and_exchange(const Complex* in, const TransposeBuffer& send, const TransposeBuffer& recv,
                         Timers* timers) const;
  std::vector<Block> received(const Complex* in, const TransposeBuffer& recv) const;
  std::vector<Block> to_send(Complex* out, const TransposeBuffer& send) const;
  void exchange_and_unpack(const TransposeBuffer& send, const TransposeBuffer& recv, Complex* out,
                           Timers* timers) const;
  long long send_size() const { return send_total_; }  // sending in place: the whole input piece
  long long recv_size() const { return recv_total_; }
  const Transpose* transpose() const { return transpose_.get(); }
  // Bytes the pack (with the own-block copy) and the unpack kernels have copied so far (read once, written once).
  long long packed_bytes() const { return packed_bytes_; }
  long long unpacked_bytes() const { return unpacked_bytes_; }
  int ranks() const { return int(in_.size()); }
  // The copy kernels of apply(): the own block's, then one per peer from the receive buffer (empty for this rank).
  const BoxCopy& own_copy() const { return own_; }
  const std::vector<BoxCopy>& unpack_copies() const { return unpack_; }

 private:
  std::vector<Pencil> in_, out_;
  int me_ = 0;
  bool sends_in_place_ = false;
  Pencil in_layout_;
  // The memory order rank q's blocks travel in: its input piece's, or its input layout's when sending in place.
  std::vector<std::array<int, 3>> wire_order_;
  Mapping mapping_;
  std::unique_ptr<Transpose> transpose_;
  void exchange(const TransposeBuffer& send, const TransposeBuffer& recv, Timers* timers) const;
  void unpack(const Complex* recv, Complex* out, Timers* timers) const;
  Block block(const Complex* base, long long offset, const Pencil& layout, const int order[3], int q,
              bool outgoing) const;
  BoxCopy own_;                                             // in[me] ∩ out[me], array to array
  std::vector<BoxCopy> pack_, unpack_;                      // one per peer (empty for me)
  std::vector<int> scounts_, sdispls_, rcounts_, rdispls_;  // in doubles, for Transpose
  long long send_total_ = 0, recv_total_ = 0;
  mutable long long packed_bytes_ = 0, unpacked_bytes_ = 0;
};

}  // namespace proxylab::fft3d
