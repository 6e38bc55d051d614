package core

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
)

// store holds the module's queries. Each method takes the bun.IDB to run on,
// so that the caller chooses the transaction.
type store struct{}

var (
	errUserNotFound     = errs.New(errs.NotFound, errs.IDNotFound)
	errBadCompanyChoice = errs.New(errs.Invalid, errs.IDBadID)
)

func (store) userByID(ctx context.Context, idb bun.IDB, id int64) (*User, error) {
	u := new(User)
	if err := idb.NewSelect().Model(u).Where("id = ?", id).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, errUserNotFound
		}
		return nil, fmt.Errorf("load user %d: %w", id, err)
	}
	return u, nil
}

func (store) userByEmail(ctx context.Context, idb bun.IDB, email string) (*User, error) {
	u := new(User)
	if err := idb.NewSelect().Model(u).Where("email = ?", email).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, errUserNotFound
		}
		return nil, fmt.Errorf("load user by email: %w", err)
	}
	return u, nil
}

// users lists users, of one company when companyID is not 0.
func (store) users(ctx context.Context, idb bun.IDB, companyID int64) ([]User, error) {
	users := []User{}
	q := idb.NewSelect().Model(&users).Order("last_name", "first_name", "id")
	if companyID != 0 {
		q = q.Where("company_id = ?", companyID)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	return users, nil
}

func (store) insertUser(ctx context.Context, idb bun.IDB, u *User) error {
	now := time.Now().UTC()
	u.CreatedAt, u.UpdatedAt = now, now
	if _, err := idb.NewInsert().Model(u).Returning("id").Exec(ctx); err != nil {
		if db.IsUniqueViolation(err) {
			return errs.New(errs.Conflict, msgEmailTaken)
		}
		return fmt.Errorf("insert user: %w", err)
	}
	return nil
}

func (store) updateUser(ctx context.Context, idb bun.IDB, u *User, columns ...string) error {
	u.UpdatedAt = time.Now().UTC()
	columns = append(columns, "updated_at")
	if _, err := idb.NewUpdate().Model(u).Column(columns...).WherePK().Exec(ctx); err != nil {
		if db.IsUniqueViolation(err) {
			return errs.New(errs.Conflict, msgEmailTaken)
		}
		return fmt.Errorf("update user %d: %w", u.ID, err)
	}
	return nil
}

func (store) deleteUser(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewDelete().Model((*User)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete user %d: %w", id, err)
	}
	return nil
}

func companyQuery(idb bun.IDB, dst any) *bun.SelectQuery {
	return idb.NewSelect().Model(dst).
		ColumnExpr("company.*").
		ColumnExpr("ci.version AS image_version").
		Join("LEFT JOIN company_images AS ci ON ci.company_id = company.id")
}

func (store) companyByID(ctx context.Context, idb bun.IDB, id int64) (*Company, error) {
	c := new(Company)
	if err := companyQuery(idb, c).Where("company.id = ?", id).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, errs.New(errs.NotFound, errs.IDNotFound)
		}
		return nil, fmt.Errorf("load company %d: %w", id, err)
	}
	c.fillImage()
	return c, nil
}

// companies lists every company, or just one when only is not 0.
func (store) companies(ctx context.Context, idb bun.IDB, only int64) ([]Company, error) {
	list := []Company{}
	q := companyQuery(idb, &list).Order("company.name", "company.id")
	if only != 0 {
		q = q.Where("company.id = ?", only)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("list companies: %w", err)
	}
	for i := range list {
		list[i].fillImage()
	}
	return list, nil
}

func (c *Company) fillImage() {
	if c.ImageVersion != nil {
		url := fmt.Sprintf("/api/companies/%d/image?v=%s", c.ID, *c.ImageVersion)
		c.Image = &url
	}
}

func (store) insertCompany(ctx context.Context, idb bun.IDB, c *Company) error {
	now := time.Now().UTC()
	c.CreatedAt, c.UpdatedAt = now, now
	if _, err := idb.NewInsert().Model(c).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert company: %w", err)
	}
	return nil
}

func (store) updateCompany(ctx context.Context, idb bun.IDB, c *Company) error {
	c.UpdatedAt = time.Now().UTC()
	if _, err := idb.NewUpdate().Model(c).ExcludeColumn("id", "created_at").WherePK().Exec(ctx); err != nil {
		return fmt.Errorf("update company %d: %w", c.ID, err)
	}
	return nil
}

