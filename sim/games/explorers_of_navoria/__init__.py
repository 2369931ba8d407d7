"""Explorers of Navoria (rules: /work/shared/specs/explorers_of_navoria.md; model: docs/explorers_of_navoria_model.md)."""
