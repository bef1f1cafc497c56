// The fitted coil numbers mjhand ships, one row per link of the paper's finger 1. They are the output of
// coil_fit_report() (coil_fit.h) on controllers/mjhand/coil_actuator/data; tests/controllers/coil_actuator/test_coil_actuator.cc re-runs the fits and
// fails if these drift from them. Regenerate with `mjhand_unit_tests "[coil_fit_report]"` after changing a table.
#include <stdexcept>
#include <string>

#include <mjhand/coil_actuator/coil_model.h>

namespace mjhand {

namespace {
// {link, K_Tmax [N m/A], K_T quartic c0..c4 [N m/A/rad^k], R0 [ohm] (the torque table's header), C [J/K], R_th [K/W]}
const CoilLinkPreset kPresets[3] = {
    {1, 0.062768639903738807,
     {0.023790599407828499, 0.035212223334412089, 0.14143345794561557, -0.20936427189616302, 0.067043952693972897},
     30.3, 48.8040031875802, 10.071987209749057},
    {2, 0.0435898677000481,
     {0.021296036642866705, -0.044353171293662064, 0.28460243824995601, -0.32563206298581449, 0.10336705319790122},
     22.1, 33.010356805118832, 16.918934656023126},
    {3, 0.02097731557658028,
     {0.012363233580145346, -0.00075123513864089309, 0.057141877460103276, -0.071724091626760716,
      0.022876245619238122},
     14.7, 23.885752466517445, 9.643251094177387},
};
}  // namespace

const CoilLinkPreset& coil_link_preset(int link) {
  if (link < 1 || link > 3) {
    throw std::invalid_argument("the paper measured links 1, 2 and 3 only; there is no preset for link " +
                                std::to_string(link));
  }
  return kPresets[link - 1];
}

}  // namespace mjhand
