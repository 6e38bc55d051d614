package nodes

import "time"

// TagCreated is published after a tag is created.
type TagCreated struct {
	TagID, CompanyID, ApplicationID int64
	DevEUI                          string
}

// Topic names the event.
func (TagCreated) Topic() string { return "nodes.tag_created" }

// TagDeleted is published after a tag and its keys, picture and downlinks
// are deleted. Its data series are the subscribers' to remove.
type TagDeleted struct {
	TagID, CompanyID, ApplicationID int64
	DevEUI                          string
}

// Topic names the event.
func (TagDeleted) Topic() string { return "nodes.tag_deleted" }

// DevEUIClaimRefused is published when a node registration (or a change of
// a node's DevEUI) is refused because another company's node has the
// DevEUI: CompanyID tried, OwnerID has it. The names are the companies'
// at the time. The logs module writes it for the SuperAdmin.
type DevEUIClaimRefused struct {
	DevEUI                 string
	CompanyID, OwnerID     int64
	CompanyName, OwnerName string
	Time                   time.Time
}

// Topic names the event.
func (DevEUIClaimRefused) Topic() string { return "nodes.deveui_claim_refused" }

// TagMoved is published after a SuperAdmin moved a tag, with its keys,
// picture and stored data, from one company to another: Points is how many
// stored points went with it; Proven tells that the new company proved its
// ownership with the node's AppKey (else the SuperAdmin vouched for it).
// UserID is the SuperAdmin.
type TagMoved struct {
	TagID            int64
	DevEUI, Name     string
	FromID, ToID     int64
	FromName, ToName string
	ApplicationID    int64
	Points           int64
	Proven           bool
	UserID           int64
	Time             time.Time
}

// Topic names the event.
func (TagMoved) Topic() string { return "nodes.tag_moved" }
