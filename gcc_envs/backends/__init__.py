"""Backend implementations of :class:`gcc_envs.core.backend.Backend`."""
