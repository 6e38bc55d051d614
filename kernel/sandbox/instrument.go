package sandbox

import (
	"errors"
	"fmt"
)

// This file rewrites quickjs.wasm before it is compiled, so that wazero can
// run it without WithCloseOnContextDone and yet stop any call, also one stuck
// in QuickJS's native code, a little after its deadline.
//
// Every loop header gets a countdown: a mutable global that each iteration
// decrements, and that calls the host's guard function (the import
// fieldhub.guard) and starts again when it reaches zero. The guard traps the
// call (a Go panic, which wazero turns into the call's error) once the call's
// outer deadline has passed. So compiled code leaves for Go once every
// guardEvery iterations instead of at every one, as WithCloseOnContextDone
// does, which is what made the guarded runtime three times slower; the Go
// scheduler and collector get those same moments to preempt the goroutine.

const (
	guardModule = "fieldhub"
	guardName   = "guard"
	// guardEvery is how many loop iterations run between two calls of the
	// guard: tens of microseconds of QuickJS, a tenth of a microsecond of
	// Go each time.
	guardEvery = 20000
)

// Section ids.
const (
	secCustom   = 0
	secType     = 1
	secImport   = 2
	secFunction = 3
	secGlobal   = 6
	secExport   = 7
	secStart    = 8
	secElement  = 9
	secCode     = 10
)

// Value types and opcodes the rewriter writes or must recognise.
const (
	valI32 = 0x7f

	opBlock      = 0x02
	opLoop       = 0x03
	opIf         = 0x04
	opEnd        = 0x0b
	opBr         = 0x0c
	opBrIf       = 0x0d
	opBrTable    = 0x0e
	opCall       = 0x10
	opCallInd    = 0x11
	opRetCall    = 0x12
	opRetCallInd = 0x13
	opSelectT    = 0x1c
	opLocalGet   = 0x20
	opLocalSet   = 0x21
	opLocalTee   = 0x22
	opGlobalGet  = 0x23
	opGlobalSet  = 0x24
	opI32Const   = 0x41
	opI64Const   = 0x42
	opF32Const   = 0x43
	opF64Const   = 0x44
	opI32Eqz     = 0x45
	opI32Add     = 0x6a
	opI32Sub     = 0x6b
	opRefNull    = 0xd0
	opRefFunc    = 0xd2
	opPrefixFC   = 0xfc
	blockEmpty   = 0x40
)

// wasmReader reads the binary format.
type wasmReader struct {
	b   []byte
	i   int
	err error
}

func (r *wasmReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("offset %#x: %s", r.i, fmt.Sprintf(format, args...))
	}
}

func (r *wasmReader) byte() byte {
	if r.i >= len(r.b) {
		r.fail("unexpected end")
		return 0
	}
	c := r.b[r.i]
	r.i++
	return c
}

func (r *wasmReader) u32() uint32 {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		if shift > 35 {
			r.fail("LEB128 too long")
			return 0
		}
		c := r.byte()
		v |= uint64(c&0x7f) << shift
		if c < 0x80 || r.err != nil {
			break
		}
	}
	return uint32(v)
}

// skipLEB skips a signed or unsigned LEB128 number.
func (r *wasmReader) skipLEB() {
	for i := 0; i < 10; i++ {
		if r.byte() < 0x80 || r.err != nil {
			return
		}
	}
	r.fail("LEB128 too long")
}

func (r *wasmReader) skip(n int) {
	if n < 0 || r.i+n > len(r.b) {
		r.fail("unexpected end")
		r.i = len(r.b)
		return
	}
	r.i += n
}

func (r *wasmReader) name() string {
	n := int(r.u32())
	start := r.i
	r.skip(n)
	if r.err != nil {
		return ""
	}
	return string(r.b[start:r.i])
}

// skipConstExpr skips a constant expression up to its end, shifting the
// function indices of ref.func by shift.
func (r *wasmReader) constExpr(out []byte, shift func(uint32) uint32) []byte {
	for r.err == nil {
		start := r.i
		op := r.byte()
		switch op {
		case opEnd:
			return append(out, opEnd)
		case opI32Const, opI64Const:
			r.skipLEB()
		case opF32Const:
			r.skip(4)
		case opF64Const:
			r.skip(8)
		case opGlobalGet:
			r.u32()
		case opRefNull:
			r.byte()
		case opRefFunc:
			f := r.u32()
			out = append(out, opRefFunc)
			out = appendU32(out, shift(f))
			continue
		case opI32Add, opI32Sub, 0x6c, 0x7c, 0x7d, 0x7e: // extended-const arithmetic
		default:
			r.fail("opcode %#x in a constant expression", op)
		}
		out = append(out, r.b[start:r.i]...)
	}
	return out
}

