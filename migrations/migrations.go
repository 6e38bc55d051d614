// Package migrations embeds every module's SQL migrations. Order lists the
// module folders in the order they are applied: a module's tables may refer to
// those of modules before it.
package migrations

import "embed"

// FS holds <module>/<timestamp>_<name>.sql files.
//
//go:embed */*.sql
var FS embed.FS

// Order is the order in which module folders are applied.
var Order = []string{"kernel", "tsdb", "accounts", "settings", "nodes", "dashboards", "events", "logs", "decoders", "signaltests", "notifications", "gateways", "news", "alarms", "reports", "scripts", "forwarding", "profiles"}
