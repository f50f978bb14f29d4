#!/usr/bin/env bash
# A throw-away single-node Slurm cluster on localhost, for the tests and for trying job-array
# scripts on one machine.
#
#   tests/cluster/slurm.sh start DIR [PORT]
#   tests/cluster/slurm.sh stop DIR
#
# `start` makes DIR (if needed) and puts everything in it: a fresh munge key, munged's socket,
# pid, log and seed files, slurm.conf, the controller's state and the node's spool directory,
# the daemons' pid and log files. It starts munged, slurmctld and slurmd as root (no systemd;
# /etc/slurm and /etc/munge are left alone), waits until `sinfo` shows the node idle, and prints
# on standard output the single line a caller needs:
#
#   export SLURM_CONF=DIR/slurm.conf
#
# so that `eval "$(tests/cluster/slurm.sh start DIR)"` makes sbatch, squeue, sinfo ... talk to
# this cluster (slurm.conf names munged's socket). Progress and errors go to standard error.
# The controller listens on PORT and the node on PORT+1; without PORT the script picks two
# free ports, so several clusters (in distinct DIRs) can run at once. Exit status 0 once the
# node is idle; otherwise the daemons started are stopped again and the exit status is 1,
# after a message naming the log files. Environment: SLURM_SH_TIMEOUT (seconds to wait for
# the node, default 30).
#
# `stop` cancels the cluster's jobs, ends the job steps it ran, then stops the daemons named
# by the pid files in DIR (and nothing else), waiting for them to exit. It is safe to run on
# a DIR whose cluster is already stopped or was never started.
set -euo pipefail

die() {
  echo "slurm.sh: $*" >&2
  exit 1
}

usage() {
  die "usage: $0 start DIR [PORT] | stop DIR"
}

