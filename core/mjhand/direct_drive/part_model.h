// Section 3.1's inertia model of a direct-drive finger link (Ebner & Wallace 1994): a magnet tube centred on the
// link's joint axis, a thin-walled connection tube along X from the joint, and two coils around the next joint,
// placed as in the paper's Figure 1. Gives each link's mass m_i, centre of mass r_Ci along X of frame {i} and
// inertia, so the hand model's numbers can be recomputed from part dimensions instead of copied.
#pragma once

#include <Eigen/Core>

#include <array>

namespace mjhand {

// Dimensions [m] and masses [kg] of one link's parts (section 3.1 table; paper symbols in the comments).
struct LinkParts {
  double r_M, h_M;  // magnet tube radius and height
  double r_T, h_T;  // connection tube radius and length
  double h_C;       // height of one coil
  double a, b;      // coil side lengths in Y and Z (the table's a_i, not the DH link length)
  double d;         // the paper's "distance between two coils"; its I_2C (2 d^2 m_C about Z) uses it as each coil's
                    // offset from the pair's centre, and so does this model
  double l;         // position of the coil pair's centre along X
  double m_M, m_T, m_C;  // magnet part, connection tube, one coil
};

// What the part model gives for a link.
struct LinkMassProperties {
  double mass = 0;                                   // m_i [kg]
  double r_c = 0;                                    // r_Ci: centre of mass on X of frame {i} [m]
  Eigen::Vector3d inertia = Eigen::Vector3d::Zero();  // principal moments about the centre of mass along
                                                      // frame {i}'s X, Y, Z [kg m^2]; Z is the paper's I_zz
};

// How the coil pair's parallel-axis term is weighted. The printed I_zz formula shifts the pair by (r_C - l) with the
// mass of one coil, m_C; the pair weighs 2 m_C (the same section's m_i and r_Ci count both coils), so the parallel
// axis theorem needs 2 m_C. The printed table follows the printed formula.
enum class CoilShift { kPrinted, kBothCoils };

// The section 3.1 table converted to SI, links 1..3 at indices 0..2 (link 3, the fingertip, has no coils).
std::array<LinkParts, 3> paper_link_parts();

// m_i, r_Ci and the inertia of one link from its parts. kBothCoils (default) is what the hand model uses.
LinkMassProperties link_mass_properties(const LinkParts& parts, CoilShift shift = CoilShift::kBothCoils);

// The values printed in the section 3.1 table (m_i, r_Ci, I_zzi), in SI, for comparison with the recomputation.
struct PrintedLinkValues {
  double mass, r_c, i_zz;
};
std::array<PrintedLinkValues, 3> paper_printed_link_values();

}  // namespace mjhand
