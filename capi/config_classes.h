// [classes] of the configuration ([Feitelson97] §4.2; docs/config.md).
#pragma once

#include <toml++/toml.h>

#include "engine/config.h"

namespace rota {

// Throws rota::Error(Errc::config, ...) naming the offending key.
void parse_classes(const toml::table& t, SchedulerConfig& s);

}  // namespace rota
