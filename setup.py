"""Build hook for the one C extension (all other metadata is in pyproject.toml).

engine/rummy/solver/_c.c is the solver's column search in C. It is optional: without a C compiler
the build goes on and engine/rummy/solver/fast.py runs the same search in Python (same answers,
several times slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("engine.rummy.solver._c", ["engine/rummy/solver/_c.c"], optional=True,
                  extra_compile_args=["-O2"]),
    ],
)
