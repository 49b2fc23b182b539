# coupwatch — the two commands a newcomer needs on a fresh Debian 12 machine:
#   make demo   runs the main job on the embedded defaults
#   make test   installs what the tests need, then runs them all
# Both install their system packages (apt) and Go modules themselves and are idempotent.

SHELL := /bin/bash
# Go 1.26: the one on PATH or in /usr/local/go, else installed from the Go module proxy.
GO ?= $(shell scripts/go.sh)
BIN := bin/coupwatch
SHARED ?= $(abspath ../shared)
# Debian packages: OpenCV for gocv (pinned to v0.31.0, the newest that builds against 4.6),
# mosquitto for the broker integration tests, ffmpeg to make the test videos.
APT_PACKAGES := build-essential pkg-config libopencv-dev mosquitto ffmpeg python3 ca-certificates
STAMP := .cache/deps.stamp
export PATH := $(dir $(GO)):$(PATH)

.PHONY: all deps build test test-short demo bench fuzz eval-vision models clean check-scenarios

all: build

$(STAMP): Makefile
	@mkdir -p .cache
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:$$missing"; \
		SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y --no-install-recommends $$missing; \
	fi
	@test -x "$(GO)" || { echo "Go 1.26 could not be found or installed (see scripts/go.sh)"; exit 1; }
	$(GO) mod download
	@touch $(STAMP)

deps: $(STAMP)

build: $(STAMP)
	$(GO) build -o $(BIN) ./cmd/coupwatch

# The whole suite: unit, golden, scenario, fuzz seed corpora, exhaustive counts and the
# integration tests against a real mosquitto broker. -race on everything.
test: $(STAMP) build
	$(GO) vet ./...
	@# Everything but the vision edge builds without cgo (DESIGN.md).
	CGO_ENABLED=0 $(GO) build $$($(GO) list ./... | grep -v -e '/vision/' -e '/models')
	COUPWATCH_SHARED=$(SHARED) $(GO) test -race -timeout 60m ./...
	@# gocv's Mat profile: a Mat leaked by a recogniser or by detect fails these.
	COUPWATCH_SHARED=$(SHARED) $(GO) test -tags matprofile -count 1 ./vision/detect ./vision/dicethrow ./cmd/coupwatch
	@if [ -d "$(SHARED)/scenarios" ] && [ -x "$(SHARED)/tools/check-scenarios" ]; then \
		$(SHARED)/tools/check-scenarios $(BIN) $(SHARED)/scenarios; fi

test-short: $(STAMP)
	COUPWATCH_SHARED=$(SHARED) $(GO) test -short ./...

check-scenarios: build
	$(SHARED)/tools/check-scenarios $(BIN) $(SHARED)/scenarios

demo: build
	$(BIN) demo

bench: $(STAMP)
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Fuzz each parser and the engines for FUZZTIME each (the seed corpora also run in `make test`).
FUZZTIME ?= 60s
fuzz: $(STAMP)
	$(GO) test ./journal -run '^$$' -fuzz FuzzReader -fuzztime $(FUZZTIME)
	COUPWATCH_SHARED=$(SHARED) $(GO) test ./games/catalog -run '^$$' -fuzz FuzzReplay -fuzztime $(FUZZTIME)
	COUPWATCH_SHARED=$(SHARED) $(GO) test ./games/catalog -run '^$$' -fuzz FuzzEngineOrder -fuzztime $(FUZZTIME)
	$(GO) test ./alerts/outbox -run '^$$' -fuzz FuzzSegment -fuzztime $(FUZZTIME)
	$(GO) test ./models/cmd/build-cards -run '^$$' -fuzz FuzzParseTTF -fuzztime $(FUZZTIME)

clean:
	rm -rf bin .cache

# Vision (issue 7). `make models` rebuilds the card index glyph classifiers (models/cards) from
# the labelled photographs of ../shared/data on CPU; `make eval-vision` measures the card and
# dice recognisers on every labelled split there is (dev, holdout) with the shipped models,
# then cross-validates the card models (5 folds by photograph: each photograph is read by
# models built without it). Results go to stdout as Markdown tables (docs/vision.md).
models: $(STAMP)
	COUPWATCH_SHARED=$(SHARED) $(GO) run ./models/cmd/build-cards -shared $(SHARED) -out models/cards

# EVAL_SEEDS: the training seeds the fold models are built with, one cross-validation each
# (about 4 minutes a seed on one core), pooled in a last row: make eval-vision EVAL_SEEDS="1 2 3 4 5".
EVAL_SEEDS ?= 1
eval-vision: $(STAMP)
	@mkdir -p .cache/eval-vision
	$(GO) build -o .cache/eval-vision/build-cards ./models/cmd/build-cards
	$(GO) build -o .cache/eval-vision/eval-vision ./vision/cmd/eval-vision
	@echo "### Shipped models (make models), every labelled split"
	.cache/eval-vision/eval-vision -shared $(SHARED)
	@dirs=; for s in $(EVAL_SEEDS); do \
		d=.cache/eval-vision/cv; [ "$$s" = 1 ] || d=.cache/eval-vision/cv-s$$s; \
		for k in 0 1 2 3 4; do \
			.cache/eval-vision/build-cards -shared $(SHARED) -seed $$s -leave-out-fold $$k -out $$d/$$k/cards 2>/dev/null || exit 1; \
		done; \
		dirs=$${dirs:+$$dirs,}$$d; \
	done; \
	echo "### Cards, 5-fold cross-validation by photograph (dev split), training seeds $(EVAL_SEEDS)"; \
	.cache/eval-vision/eval-vision -shared $(SHARED) -crossval $$dirs -set blackjack-v13 && \
	.cache/eval-vision/eval-vision -shared $(SHARED) -crossval $$dirs -set cards-edje-tf
