#!/usr/bin/env bash
# Installs the Debian 12 packages rota builds with, if any is missing.
set -euo pipefail
pkgs=(build-essential cmake pkg-config liblua5.4-dev libtomlplusplus-dev catch2 zlib1g-dev
      libcli11-dev nlohmann-json3-dev libfmt-dev python3 tmux)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi
