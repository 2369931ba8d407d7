"""Animal Kingdoms (Steven Aramini): rules engine, content loader and data, positions, replay log.

See docs/animal_kingdoms_model.md for the decision model every module follows.
"""
