// The table of subcommands (`mjhand --help` lists them in this order).
#include "commands.h"

namespace mjhand::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"make-hand", "write MJCF for a hand description (DH tables in YAML)", cmd_make_hand},
      {"make-scene", "write MJCF for a grasp scene (hand + objects + contact + closure plugins)", cmd_make_scene},
      {"scenario", "run a grasp scene: contact sequence, object pose, grasp metrics, density sweep", cmd_scenario},
      {"run", "simulate a model with its mjhand plugins, write a CSV log and print a summary", cmd_run},
      {"analyze", "analyse the grasp in a model state: G, J_H, quality, closure, epsilon, forces", cmd_analyze},
      {"plan", "plan a grasp: sample + anneal approach poses and eigengrasps, close in MuJoCo, rank by quality", cmd_plan},
      {"batch", "run a campaign (scenarios x grid x seeds) on worker threads: rollout CSVs + summary", cmd_batch},
      {"plot", "PNG plots of a batch rollout CSV or of a campaign's summary (gnuplot)", cmd_plot},
      {"current-study", "direct-drive hand: coil currents, power, heating (Figures 2-4)", cmd_current_study},
      {"fit-coupling", "least-squares joint coupling law from a CSV of angles (+ MJCF equality)", cmd_fit_coupling},
      {"berul-poses", "BERUL hand fingertips for actuator sensor values M (Fig. 7) as CSV", cmd_berul_poses},
      {"synergies", "record grasp postures in simulation; fit postural synergies to them (PCA)", cmd_synergies},
      {"identify-coupling", "BERUL coupling from rendered images of colour markers (eq 1, Fig. 6)", cmd_identify_coupling},
  };
  return table;
}

}  // namespace mjhand::cli
