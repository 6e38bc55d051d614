// Command protogen generates the Go code of the partner API's protobuf
// definitions (proto/fieldhub/v1) into the sdk module (sdk/partner), with
// nothing installed but Go: protocompile (a Go library) parses the .proto
// files, and the code generators run as the go.mod's tools (go tool
// protoc-gen-go, go tool protoc-gen-connect-go), fed the same request
// protoc would send them. Run it from the repository's root:
//
//	go run ./scripts/protogen
package main

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/linker"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"
)

const (
	protoRoot = "proto"
	// outDir is where the go_package paths under sdkModule are written.
	outDir    = "sdk"
	sdkModule = "github.com/fieldhub/fieldhub/sdk"
)

// plugins are the generators, as go.mod's tool entries name them.
var plugins = []string{"google.golang.org/protobuf/cmd/protoc-gen-go", "connectrpc.com/connect/cmd/protoc-gen-connect-go"}

func main() {
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "protogen:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	files, err := protoFiles()
	if err != nil {
		return err
	}
	compiler := protocompile.Compiler{
		Resolver:       protocompile.WithStandardImports(&protocompile.SourceResolver{ImportPaths: []string{protoRoot}}),
		SourceInfoMode: protocompile.SourceInfoStandard,
	}
	compiled, err := compiler.Compile(ctx, files...)
	if err != nil {
		return err
	}
	req := &pluginpb.CodeGeneratorRequest{FileToGenerate: files, Parameter: proto.String("module=" + sdkModule)}
	seen := map[string]bool{}
	for _, f := range compiled {
		addWithImports(req, f.(linker.Result), seen)
	}
	for _, p := range plugins {
		if err := generate(ctx, p, req); err != nil {
			return err
		}
	}
	return nil
}

// protoFiles lists the .proto files under protoRoot, relative to it.
func protoFiles() ([]string, error) {
	var files []string
	err := filepath.WalkDir(protoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".proto") {
			return err
		}
		rel, err := filepath.Rel(protoRoot, path)
		files = append(files, filepath.ToSlash(rel))
		return err
	})
	slices.Sort(files)
	return files, err
}

// addWithImports adds f to the request after the files it imports, as
// protoc orders them.
func addWithImports(req *pluginpb.CodeGeneratorRequest, f protoreflect.FileDescriptor, seen map[string]bool) {
	if seen[f.Path()] {
		return
	}
	seen[f.Path()] = true
	imports := f.Imports()
	for i := range imports.Len() {
		addWithImports(req, imports.Get(i).FileDescriptor, seen)
	}
	var fdp *descriptorpb.FileDescriptorProto
	if r, ok := f.(linker.Result); ok {
		fdp = r.FileDescriptorProto()
	} else {
		fdp = protodesc.ToFileDescriptorProto(f)
	}
	req.ProtoFile = append(req.ProtoFile, fdp)
}

// generate runs one generator on req and writes the files it answers.
func generate(ctx context.Context, plugin string, req *pluginpb.CodeGeneratorRequest) error {
	in, err := proto.Marshal(req)
	if err != nil {
		return err
	}
	var out, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "go", "tool", plugin)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(in), &out, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w: %s", plugin, err, stderr.String())
	}
	var res pluginpb.CodeGeneratorResponse
	if err := proto.Unmarshal(out.Bytes(), &res); err != nil {
		return fmt.Errorf("%s: read its answer: %w", plugin, err)
	}
	if res.Error != nil {
		return fmt.Errorf("%s: %s", plugin, res.GetError())
	}
	for _, f := range res.File {
		path := filepath.Join(outDir, filepath.FromSlash(f.GetName()))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(f.GetContent()), 0o644); err != nil {
			return err
		}
	}
	return nil
}
