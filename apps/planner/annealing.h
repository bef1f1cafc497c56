// Simulated annealing as GraspIt!'s EigenGrasp planner uses it (Ciocarlie & Allen 2009; GraspIt! src/EGPlanner/
// simAnn.cpp, read for the algorithm): Ingber's very fast simulated re-annealing schedule T(k) = T0 exp(-c k^(1/d)),
// Ingber's neighbour distribution, and the Metropolis acceptance rule. Pure maths plus a seeded random stream.
#pragma once

#include <cstdint>

namespace mjhand::planner {

// A deterministic random stream (splitmix64 counter): the same (seed, stream) gives the same numbers on every
// platform and thread, unlike std:: distributions whose algorithms the standard leaves open.
class Rng {
 public:
  Rng(uint64_t seed, uint64_t stream);
  uint64_t next();
  double uniform();  // [0, 1), 53 random bits
 private:
  uint64_t state_;
};

// splitmix64's output function (Steele, Lea & Flood 2014).
uint64_t splitmix64(uint64_t x);

// The schedule and scales of one annealing run. Defaults: GraspIt!'s ANNEAL_STRICT set (the one for searches that
// score grasp quality only): T0 = 10, neighbour constant 0.72, acceptance constant 0.22, d = 2, with our energy scaled
// by energy_scale = 10 (GraspIt! scales its strict quality energy by 100 for an epsilon of order 0.1; our energy
// differences are of order 0.1 to 1, see docs/planner.md).
struct AnnealSchedule {
  double t0 = 10.0;             // T0 of both schedules
  double neighbour_c = 0.72;    // c of the neighbour temperature (GraspIt! YC)
  double accept_c = 0.22;       // c of the acceptance temperature (GraspIt! HC)
  int dims = 2;                 // d (GraspIt! YDIMS = HDIMS)
  double energy_scale = 10.0;   // energies are multiplied by this before the acceptance test (GraspIt! ERR_ADJ)
  int k0 = 0;                   // first step number (GraspIt! DEF_K0)
};

// Ingber's cooling: T(k) = t0 exp(-c k^(1/d)).
double ingber_temperature(double t0, double c, int k, int d);

// Ingber's neighbour distribution on [-1, 1] for a uniform u in [0, 1): v = |2u - 1|,
// y = sign(u - 1/2) T ((1 + 1/T)^v - 1). Small T concentrates y near 0.
double ingber_neighbour(double T, double u);

// Metropolis acceptance probability of moving from energy e_old to e_new at temperature T: 1 when e_new < e_old,
// else exp((e_old - e_new) / T).
double acceptance_probability(double e_old, double e_new, double T);

}  // namespace mjhand::planner