# `true` when a TCP port has a socket bound on this machine (IPv4 or IPv6).
port_in_use() {
  local hex
  hex=$(printf '%04X' "$1")
  awk -v p=":$hex" 'NR > 1 && substr($2, length($2) - 4) == p { found = 1 } END { exit !found }' \
    /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

# Two consecutive free ports, at random in 20000..59999.
pick_port() {
  local p i
  for i in $(seq 1 200); do
    p=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
    if ! port_in_use "$p" && ! port_in_use "$((p + 1))"; then
      echo "$p"
      return 0
    fi
  done
  die "no free pair of ports found"
}

# The pid in a pid file if that process is alive and runs the expected program.
live_pid() {
  local file=$1 comm=$2 pid
  [ -s "$file" ] || return 1
  pid=$(tr -dc '0-9' <"$file")
  [ -n "$pid" ] || return 1
  [ -r "/proc/$pid/comm" ] || return 1
  [ "$(cat "/proc/$pid/comm")" = "$comm" ] || return 1
  echo "$pid"
}

# Stops daemons named by pid files (arguments: FILE COMM pairs) together: TERM, wait up to
# 15 s for all of them, then KILL those left.
stop_daemons() {
  local pids="" pid i left
  while [ $# -ge 2 ]; do
    if pid=$(live_pid "$1" "$2"); then
      kill -TERM "$pid" 2>/dev/null || true
      pids="$pids $pid"
    fi
    rm -f "$1"
    shift 2
  done
  for i in $(seq 1 150); do
    left=""
    for pid in $pids; do
      [ -d "/proc/$pid" ] && left="$left $pid"
    done
    [ -n "$left" ] || return 0
    sleep 0.1
  done
  echo "slurm.sh: killing daemons that ignored TERM:$left" >&2
  # shellcheck disable=SC2086
  kill -KILL $left 2>/dev/null || true
  sleep 0.2
}

# The job steps of this cluster: slurmstepd processes whose environment holds this cluster's
# SLURM_CONF (slurmd passes its own on), with all their descendants.
cluster_steps() {
  local conf=$1 p pid ppid found more
  found=" "
  for p in /proc/[0-9]*; do
    [ "$(cat "$p/comm" 2>/dev/null)" = slurmstepd ] || continue
    if { tr '\0' '\n' <"$p/environ" | grep -qxF "SLURM_CONF=$conf"; } 2>/dev/null; then
      found="$found${p#/proc/} "
    fi
  done
  [ "$found" != " " ] || return 0
  more=1
  while [ -n "$more" ]; do
    more=
    for p in /proc/[0-9]*; do
      pid=${p#/proc/}
      case "$found" in *" $pid "*) continue ;; esac
      ppid=$({ awk '{ sub(/^.*\) /, ""); print $2 }' "$p/stat"; } 2>/dev/null) || continue
      case "$found" in *" $ppid "*) found="$found$pid " more=1 ;; esac
    done
  done
  echo "$found"
}

cmd_stop() {
  local dir=$1 conf pids i
  [ -d "$dir" ] || return 0
  dir=$(cd "$dir" && pwd)
  conf=$dir/slurm.conf
  if [ -f "$conf" ] && live_pid "$dir/slurmctld.pid" slurmctld >/dev/null &&
    [ -n "$(SLURM_CONF=$conf timeout 5 squeue --noheader --format=%i 2>/dev/null)" ]; then
    SLURM_CONF=$conf timeout 10 scancel --quiet --user=root >/dev/null 2>&1 || true
    for i in $(seq 1 50); do
      [ -n "$(SLURM_CONF=$conf timeout 5 squeue --noheader --format=%i \
        --states=RUNNING,PENDING,COMPLETING,SUSPENDED 2>/dev/null)" ] || break
      sleep 0.2
    done
  fi
  stop_daemons "$dir/slurmd.pid" slurmd "$dir/slurmctld.pid" slurmctld
  # Steps left behind (jobs cut short by the stop): end them.
  for i in 1 2 3; do
    pids=$(cluster_steps "$conf")
    [ -n "$pids" ] || break
    # shellcheck disable=SC2086
    kill -TERM $pids 2>/dev/null || true
    sleep 0.5
  done
  pids=$(cluster_steps "$conf")
  # shellcheck disable=SC2086
  [ -z "$pids" ] || kill -KILL $pids 2>/dev/null || true
  stop_daemons "$dir/munged.pid" munged
}

cmd_start() {
  local dir=$1 port=${2:-} i state
  local timeout=${SLURM_SH_TIMEOUT:-30}
  for prog in munged mungekey slurmctld slurmd sinfo; do
    command -v "$prog" >/dev/null || die "$prog is not on PATH (Debian packages: slurm-wlm munge)"
  done
  [ "$(id -u)" = 0 ] || die "must run as root (the daemons run as root)"
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if live_pid "$dir/slurmctld.pid" slurmctld >/dev/null || live_pid "$dir/munged.pid" munged >/dev/null; then
    die "a cluster is already running in $dir (stop it first: $0 stop $dir)"
  fi
  if [ -z "$port" ]; then
    port=$(pick_port)
  elif port_in_use "$port" || port_in_use "$((port + 1))"; then
    die "port $port or $((port + 1)) is in use"
  fi
  local cpus
  cpus=$(nproc)
  # A fresh cluster: no state from an earlier run in the same DIR.
  rm -rf "$dir/state" "$dir/spool"
  # munged is strict about permissions: no directory on its paths writable by others.
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
  chmod 700 "$dir/state" "$dir/spool"
  chmod 755 "$dir/munge" "$dir/log"
  rm -f "$dir/munge/munge.key"
  mungekey --create --keyfile="$dir/munge/munge.key" >/dev/null 2>&1 ||
    die "mungekey could not create $dir/munge/munge.key"
  chmod 600 "$dir/munge/munge.key"
  cat >"$dir/slurm.conf" <<EOF
# Single-node test cluster made by tests/cluster/slurm.sh; everything lives in $dir.
ClusterName=queens
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
MinJobAge=30
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=100 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
  # Not needed by these plugins, but slurmd looks for it next to slurm.conf.
  cat >"$dir/cgroup.conf" <<EOF
CgroupPlugin=autodetect
IgnoreSystemd=yes
EOF
  export SLURM_CONF=$dir/slurm.conf
  fail() {
    echo "slurm.sh: $*" >&2
    echo "slurm.sh: see $dir/log/munged.log, $dir/log/slurmctld.log, $dir/log/slurmd.log" >&2
    cmd_stop "$dir"
    exit 1
  }
  munged --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/munged.seed" --force 2>>"$dir/log/munged.log" ||
    fail "munged did not start"
  slurmctld -c -f "$dir/slurm.conf" 2>>"$dir/log/slurmctld.log" ||
    fail "slurmctld did not start"
  slurmd -N localhost -f "$dir/slurm.conf" 2>>"$dir/log/slurmd.log" ||
    fail "slurmd did not start"
  state=
  local end=$((SECONDS + timeout)) daemon
  while [ "$SECONDS" -lt "$end" ]; do
    state=$(timeout 3 sinfo --noheader --nodes=localhost --format=%t 2>/dev/null || true)
    [ "$state" = idle ] && break
    # A daemon that wrote its pid file and exited will not come back.
    for daemon in munged slurmctld slurmd; do
      if [ -s "$dir/$daemon.pid" ] && ! live_pid "$dir/$daemon.pid" "$daemon" >/dev/null; then
        fail "$daemon exited"
      fi
    done
    sleep 0.2
  done
  [ "$state" = idle ] || fail "the node is not idle after ${timeout} s (state: '${state:-none}')"
  echo "slurm.sh: cluster up in $dir (ports $port, $((port + 1)))" >&2
  echo "export SLURM_CONF=$dir/slurm.conf"
}

case "${1:-}" in
  start)
    [ $# -ge 2 ] && [ $# -le 3 ] || usage
    cmd_start "$2" "${3:-}"
    ;;
  stop)
    [ $# -eq 2 ] || usage
    cmd_stop "$2"
    ;;
  *) usage ;;
esac
