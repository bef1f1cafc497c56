// PNG plots of batch results with gnuplot (Debian gnuplot-nox): a rollout's joint trajectories in a fingers x
// phalanges grid, its contact signals and its object pose; a campaign's summary columns against a grid parameter.
#pragma once

#include <string>
#include <vector>

namespace mjhand::batch {

// Plots one rollout CSV into out_dir: STEM_joints.png, STEM_contacts.png (when sensors named *contact* exist),
// STEM_object.png (when the rollout has an object). Returns the PNG paths; throws naming the file on bad input or a
// missing/failed gnuplot.
std::vector<std::string> plot_rollout(const std::string& csv, const std::string& out_dir);

// Plots summary.csv of campaign folder dir: for each y column, its value vs grid parameter x (one line per scenario,
// other grid values and seed; ok rollouts only) into out_dir/summary_Y_vs_X.png. Empty x: the first grid parameter with numeric
// values; empty ys: obj_x, obj_y, obj_z when the rollouts have an object, else final_time.
std::vector<std::string> plot_campaign(const std::string& dir, const std::string& out_dir, std::string x,
                                       std::vector<std::string> ys);

// Fields of one CSV line (RFC 4180 quotes).
std::vector<std::string> split_csv_line(const std::string& line);

}  // namespace mjhand::batch
