# The package's version is the library's (ROTA_VERSION in capi/include/rota.h);
# tests/test_library.py holds the two together.
__version__ = "0.2.0"
