package parse

import "github.com/fieldhub/fieldhub/modules/ingest"

// cut shortens a name to the longest key, for the texts of errors.
func cut(k string) string {
	if len(k) > ingest.MaxKey {
		return k[:ingest.MaxKey]
	}
	return k
}
