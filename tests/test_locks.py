"""The locks (requirements/*.txt) pin what pyproject.toml asks for, with hashes, in one set of
versions; and this test run's packages are the test lock's (`make test` installs from it)."""

import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
LOCKS = ("run", "image", "test")
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)")


def pins(lock: str) -> dict[str, tuple[str, frozenset[str]]]:
    """{name: (version, hashes)} of requirements/LOCK.txt."""
    found: dict[str, tuple[str, frozenset[str]]] = {}
    name = ""
    for line in (ROOT / "requirements" / f"{lock}.txt").read_text().splitlines():
        match = PIN.match(line)
        if match:
            name = canonicalize_name(match[1])
            assert name not in found, f"{name} pinned twice in {lock}.txt"
            found[name] = (match[2], frozenset())
        elif line.strip().startswith("--hash=sha256:"):
            version, hashes = found[name]
            found[name] = (version, hashes | {line.split(":", 1)[1].strip(" \\")})
        else:
            assert not line.strip() or line.lstrip().startswith("#"), (
                f"{lock}.txt: {line!r} is neither a pin, a hash nor a comment")
    return found


def wanted() -> dict[str, list[Requirement]]:
    """What each lock must satisfy: pyproject.toml's requirements and build.in's."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    build = [Requirement(line) for line in (ROOT / "requirements" / "build.in").read_text()
             .splitlines() if line.strip() and not line.startswith("#")]
    build += [Requirement(r) for r in project["build-system"]["requires"]]
    run = [Requirement(r) for r in project["project"]["dependencies"]] + build
    extras = project["project"]["optional-dependencies"]
    analysis = [Requirement(r) for r in extras["analysis"]]
    test = [Requirement(r) for r in extras["test"] if not r.startswith("chouette-bot")]
    return {"run": run, "image": run + analysis, "test": run + analysis + test}


@pytest.mark.parametrize("lock", LOCKS)
def test_each_lock_pins_every_requirement_at_a_version_pyproject_allows(lock: str) -> None:
    pinned = pins(lock)
    for requirement in wanted()[lock]:
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{name} is not in requirements/{lock}.txt: run `make lock`"
        version = pinned[name][0]
        assert requirement.specifier.contains(Version(version), prereleases=True), (
            f"{lock}.txt pins {name}=={version}, outside {requirement}: run `make lock`")
    assert all(hashes for _version, hashes in pinned.values())


@pytest.mark.parametrize("lock", ["run", "image"])
def test_the_run_and_image_locks_are_the_test_locks_versions(lock: str) -> None:
    test = pins("test")
    for name, pin in pins(lock).items():
        assert test.get(name) == pin, f"{name}: {lock}.txt and test.txt differ"


def test_this_run_has_the_test_locks_versions() -> None:
    installed = {canonicalize_name(d.metadata["Name"]): d.version
                 for d in metadata.distributions()}
    for name, (version, _hashes) in pins("test").items():
        assert installed.get(name) == version, (
            f"{name} {installed.get(name)} is installed, the lock says {version}")
