#!/usr/bin/env bash
# The test suite, on a fresh clone: installs what the tests need, then runs them.
#
#   ./test.sh [ARGS...]      # ARGS go to `cargo test --release`, e.g. ./test.sh encode::
#
# 1. External programs the tests run, when one is missing and this runs as root (apt-get,
#    non-interactive): the SAT solvers cadical and minisat, pdflatex (texlive-latex-base), a
#    single-node Slurm cluster (slurm-wlm, munge), GNU parallel, headless chromium and node (nodejs); g++ to
#    build the embedded CaDiCaL; a font (fonts-dejavu-core) when the system has none, for the
#    text of PNG and PDF plots.
# 2. The Python oracles of tests/requirements.txt (pyganak, gbd-tools, exact, ortools, scipy) in a virtual
#    environment .venv at the top of the repository (python3 -m venv), unless QUEENS_SAT_PYTHON
#    already names an interpreter that has them.
# 3. Exports what the tests read: QUEENS_SAT_PYTHON (default $PWD/.venv/bin/python) and PATH with
#    /usr/sbin and /sbin (slurmctld, slurmd, munged), then runs `cargo test --release "$@"`.
# 4. Builds the guide as a book (`mdbook build docs`) when mdbook is installed (`cargo install
#    mdbook --locked --no-default-features`; CI installs it), so that a page the book cannot
#    take fails here.
# 5. Without ARGS, the Python package's tests: python/test.sh (QUEENS_SAT_SKIP_PYTHON=1 skips).
#
# When something cannot be installed (not root, no network), the script says what is missing and
# runs the tests anyway: each test that needs it says loudly that it skips, or fails under CI
# (CI=true or CI=1).
set -euo pipefail
cd "$(dirname "$0")"

export PATH="$PATH:/usr/sbin:/sbin"

is_ci() {
  case "${CI:-}" in
    1 | true | TRUE | True) return 0 ;;
    *) return 1 ;;
  esac
}

say() {
  echo "test.sh: $*" >&2
}

# Programs the tests start, and the Debian package of each.
programs=(
  cadical:cadical
  minisat:minisat
  minisat+:minisat+
  sat4j:sat4j
  pdflatex:texlive-latex-base
  sbatch:slurm-wlm sinfo:slurm-wlm squeue:slurm-wlm scancel:slurm-wlm
  slurmctld:slurm-wlm slurmd:slurm-wlm
  munged:munge mungekey:munge
  parallel:parallel
  chromium:chromium
  node:nodejs
  c++:g++
)

