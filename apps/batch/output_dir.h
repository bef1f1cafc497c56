// Output folders of the batch engine. The result files in them are written by mjhand's one atomic writer
// (<mjhand/io/atomic_file.h>: PATH.tmp, fsync, rename, fsync of the folder).
#pragma once

#include <string>

#include <mjhand/io/atomic_file.h>

namespace mjhand::batch {

// Creates dir (and parents) and proves it writable with a probe file; throws naming the folder and the reason.
void ensure_writable_dir(const std::string& dir);

}  // namespace mjhand::batch
