package nodes

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
