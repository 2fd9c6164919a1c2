#include "proxylab/run_results.hpp"

#include <cstdarg>
#include <cstdio>

namespace proxylab {

std::string text_printf(const char* format, ...) {
  va_list args, again;
  va_start(args, format);
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  std::string text(n > 0 ? size_t(n) : 0, '\0');
  if (n > 0) std::vsnprintf(text.data(), size_t(n) + 1, format, again);
  va_end(again);
  return text;
}

}  // namespace proxylab
