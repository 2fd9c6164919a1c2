#include "exact_riemann.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace proxylab::evh1 {
namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

// The gamma-dependent constants of Toro ch. 4.
struct Gamma {
  double g;
  double g1() const { return (g - 1.0) / (2.0 * g); }  // exponent of the rarefaction relations
  double g2() const { return (g + 1.0) / (2.0 * g); }
  double g4() const { return 2.0 / (g - 1.0); }  // u + g4 c is a Riemann invariant
  double g5() const { return 2.0 / (g + 1.0); }
  double g6() const { return (g - 1.0) / (g + 1.0); }
};

double sound_speed(const Primitive& k, double gamma) { return std::sqrt(gamma * k.p / k.rho); }
Primitive vacuum_at(double s) { return {0.0, s, 0.0}; }
Primitive mirrored(const Primitive& k) { return {k.rho, -k.u, k.p}; }
// The right side seen as the left side of the mirrored problem (x -> -x, u -> -u).
StarRegion mirrored(const StarRegion& s) {
  StarRegion m = s;
  m.u = -s.u;
  m.rho_left = s.rho_right;
  m.rho_right = s.rho_left;
  m.vacuum_left = -s.vacuum_right;
  m.vacuum_right = -s.vacuum_left;
  return m;
}

// Toro eq. 4.6/4.7: the pressure function of one side and its derivative.
void pressure_function(double p, const Primitive& k, const Gamma& G, double& f, double& df) {
  const double c = sound_speed(k, G.g);
  if (p > k.p) {  // shock
    const double a = G.g5() / k.rho, b = G.g6() * k.p;
    const double q = std::sqrt(a / (p + b));
    f = (p - k.p) * q;
    df = q * (1.0 - 0.5 * (p - k.p) / (b + p));
  } else {  // rarefaction
    const double pr = p / k.p;
    f = G.g4() * c * (std::pow(pr, G.g1()) - 1.0);
    df = 1.0 / (k.rho * c) * std::pow(pr, -G.g2());
  }
}

// Toro eqs. 4.46-4.49 (adaptive guess): the linearised (PVRS) value where the pressures are close and it
// lies between them; otherwise the two-rarefaction value (exact for two rarefactions) when it lies below
// both, the two-shock value when above. Keeps Newton away from p <= 0 near vacuum (Toro test 2).
double initial_pressure(const Primitive& l, const Primitive& r, double cl, double cr, const Gamma& G) {
  const double du = r.u - l.u;
  const double pvrs = std::max(0.0, 0.5 * (l.p + r.p) - 0.125 * du * (l.rho + r.rho) * (cl + cr));
  const double pmin = std::min(l.p, r.p), pmax = std::max(l.p, r.p);
  if (pmax / pmin <= 2.0 && pvrs >= pmin && pvrs <= pmax) return pvrs;
  if (pvrs < pmin) {
    const double z = G.g1();
    return std::pow((cl + cr - 0.5 * (G.g - 1.0) * du) / (cl / std::pow(l.p, z) + cr / std::pow(r.p, z)), 1.0 / z);
  }
  const double al = std::sqrt(G.g5() / l.rho / (G.g6() * l.p + pvrs));
  const double ar = std::sqrt(G.g5() / r.rho / (G.g6() * r.p + pvrs));
  return (al * l.p + ar * r.p - du) / (al + ar);
}

double star_density(double pstar, const Primitive& k, const Gamma& G) {
  const double g = G.g6();
  if (pstar > k.p) return k.rho * (pstar / k.p + g) / (g * pstar / k.p + 1.0);
  return k.rho * std::pow(pstar / k.p, 1.0 / G.g);
}

// The solution left of the contact (or of the vacuum) for the left state k at speed s: k ahead of the left
// wave, the fan inside a rarefaction (Toro eq. 4.56), then the star state or the vacuum behind it.
Primitive sample_left(const Primitive& k, const Gamma& G, const StarRegion& star, double s) {
  if (k.rho <= 0) return vacuum_at(s);
  const double c = sound_speed(k, G.g);
  const Primitive behind = star.vacuum ? vacuum_at(s) : Primitive{star.rho_left, star.u, star.p};
  if (!star.vacuum && star.p > k.p) {  // shock
    const double shock_speed = k.u - c * std::sqrt(G.g2() * star.p / k.p + G.g1());
    return s <= shock_speed ? k : behind;
  }
  const double head = k.u - c;
  const double tail = star.vacuum ? star.vacuum_left : star.u - c * std::pow(star.p / k.p, G.g1());
  if (s <= head) return k;
  if (s >= tail) return behind;
  const double ratio = std::max(0.0, G.g5() * (c + (k.u - s) / G.g4()) / c);  // fan sound speed / c
  return {k.rho * std::pow(ratio, G.g4()), G.g5() * (c + k.u / G.g4() + s), k.p * std::pow(ratio, 1.0 / G.g1())};
}

