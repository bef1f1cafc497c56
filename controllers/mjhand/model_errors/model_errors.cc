#include <mjhand/model_errors/model_errors.h>

#include <stdexcept>

namespace mjhand {

ModelErrors::ModelErrors(ModelErrorLevels levels, std::uint64_t seed, const std::string& instance, double period,
                         ErrorHold hold)
    : levels_(levels), key_(stream_key(seed, instance)), period_(period), hold_(hold) {
  const double v[] = {levels.torque, levels.acceleration, levels.velocity, levels.position, levels.position_scale};
  for (double x : v) {
    if (!(std::isfinite(x) && x >= 0)) throw std::invalid_argument("model errors: levels must be finite and >= 0");
  }
  if (!(std::isfinite(period) && period > 0)) throw std::invalid_argument("model errors: period must be positive");
}

std::int64_t ModelErrors::sample_index(double t) const {
  if (hold_ == ErrorHold::kRun) return 0;
  // The relative slack keeps k * period (accumulated by MuJoCo as repeated additions) in sample k, not k - 1.
  return static_cast<std::int64_t>(std::floor(t / period_ + 1e-6));
}

void ModelErrors::draw(std::int64_t sample, int n, double* u) const {
  const std::uint64_t base = static_cast<std::uint64_t>(sample) * static_cast<std::uint64_t>(4 * n);
  for (int i = 0; i < 4 * n; ++i) u[i] = uniform(key_, base + static_cast<std::uint64_t>(i));
}

std::uint64_t ModelErrors::splitmix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t ModelErrors::stream_key(std::uint64_t seed, const std::string& instance) {
  std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a 64
  for (unsigned char c : instance) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return splitmix64(seed ^ splitmix64(h));
}

double ModelErrors::uniform(std::uint64_t key, std::uint64_t counter) {
  const std::uint64_t x = splitmix64(key + splitmix64(counter));
  return 2.0 * (static_cast<double>(x >> 11) * 0x1.0p-53) - 1.0;
}

}  // namespace mjhand
