// cudavideoscope's caps: frames of any format cudahistogram reads in, RGBA
// pictures of any size out, at the same frame rate and in the same memory
// (CUDA memory stays on the GPU). An open output size becomes the style's
// default (DefaultScopeSize) or the nearest downstream allows.
#pragma once

#include <gst/base/gstbasetransform.h>

namespace cudahistogram {

// Sets `klass`'s transform_caps, fixate_caps and transform_size.
void InitScopeCaps(GstBaseTransformClass* klass);

}  // namespace cudahistogram
