package httpapi

import (
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/notifications"
)

// docs describes this package's /api routes for the OpenAPI document.
var docs = web.Docs{
	"GET /notification/{userId}":                    {Summary: "A user's notifications.", Response: ([]notifications.Notification)(nil), Query: []string{"all"}},
	"PUT /notification/deactivate/{notificationId}": {Summary: "Mark a notification as read.", Response: notifications.Unread{}},
	"PUT /notification/deactivate/all/{userId}":     {Summary: "Mark all of a user's notifications as read.", Response: notifications.Unread{}},
}
