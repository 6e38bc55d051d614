package ingest

import "time"

// Limits of one message.
const (
	// MaxPayload is the largest accepted payload in bytes: far above
	// LoRaWAN's 242, for devices that post the generic form over IP.
	MaxPayload = 4096
	// MaxValues is how many values one uplink may hold once flattened.
	MaxValues = 256
	// MaxDepth is how deep values may nest.
	MaxDepth = 16
	// MaxKey is the longest key, the nodes module's limit of a key name.
	MaxKey = 64
	// MaxFuture is how far ahead of the receiver's clock a message's time
	// may be: a node whose latest time lay in the future would never show
	// a newer uplink.
	MaxFuture = time.Hour
)

// Message IDs (locale catalog keys) of the values Flatten refuses.
const (
	IDNumberInvalid = "ingest.number.invalid"
	IDValuesTooMany = "ingest.values.tooMany"
	IDValuesTooDeep = "ingest.values.tooDeep"
)
