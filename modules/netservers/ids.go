package netservers

// Message ids of the downlink queue; each is a key of the locale catalogs.
// They keep the nodes module's names, under which the queue began.
const (
	IDPortMin           = "nodes.downlink.port.min"
	IDPortMax           = "nodes.downlink.port.max"
	IDPayloadType       = "nodes.downlink.payloadType"
	IDPayloadHex        = "nodes.downlink.payload.hex"
	IDPayloadBase64     = "nodes.downlink.payload.base64"
	IDPayloadJSON       = "nodes.downlink.payload.json"
	IDPayloadTooLong    = "nodes.downlink.payload.tooLong"
	IDDownlinkNotQueued = "nodes.downlink.notQueued"
	IDDownlinkStatus    = "nodes.downlink.status"
)
