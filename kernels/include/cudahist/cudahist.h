// cudahist: the whole public API.
#pragma once

#include "cudahist/cpu.h"
#include "cudahist/histogram_spec.h"
#include "cudahist/histogrammer.h"
#include "cudahist/plane_view.h"
#include "cudahist/regions.h"
#include "cudahist/scope_render.h"
#include "cudahist/scopes.h"
#include "cudahist/signalstats.h"
#include "cudahist/statistics.h"
#include "cudahist/status.h"
