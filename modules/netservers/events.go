package netservers

import "time"

// DownlinkCreated is published after a downlink is queued, so that the
// worker can deliver it without waiting for its next round.
type DownlinkCreated struct {
	DownlinkID, TagID, CompanyID, ApplicationID int64
}

// Topic names the event.
func (DownlinkCreated) Topic() string { return "netservers.downlink_created" }

// The outcomes of a downlink that DownlinkOutcome announces.
const (
	// OutcomeHandedOver: the worker handed the downlink to its network
	// server (its status is now DownlinkSent).
	OutcomeHandedOver = "handedOver"
	// OutcomeTransmitted: the network server reports that a gateway took
	// the downlink for transmission.
	OutcomeTransmitted = "transmitted"
	// OutcomeAcknowledged: the device confirmed the downlink.
	OutcomeAcknowledged = "acknowledged"
	// OutcomeFailed: the worker gave up on the downlink, or the network
	// server reports that it failed or that the device did not confirm it.
	OutcomeFailed = "failed"
)

// DownlinkOutcome is published for what became of a downlink, for the log:
// handed to its network server by the worker (a try to be repeated is not
// announced: the downlink is still queued), and what a network server
// reports that moved it to another status, or that a gateway transmitted
// it. A report about another company's downlink, or one that changes
// nothing, is not announced. Publishing one never holds up the worker or
// the report: subscribers must not block.
type DownlinkOutcome struct {
	CompanyID int64
	// DevEUI is the downlink's node, 16 lower-case hexadecimal digits.
	DevEUI     string
	DownlinkID int64
	// Outcome is one of the Outcome constants; Status is the downlink's
	// status after it.
	Outcome string
	Status  string
	// Gateway names the gateway that transmitted the downlink
	// (OutcomeTransmitted), when the report names one.
	Gateway string
	// Reason says why the downlink failed (OutcomeFailed).
	Reason string
	// Time is when the module learned it.
	Time time.Time
}

// Topic names the event.
func (DownlinkOutcome) Topic() string { return "netservers.downlink_outcome" }
