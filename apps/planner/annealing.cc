#include "annealing.h"

#include <cmath>

namespace mjhand::planner {

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

Rng::Rng(uint64_t seed, uint64_t stream) : state_(splitmix64(splitmix64(seed) ^ (stream * 0xd1b54a32d192ed03ull))) {}

uint64_t Rng::next() {
  state_ += 0x9e3779b97f4a7c15ull;
  uint64_t x = state_;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

double Rng::uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }

double ingber_temperature(double t0, double c, int k, int d) {
  return t0 * std::exp(-c * std::pow(static_cast<double>(k), 1.0 / d));
}

double ingber_neighbour(double T, double u) {
  const double v = std::fabs(2.0 * u - 1.0);
  const double y = T * (std::pow(1.0 + 1.0 / T, v) - 1.0);
  return u < 0.5 ? -y : y;
}

double acceptance_probability(double e_old, double e_new, double T) {
  if (e_new < e_old) return 1.0;
  return std::exp((e_old - e_new) / T);
}

}  // namespace mjhand::planner
