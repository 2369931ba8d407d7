# Everything goes through these targets; `make help` lists them.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
EXP    ?= experiments/red_rising_houses.toml
JOBS   ?= 2
OUT    ?= results
REPORTS ?= reports/out
ARGS   ?=

.PHONY: help install report run sweep compare test bench tune recall-oracle crosscheck-recall docs clean

help:  ## list the targets (variables: EXP, JOBS, OUT, REPORTS, ARGS, A, B)
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | expand -t 15

$(STAMP): pyproject.toml
	@echo "installing: creating $(VENV) and installing the project and its libraries (first run only, about a minute)"
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)  ## create .venv and install the project with its test tools

run: $(STAMP)  ## play experiment EXP (default red_rising_houses) with JOBS workers into OUT
	$(PY) -m sim run $(EXP) --jobs $(JOBS) --out $(OUT) $(ARGS)

report: run  ## play EXP and write its report: $(REPORTS)/<experiment>.pdf, .html and PNGs
	$(PY) -m sim report $(EXP) --out $(OUT) --report-dir $(REPORTS)

sweep: run  ## play every point of the sweep in EXP: one page per metric, paired differences from the default
	$(PY) -m sim report $(EXP) --out $(OUT) --report-dir $(REPORTS)

compare: $(STAMP)  ## compare two experiments or variants: make compare A=x.toml:v1 B=x.toml:v2 [ARGS="--games N"]
	$(PY) -m sim compare $(A) $(B) --out $(OUT) --report-dir $(REPORTS) --jobs $(JOBS) $(ARGS)

test: $(STAMP)  ## run the whole test suite
	$(PY) -m pytest -n 2 --dist loadgroup --durations=15

tune: $(STAMP)  ## tune a plan's weights: make tune STRATEGY=ak_greedy EXP=experiments/x.toml [BUDGET=20000 SEED=0]
	$(PY) -m sim tune $(EXP) --strategy $(STRATEGY) --budget $(or $(BUDGET),20000) --seed $(or $(SEED),0) $(ARGS)

bench: $(STAMP)  ## measure speed and memory; writes docs/benchmarks.md
	$(PY) -m benchmarks.run

recall-oracle: $(STAMP)  ## 2,000 random Recall oracle games per player count, invariants after every decision
	$(PY) -m tests.test_recall_oracle --games 2000 --check-every 1 $(ARGS)

crosscheck-recall: $(STAMP)  ## Recall engine against its oracle, decision by decision: 2,000 games per player count and policy, 200 per switch and scarce-content configuration
	$(PY) -m tests.test_recall_crosscheck --games 2000 $(ARGS)

docs: $(STAMP)  ## regenerate docs/reference.md (every game's config keys and strategies) from the code
	$(PY) -m sim.reference

clean:  ## remove results and generated reports (keeps .venv)
	rm -rf results reports/out
