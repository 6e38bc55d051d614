package core

import "encoding/hex"

// decodeRaw keeps a payload as it came: its bytes in lower-case hex, the
// spelling of ChirpStack's and most device manuals' examples, and its
// length, which tells frames of different types apart.
func decodeRaw(in Input) Output {
	data := map[string]any{"length": len(in.Bytes)}
	if len(in.Bytes) > 0 {
		data["raw"] = hex.EncodeToString(in.Bytes)
	}
	return Output{Data: data}
}
