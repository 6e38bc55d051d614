package pages

import (
	"errors"

	"github.com/fieldhub/fieldhub/kernel/errs"
)

// asError finds the domain error in err's chain.
func asError(err error, target **errs.Error) bool { return errors.As(err, target) }
