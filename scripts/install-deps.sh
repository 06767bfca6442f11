#!/usr/bin/env bash
# Installs the Debian 12 packages rota builds with, if any is missing.
set -euo pipefail
pkgs=(build-essential cmake pkg-config liblua5.4-dev libtomlplusplus-dev catch2 zlib1g-dev
      libcli11-dev nlohmann-json3-dev libfmt-dev python3 tmux
      python3-numpy python3-pandas python3-matplotlib python3-pytest python3-venv python3-pip
      python3-setuptools python3-wheel jupyter-nbconvert python3-ipykernel python3-nbformat
      slurmctld slurmd slurm-client munge libslurm-dev abigail-tools
      mariadb-server slurmdbd)
# Services those packages may start; the Slurm tests run their own daemons
# (the QOS test its own mariadbd and slurmdbd), so any the install starts is
# stopped again (bindings-examples/slurm).
services=(munge slurmd slurmctld mariadb slurmdbd)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  systemd=0
  [ -d /run/systemd/system ] && systemd=1
  was_active=()
  if [ $systemd = 1 ]; then
    for s in "${services[@]}"; do
      systemctl is-active --quiet "$s" 2>/dev/null && was_active+=("$s")
    done
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
  if [ $systemd = 1 ]; then
    for s in "${services[@]}"; do
      [[ " ${was_active[*]} " == *" $s "* ]] && continue
      if systemctl is-active --quiet "$s" 2>/dev/null; then
        echo "stopping $s, started by its package"
        $sudo systemctl stop "$s"
      fi
    done
  fi
fi