// The outermost front of the left wave: its shock, its rarefaction head, or (left vacuum state) the
// vacuum front of the right rarefaction.
double left_front(const Primitive& k, const Gamma& G, const StarRegion& star) {
  if (k.rho <= 0) return star.vacuum_right;
  const double c = sound_speed(k, G.g);
  if (!star.vacuum && star.p > k.p) return k.u - c * std::sqrt(G.g2() * star.p / k.p + G.g1());
  return k.u - c;
}

// One side's wave in words, in the left-wave frame (the caller mirrors the speeds of the right wave).
std::string describe_left(const Primitive& k, const Gamma& G, const StarRegion& star, double sign) {
  char buf[96];
  if (k.rho <= 0) return "vacuum state";
  if (!star.vacuum && star.p > k.p) {
    std::snprintf(buf, sizeof buf, "shock %.6g", sign * left_front(k, G, star));
    return buf;
  }
  const double c = sound_speed(k, G.g);
  const double tail = star.vacuum ? star.vacuum_left : star.u - c * std::pow(star.p / k.p, G.g1());
  const double a = sign * (k.u - c), b = sign * tail;
  std::snprintf(buf, sizeof buf, "rarefaction %.6g .. %.6g", std::min(a, b), std::max(a, b));
  return buf;
}

}  // namespace

StarRegion exact_star(const Primitive& left, const Primitive& right, double gamma) {
  const Gamma G{gamma};
  StarRegion s;
  const bool vacuum_left_state = left.rho <= 0, vacuum_right_state = right.rho <= 0;
  const double cl = vacuum_left_state ? 0.0 : sound_speed(left, gamma);
  const double cr = vacuum_right_state ? 0.0 : sound_speed(right, gamma);
  // Toro 4.6: a vacuum state, or the pressure positivity condition 2/(g-1) (cL + cR) > uR - uL violated
  // (the two rarefactions cannot meet: vacuum between their tails, at speeds uL + g4 cL and uR - g4 cR).
  if (vacuum_left_state || vacuum_right_state || G.g4() * (cl + cr) <= right.u - left.u) {
    s.vacuum = true;
    s.vacuum_left = vacuum_left_state ? -infinity : left.u + G.g4() * cl;
    s.vacuum_right = vacuum_right_state ? infinity : right.u - G.g4() * cr;
    return s;
  }
  double p = initial_pressure(left, right, cl, cr, G);
  for (s.iterations = 1; s.iterations <= 100; ++s.iterations) {
    double fl, dfl, fr, dfr;
    pressure_function(p, left, G, fl, dfl);
    pressure_function(p, right, G, fr, dfr);
    double pnew = p - (fl + fr + right.u - left.u) / (dfl + dfr);
    if (pnew <= 0) pnew = 1e-8 * p;  // the functions are concave: the next step comes back from below
    const double change = 2.0 * std::fabs(pnew - p) / (pnew + p);
    p = pnew;
    if (change < 1e-15) break;
  }
  double fl, dfl, fr, dfr;
  pressure_function(p, left, G, fl, dfl);
  pressure_function(p, right, G, fr, dfr);
  s.p = p;
  s.u = 0.5 * (left.u + right.u) + 0.5 * (fr - fl);
  s.rho_left = star_density(p, left, G);
  s.rho_right = star_density(p, right, G);
  return s;
}

Primitive exact_sample(const Primitive& left, const Primitive& right, double gamma, const StarRegion& star, double s) {
  const Gamma G{gamma};
  // Left of the contact (or up to the left edge of the vacuum) the left wave decides, right of it the right
  // wave, sampled as the left wave of the mirrored problem.
  const bool left_side = star.vacuum ? s <= star.vacuum_left : s <= star.u;
  if (left_side) return sample_left(left, G, star, s);
  const Primitive w = sample_left(mirrored(right), G, mirrored(star), -s);
  return mirrored(w);
}

WaveSpan wave_span(const Primitive& left, const Primitive& right, double gamma, const StarRegion& star) {
  const Gamma G{gamma};
  if (left.rho <= 0 && right.rho <= 0) return {};
  return {left_front(left, G, star), -left_front(mirrored(right), G, mirrored(star))};
}

std::string describe_waves(const Primitive& left, const Primitive& right, double gamma, const StarRegion& star) {
  const Gamma G{gamma};
  char middle[96];
  if (star.vacuum)
    std::snprintf(middle, sizeof middle, "vacuum %.6g .. %.6g", star.vacuum_left, star.vacuum_right);
  else
    std::snprintf(middle, sizeof middle, "contact %.6g", star.u);
  return describe_left(left, G, star, 1.0) + ", " + middle + ", " +
         describe_left(mirrored(right), G, mirrored(star), -1.0);
}

}  // namespace proxylab::evh1
