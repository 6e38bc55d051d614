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

// Message ids of the reasons the downlink worker gives a company for a
// downlink it could not hand over, in the downlink's detail (and the log
// entry of a failed downlink). They say what went wrong in general terms:
// what the portal's resolver, addresses and broker answered stays in the
// server log.
const (
	IDFailUnknownHost    = "netservers.downlink.fail.unknownHost"
	IDFailTimeout        = "netservers.downlink.fail.timeout"
	IDFailUnreachable    = "netservers.downlink.fail.unreachable"
	IDFailPrivateAddress = "netservers.downlink.fail.privateAddress"
	IDFailBadURL         = "netservers.downlink.fail.badUrl"
	IDFailTTSAnswered    = "netservers.downlink.fail.ttsAnswered" // {status}
	IDFailTTSRefused     = "netservers.downlink.fail.ttsRefused"  // {status}
	// IDFailTTSRefusedBecause names The Things Stack's error ({reason}),
	// when its answer is one of The Things Stack's errors.
	IDFailTTSRefusedBecause = "netservers.downlink.fail.ttsRefusedBecause" // {status}, {reason}
	IDFailNoTTSURL          = "netservers.downlink.fail.noTtsUrl"
	IDFailNoTTSKey          = "netservers.downlink.fail.noTtsKey"
	IDFailNoChirpStackID    = "netservers.downlink.fail.noChirpStackId"
	IDFailNoBroker          = "netservers.downlink.fail.noBroker"
	IDFailBroker            = "netservers.downlink.fail.broker"
	IDFailJSON              = "netservers.downlink.fail.json"
	IDFailNoDownlinks       = "netservers.downlink.fail.noDownlinks" // {server}
	IDFailInternal          = "netservers.downlink.fail.internal"
	// IDFailAttempt and IDFailGaveUp add the try to a reason ({reason}):
	// {attempt} of {max}, or the {attempts} after which the worker gave up.
	IDFailAttempt = "netservers.downlink.fail.attempt"
	IDFailGaveUp  = "netservers.downlink.fail.gaveUp"
)

// IDIntegrationToken names what the ingest routes authenticate their
// callers by, for the API documentation (a key of the locale catalogs).
const IDIntegrationToken = "page.api.integrationToken"

// Message ids of the audit trail's entries about downlinks (audit.Change):
// one queued for a node ({id}, {name}, {deveui}, {port}, {payload}) and one
// taken back before it was handed on.
const (
	AuditDownlinkQueued  = "audit.downlink.queued"
	AuditDownlinkRemoved = "audit.downlink.removed"
)
