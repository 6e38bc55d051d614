package sandbox

import (
	"context"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// A module with an import, a loop, direct and indirect calls, a table
// element and exports: after instrument, the loop calls the guard once
// every guardEvery iterations, and every function index still names the
// same function.
func TestInstrument(t *testing.T) {
	sec := func(id byte, items ...[]byte) []byte {
		body := appendU32(nil, uint32(len(items)))
		for _, it := range items {
			body = append(body, it...)
		}
		return appendSection(nil, id, body)
	}
	str := func(s string) []byte { return append(appendU32(nil, uint32(len(s))), s...) }
	fn := func(locals []byte, code ...byte) []byte {
		body := append(append([]byte(nil), locals...), code...)
		return append(appendU32(nil, uint32(len(body))), body...)
	}
	mod := []byte("\x00asm\x01\x00\x00\x00")
	mod = append(mod, sec(secType, []byte{0x60, 0, 0}, []byte{0x60, 1, valI32, 1, valI32})...)
	mod = append(mod, sec(secImport, append(append(str("env"), str("f")...), 0, 0))...)
	mod = append(mod, sec(secFunction, []byte{1}, []byte{1})...)
	mod = append(mod, sec(4, []byte{0x70, 0, 1})...) // a table of one funcref
	mod = append(mod, sec(secExport, append(str("spin"), 0, 1), append(str("viaTable"), 0, 2))...)
	mod = append(mod, sec(secElement, []byte{0, opI32Const, 0, opEnd, 1, 1})...) // table[0] = spin
	mod = append(mod, sec(secCode,
		// spin(n): f(); while (n != 0) n--; return 7
		fn([]byte{0}, opCall, 0,
			opBlock, blockEmpty, opLoop, blockEmpty,
			opLocalGet, 0, opI32Eqz, opBrIf, 1,
			opLocalGet, 0, opI32Const, 1, opI32Sub, opLocalSet, 0,
			opBr, 0, opEnd, opEnd,
			opI32Const, 7, opEnd),
		// viaTable(n): spin(n) + table[0](n)
		fn([]byte{0}, opLocalGet, 0, opCall, 1, opLocalGet, 0, opI32Const, 0, opCallInd, 1, 0, opI32Add, opEnd),
	)...)

	out, err := instrument(mod)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	var fCalls, guardCalls int
	if _, err := rt.NewHostModuleBuilder("env").NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(func(context.Context, api.Module, []uint64) { fCalls++ }), nil, nil).Export("f").
		Instantiate(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := rt.NewHostModuleBuilder(guardModule).NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(func(context.Context, api.Module, []uint64) { guardCalls++ }), nil, nil).Export(guardName).
		Instantiate(ctx); err != nil {
		t.Fatal(err)
	}
	m, err := rt.Instantiate(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.ExportedFunction("spin").Call(ctx, 3*guardEvery)
	if err != nil || res[0] != 7 || fCalls != 1 || guardCalls != 3 {
		t.Errorf("spin: %v %v, f called %d times, the guard %d", res, err, fCalls, guardCalls)
	}
	res, err = m.ExportedFunction("viaTable").Call(ctx, guardEvery/2)
	if err != nil || res[0] != 14 || fCalls != 3 || guardCalls != 4 {
		t.Errorf("viaTable: %v %v, f called %d times, the guard %d", res, err, fCalls, guardCalls)
	}
}

// instrument refuses what it does not know rather than guess.
func TestInstrumentRefuses(t *testing.T) {
	for name, mod := range map[string][]byte{
		"not wasm":  []byte("\x7fELF"),
		"truncated": []byte("\x00asm\x01\x00\x00\x00\x01\x05\x01"),
		"no code":   []byte("\x00asm\x01\x00\x00\x00"),
	} {
		if _, err := instrument(mod); err == nil {
			t.Errorf("%s: instrumented", name)
		}
	}
}
