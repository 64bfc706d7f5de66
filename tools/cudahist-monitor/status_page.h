// The status page: one tile per stream (state, figures, alarms, live scope),
// redrawn from /status.json once a second. Static HTML: the data comes from
// the JSON, so the page itself never changes.
#pragma once

#include <string>

namespace monitor {

const std::string& StatusPageHtml();

}  // namespace monitor
