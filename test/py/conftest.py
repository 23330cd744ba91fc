"""Shared fixtures for Kestrel's end-to-end tests: where the built binaries and the shared folder are, and a helper
that runs a binary with arguments and stdin and captures what it printed.

Locations:
  KESTREL_BUILD_DIR   the build folder (default: <repo>/build); a relative path is taken from the repository root
  KESTREL_SHARED_DIR  the shared folder (default: <repo>/../shared)
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Sequence

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]

#: Seconds a single binary run may take before the test fails.
DEFAULT_TIMEOUT_S = 120


def _folder_from_env(variable: str, default: Path) -> Path:
    value = os.environ.get(variable)
    if not value:
        return default
    path = Path(value)
    return path if path.is_absolute() else REPO_ROOT / path


def build_dir() -> Path:
    return _folder_from_env("KESTREL_BUILD_DIR", REPO_ROOT / "build")


def shared_dir() -> Path:
    return _folder_from_env("KESTREL_SHARED_DIR", REPO_ROOT.parent / "shared")


@dataclass
class RunResult:
    """What one run of a binary printed and how it exited."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str

    def describe(self) -> str:
        """The run in a form that makes a failed assertion readable."""
        return (f"command: {self.args}\nexit status: {self.returncode}\n"
                f"--- stdout ---\n{self.stdout}\n--- stderr ---\n{self.stderr}")


def run_binary(binary: Path, args: Sequence[str] = (), stdin: str | None = None,
               timeout: float = DEFAULT_TIMEOUT_S, env: Mapping[str, str] | None = None,
               cwd: Path | None = None) -> RunResult:
    """Runs `binary` with `args`, feeding `stdin` (or nothing: stdin is then empty, not a terminal), and returns its
    output. A run that exceeds `timeout` seconds fails the test."""
    command = [str(binary), *map(str, args)]
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    try:
        completed = subprocess.run(command, input=stdin if stdin is not None else "", capture_output=True,
                                   text=True, timeout=timeout, env=full_env, cwd=cwd)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"{command} did not finish within {timeout} s; stdout so far: {e.stdout!r}")
    return RunResult(command, completed.returncode, completed.stdout, completed.stderr)


def _required_binary(name: str) -> Path:
    path = build_dir() / name
    if not path.is_file():
        pytest.fail(f"{path} is missing: build first (scripts/build.sh) or set KESTREL_BUILD_DIR")
    return path


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def shared_folder() -> Path:
    """The shared folder (sample data, notes); tests that need something in it skip when it is absent."""
    path = shared_dir()
    if not path.is_dir():
        pytest.skip(f"shared folder {path} not found (set KESTREL_SHARED_DIR)")
    return path


@pytest.fixture(scope="session")
def kestrel_bin() -> Path:
    return _required_binary("kestrel")


@pytest.fixture(scope="session")
def sqllogictest_bin() -> Path:
    return _required_binary("kestrel-sqllogictest")


@pytest.fixture(scope="session")
def parquet_cat_bin() -> Path:
    path = build_dir() / "kestrel-parquet-cat"
    if not path.is_file():
        pytest.skip(f"{path} is not built")
    return path


@pytest.fixture(scope="session")
def run_kestrel(kestrel_bin: Path) -> Callable[..., RunResult]:
    """Runs the `kestrel` command: run_kestrel("-c", "SELECT 1", stdin=None, timeout=...)."""

    def run(*args: str, stdin: str | None = None, timeout: float = DEFAULT_TIMEOUT_S,
            env: Mapping[str, str] | None = None) -> RunResult:
        return run_binary(kestrel_bin, args, stdin=stdin, timeout=timeout, env=env)

    return run


@pytest.fixture(scope="session")
def run_sqllogictest(sqllogictest_bin: Path) -> Callable[..., RunResult]:
    """Runs `kestrel-sqllogictest` with the given arguments."""

    def run(*args: str, timeout: float = DEFAULT_TIMEOUT_S) -> RunResult:
        return run_binary(sqllogictest_bin, args, timeout=timeout)

    return run


def python_module_dir() -> Path:
    """Where the build puts the Python module: <build>/python/kestrel (the package with _kestrel beside it)."""
    return build_dir() / "python"


@pytest.fixture(scope="session")
def kestrel():
    """The Python module `kestrel` as built into <build>/python (scripts/build.sh builds it with nanobind from
    .venv), imported ahead of any installed copy."""
    folder = python_module_dir()
    if not list((folder / "kestrel").glob("_kestrel*.so")):
        pytest.fail(f"{folder}/kestrel has no _kestrel module: build it (scripts/build.sh, KESTREL_BUILD_PYTHON=ON) "
                    "or set KESTREL_BUILD_DIR")
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    module = importlib.import_module("kestrel")
    assert Path(module.__file__).parent == folder / "kestrel", f"imported {module.__file__}, not the built module"
    return module


@pytest.fixture(scope="session")
def gpu_usable(sqllogictest_bin: Path, tmp_path_factory) -> bool:
    """Whether Kestrel finds a usable GPU here. The runner in a GPU mode says 'no usable GPU' when there is none."""
    empty = tmp_path_factory.mktemp("gpu_probe") / "empty.test"
    empty.write_text("")
    result = run_binary(sqllogictest_bin, ["--mode", "gpu", str(empty)])
    return "no usable GPU" not in result.stdout
