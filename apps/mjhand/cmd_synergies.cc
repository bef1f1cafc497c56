// mjhand synergies record|fit: grasp postures recorded in simulation, and synergies fitted to them by PCA
// (Santello et al. 1998's method; docs/synergies.md).
#include <cstdio>
#include <string>

#include "args.h"
#include "commands.h"
#include <mjhand/hand/number_format.h>
#include <mjhand/hand/synergies.h>
#include <mjhand/io/atomic_file.h>
#include <mjhand/synergy/posture_recording.h>

namespace mjhand::cli {

namespace {
void print_help() {
  std::printf(
      "usage: mjhand synergies record [--hand MODEL.xml] [--count N] [--seed S] -o POSTURES.csv\n"
      "       mjhand synergies fit POSTURES.csv -k K -o SYNERGIES.csv\n"
      "       mjhand synergies mjcf SYNERGIES.csv\n\n"
      "record: closes the hand on fixed objects (spheres, cylinders, boxes of random size and position, drawn from a\n"
      "        seeded sequence) joint by joint until each phalanx touches, and writes the settled postures [rad].\n"
      "fit:    PCA of the postures: q0 = mean posture, S = the first K principal directions; prints the variance\n"
      "        explained and writes the synergy file (docs/synergies.md).\n"
      "mjcf:   prints the synergy file as the <config> keys joints, q0, S of an mjhand.synergy instance.\n\n"
      "options:\n"
      "  --hand MODEL.xml  the hand (default models/direct_drive_hand.xml); every hinge/slide joint is recorded\n"
      "  --count N         postures to record (default 60)\n"
      "  --seed S          object sequence seed (default 1)\n"
      "  -k, --k K         synergies to keep (default 3)\n"
      "  -o, --output FILE output file (written atomically)\n"
      "  -h, --help        show this help\n");
}

int record(const ArgReader& reader, const std::string& out) {
  PostureRecordingOptions o;
  o.hand_xml = reader.get("--hand", "models/direct_drive_hand.xml");
  o.count = reader.get_int("--count", 60, 1, 100000);
  o.seed = static_cast<std::uint64_t>(reader.get_int("--seed", 1, 0, 2147483647));
  o.max_draws = 20 * o.count;
  const PostureRecording r = record_grasp_postures(o);
  if (r.postures.rows() < o.count) {
    std::fprintf(stderr, "mjhand synergies record: only %d postures in %d draws\n",
                 static_cast<int>(r.postures.rows()), o.max_draws);
    return 1;
  }
  const std::string comment = "recorded by: mjhand synergies record --hand " + o.hand_xml + " --count " +
                              std::to_string(o.count) + " --seed " + std::to_string(o.seed) + "\n" +
                              std::to_string(r.rejected) + " draws rejected (overlapping the open hand, or untouched)";
  write_file_atomically(out, format_postures(r, comment));
  std::printf("%d postures of %d joints (%d draws rejected) -> %s\n", static_cast<int>(r.postures.rows()),
              static_cast<int>(r.postures.cols()), r.rejected, out.c_str());
  return 0;
}

int fit(const ArgReader& reader, const std::string& in, const std::string& out) {
  const PostureRecording r = read_postures(in);
  const int k = reader.get_int("--k", 3, 1, 1000);
  const SynergyFit f = fit_synergies(r.joints, r.postures, k);
  std::string comment = "fitted by: mjhand synergies fit " + in + " -k " + std::to_string(k) + " (PCA of " +
                        std::to_string(r.postures.rows()) + " postures)\ncumulative variance explained:";
  std::printf("PCA of %d postures x %d joints; cumulative variance explained:\n", static_cast<int>(r.postures.rows()),
              static_cast<int>(r.postures.cols()));
  for (Eigen::Index i = 0; i < std::min<Eigen::Index>(f.explained.size(), 6); ++i) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), " %d: %.4f", static_cast<int>(i + 1), f.explained(i));
    comment += buf;
    std::printf("  %d component%s: %.4f\n", static_cast<int>(i + 1), i ? "s" : " ", f.explained(i));
  }
  write_synergies(out, f.synergies, comment);
  std::printf("-> %s (k = %d)\n", out.c_str(), k);
  return 0;
}
int mjcf(const std::string& in) {
  const Synergies s = read_synergies(in);
  std::string joints, q0, S;
  for (const std::string& j : s.joints) joints += (joints.empty() ? "" : ",") + j;
  for (Eigen::Index i = 0; i < s.q0.size(); ++i) q0 += (i ? "," : "") + format_exact(s.q0(i));
  for (Eigen::Index c = 0; c < s.S.cols(); ++c) {
    for (Eigen::Index i = 0; i < s.S.rows(); ++i) S += (S.empty() ? "" : ",") + format_exact(s.S(i, c));
  }
  std::printf("<config key=\"joints\" value=\"%s\"/>\n<config key=\"q0\" value=\"%s\"/>\n"
              "<config key=\"S\" value=\"%s\"/>\n", joints.c_str(), q0.c_str(), S.c_str());
  return 0;
}
}  // namespace

int cmd_synergies(const Args& args) {
  if (wants_help(args)) {
    print_help();
    return 0;
  }
  Args long_form;  // -o and -k as in make-hand's -o
  for (const std::string& a : args) long_form.push_back(a == "-o" ? "--output" : a == "-k" ? "--k" : a);
  const ArgReader reader(long_form, {"--hand", "--count", "--seed", "--k", "--output"}, {});
  const auto& pos = reader.positional();
  if (pos.empty() || (pos[0] != "record" && pos[0] != "fit" && pos[0] != "mjcf")) {
    throw UsageError("give 'record', 'fit' or 'mjcf' (see --help)");
  }
  if (pos[0] == "mjcf") {
    if (pos.size() != 2 || args.size() != 2) throw UsageError("usage: synergies mjcf SYNERGIES.csv");
    return mjcf(pos[1]);
  }
  const std::string out = reader.get("--output", "");
  if (out.empty()) throw UsageError("give the output file with -o FILE");
  if (pos[0] == "record") {
    if (pos.size() != 1) throw UsageError("record takes no positional argument");
    if (reader.has("--k")) throw UsageError("-k belongs to 'fit'");
    return record(reader, out);
  }
  if (pos.size() != 2) throw UsageError("usage: synergies fit POSTURES.csv -k K -o SYNERGIES.csv");
  if (reader.has("--hand") || reader.has("--count") || reader.has("--seed")) {
    throw UsageError("--hand, --count and --seed belong to 'record'");
  }
  return fit(reader, pos[1], out);
}

}  // namespace mjhand::cli
