"""The container image and compose.yaml as self-hosters run them, with podman.

Slow (an image build, containers, PostgreSQL), so these run only with
SOCLOVER_TEST_CONTAINERS=1 (`make test-containers`, which CI runs after
installing podman and the base images' stand-ins with .ci/containers-setup);
otherwise they skip at once. With it set, anything missing is a failure.
"""
