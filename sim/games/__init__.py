"""One package per game; each registers itself in ``sim.core.registry``."""
