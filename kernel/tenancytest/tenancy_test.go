package tenancytest

import "testing"

func TestChangedLinesNamesOnlyTheLinesThatDiffer(t *testing.T) {
	for _, tc := range []struct {
		name, before, after, want string
	}{
		{"same", "a\nb\n", "a\nb\n", ""},
		{"changed row", "a\nb\nc\n", "a\nB\nc\n", "- b\n+ B\n"},
		{"added row", "a\n", "a\nb\n", "+ b\n"},
		{"removed duplicate", "a\na\nb\n", "a\nb\n", "- a\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := changedLines(tc.before, tc.after); got != tc.want {
				t.Errorf("changedLines = %q, want %q", got, tc.want)
			}
		})
	}
}
