// The fixed-size factorisations declared extern in dense_decompositions.h, instantiated here once (apart from the
// dynamic-size ones in dense_decompositions.cc, so that the two long compilations run in parallel).
#include <mjhand/util/dense_decompositions.h>

MJHAND_FIXED_SIZE_DECOMPOSITIONS(/* definitions */)
