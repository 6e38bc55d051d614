// Package locales embeds the message catalogs shared by the server pages, the
// API's error texts and the React islands: one flat JSON object per locale,
// keyed by message ID, with ICU placeholders such as {link}.
package locales

import "embed"

// FS holds en.json and sv.json.
//
//go:embed *.json
var FS embed.FS
