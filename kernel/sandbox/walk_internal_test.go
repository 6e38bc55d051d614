package sandbox

import "testing"

// TestQuickJSStringsAsJSON reads strings as QuickJS writes them in UTF-8,
// where a surrogate code unit may come as three bytes of its own.
func TestQuickJSStringsAsJSON(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		json   string
		goText string
	}{
		{"ascii with escapes", "a\"b\\c\n\x01", `"a\"b\\c\n\u0001"`, "a\"b\\c\n\x01"},
		{"multi-byte", "é€😀", `"é€😀"`, "é€😀"},
		{"lone high surrogate", "x\xed\xa0\x80y", `"x\ud800y"`, "x\uFFFDy"},
		{"lone low surrogate", "\xed\xbf\xbf", `"\udfff"`, "\uFFFD"},
		{"pair as two three-byte units", "\xed\xa0\xbd\xed\xb8\x80", `"😀"`, "😀"},
		{"low before high", "\xed\xb8\x80\xed\xa0\xbd", `"\ude00\ud83d"`, "\uFFFD\uFFFD"},
		{"a byte that is no UTF-8", "a\xffb", "\"a\uFFFDb\"", "a\uFFFDb"},
		{"DEL and U+2028 pass", "\x7f\u2028", "\"\x7f\u2028\"", "\x7f\u2028"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(appendJSONUTF8(nil, []byte(tt.in))); got != tt.json {
				t.Errorf("JSON %q, want %q", got, tt.json)
			}
			if got := goString([]byte(tt.in)); got != tt.goText {
				t.Errorf("Go %q, want %q", got, tt.goText)
			}
		})
	}
}
