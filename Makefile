# Juizado: `make run` serves with demo data; `make test` runs every check.
SHELL := /bin/bash
GO ?= go

.PHONY: run test deps build fmt-check vet

# Serves on http://localhost:8080. With DATABASE_URL unset it sets up a
# private PostgreSQL cluster (installing Debian's postgresql when missing),
# migrates, seeds demo users and prints their tokens. Built, then exec'd
# rather than `go run`: `go run` exits 1 whenever it was interrupted, so
# Ctrl-C ended with "make: *** [run] Error 1" although `juizado dev` stops
# cleanly (exit 0) on SIGINT.
run: build
	exec bin/juizado dev

build:
	$(GO) build -o bin/juizado ./cmd/juizado

# Installs what the tests need when missing (as root: gcc for -race,
# PostgreSQL, poppler-utils for the PDF text tests, chromium for the browser tests), checks formatting and vet, then runs every test with the race
# detector against one throwaway PostgreSQL cluster.
test: deps fmt-check vet
	$(GO) run ./internal/pgtest/cmd/testcluster -- $(GO) test -race -count=1 -timeout 30m ./...

deps:
	@missing=""; \
	command -v gcc >/dev/null || missing="$$missing gcc libc6-dev"; \
	command -v pdftotext >/dev/null || missing="$$missing poppler-utils"; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql postgresql-contrib"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null; git ls-files --others --exclude-standard '*.go' 2>/dev/null)); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
