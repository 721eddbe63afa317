#!/usr/bin/env bash
# Regenerates bot.pb.go and bot_grpc.pb.go from bot.proto.
# Run from anywhere: `go generate ./protocol/botpb/` or `bash generate.sh`.
# Needs protoc (apt-get install protobuf-compiler); installs the Go
# generators with `go install` if they are missing from PATH and GOBIN.
set -euo pipefail
cd "$(dirname "$0")"

# protoc-gen-go follows go.mod's google.golang.org/protobuf version so the
# generated code matches the runtime; protoc-gen-go-grpc is pinned too.
PROTOC_GEN_GO_VERSION="$(go list -m -f '{{.Version}}' google.golang.org/protobuf)"
PROTOC_GEN_GO_GRPC_VERSION="v1.6.2"

gobin="$(go env GOBIN)"
[ -n "$gobin" ] || gobin="$(go env GOPATH)/bin"
export PATH="$gobin:$PATH"

have_version() { # tool wanted-version
	command -v "$1" >/dev/null 2>&1 && [ "$("$1" --version 2>&1 | awk '{print $NF}')" = "$2" ]
}
if ! have_version protoc-gen-go "$PROTOC_GEN_GO_VERSION"; then
	echo "installing protoc-gen-go@$PROTOC_GEN_GO_VERSION" >&2
	(cd / && go install "google.golang.org/protobuf/cmd/protoc-gen-go@$PROTOC_GEN_GO_VERSION")
fi
if ! have_version protoc-gen-go-grpc "${PROTOC_GEN_GO_GRPC_VERSION#v}"; then
	echo "installing protoc-gen-go-grpc@$PROTOC_GEN_GO_GRPC_VERSION" >&2
	(cd / && go install "google.golang.org/grpc/cmd/protoc-gen-go-grpc@$PROTOC_GEN_GO_GRPC_VERSION")
fi
if ! command -v protoc >/dev/null 2>&1; then
	echo "generate.sh: protoc not found: install it (apt-get install protobuf-compiler, or github.com/protocolbuffers/protobuf/releases)" >&2
	exit 1
fi

protoc --proto_path=. \
	--go_out=. --go_opt=paths=source_relative \
	--go-grpc_out=. --go-grpc_opt=paths=source_relative \
	bot.proto
