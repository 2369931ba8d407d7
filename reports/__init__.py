"""Figures and report assembly (matplotlib): PDFs and PNGs under reports/out/ (git-ignored).

``figures`` draws one figure per analysis table; ``report`` assembles the experiment and
comparison reports. All numbers come from ``analyses``.
"""
