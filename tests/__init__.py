"""The lab's tests, one folder per room of the package (see docs/testing.md); shared helpers in tests.support."""
