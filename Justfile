# Fieldhub tasks. Run them with `npx --yes rust-just <recipe>` (needs only Go
# and Node), or with `just <recipe>` where just is installed.

set shell := ["bash", "-euo", "pipefail", "-c"]

# list the recipes
default:
    @{{just_executable()}} --list

# build the web assets (islands, styles, htmx) that the binary embeds
assets:
    #!/usr/bin/env bash
    set -euo pipefail
    # npm ci only when the lock file changed since the last install.
    if ! cmp -s webapp/package-lock.json webapp/node_modules/.fieldhub-lock 2>/dev/null; then
        npm --prefix webapp ci --no-audit --no-fund --loglevel=error
        cp webapp/package-lock.json webapp/node_modules/.fieldhub-lock
    fi
    npm --prefix webapp run --silent build -- --logLevel warn
    # The decoder sandbox embeds QuickJS (npm package quickjs-wasi); copy it only when it changed, so Go's build cache holds.
    cmp -s webapp/node_modules/quickjs-wasi/quickjs.wasm kernel/sandbox/wasm/quickjs.wasm || cp webapp/node_modules/quickjs-wasi/quickjs.wasm kernel/sandbox/wasm/quickjs.wasm

# build the bundled SMS provider plugins (plugins/*) into bin/plugins, where the portal finds them (FIELDHUB_PLUGIN_DIR)
plugins:
    #!/usr/bin/env bash
    set -euo pipefail
    mkdir -p bin/plugins
    for dir in plugins/*/; do
        [ -f "${dir}main.go" ] || continue
        go build -o "bin/plugins/$(basename "$dir")" "./$dir"
    done

# regenerate the templ pages (*_templ.go, committed)
templ:
    go tool templ generate -log-level warn

# regenerate the partner API's Go code (sdk/partner, committed) from proto/
proto:
    go run ./scripts/protogen

# regenerate the islands' TypeScript types of the REST API (webapp/src/lib/*.gen.ts, committed) from its OpenAPI document
openapi:
    npm --prefix webapp run --silent openapi

# run the portal on the embedded default (SQLite under ./data) at http://127.0.0.1:8080
run *ARGS: assets plugins
    go run . serve {{ARGS}}

# the whole test suite: services, gofmt, go vet, go test (SQLite and PostgreSQL), browser tests
test: assets plugins
    #!/usr/bin/env bash
    set -euo pipefail
    scripts/ensure-services.sh
    scripts/ensure-influxdb.sh
    scripts/ensure-mosquitto.sh
    scripts/ensure-libreoffice.sh
    # Generated templ code must be committed up to date: regenerate and compare.
    before=$(git ls-files -z --cached --others --exclude-standard -- '*_templ.go' | xargs -0 -r sha256sum)
    go tool templ generate -log-level warn
    after=$(git ls-files -z --cached --others --exclude-standard -- '*_templ.go' | xargs -0 -r sha256sum)
    if [ "$before" != "$after" ]; then
        echo "templ: generated *_templ.go files were stale; they are regenerated now, commit them" >&2
        exit 1
    fi
    # So must the partner API's code generated from proto/ (sdk/partner).
    before=$(git ls-files -z --cached --others --exclude-standard -- sdk/partner | xargs -0 -r sha256sum)
    go run ./scripts/protogen
    after=$(git ls-files -z --cached --others --exclude-standard -- sdk/partner | xargs -0 -r sha256sum)
    if [ "$before" != "$after" ]; then
        echo "proto: generated sdk/partner files were stale; they are regenerated now, commit them" >&2
        exit 1
    fi
    # So must the islands' types generated from the OpenAPI document (webapp/src/lib/*.gen.ts),
    # which the lint step below holds the islands' API types to.
    before=$(git ls-files -z --cached --others --exclude-standard -- 'webapp/src/lib/*.gen.ts' | xargs -0 -r sha256sum)
    npm --prefix webapp run --silent openapi
    after=$(git ls-files -z --cached --others --exclude-standard -- 'webapp/src/lib/*.gen.ts' | xargs -0 -r sha256sum)
    if [ "$before" != "$after" ]; then
        echo "openapi: generated webapp/src/lib/*.gen.ts files were stale (the REST API changed); they are regenerated now (npm --prefix webapp run openapi), commit them" >&2
        exit 1
    fi
    # Every Go file that git tracks or would track, but generated templ output.
    unformatted=$(git ls-files -z --cached --others --exclude-standard -- '*.go' ':!:*_templ.go' | xargs -0 -r gofmt -l)
    if [ -n "$unformatted" ]; then
        echo "gofmt: these files are not formatted (run: gofmt -w <file>):" >&2
        echo "$unformatted" >&2
        exit 1
    fi
    go vet ./...
    npm --prefix webapp run --silent lint
    (cd sdk && go vet ./... && go test -count=1 ./...)
    go test -count=1 ./...
    # Browser tests: Debian's Chromium driven by Playwright (webapp/e2e).
    scripts/ensure-chromium.sh
    npm --prefix webapp run --silent e2e

# development: the Vite dev server with hot reload beside the portal, which loads its assets from it
dev *ARGS:
    #!/usr/bin/env bash
    set -euo pipefail
    npm --prefix webapp run dev -- --logLevel warn &
    vite=$!
    trap 'kill $vite' EXIT
    FIELDHUB_VITE_DEV_URL=http://localhost:5173 go run . serve {{ARGS}}

# decoder sandbox benchmark against Node (extra flags go to bench/decoders, e.g. -d 10s -codec path/to/codec.js); results go in docs/performance.md
bench-decoders *ARGS: assets
    go run ./bench/decoders {{ARGS}}

# build the example WASM decoder (examples/decoder-wasm) into bin/decoder-example.wasm
example-decoder-wasm:
    GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o bin/decoder-example.wasm ./examples/decoder-wasm

# build the binary into bin/fieldhub
build: assets plugins
    go build -o bin/fieldhub .

# format every Go file but generated templ output
fmt:
    git ls-files -z --cached --others --exclude-standard -- '*.go' ':!:*_templ.go' | xargs -0 -r gofmt -w

# bulk import of nodes benchmark: an XLSX of 10,000 nodes, dry run, apply, export and its dry run (flags go to bench/bulkimport, e.g. -db sqlite -nodes 100)
bench-bulkimport *ARGS: assets
    go run ./bench/bulkimport {{ARGS}}

# device repository import benchmark: a synthetic repository of 400 codecs with 1,300 examples (flags go to bench/devrepo)
bench-devrepo *ARGS: assets
    go run ./bench/devrepo {{ARGS}}

# load benchmark of GET /api/users/{id} on SQLite and PostgreSQL (extra flags go to bench/loadgen, e.g. -c 32 -d 30s)
bench *ARGS: assets
    bench/users-get.sh {{ARGS}}

# time-series benchmark (PostgreSQL, SQLite, InfluxDB); results go in docs/performance.md
bench-tsdb *ARGS:
    scripts/ensure-services.sh
    scripts/ensure-influxdb.sh
    go run ./bench/tsdb {{ARGS}}

# drop the PostgreSQL databases test runs left behind (templates of old migration sets, killed runs)
clean-test-dbs:
    psql -h 127.0.0.1 -U postgres -Atc "SELECT datname FROM pg_database WHERE datname LIKE 'fieldhub_t%'" | while read -r db; do psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)"; done

# ingest benchmark: HTTP uplinks on PostgreSQL against a COPY of the same rows (extra flags go to bench/ingest, e.g. -c 16 -d 30s; -via mqtt or -via compare for MQTT beside HTTP); results go in docs/performance.md
bench-ingest *ARGS: assets
    scripts/ensure-services.sh
    go run ./bench/ingest {{ARGS}}

# two fieldhub binaries in the ingest benchmark, alternately, with medians (e.g. just bench-ingest-compare /tmp/a /tmp/b 5 -d 10s)
bench-ingest-compare A B *ARGS:
    bench/ingest-compare.sh {{A}} {{B}} {{ARGS}}

# soak: two instances on PostgreSQL for 30 minutes under the demo plus 1,000 uplinks/s, one killed halfway; memory, goroutines, open files and p99 over time, and no acknowledged uplink lost (extra flags go to bench/soak, e.g. -d 4m -warmup 30s -kill-at 2m); results go in docs/performance.md
bench-soak *ARGS: assets
    scripts/ensure-services.sh
    scripts/ensure-mosquitto.sh
    go run ./bench/soak {{ARGS}}

# partner API ingest benchmark: Connect client-streaming (IngestService/PushStream) against the HTTP ingest in one run on PostgreSQL (extra flags go to bench/partneringest, e.g. -c 16 -d 30s -stream 200)
bench-partner-ingest *ARGS:
    scripts/ensure-services.sh
    go run ./bench/partneringest {{ARGS}}

# partner API Watch fan-out benchmark: paced HTTP uplinks (default 5,000/s) to 10 Watch streams on PostgreSQL, p50-p99 delay from post to receipt (extra flags go to bench/watchfanout, e.g. -rate 500 -d 5s, -instances 2); results go in docs/performance.md
bench-watch *ARGS:
    scripts/ensure-services.sh
    go run ./bench/watchfanout {{ARGS}}
