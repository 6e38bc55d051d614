package core

import (
	"context"
	"encoding/hex"
)

// rawDecoder keeps a payload as it came: its bytes in lower-case hex, the
// spelling of ChirpStack's and most device manuals' examples, and its
// length, which tells frames of different types apart.
type rawDecoder struct{}

func (rawDecoder) decode(_ context.Context, in Input) (Output, error) {
	data := map[string]any{"length": len(in.Bytes)}
	if len(in.Bytes) > 0 {
		data["raw"] = hex.EncodeToString(in.Bytes)
	}
	return Output{Data: data}, nil
}
