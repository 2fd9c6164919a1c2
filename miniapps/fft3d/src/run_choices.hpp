// fft3d's own run-time choices (named_choice.hpp): what a run times, and the names of the decomposition
// kinds (DecompKind lives with the decomposition in decomposition.hpp).
#pragma once
#include "decomposition.hpp"
#include "proxylab/named_choice.hpp"

namespace proxylab::fft3d {

enum class RunMode { fft, ft };  // timed forward + inverse transforms, or the NAS FT benchmark
PROXYLAB_CHOICE_NAMES(RunMode, "fft3d mode", "fft", "ft");

PROXYLAB_CHOICE_NAMES(DecompKind, "decomposition", "slab", "pencil");

}  // namespace proxylab::fft3d
