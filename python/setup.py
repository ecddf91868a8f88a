"""Installs the relay_mlir package CMake built into this folder:
``pip install --no-build-isolation build/python`` (or ``pip wheel`` for a
wheel). Nothing is compiled here; the native module and libRelayMLIR-C.so
are the build's."""

from setuptools import setup
from setuptools.dist import Distribution


class BinaryDistribution(Distribution):
    """The package holds native code: its wheel is for this platform."""

    def has_ext_modules(self):
        return True


setup(
    name="relay_mlir",
    version="0.1.0",
    description="Relay, the functional IR for deep learning, on MLIR",
    packages=["relay_mlir"],
    package_data={"relay_mlir": ["*.so"]},
    install_requires=["numpy"],
    python_requires=">=3.9",
    distclass=BinaryDistribution,
    zip_safe=False,
)
