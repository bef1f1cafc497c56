// The one base of mjhand's own exception types, each naming what is wrong and where: SpecError (hand descriptions),
// GraspError, ParallelError, FitError (core), ConfigError (plugin instances), ModelRejectedError (the generators).
// A std::runtime_error, so existing catches still see them. Other refusals still throw the standard types:
// std::runtime_error (e.g. model files, embedded chains, contact layouts, synergy and posture files) and
// std::invalid_argument (sizes of caller-sized outputs, chain construction); catch std::exception for all.
#pragma once

#include <stdexcept>

namespace mjhand {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace mjhand
