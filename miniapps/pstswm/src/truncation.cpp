#include "truncation.hpp"

namespace proxylab::pstswm {

GridSize default_grid(int n) {
  switch (n) {
    case 5:
      return {8, 16};
    case 10:
      return {16, 32};
    case 21:
      return {32, 64};
    case 42:
      return {64, 128};
    case 85:
      return {128, 256};
    case 170:
      return {256, 512};
    case 340:
      return {512, 1024};
    case 680:
      return {1024, 2048};
    default:
      break;
  }
  auto smooth = [](int v) {
    for (int p : {2, 3, 5})
      while (v % p == 0) v /= p;
    return v == 1;
  };
  int nlon = 3 * n + 1;
  while (nlon % 4 != 0 || !smooth(nlon)) ++nlon;  // nlat = nlon/2 even: north/south pairs
  return {nlon / 2, nlon};
}

}  // namespace proxylab::pstswm