func appendU32(b []byte, v uint32) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			b = append(b, c|0x80)
			continue
		}
		return append(b, c)
	}
}

func appendS32(b []byte, v int32) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func appendSection(out []byte, id byte, body []byte) []byte {
	out = append(out, id)
	out = appendU32(out, uint32(len(body)))
	return append(out, body...)
}

// instrument returns quickjs.wasm with the guard added. It refuses a module using
// instructions it does not know (SIMD, exceptions, GC): a new quickjs.wasm
// that needs them needs this file extended.
func instrument(wasm []byte) ([]byte, error) {
	if len(wasm) < 8 || string(wasm[:4]) != "\x00asm" {
		return nil, errors.New("not a WebAssembly module")
	}
	r := &wasmReader{b: wasm, i: 8}
	type section struct {
		id   byte
		body []byte
	}
	var sections []section
	for r.i < len(wasm) && r.err == nil {
		id := r.byte()
		n := int(r.u32())
		start := r.i
		r.skip(n)
		if r.err == nil {
			sections = append(sections, section{id, wasm[start:r.i]})
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	m := &module{}
	for _, s := range sections {
		if err := m.read(s.id, s.body); err != nil {
			return nil, fmt.Errorf("section %d: %w", s.id, err)
		}
	}
	if m.code == nil {
		return nil, errors.New("no code")
	}
	// A module without imports or globals gets the sections, empty, to add
	// the guard and the countdown to.
	var full []section
	have := map[byte]bool{}
	for _, s := range sections {
		if s.id != secCustom {
			for _, id := range []byte{secImport, secGlobal} {
				if !have[id] && sectionOrder[s.id] > sectionOrder[id] {
					full = append(full, section{id, []byte{0}})
					have[id] = true
				}
			}
			have[s.id] = true
		}
		full = append(full, s)
	}
	out := append([]byte(nil), wasm[:8]...)
	for _, s := range full {
		body, err := m.write(s.id, s.body)
		if err != nil {
			return nil, fmt.Errorf("section %d: %w", s.id, err)
		}
		if body != nil {
			out = appendSection(out, s.id, body)
		}
	}
	return out, nil
}

// sectionOrder is the order sections must come in (the data count section
// comes before the code).
var sectionOrder = map[byte]int{1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 12: 10, 10: 11, 11: 12}

// module is what the rewriter learns of the module before writing it.
type module struct {
	types         [][2]int // params, results of each type
	guardType     uint32   // () -> (), appended if missing
	addType       []byte
	importedFuncs uint32
	funcTypes     []uint32 // types of the defined functions
	globals       uint32
	code          []byte
}

// shift maps a function index of the original module to the rewritten one:
// the guard import comes after the other imports.
func (m *module) shift(f uint32) uint32 {
	if f >= m.importedFuncs {
		return f + 1
	}
	return f
}

func (m *module) guardFunc() uint32  { return m.importedFuncs }
func (m *module) fuelGlobal() uint32 { return m.globals }

func (m *module) read(id byte, body []byte) error {
	r := &wasmReader{b: body}
	switch id {
	case secType:
		n := r.u32()
		for i := uint32(0); i < n && r.err == nil; i++ {
			if form := r.byte(); form != 0x60 {
				return fmt.Errorf("type %d is not a function type (%#x)", i, form)
			}
			p := r.u32()
			r.skip(int(p))
			res := r.u32()
			r.skip(int(res))
			m.types = append(m.types, [2]int{int(p), int(res)})
		}
		m.guardType = uint32(len(m.types))
		for i, t := range m.types {
			if t == [2]int{0, 0} {
				m.guardType = uint32(i)
				break
			}
		}
		if m.guardType == uint32(len(m.types)) {
			m.addType = []byte{0x60, 0, 0}
		}
	case secImport:
		n := r.u32()
		for i := uint32(0); i < n && r.err == nil; i++ {
			r.name()
			r.name()
			switch kind := r.byte(); kind {
			case 0:
				r.u32()
				m.importedFuncs++
			case 1: // table
				r.byte()
				if r.byte()&1 != 0 {
					r.u32()
				}
				r.u32()
			case 2: // memory
				if r.byte()&1 != 0 {
					r.u32()
				}
				r.u32()
			case 3:
				return errors.New("imported globals are not supported")
			default:
				return fmt.Errorf("import kind %d", kind)
			}
		}
	case secFunction:
		n := r.u32()
		for i := uint32(0); i < n && r.err == nil; i++ {
			m.funcTypes = append(m.funcTypes, r.u32())
		}
	case secGlobal:
		m.globals = r.u32()
	case secStart:
		return errors.New("a start function is not supported")
	case secCode:
		m.code = body
	}
	return r.err
}

func (m *module) write(id byte, body []byte) ([]byte, error) {
	r := &wasmReader{b: body}
	var out []byte
	switch id {
	case secType:
		n := r.u32()
		if m.addType == nil {
			return body, nil
		}
		out = appendU32(out, n+1)
		out = append(out, body[r.i:]...)
		out = append(out, m.addType...)
	case secImport:
		n := r.u32()
		out = appendU32(out, n+1)
		out = append(out, body[r.i:]...)
		out = appendU32(out, uint32(len(guardModule)))
		out = append(out, guardModule...)
		out = appendU32(out, uint32(len(guardName)))
		out = append(out, guardName...)
		out = append(out, 0)
		out = appendU32(out, m.guardType)
	case secGlobal:
		n := r.u32()
		out = appendU32(out, n+1)
		for i := uint32(0); i < n && r.err == nil; i++ {
			out = append(out, r.byte(), r.byte()) // type, mutability
			out = r.constExpr(out, m.shift)
		}
		// The countdown.
		out = append(out, valI32, 1, opI32Const)
		out = appendS32(out, guardEvery)
		out = append(out, opEnd)
	case secExport:
		n := r.u32()
		out = appendU32(out, n)
		for i := uint32(0); i < n && r.err == nil; i++ {
			name := r.name()
			kind := r.byte()
			idx := r.u32()
			if kind == 0 {
				idx = m.shift(idx)
			}
			out = appendU32(out, uint32(len(name)))
			out = append(out, name...)
			out = append(out, kind)
			out = appendU32(out, idx)
		}
	case secElement:
		n := r.u32()
		out = appendU32(out, n)
		for i := uint32(0); i < n && r.err == nil; i++ {
			out = m.element(r, out)
		}
	case secCode:
		return m.rewriteCode()
	case secCustom:
		// A name section would name functions by their old indices.
		if r.name() == "name" {
			return nil, nil
		}
		return body, nil
	default:
		return body, nil
	}
	if r.err == nil && id != secType && id != secImport && r.i != len(body) {
		r.fail("%d bytes left over", len(body)-r.i)
	}
	return out, r.err
}

// element copies one element segment, shifting the function indices in it.
func (m *module) element(r *wasmReader, out []byte) []byte {
	flags := r.u32()
	out = appendU32(out, flags)
	if flags > 7 {
		r.fail("element segment flags %d", flags)
		return out
	}
	if flags&1 == 0 { // active
		if flags&2 != 0 {
			out = appendU32(out, r.u32()) // table index
		}
		out = r.constExpr(out, m.shift)
	}
	exprs := flags&4 != 0
	if flags&3 != 0 { // elemkind or reftype
		out = append(out, r.byte())
	}
	n := r.u32()
	out = appendU32(out, n)
	for j := uint32(0); j < n && r.err == nil; j++ {
		if exprs {
			out = r.constExpr(out, m.shift)
		} else {
			out = appendU32(out, m.shift(r.u32()))
		}
	}
	return out
}

// rewriteCode rewrites every function body.
func (m *module) rewriteCode() ([]byte, error) {
	r := &wasmReader{b: m.code}
	n := r.u32()
	if int(n) != len(m.funcTypes) {
		return nil, fmt.Errorf("%d bodies for %d functions", n, len(m.funcTypes))
	}
	out := appendU32(nil, n)
	var body []byte
	for i := uint32(0); i < n && r.err == nil; i++ {
		size := int(r.u32())
		start := r.i
		r.skip(size)
		if r.err != nil {
			break
		}
		t := m.funcTypes[i]
		if int(t) >= len(m.types) {
			return nil, fmt.Errorf("function %d has type %d of %d", i, t, len(m.types))
		}
		var err error
		body, err = m.rewriteBody(body[:0], m.code[start:r.i], m.types[t][0])
		if err != nil {
			return nil, fmt.Errorf("function %d: %w", i+m.importedFuncs, err)
		}
		out = appendU32(out, uint32(len(body)))
		out = append(out, body...)
	}
	return out, r.err
}

// rewriteBody copies one function body, adding its locals and rewriting
// its instructions.
func (m *module) rewriteBody(out, body []byte, params int) ([]byte, error) {
	r := &wasmReader{b: body}
	groups := r.u32()
	out = appendU32(out, groups+1)
	locals := uint32(params)
	for g := uint32(0); g < groups && r.err == nil; g++ {
		start := r.i
		c := r.u32()
		r.byte()
		locals += c
		out = append(out, body[start:r.i]...)
	}
	// One i32 local more, after the function's own.
	out = append(out, 1, valI32)
	tick := locals
	fuel := m.fuelGlobal()
	copied := r.i
	flush := func(to int) {
		out = append(out, body[copied:to]...)
		copied = r.i
	}
	for r.i < len(body) && r.err == nil {
		start := r.i
		op := r.byte()
		switch {
		case op == opBlock || op == opIf:
			r.blockType()
		case op == opLoop:
			r.blockType()
			flush(r.i)
			// fuel -= 1; if fuel == 0 { guard(); fuel = guardEvery }
			out = append(out, opGlobalGet)
			out = appendU32(out, fuel)
			out = append(out, opI32Const, 1, opI32Sub, opLocalTee)
			out = appendU32(out, tick)
			out = append(out, opGlobalSet)
			out = appendU32(out, fuel)
			out = append(out, opLocalGet)
			out = appendU32(out, tick)
			out = append(out, opI32Eqz, opIf, blockEmpty, opCall)
			out = appendU32(out, m.guardFunc())
			out = append(out, opI32Const)
			out = appendS32(out, guardEvery)
			out = append(out, opGlobalSet)
			out = appendU32(out, fuel)
			out = append(out, opEnd)
		case op == opBr || op == opBrIf || op == opLocalGet || op == opLocalSet || op == opLocalTee || op == opGlobalGet ||
			op == opGlobalSet || op == 0x25 || op == 0x26 || op == 0x3f || op == 0x40:
			r.u32()
		case op == opBrTable:
			n := r.u32()
			for i := uint32(0); i <= n && r.err == nil; i++ {
				r.u32()
			}
		case op == opCall || op == opRetCall || op == opRefFunc:
			f := r.u32()
			flush(start)
			out = append(out, op)
			out = appendU32(out, m.shift(f))
			copied = r.i
		case op == opCallInd || op == opRetCallInd:
			r.u32()
			r.u32()
		case op == opSelectT:
			r.skip(int(r.u32()))
		case op >= 0x28 && op <= 0x3e: // loads and stores
			r.memarg()
		case op == opI32Const || op == opI64Const:
			r.skipLEB()
		case op == opF32Const:
			r.skip(4)
		case op == opF64Const:
			r.skip(8)
		case op == opRefNull:
			r.byte()
		case op == opPrefixFC:
			sub := r.u32()
			switch {
			case sub <= 7: // saturating truncations
			case sub == 9, sub == 11, sub == 13, sub == 15, sub == 16, sub == 17:
				// data.drop, memory.fill, elem.drop, table.grow, .size, .fill
				r.u32()
			case sub == 8, sub == 10, sub == 12, sub == 14:
				// memory.init, memory.copy, table.init, table.copy
				r.u32()
				r.u32()
			default:
				r.fail("unknown instruction 0xfc %d", sub)
			}
		case op <= 0x01 || op == 0x05 || op == opEnd || op == 0x0f || op == 0x1a || op == 0x1b ||
			(op >= 0x45 && op <= 0xc4) || op == 0xd1:
			// no immediates
		default:
			r.fail("unknown instruction %#x", op)
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	flush(len(body))
	return out, nil
}

func (r *wasmReader) blockType() {
	c := r.byte()
	if c == blockEmpty || (c >= 0x6f && c <= 0x7f) {
		return
	}
	r.i--
	r.skipLEB()
}

// memarg reads a memory argument; a memory index other than 0 is refused.
func (r *wasmReader) memarg() {
	align := r.u32()
	if align&0x40 != 0 {
		if r.u32() != 0 {
			r.fail("memory index other than 0")
		}
	}
	r.u32() // offset
}
