package registry

import (
	"cmp"
	"context"
	"crypto/subtle"
	"fmt"
	"slices"
	"strings"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/store"
)

// A SuperAdmin moves a node to the company that proves it owns it: the
// node keeps its id, name, keys and picture and takes its stored data
// along; its downlinks, the old company's, are removed.

// MoveInput is the body of POST /api/tag/{tagId}/move and of the node
// details page's move form: the application of the other company that the
// node goes to, and the proof that that company owns the device: its
// AppKey, which must match the node's, or the SuperAdmin's word that they
// checked the ownership otherwise.
type MoveInput struct {
	ApplicationID     *int64  `json:"applicationId"`
	AppKey            *string `json:"appKey"`
	OwnershipVerified bool    `json:"ownershipVerified"`
}

// Move is a move that CheckMove found valid.
type Move struct {
	Tag *nodes.Tag
	// To is the application the node goes to; AppKey the node's AppKey
	// there.
	To     *nodes.Application
	AppKey string
	// Proven tells that the AppKey matched the node's.
	Proven bool
}

// MoveResult is the answer of a move: the node as it now is, the company
// it came from and how many stored points went with it.
type MoveResult struct {
	Tag           *nodes.Tag `json:"tag"`
	FromCompanyID int64      `json:"fromCompanyId"`
	Points        int64      `json:"points"`
}

// CheckMove validates a move of t, for the form's confirmation and for
// MoveTag. The node gets the AppKey given, or none: an AppKey that the old
// company entered and the new one did not prove is not handed over.
func (g *Registry) CheckMove(ctx context.Context, t *nodes.Tag, in MoveInput) (*Move, error) {
	if auth.CallerFrom(ctx).Role != auth.SuperAdmin {
		return nil, errs.New(errs.Forbidden, errs.IDForbidden)
	}
	v := &errs.Validation{}
	m := &Move{Tag: t}
	if in.ApplicationID == nil {
		v.Add("applicationId", nodes.IDMoveApplication)
	} else {
		app, err := store.ApplicationByID(ctx, g.db, *in.ApplicationID)
		switch {
		case errs.Is(err, errs.NotFound):
			v.Add("applicationId", nodes.IDMoveApplication)
		case err != nil:
			return nil, err
		case app.CompanyID == t.CompanyID:
			v.Add("applicationId", nodes.IDMoveSameCompany)
		default:
			m.To = app
		}
	}
	if in.AppKey != nil {
		m.AppKey = nodes.NormaliseEUI(*in.AppKey)
		checkHexField(v, "appKey", m.AppKey, hex32, nodes.IDAppKeyFormat)
	}
	if !v.Has("appKey") {
		m.Proven = t.AppKey != "" && subtle.ConstantTimeCompare([]byte(m.AppKey), []byte(t.AppKey)) == 1
		switch {
		case m.Proven || in.OwnershipVerified:
		case m.AppKey != "":
			v.Add("appKey", nodes.IDMoveAppKeyMismatch)
		case t.AppKey != "":
			v.Add("appKey", nodes.IDMoveProof)
		default:
			v.Add("ownershipVerified", nodes.IDMoveProofNoAppKey)
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return m, nil
}

// MoveTag moves t, as CheckMove allows, to another company's application
// with its keys, picture and stored data, and announces it (TagMoved).
//
// The data is copied to the new company's series before the node changes
// hands, copied again after (a copy replaces what it copied before, and
// takes what the old company stored meanwhile), and only then deleted at
// the old company: a move that fails before the node changes hands
// changes nothing the node's companies see and may be repeated; one whose
// last copy or delete fails has moved the node with the data of the first
// copy, and is logged.
func (g *Registry) MoveTag(ctx context.Context, t *nodes.Tag, in MoveInput) (*MoveResult, error) {
	m, err := g.CheckMove(ctx, t, in)
	if err != nil {
		return nil, err
	}
	from, to := t.CompanyID, m.To.CompanyID
	eui := strings.ToLower(t.DevEUI)
	var points int64
	if g.series != nil {
		if points, err = g.series.CopyNode(ctx, from, to, eui); err != nil {
			return nil, fmt.Errorf("move node %s: copy its data: %w", t.DevEUI, err)
		}
	}
	t.CompanyID, t.ApplicationID, t.AppKey = to, m.To.ID, m.AppKey
	// A company's own decoder does not go with the node: it keeps its
	// payloads as they come until the new company chooses one.
	if ok, err := g.decoders.Has(ctx, to, t.Decoder); err != nil {
		return nil, fmt.Errorf("move node %s: check decoder %q: %w", t.DevEUI, t.Decoder, err)
	} else if !ok {
		t.Decoder = nodes.DefaultDecoder
	}
	t.SealedAppKey = g.seal(t.AppKey)
	err = g.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := store.UpdateTag(ctx, tx, t); err != nil {
			return err
		}
		return store.DeleteDownlinksOf(ctx, tx, t.ID)
	})
	if err != nil {
		return nil, err
	}
	if g.series != nil {
		n, err := g.series.CopyNode(ctx, from, to, eui)
		if err == nil {
			points = n
			err = g.series.DeleteNode(ctx, from, eui)
		}
		if err != nil {
			g.log.Error("node moved, but its data was not all moved; the old company keeps a copy", "err", err,
				"deveui", t.DevEUI, "from", from, "to", to)
		}
	}
	caller := auth.CallerFrom(ctx)
	g.host.Bus.Publish(ctx, nodes.TagMoved{TagID: t.ID, DevEUI: t.DevEUI, Name: t.Name, FromID: from, ToID: to,
		FromName: g.companyName(ctx, from), ToName: g.companyName(ctx, to), ApplicationID: t.ApplicationID,
		Points: points, Proven: m.Proven, UserID: caller.UserID, Time: g.now()})
	moved, err := g.ScopedTag(ctx, t.ID, true)
	if err != nil {
		return nil, err
	}
	return &MoveResult{Tag: moved, FromCompanyID: from, Points: points}, nil
}

// MoveTarget is an application a node may move to, with its company's
// name.
type MoveTarget struct {
	Application nodes.Application
	CompanyName string
}

// MoveTargets lists the applications of the companies other than t's, by
// company name and application name, for the move form.
func (g *Registry) MoveTargets(ctx context.Context, t *nodes.Tag) ([]MoveTarget, error) {
	apps, err := store.OtherApplications(ctx, g.db, t.CompanyID)
	if err != nil {
		return nil, err
	}
	names := map[int64]string{}
	out := make([]MoveTarget, 0, len(apps))
	for _, a := range apps {
		name, ok := names[a.CompanyID]
		if !ok {
			name = g.companyName(ctx, a.CompanyID)
			names[a.CompanyID] = name
		}
		out = append(out, MoveTarget{Application: a, CompanyName: name})
	}
	slices.SortStableFunc(out, func(a, b MoveTarget) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a.CompanyName), strings.ToLower(b.CompanyName)),
			cmp.Compare(a.Application.CompanyID, b.Application.CompanyID))
	})
	return out, nil
}

// CompanyName is the name of a company, "" when it cannot be read.
func (g *Registry) CompanyName(ctx context.Context, id int64) string { return g.companyName(ctx, id) }