# The Debian packages of the programs not on PATH, each once.
missing_packages() {
  local entry program package seen=" "
  for entry in "${programs[@]}"; do
    program=${entry%%:*} package=${entry#*:}
    if ! command -v "$program" >/dev/null 2>&1 && [[ $seen != *" $package "* ]]; then
      seen="$seen$package "
      echo "$package"
    fi
  done
}

# The programs not on PATH, with their packages, for a message.
missing_programs() {
  local entry program out=""
  for entry in "${programs[@]}"; do
    program=${entry%%:*}
    command -v "$program" >/dev/null 2>&1 || out="$out ${program} (${entry#*:})"
  done
  echo "${out# }"
}

apt_updated=
apt_install() {
  if [ "$(id -u)" != 0 ]; then
    say "not root: cannot install $*"
    return 1
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    say "no apt-get: cannot install $*"
    return 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  if [ -z "$apt_updated" ]; then
    apt-get update -qq || { say "apt-get update failed (no network?)"; return 1; }
    apt_updated=1
  fi
  say "installing $*"
  apt-get install -y -qq --no-install-recommends "$@" >/dev/null ||
    { say "apt-get install $* failed"; return 1; }
}

# 1. External programs.
mapfile -t packages < <(missing_packages)
# A font for the text of PNG and PDF plots (compare --plot FILE.png), when the system has none.
if [ -z "$(find /usr/share/fonts /usr/local/share/fonts -name '*.ttf' -print -quit 2>/dev/null)" ]; then
  packages+=(fonts-dejavu-core)
fi
if [ ${#packages[@]} -gt 0 ]; then
  apt_install "${packages[@]}" || true
fi
still=$(missing_programs)

# 2. The Python oracles.
venv_problem=
if [ -n "${QUEENS_SAT_PYTHON:-}" ] && [ "$QUEENS_SAT_PYTHON" != "$PWD/.venv/bin/python" ]; then
  say "using QUEENS_SAT_PYTHON=$QUEENS_SAT_PYTHON as it is (nothing installed into it)"
else
  export QUEENS_SAT_PYTHON="$PWD/.venv/bin/python"
  if [ ! -x .venv/bin/python ]; then
    if ! command -v python3 >/dev/null 2>&1 || ! python3 -m venv --help >/dev/null 2>&1 ||
      ! python3 -m venv .venv >/dev/null 2>&1; then
      # Debian ships venv (and ensurepip) apart from python3.
      rm -rf .venv
      apt_install python3 python3-venv && python3 -m venv .venv || true
    fi
  fi
  if [ -x .venv/bin/python ]; then
    .venv/bin/python -m pip install -q -r tests/requirements.txt ||
      venv_problem="pip could not install tests/requirements.txt into .venv (no network?)"
  else
    venv_problem="no virtual environment .venv (python3 -m venv .venv failed)"
  fi
fi
python_missing=
if ! "$QUEENS_SAT_PYTHON" -c 'import pyganak, gbd_core.contexts, exact, ortools.sat.python.cp_model, scipy.optimize' >/dev/null 2>&1; then
  python_missing="the Python oracles of tests/requirements.txt (pyganak, gbd-tools, exact, ortools, scipy) in $QUEENS_SAT_PYTHON"
fi

# What the tests will find.
command -v cadical >/dev/null 2>&1 && say "$(cadical --version 2>&1 | head -1 | sed 's/^/cadical /')"
command -v chromium >/dev/null 2>&1 && say "$(chromium --version 2>/dev/null | head -1)"
command -v slurmctld >/dev/null 2>&1 && say "$(slurmctld -V 2>&1 | head -1)"
command -v dpkg-query >/dev/null 2>&1 &&
  dpkg-query -W -f='test.sh: ${Package} ${Version}\n' cadical minisat texlive-latex-base \
    slurm-wlm munge parallel chromium >&2 2>/dev/null || true

if [ -n "$still" ] || [ -n "$python_missing" ]; then
  say "MISSING (the tests that need them will say so and skip; under CI they fail):"
  [ -z "$still" ] || say "  programs (Debian package): $still"
  [ -z "$venv_problem" ] || say "  $venv_problem"
  [ -z "$python_missing" ] || say "  $python_missing"
  [ "$(id -u)" = 0 ] || say "  run ./test.sh as root to install the programs"
  if is_ci; then
    say "CI=$CI: the tests that need them will fail"
  fi
fi

# 3. The tests.
cargo test --release "$@"

# 4. The guide.
if command -v mdbook >/dev/null 2>&1; then
  mdbook build docs
elif is_ci; then
  say "CI=$CI: mdbook is missing (cargo install mdbook --locked --no-default-features)"
  exit 1
else
  say "MISSING: mdbook, so the guide was not built (cargo install mdbook --locked --no-default-features)"
fi

# 5. The Python package (python/test.sh: a virtual environment .venv-python, the package built
#    from source, its pytest suite and the notebook examples/encodings.ipynb), when the whole
#    suite runs (no ARGS). QUEENS_SAT_SKIP_PYTHON=1 leaves it out.
if [ $# -eq 0 ] && [ "${QUEENS_SAT_SKIP_PYTHON:-}" != 1 ]; then
  python/test.sh
fi
