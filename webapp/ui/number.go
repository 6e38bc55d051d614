package ui

import (
	"context"
	"math"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// Number writes v in the page's language with at most maxDecimals
// decimals, as the islands' Intl.NumberFormat does: "3,6" and "3 600" in
// Swedish, "3.6" and "3,600" in English.
func Number(ctx context.Context, v float64, maxDecimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	p := message.NewPrinter(language.Make(ViewerOf(ctx).Lang))
	return p.Sprint(number.Decimal(v, number.MaxFractionDigits(maxDecimals)))
}

// Quantity is Number followed by its unit ("3,6 V", "87 %"), joined by a
// no-break space so that a narrow column does not part them.
func Quantity(ctx context.Context, v float64, maxDecimals int, unit string) string {
	n := Number(ctx, v, maxDecimals)
	if n == "" {
		return ""
	}
	return n + "\u00a0" + unit
}
