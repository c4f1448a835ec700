package cases

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/textcheck"
	"gorm.io/gorm"
)

// StateCourts is the highest TR of a state court under segment J = 8 (the
// 26 states and the Federal District: 01 AC … 26 SP, 27 TO; Res. CNJ
// 65/2008), the only segment the juizado serves (DOMAIN.md §4).
const StateCourts = 27

// CourtCodePattern matches a court code "TR.OOOO": the state court TR and the
// unit OOOO (Res. CNJ 65/2008).
var CourtCodePattern = regexp.MustCompile(`^([0-9]{2})\.[0-9]{4}$`)

// CheckCourtCode returns an error unless code is a court unit TR.OOOO of a
// state court: two digits TR from 01 to StateCourts, a dot, four digits
// OOOO (e.g. 26.0100).
func CheckCourtCode(code string) error {
	m := CourtCodePattern.FindStringSubmatch(code)
	if m == nil {
		return fmt.Errorf("court code %q is not TR.OOOO (e.g. 26.0100)", code)
	}
	if tr, _ := strconv.Atoi(m[1]); tr < 1 || tr > StateCourts {
		return fmt.Errorf("court code %q: TR %s is not a state court (J = 8: TR 01 to %d)", code, m[1], StateCourts)
	}
	return nil
}

// EnsureCourt creates the court unit code (TR.OOOO) when it is missing.
func EnsureCourt(ctx context.Context, g *gorm.DB, code, name string) error {
	if err := CheckCourtCode(code); err != nil {
		return err
	}
	if name == "" {
		name = DefaultCourtName(code)
	}
	return db.Conn(ctx, g).Exec("INSERT INTO courts (code, name) VALUES (?, ?) ON CONFLICT (code) DO NOTHING", code, name).Error
}

// CountCases returns how many cases there are, in every court.
func CountCases(ctx context.Context, g *gorm.DB) (int64, error) {
	var n int64
	err := db.Conn(ctx, g).Raw("SELECT count(*) FROM cases").Scan(&n).Error
	return n, err
}

// CourtExists reports whether court code (TR.OOOO) exists.
func CourtExists(ctx context.Context, g *gorm.DB, code string) (bool, error) {
	var n int64
	err := db.Conn(ctx, g).Raw("SELECT count(*) FROM courts WHERE code = ?", code).Scan(&n).Error
	return n > 0, err
}

// CourtName returns the name of court code (TR.OOOO); errs.NotFound
// ("Juizado CODE não encontrado.") when there is no such court.
func (s *Service) CourtName(ctx context.Context, code string) (string, error) {
	var names []string
	if err := db.Conn(ctx, s.DB).Raw("SELECT name FROM courts WHERE code = ?", code).Scan(&names).Error; err != nil {
		return "", err
	}
	if len(names) == 0 {
		return "", errs.New(errs.NotFound, "Juizado "+code+" não encontrado.")
	}
	return names[0], nil
}

// FirstCourt returns the code of the first court in code order, "" when
// there is none: the court of a document when none is configured.
func (s *Service) FirstCourt(ctx context.Context) (string, error) {
	var code string
	err := db.Conn(ctx, s.DB).Raw("SELECT code FROM courts ORDER BY code LIMIT 1").Scan(&code).Error
	return code, err
}

// GetCourt returns court code (TR.OOOO) with its defaults; errs.NotFound
// ("Juizado CODE não encontrado.") when there is none.
func GetCourt(ctx context.Context, g *gorm.DB, code string) (*Court, error) {
	var cs []Court
	if err := db.Conn(ctx, g).Where("code = ?", code).Limit(1).Find(&cs).Error; err != nil {
		return nil, err
	}
	if len(cs) == 0 {
		return nil, errs.New(errs.NotFound, "Juizado "+code+" não encontrado.")
	}
	return &cs[0], nil
}

// DemoCourtName is the name the demo seed gives a court of São Paulo
// (TR 26) that still has the default name.
const DemoCourtName = "Juizado Especial do Torcedor da Comarca de São Paulo"

// DefaultCourtName is the name EnsureCourt gives a court created without
// one ("Juizado do Torcedor TR.OOOO").
func DefaultCourtName(code string) string { return "Juizado do Torcedor " + code }

// SetCourtName sets the name of court code that pages and documents show
// ("Juizado Especial do Torcedor da Comarca de São Paulo"): errs.Invalid on
// "name" when it is empty, longer than 200 characters or carries a
// control or invisible character (textcheck); found is false when there
// is no such court. Issue 30, item 4.
func SetCourtName(ctx context.Context, g *gorm.DB, code, name string) (found bool, err error) {
	name = textcheck.Line(name)
	if name == "" {
		return false, errs.InvalidField("name", "required", "Informe o nome do juizado.")
	}
	if rule, msg := textcheck.Problem(name, 200, false); rule != "" {
		return false, errs.InvalidField("name", rule, "Nome do juizado: "+msg)
	}
	res := db.Conn(ctx, g).Model(&Court{}).Where("code = ?", code).Update("name", name)
	return res.RowsAffected > 0, res.Error
}

// SetCourtDefaults sets court code's defaults for new sentences: the
// reading of Lei 14.597/2023, art. 201, § 7º (sec7DoublesBan) and whether
// individual bans are published (publish, DOMAIN.md §6). found is false
// when there is no such court.
func SetCourtDefaults(ctx context.Context, g *gorm.DB, code string, sec7DoublesBan, publish bool) (found bool, err error) {
	res := db.Conn(ctx, g).Model(&Court{}).Where("code = ?", code).
		Updates(map[string]any{"sec7_doubles_ban": sec7DoublesBan, "publish_default": publish})
	return res.RowsAffected > 0, res.Error
}

