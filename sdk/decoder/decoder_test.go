package decoder

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"
)

func TestHandle(t *testing.T) {
	Serve(Decoder{
		DecodeUplink: func(in Input) (Output, error) {
			switch in.FPort {
			case 1:
				return Output{Data: map[string]any{"first": in.Bytes[0], "site": in.Variables["site"], "at": in.RecvTime.Format(time.RFC3339)}}, nil
			case 2:
				return Output{Data: map[string]any{"partial": true}}, errors.New("frame cut short")
			case 3:
				var m map[string]int
				m["x"] = 1 // panics
			}
			return Output{Warnings: []string{"nothing to decode"}}, nil
		},
		EncodeDownlink: func(in DownlinkInput) (DownlinkOutput, error) {
			return DownlinkOutput{Bytes: []byte{byte(in.Data["level"].(float64))}}, nil
		},
	})
	t.Cleanup(func() { Serve(Decoder{}) })
	cases := []struct {
		name        string
		op          Operation
		input, want string
	}{
		{"decode", OpDecodeUplink, `{"bytes":[7,8],"fPort":1,"recvTime":"2024-05-01T12:00:00Z","variables":{"site":"north"}}`,
			`{"data":{"at":"2024-05-01T12:00:00Z","first":7,"site":"north"}}`},
		{"an error joins the errors", OpDecodeUplink, `{"bytes":[],"fPort":2,"variables":{}}`,
			`{"data":{"partial":true},"errors":["frame cut short"]}`},
		{"a panic is an error", OpDecodeUplink, `{"bytes":[],"fPort":3}`,
			`{"data":{},"errors":["the decoder panicked: assignment to entry in nil map"]}`},
		{"no data", OpDecodeUplink, `{"bytes":[1],"fPort":4}`, `{"data":{},"warnings":["nothing to decode"]}`},
		{"bytes out of range", OpDecodeUplink, `{"bytes":[256],"fPort":1}`,
			`{"data":{},"errors":["the input is not valid: bytes[0] = 256 is not from 0 to 255"]}`},
		{"not JSON", OpDecodeUplink, `{`, `{"data":{},"errors":["the input is not valid: unexpected end of JSON input"]}`},
		{"encode keeps the asked port", OpEncodeDownlink, `{"data":{"level":42},"fPort":5,"variables":{}}`, `{"bytes":[42],"fPort":5}`},
		{"an operation not served", OpDecodeDownlink, `{"bytes":[1],"fPort":1}`, `{"data":{},"errors":["this decoder does not implement decode downlink"]}`},
		{"an unknown operation", Operation(8), `{}`, `{"data":{},"errors":["unknown operation"]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(Handle(tc.op, []byte(tc.input))); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
	if got := Operations(); got != OpDecodeUplink|OpEncodeDownlink {
		t.Errorf("Operations() = %d", got)
	}
}

func TestJSONForms(t *testing.T) {
	in := Input{Bytes: []byte{0, 255}, FPort: 9, RecvTime: time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)}
	b, err := json.Marshal(in)
	if err != nil || string(b) != `{"bytes":[0,255],"fPort":9,"recvTime":"2024-05-01T12:00:00Z","variables":{}}` {
		t.Errorf("Input: %s %v", b, err)
	}
	var back Input
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back.Bytes, in.Bytes) || !back.RecvTime.Equal(in.RecvTime) {
		t.Errorf("Input round trip: %+v %v", back, err)
	}
	b, _ = json.Marshal(DownlinkOutput{Errors: []string{"e"}})
	if string(b) != `{"errors":["e"]}` {
		t.Errorf("DownlinkOutput: %s", b)
	}
	var out Output
	if err := json.Unmarshal([]byte(`{"data":{"a":1},"warnings":["w"]}`), &out); err != nil || out.Data["a"] != 1.0 || out.Warnings[0] != "w" {
		t.Errorf("Output: %+v %v", out, err)
	}
}
