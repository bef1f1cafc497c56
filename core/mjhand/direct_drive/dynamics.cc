#include <mjhand/direct_drive/dynamics.h>

#include <cmath>

namespace mjhand {

namespace {

// The sines and cosines section 3.2 uses (c_2, c_23, s_12, ... of the frame angles).
struct Trig {
  double s1, c1, s2, c2, s3, c3, s23, c23, s12, c12, s123, c123;
  Trig(const DirectDriveFinger& f, const double* phi) {
    const double t1 = phi[0] + f.offset[0], t2 = phi[1] + f.offset[1], t3 = phi[2] + f.offset[2];
    s1 = std::sin(t1), c1 = std::cos(t1);
    s2 = std::sin(t2), c2 = std::cos(t2);
    s3 = std::sin(t3), c3 = std::cos(t3);
    s23 = std::sin(t2 + t3), c23 = std::cos(t2 + t3);
    s12 = std::sin(t1 + t2), c12 = std::cos(t1 + t2);
    s123 = std::sin(t1 + t2 + t3), c123 = std::cos(t1 + t2 + t3);
  }
};

Eigen::Matrix3d mass(const DirectDriveFinger& f, const Trig& t) {
  const double a1 = f.a[0], a2 = f.a[1];
  const double m1 = f.mass[0], m2 = f.mass[1], m3 = f.mass[2];
  const double r1 = f.r_c[0], r2 = f.r_c[1], r3 = f.r_c[2];
  const double I1 = f.i_zz[0], I2 = f.i_zz[1], I3 = f.i_zz[2];
  Eigen::Matrix3d M;
  // M_11 as printed reads m_1 r_C2^2 and m_2 (a_1^2 + a_1 r_C2 c_2 + r_C2^2); the kinetic energy k_1, k_2 printed
  // just before it gives m_1 r_C1^2 and 2 a_1 r_C2 c_2 (errata in docs/direct-drive-hand.md).
  M(0, 0) = m1 * r1 * r1 + I1 + m2 * (a1 * a1 + 2 * a1 * r2 * t.c2 + r2 * r2) + I2 +
            m3 * (a1 * a1 + a2 * a2 + r3 * r3 + 2 * a1 * a2 * t.c2 + 2 * a1 * r3 * t.c23 + 2 * a2 * r3 * t.c3) + I3;
  M(0, 1) = m2 * (a1 * r2 * t.c2 + r2 * r2) + I2 +
            m3 * (a2 * a2 + r3 * r3 + a1 * a2 * t.c2 + a1 * r3 * t.c23 + 2 * a2 * r3 * t.c3) + I3;
  M(0, 2) = m3 * (r3 * r3 + a1 * r3 * t.c23 + a2 * r3 * t.c3) + I3;
  M(1, 1) = m2 * r2 * r2 + I2 + m3 * (a2 * a2 + r3 * r3 + 2 * a2 * r3 * t.c3) + I3;
  M(1, 2) = m3 * (r3 * r3 + a2 * r3 * t.c3) + I3;
  M(2, 2) = m3 * r3 * r3 + I3;
  M(1, 0) = M(0, 1);
  M(2, 0) = M(0, 2);
  M(2, 1) = M(1, 2);
  for (int i = 0; i < 3; ++i) M(i, i) += f.armature[i];
  return M;
}

Eigen::Vector3d coriolis(const DirectDriveFinger& f, const Trig& t, const double* qd) {
  const double a1 = f.a[0], a2 = f.a[1];
  const double m2 = f.mass[1], m3 = f.mass[2];
  const double r2 = f.r_c[1], r3 = f.r_c[2];
  const double d1 = qd[0], d2 = qd[1], d3 = qd[2];
  // Shorthands for the recurring products: h12 couples joints 1-2, h13 joints 1-3 via link 3, h23 joints 2-3.
  const double h12 = m2 * a1 * r2 * t.s2 + m3 * a1 * a2 * t.s2 + m3 * a1 * r3 * t.s23;
  const double h13 = m3 * a1 * r3 * t.s23 + m3 * a2 * r3 * t.s3;
  const double h23 = m3 * a2 * r3 * t.s3;
  Eigen::Vector3d V;
  V(0) = -2 * h12 * d1 * d2 - 2 * h13 * d1 * d3 - h12 * d2 * d2 - 2 * h13 * d2 * d3 - h13 * d3 * d3;
  V(1) = h12 * d1 * d1 - 2 * h23 * d1 * d3 - 2 * h23 * d2 * d3 - h23 * d3 * d3;
  V(2) = h13 * d1 * d1 + 2 * h23 * d1 * d2 + h23 * d2 * d2;
  return V;
}

Eigen::Vector3d gravity(const DirectDriveFinger& f, const Trig& t, const Eigen::Vector3d& g) {
  const double a1 = f.a[0], a2 = f.a[1];
  const double m1 = f.mass[0], m2 = f.mass[1], m3 = f.mass[2];
  const double r1 = f.r_c[0], r2 = f.r_c[1], r3 = f.r_c[2];
  const double gx = g.x(), gy = g.y();
  Eigen::Vector3d G;
  G(2) = m3 * (gx * r3 * t.s123 - gy * r3 * t.c123);
  G(1) = m2 * (gx * r2 * t.s12 - gy * r2 * t.c12) + m3 * (gx * (a2 * t.s12 + r3 * t.s123) - gy * (a2 * t.c12 + r3 * t.c123));
  G(0) = m1 * (gx * r1 * t.s1 - gy * r1 * t.c1) + m2 * (gx * (a1 * t.s1 + r2 * t.s12) - gy * (a1 * t.c1 + r2 * t.c12)) +
         m3 * (gx * (a1 * t.s1 + a2 * t.s12 + r3 * t.s123) - gy * (a1 * t.c1 + a2 * t.c12 + r3 * t.c123));
  return G;
}

}  // namespace

Eigen::Vector3d gravity_in_base(const DirectDriveFinger& f, const Eigen::Vector3d& gravity_palm) {
  return f.base.linear().transpose() * gravity_palm;
}

Eigen::Matrix3d mass_matrix(const DirectDriveFinger& f, const double* phi) { return mass(f, Trig(f, phi)); }

Eigen::Vector3d coriolis_torques(const DirectDriveFinger& f, const double* phi, const double* phid) {
  return coriolis(f, Trig(f, phi), phid);
}

Eigen::Vector3d gravity_torques(const DirectDriveFinger& f, const double* phi, const Eigen::Vector3d& gravity_base) {
  return gravity(f, Trig(f, phi), gravity_base);
}

void finger_dynamics(const DirectDriveFinger& f, const double* phi, const double* phid,
                     const Eigen::Vector3d& gravity_base, Eigen::Matrix3d* M, Eigen::Vector3d* V, Eigen::Vector3d* G) {
  const Trig t(f, phi);
  *M = mass(f, t);
  *V = coriolis(f, t, phid);
  *G = gravity(f, t, gravity_base);
}

}  // namespace mjhand
