package rpc

import (
	"time"

	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// timestamp is t as protobuf has it; nil for none.
func timestamp(t *time.Time) *timestamppb.Timestamp {
	if t == nil || t.IsZero() {
		return nil
	}
	return timestamppb.New(*t)
}

// value is a stored value (a number, a text, or nil) as a protobuf Value.
func value(v any) *structpb.Value {
	pv, err := structpb.NewValue(v)
	if err != nil {
		return structpb.NewNullValue()
	}
	return pv
}

// values is a map of stored values as a protobuf Struct; what a Struct
// cannot hold is left out.
func values(m map[string]any) *structpb.Struct {
	s := &structpb.Struct{Fields: make(map[string]*structpb.Value, len(m))}
	for k, v := range m {
		if pv, err := structpb.NewValue(v); err == nil {
			s.Fields[k] = pv
		}
	}
	return s
}
