// The one base of the exceptions mjhand's library throws for input it refuses with a message naming what is wrong
// and where: catch mjhand::Error for all of them (a std::runtime_error, so existing catches still see them). Each
// layer's kind derives from it: SpecError (hand descriptions), GraspError, ParallelError, FitError (core),
// ConfigError (plugin instances), ModelRejectedError (the generators). Size checks of caller-sized outputs
// (size_check.h) and chain construction (tree_chains.h) throw std::invalid_argument: programming errors, not input.
#pragma once

#include <stdexcept>

namespace mjhand {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace mjhand
