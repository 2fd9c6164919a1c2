// Error types that decide a run's exit code (see app.hpp):
//   InputError   -> 2 (bad deck, bad flag, impossible size, undecomposable grid, missing file)
//   RuntimeError -> 3 (NaN in the state, a library call that failed, anything unexpected)
// Throw them on every rank alike where you can (validation of replicated data); collective_check()
// turns a condition known on some ranks into an error raised on all of them.
#pragma once
#include <mpi.h>

#include <new>
#include <stdexcept>
#include <string>

namespace proxylab {

struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct RuntimeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Length of the well-formed UTF-8 sequence that starts at text[at] (1-4 bytes; Unicode's table 3-7: no
// overlong forms, surrogates or code points above U+10FFFF), or 0 when the bytes there are not one.
inline std::size_t utf8_sequence_length(const std::string& text, std::size_t at) {
  auto byte = [&](std::size_t k) { return at + k < text.size() ? static_cast<unsigned char>(text[at + k]) : 0x100u; };
  const unsigned b0 = byte(0);
  if (b0 < 0x80) return 1;
  auto tail = [&](std::size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) { return byte(k) >= lo && byte(k) <= hi; };
  if (b0 >= 0xC2 && b0 <= 0xDF) return tail(1) ? 2 : 0;
  if (b0 >= 0xE0 && b0 <= 0xEF) {
    const bool second = b0 == 0xE0 ? tail(1, 0xA0) : b0 == 0xED ? tail(1, 0x80, 0x9F) : tail(1);
    return second && tail(2) ? 3 : 0;
  }
  if (b0 >= 0xF0 && b0 <= 0xF4) {
    const bool second = b0 == 0xF0 ? tail(1, 0x90) : b0 == 0xF4 ? tail(1, 0x80, 0x8F) : tail(1);
    return second && tail(2) && tail(3) ? 4 : 0;
  }
  return 0;
}

// True when text is well-formed UTF-8 (what the JSON record can hold).
inline bool is_utf8(const std::string& text) {
  for (std::size_t at = 0, n = 0; at < text.size(); at += n)
    if ((n = utf8_sequence_length(text, at)) == 0) return false;
  return true;
}

// User text quoted in an error message: shortened to about 80 characters (a deck may hold a 64 KiB scalar),
// control characters and bytes that are not UTF-8 written as \xHH (the message must be printable text).
inline std::string excerpt(const std::string& text) {
  std::string out;
  std::size_t at = 0;
  for (std::size_t n = 0; at < text.size() && out.size() < 80; at += n) {
    n = utf8_sequence_length(text, at);
    const unsigned char c = static_cast<unsigned char>(text[at]);
    if (n == 0 || c < 0x20 || c == 0x7F) {
      static const char* hex = "0123456789abcdef";
      out += std::string("\\x") + hex[c >> 4] + hex[c & 15];
      n = 1;
    } else {
      out.append(text, at, n);
    }
  }
  if (at < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

// The message a run ends with after an exception. std::bad_alloc's own text ("std::bad_alloc") names neither
// cause nor remedy, so it is spelled out.
inline std::string failure_message(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e) == nullptr) return e.what();
  return std::string("out of memory (") + e.what() +
         "): an allocation failed although the run's memory estimate fitted the memory available when it started; "
         "reduce the problem size, run fewer ranks per node, or free memory on the node";
}

enum ExitCode : int {
  exit_ok = 0,
  exit_verification_failed = 1,
  exit_bad_input = 2,
  exit_runtime_failure = 3,
  exit_interrupted = 130
};

// Collective: every rank passes its own `ok`; if any rank has ok == false, every rank throws
// ErrorT carrying the message of the lowest failing rank.
template <class ErrorT = RuntimeError>
void collective_check(MPI_Comm comm, bool ok, const std::string& message);

}  // namespace proxylab

#include "proxylab/detail/collective_check.ipp"