// deleteCompany removes a company. Its members stay as users without a
// company; their company role falls back to User and their sessions end.
func (s store) deleteCompany(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewUpdate().Model((*User)(nil)).Set("role = ?", "User").
		Where("company_id = ? AND role = ?", id, "CompanyAdmin").Exec(ctx); err != nil {
		return fmt.Errorf("demote members of company %d: %w", id, err)
	}
	if err := s.deleteSessionsOfCompany(ctx, idb, id); err != nil {
		return err
	}
	if _, err := idb.NewUpdate().Model((*User)(nil)).Set("company_id = NULL").Where("company_id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("detach members of company %d: %w", id, err)
	}
	if _, err := idb.NewDelete().Model((*Company)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete company %d: %w", id, err)
	}
	return nil
}

// session is a refresh token's record; the token itself is stored hashed.
type session struct {
	bun.BaseModel `bun:"table:sessions"`
	ID            string       `bun:"id,pk"`
	UserID        int64        `bun:"user_id"`
	RefreshHash   string       `bun:"refresh_hash"`
	PreviousHash  string       `bun:"previous_hash"`
	RotatedAt     bun.NullTime `bun:"rotated_at"`
	ExpiresAt     time.Time    `bun:"expires_at"`
	CreatedAt     time.Time    `bun:"created_at"`
	UserAgent     string       `bun:"user_agent"`
}

// rotationGrace is how long a replaced refresh token still buys an access token.
const rotationGrace = 30 * time.Second

func hashToken(t string) string {
	sum := sha256.Sum256([]byte(t))
	return hex.EncodeToString(sum[:])
}

func (store) insertSession(ctx context.Context, idb bun.IDB, s *session) error {
	if _, err := idb.NewInsert().Model(s).Exec(ctx); err != nil {
		return fmt.Errorf("insert session: %w", err)
	}
	return nil
}

// sessionByRefresh finds the session of a refresh token; current is false
// when the token was replaced within the grace period.
func (store) sessionByRefresh(ctx context.Context, idb bun.IDB, refresh string) (s *session, current bool, err error) {
	h := hashToken(refresh)
	s = new(session)
	err = idb.NewSelect().Model(s).
		Where("refresh_hash = ? OR (previous_hash = ? AND rotated_at > ?)", h, h, time.Now().UTC().Add(-rotationGrace)).
		Limit(1).Scan(ctx)
	if err != nil {
		if db.IsNoRows(err) {
			return nil, false, errs.New(errs.Unauthorized, msgRefreshInvalid)
		}
		return nil, false, fmt.Errorf("load session: %w", err)
	}
	return s, s.RefreshHash == h, nil
}

// rotateSession replaces a session's refresh token, only if it is still the
// one the caller read, so that a token is good for one rotation.
func (store) rotateSession(ctx context.Context, idb bun.IDB, s *session, nextHash string, ttl time.Duration) (bool, error) {
	now := time.Now().UTC()
	q := idb.NewUpdate().Model((*session)(nil)).
		Set("previous_hash = refresh_hash").Set("refresh_hash = ?", nextHash).
		Set("rotated_at = ?", now).Set("expires_at = ?", now.Add(ttl)).
		Where("id = ?", s.ID)
	if s.RefreshHash != "" {
		q = q.Where("refresh_hash = ?", s.RefreshHash)
	}
	res, err := q.Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("rotate session: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

func (store) deleteSession(ctx context.Context, idb bun.IDB, id string) error {
	if _, err := idb.NewDelete().Model((*session)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	return nil
}

// deleteSessionsOf ends every session of a user, so that a changed role or
// membership takes effect at the next token refresh.
func (store) deleteSessionsOf(ctx context.Context, idb bun.IDB, userID int64) error {
	if _, err := idb.NewDelete().Model((*session)(nil)).Where("user_id = ?", userID).Exec(ctx); err != nil {
		return fmt.Errorf("delete sessions of user %d: %w", userID, err)
	}
	return nil
}

func (store) deleteSessionsOfCompany(ctx context.Context, idb bun.IDB, companyID int64) error {
	_, err := idb.NewDelete().Model((*session)(nil)).
		Where("user_id IN (?)", idb.NewSelect().Model((*User)(nil)).Column("id").Where("company_id = ?", companyID)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("delete sessions of company %d: %w", companyID, err)
	}
	return nil
}

// userCounts returns how many users each company has.
func (store) userCounts(ctx context.Context, idb bun.IDB) (map[int64]int, error) {
	var rows []struct {
		CompanyID int64 `bun:"company_id"`
		N         int   `bun:"n"`
	}
	err := idb.NewSelect().Model((*User)(nil)).ColumnExpr("company_id").ColumnExpr("count(*) AS n").
		Where("company_id IS NOT NULL").Group("company_id").Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("count users per company: %w", err)
	}
	counts := make(map[int64]int, len(rows))
	for _, r := range rows {
		counts[r.CompanyID] = r.N
	}
	return counts, nil
}
