package events

import "encoding/json"

// ToUsers asks the live feed (the events module's GET /api/events) to send
// Message to every open connection of each of UserIDs, on every instance.
// A module announces through it what a user's open pages should learn at
// once (their notifications changed), without the feed knowing the module.
// Publish it only once the fact is durable, after its transaction has
// committed: the feed sends at once. Message is a small JSON object (at most
// MaxUserMessage bytes) with a "type", such as {"type":"Notification"}.
type ToUsers struct {
	UserIDs []int64
	Message json.RawMessage
}

// MaxUserMessage is the largest Message of ToUsers the feed sends.
const MaxUserMessage = 1024

// Topic names the event.
func (ToUsers) Topic() string { return "kernel.to_users" }