// SetDefensoriaDoubling sets court code's reading of the Defensoria
// Pública's doubled windows in the JECRIM (LC 80/1994, arts. 44, I, 89, I,
// and 128, I; DOMAIN.md §4): doubles true (the default) or false (the
// Turmas Recursais that deny it). found is false when there is no such
// court.
func SetDefensoriaDoubling(ctx context.Context, g *gorm.DB, code string, doubles bool) (found bool, err error) {
	res := db.Conn(ctx, g).Model(&Court{}).Where("code = ?", code).Update("defensoria_doubles_jecrim", doubles)
	return res.RowsAffected > 0, res.Error
}

// ListVenues returns every venue by name.
func ListVenues(ctx context.Context, g *gorm.DB) ([]Venue, error) {
	var vs []Venue
	err := db.Conn(ctx, g).Order("name").Find(&vs).Error
	return vs, err
}

// ListedVenue is one venue of the table with the other name FindVenue
// matches it by: Alias, its popular name (popularNameSQL: the part in
// parentheses at the end of Name; "" when Name has none).
type ListedVenue struct {
	Venue
	Alias string
}

// ListVenueAliases returns every venue by name (as ListVenues) with its
// alias: the venue table as GET /api/v1/venues publishes it.
func ListVenueAliases(ctx context.Context, g *gorm.DB) ([]ListedVenue, error) {
	var vs []ListedVenue
	err := db.Conn(ctx, g).Raw(`SELECT *, coalesce(` + popularNameSQL + `, '') AS alias FROM venues ORDER BY name, id`).Scan(&vs).Error
	return vs, err
}

// JudgeLoad is how many cases a judge has been distributed: in all, and
// open (neither final nor archived).
type JudgeLoad struct {
	Total, Open int64
}

// JudgeLoads returns the load of each judge of judgeIDs that has cases
// (a judge with none is absent): what equitable distribution weighs.
func JudgeLoads(ctx context.Context, g *gorm.DB, judgeIDs []int64) (map[int64]JudgeLoad, error) {
	out := map[int64]JudgeLoad{}
	if len(judgeIDs) == 0 {
		return out, nil
	}
	var rows []struct {
		JudgeID     int64
		Total, Open int64
	}
	if err := db.Conn(ctx, g).Raw(`SELECT judge_id, count(*) AS total, count(*) FILTER (WHERE status NOT IN (?, ?)) AS open
		FROM cases WHERE judge_id IN ? GROUP BY judge_id`, StatusFinal, StatusArchived, judgeIDs).Scan(&rows).Error; err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.JudgeID] = JudgeLoad{Total: r.Total, Open: r.Open}
	}
	return out, nil
}

// DataJudUnit is a court's judging unit as the CNJ's DataJud knows it
// (Res. CNJ 331/2020, orgaoJulgador): UnitCode, the código do órgão
// julgador (1 to 999999999); UnitName, its name; IBGEMunicipality, the
// IBGE code of its municipality (7 digits, 1100000 to 5399999).
type DataJudUnit struct {
	UnitCode         int    `json:"unit_code"`
	UnitName         string `json:"unit_name"`
	IBGEMunicipality int    `json:"ibge_municipality"`
}

// Check returns errs.Invalid naming each field out of its rule (unit_code
// 1 to 999999999; unit_name 1 to 200 characters; ibge_municipality the 7
// digits of an IBGE municipality, 1100000 to 5399999).
func (u DataJudUnit) Check() error {
	var f errs.Fields
	if u.UnitCode < 1 || u.UnitCode > 999999999 {
		f.Add("unit_code", "range", "informe o código do órgão julgador no CNJ (número de 1 a 999999999).")
	}
	if n := len([]rune(strings.TrimSpace(u.UnitName))); n == 0 || n > 200 {
		f.Add("unit_name", "required", "informe o nome do órgão julgador (até 200 caracteres).")
	}
	if u.IBGEMunicipality < 1100000 || u.IBGEMunicipality > 5399999 {
		f.Add("ibge_municipality", "ibge", "informe o código IBGE do município, com 7 dígitos (ex.: 3550308, São Paulo).")
	}
	return f.Err()
}

// SetCourtDataJud sets court code's judging unit for the DataJud export
// (Res. CNJ 331/2020): errs.Invalid when u fails Check; found is false
// when there is no such court.
func SetCourtDataJud(ctx context.Context, g *gorm.DB, code string, u DataJudUnit) (found bool, err error) {
	if err := u.Check(); err != nil {
		return false, err
	}
	res := db.Conn(ctx, g).Model(&Court{}).Where("code = ?", code).Updates(map[string]any{
		"unit_code": u.UnitCode, "unit_name": strings.TrimSpace(u.UnitName), "ibge_municipality": u.IBGEMunicipality})
	return res.RowsAffected > 0, res.Error
}

// Unit returns the court's DataJud unit; ok is false while any part of it
// is unset.
func (c Court) Unit() (u DataJudUnit, ok bool) {
	if c.UnitCode == nil || c.IBGEMunicipality == nil || c.UnitName == "" {
		return u, false
	}
	return DataJudUnit{UnitCode: *c.UnitCode, UnitName: c.UnitName, IBGEMunicipality: *c.IBGEMunicipality}, true
}
