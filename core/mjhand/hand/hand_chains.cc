#include <mjhand/hand/hand_chains.h>

namespace mjhand {

std::vector<Chain> hand_chains_in_palm(const HandSpec& spec) {
  std::vector<Chain> chains;
  for (const FingerSpec& f : spec.fingers) {
    Chain c;
    c.name = f.name;
    c.convention = spec.convention;
    c.base = f.base;
    for (const LinkSpec& l : f.links) c.links.push_back(l.dh);
    c.tool = f.tool;
    chains.push_back(c);
  }
  return chains;
}

std::vector<Chain> hand_chains(const HandSpec& spec) {
  std::vector<Chain> chains = hand_chains_in_palm(spec);
  for (Chain& c : chains) c.base = spec.palm.pose * c.base;
  return chains;
}

}  // namespace mjhand
