package decoder_test

import (
	"fmt"

	"github.com/fieldhub/fieldhub/sdk/decoder"
)

// A decoder registers its function from init; Handle runs it the way the
// module's exports do, so it can be tested without WebAssembly.
func ExampleRun() {
	decoder.Run(func(in decoder.Input) (decoder.Output, error) {
		if len(in.Bytes) < 2 {
			return decoder.Output{Errors: []string{"payload too short"}}, nil
		}
		t := float64(int16(uint16(in.Bytes[0])<<8|uint16(in.Bytes[1]))) / 10
		return decoder.Output{Data: map[string]any{"temperature": t}}, nil
	})
	fmt.Println(string(decoder.Handle(decoder.OpDecodeUplink, []byte(`{"bytes":[0,230],"fPort":1}`))))
	fmt.Println(string(decoder.Handle(decoder.OpDecodeUplink, []byte(`{"bytes":[0],"fPort":1}`))))
	// Output:
	// {"data":{"temperature":23}}
	// {"data":{},"errors":["payload too short"]}
}
