# Two commands for a new user: `make app` and `make test`. Everything else is set up on the way.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: app test soak lint bench models chromium clean lock

# The app's dependencies at the versions Binder installs (binder/constraints.txt), so the tests run what users get;
# PIP_CONSTRAINT pins the build environment too (its plotly gives the wheel the plotly.min.js served to the page).
$(STAMP): pyproject.toml binder/constraints.txt hatch_build.py
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	PIP_CONSTRAINT=$(CURDIR)/binder/constraints.txt $(BIN)/python -m pip install -q -e ".[dev]"
	touch $(STAMP)

# Re-pin binder/constraints.txt: the newest releases of the app's dependencies, resolved in a fresh venv.
lock:
	rm -rf .lock-venv && $(PY) -m venv .lock-venv
	.lock-venv/bin/python -m pip install -q --upgrade pip
	.lock-venv/bin/python -m pip install -q ".[app]"
	{ sed -n '1,3p' binder/constraints.txt; .lock-venv/bin/python -m pip freeze --exclude speicherstadt-lab; } \
	  > binder/constraints.new && mv binder/constraints.new binder/constraints.txt
	rm -rf .lock-venv
	@echo "binder/constraints.txt re-pinned: run make test, then commit it"

# Debian's Chromium for the browser tests; never `playwright install` (it downloads a browser).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	  || { echo "could not install chromium: the browser tests need /usr/bin/chromium"; exit 1; }; }

# Two pytest workers (pytest-xdist), each test file on one worker so its module fixtures (a Voilà server, a page)
# are made once: the suite is CPU-bound in one process at a time, so the second core halves the wall time.
test: $(STAMP) chromium
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n 2 --dist loadfile --durations=15

# Random exploration at volume (fresh seeds each run, printed): 100,000 checked random games, the property
# tests with random draws, and 1,000 random clicks in the browser. Not part of `make test`.
soak: $(STAMP) chromium
	$(BIN)/python benchmarks/soak.py --games $${SOAK_GAMES:-100000}
	HYPOTHESIS_PROFILE=explore $(BIN)/python -m pytest -q tests/engine/test_fuzz_inputs.py tests/engine/test_conformance.py
	MONKEY_CLICKS=$${MONKEY_CLICKS:-1000} MONKEY_SEED=$$(od -An -N4 -tu4 /dev/urandom | tr -d ' ') \
	  $(BIN)/python -m pytest -q -s tests/browser/test_browser_monkey.py

# JUPYTER_CONFIG_PATH: the Binder settings (binder/jupyter: kernels of closed pages are shut down) here too
app: $(STAMP)
	JUPYTER_CONFIG_PATH=binder/jupyter $(BIN)/voila notebooks/app.ipynb --port=8866 --no-browser --Voila.ip=127.0.0.1

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py

# Retrain every shipped value model (speicherstadt_lab/data/models/) from greedy self-play, seed 1, and measure
# its 95% intervals on held-out games (about 2 hours on 2 cores, most of it the intervals' greedy play-outs).
models: $(STAMP)
	for p in 2 3 4 5; do \
	  $(BIN)/speicherstadt-lab train --game speicherstadt --players $$p --no-progress && \
	  $(BIN)/speicherstadt-lab train --game speicherstadt --expansion kaispeicher --players $$p --no-progress && \
	  $(BIN)/speicherstadt-lab train --game packet_row --players $$p --no-progress || exit 1; \
	done

clean:
	rm -rf $(VENV) build dist .pytest_cache .ruff_cache
