#include <mjhand/direct_drive/part_model.h>

namespace mjhand {

namespace {
constexpr double kCm = 0.01;
constexpr double kGram = 0.001;
}  // namespace

std::array<LinkParts, 3> paper_link_parts() {
  //                 r_M  h_M  r_T  h_T  h_C  a     b    d    l    m_M   m_T  m_C
  const double t[3][12] = {{0.7, 3.5, 0.7, 4.0, 0.8, 2.25, 1.5, 0.7, 6.0, 38.0, 4.5, 29.0},
                           {0.7, 2.9, 0.7, 4.0, 0.8, 2.25, 1.5, 0.7, 6.0, 32.0, 4.5, 20.0},
                           {0.7, 2.1, 0.7, 5.5, 0.8, 2.25, 1.5, 0.7, 6.0, 25.0, 6.2, 0.0}};
  std::array<LinkParts, 3> out{};
  for (int i = 0; i < 3; ++i) {
    const double* r = t[i];
    out[i] = LinkParts{r[0] * kCm, r[1] * kCm, r[2] * kCm, r[3] * kCm, r[4] * kCm, r[5] * kCm,
                       r[6] * kCm, r[7] * kCm, r[8] * kCm, r[9] * kGram, r[10] * kGram, r[11] * kGram};
  }
  return out;
}

LinkMassProperties link_mass_properties(const LinkParts& p, CoilShift shift) {
  LinkMassProperties out;
  // m_i = 2 m_C + m_T + m_M; r_Ci = (2 l m_C + h_T m_T / 2) / m_i: the magnet is centred on the joint axis, the tube
  // spans [0, h_T] on X, the coil pair sits at l (for link 3, m_C = 0 gives the paper's separate r_C3 formula).
  out.mass = 2 * p.m_C + p.m_T + p.m_M;
  out.r_c = (2 * p.l * p.m_C + 0.5 * p.h_T * p.m_T) / out.mass;
  const double rc = out.r_c;
  // Own inertias as printed (I_M, I_T, I_2C of section 3.1), then parallel-axis shifts along X, which add to the
  // Y and Z moments only.
  const Eigen::Vector3d magnet = p.m_M * Eigen::Vector3d(0.25 * p.r_M * p.r_M + p.h_M * p.h_M / 12,
                                                         0.5 * p.r_M * p.r_M,
                                                         0.25 * p.r_M * p.r_M + p.h_M * p.h_M / 12);
  const double tube_transverse = 0.5 * p.r_T * p.r_T + p.h_T * p.h_T / 12;
  const Eigen::Vector3d tube = p.m_T * Eigen::Vector3d(p.r_T * p.r_T, tube_transverse, tube_transverse);
  const Eigen::Vector3d coils = p.m_C * Eigen::Vector3d((p.a * p.a + p.b * p.b) / 3,
                                                        p.b * p.b / 3 + p.h_C * p.h_C / 6,
                                                        p.a * p.a / 3 + p.h_C * p.h_C / 6 + 2 * p.d * p.d);
  const double coil_mass = shift == CoilShift::kBothCoils ? 2 * p.m_C : p.m_C;
  const double shifts = p.m_M * rc * rc + p.m_T * (rc - 0.5 * p.h_T) * (rc - 0.5 * p.h_T) +
                        coil_mass * (rc - p.l) * (rc - p.l);
  out.inertia = magnet + tube + coils + Eigen::Vector3d(0, shifts, shifts);
  return out;
}

std::array<PrintedLinkValues, 3> paper_printed_link_values() {
  return {PrintedLinkValues{100.5 * kGram, 3.55 * kCm, 7.95e-5}, PrintedLinkValues{76.5 * kGram, 3.25 * kCm, 5.85e-5},
          PrintedLinkValues{31.2 * kGram, 0.546 * kCm, 6.70e-6}};
}

}  // namespace mjhand
