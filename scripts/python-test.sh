#!/usr/bin/env bash
# The Python package's tests (docs/python.md): builds the wheel into a virtual environment it
# creates (target/pyenv), installs it with the test oracles (poseidon-py, crypto-cpp-py) and
# runs pytest, then the benchmark script once, briefly.
#
#   bash scripts/python-test.sh            # PYTHON=python3.12 to pick the interpreter
set -euo pipefail
cd "$(dirname "$0")/.."
py=${PYTHON:-python3}
env=target/pyenv
if [ ! -x "$env/bin/python" ]; then
    "$py" -m venv "$env" || {
        apt-get update && apt-get install -y python3-venv && "$py" -m venv "$env"
    }
fi
"$env/bin/python" -m pip install -q --upgrade pip
"$env/bin/python" -m pip install -q maturin numpy pytest hypothesis poseidon-py crypto-cpp-py "dask[dataframe,distributed]"
# The binding builds in its own target directory (it is its own workspace).
CARGO_TARGET_DIR=target/python "$env/bin/python" -m pip install -q --force-reinstall ./python
"$env/bin/python" -m pytest -q python/tests
"$env/bin/python" python/benches/bench.py --quick
