#!/usr/bin/env bash
# The service unit meson installs, its ExecStart pointed at the built
# program: `systemd-analyze verify` finds nothing wrong, and
# `systemd-analyze security` prints its exposure, which must stay "OK" (below 2.5 of 10).
# Usage: systemd_unit_test.sh UNIT BINARY
set -euo pipefail
unit=$1 binary=$(realpath "$2")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sed "s|^ExecStart=[^ ]*|ExecStart=$binary|" "$unit" > "$dir/cudahist-monitor.service"
systemd-analyze verify "$dir/cudahist-monitor.service"
echo "systemd-analyze verify: no complaint"
systemd-analyze security --offline=yes --threshold=25 --no-pager "$dir/cudahist-monitor.service" | tail -n 1
