#!/usr/bin/env bash
# The Python package's tests, on a fresh machine with Rust, a C++ compiler and python3:
# creates a virtual environment, installs maturin, PySAT, pytest, nbclient, ipykernel,
# matplotlib, pandas, NumPy and the package built from source (pip install ./python), runs the
# pytest suite (python/tests) and executes the notebook examples/encodings.ipynb end to end.
#
#   python/test.sh [PYTEST ARGS...]
#
# QUEENS_SAT_PY_VENV names the environment (default: .venv-python at the top of the
# repository; it is reused, the package reinstalled). CARGO_TARGET_DIR is honoured by the
# build.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
venv="${QUEENS_SAT_PY_VENV:-$root/.venv-python}"
# The extension is built in the repository's target folder, so that what it shares with the
# test build (the compiled CaDiCaL, the library's dependencies) is not built again.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"

say() {
  echo "python/test.sh: $*" >&2
}

if [ ! -x "$venv/bin/python" ]; then
  say "creating $venv"
  python3 -m venv "$venv"
fi
py="$venv/bin/python"
"$py" -m pip install -q --upgrade pip >/dev/null 2>&1 || true
"$py" -m pip install -q maturin python-sat pytest nbclient nbformat ipykernel matplotlib pandas numpy
say "building and installing the package from source"
"$py" -m pip install -q --force-reinstall --no-deps "$here"
"$py" -c 'import queens_sat, sys; print("python/test.sh: queens_sat", queens_sat.library_version(), "on Python", sys.version.split()[0], file=sys.stderr)'

# From the tests' folder: run from python/, `python -m pytest` would import the source folder
# python/queens_sat (which has no compiled module) instead of the installed package.
cd "$here/tests"
# The notebook's kernel is this environment's Python.
export PATH="$venv/bin:$PATH"
"$py" -m pytest -q . "$@"
say "executing examples/encodings.ipynb"
"$py" - "$root/examples/encodings.ipynb" <<'PY'
import sys, time
import nbformat
from nbclient import NotebookClient

path = sys.argv[1]
nb = nbformat.read(path, as_version=4)
start = time.monotonic()
NotebookClient(nb, timeout=600, kernel_name="python3",
               resources={"metadata": {"path": str(__import__("pathlib").Path(path).parent)}}).execute()
errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
          if o.get("output_type") == "error"]
if errors:
    sys.exit(f"the notebook raised: {errors[0].get('ename')}: {errors[0].get('evalue')}")
images = sum(1 for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
             if "image/png" in o.get("data", {}))
if images == 0:
    sys.exit("the notebook drew no plot")
print(f"python/test.sh: the notebook ran in {time.monotonic() - start:.1f} s, {images} plot(s)",
      file=sys.stderr)
PY
say "all passed"
