package ui

import (
	"bytes"
	"net/url"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/templates"
)

// Every page template renders with empty data, for nobody and for each
// role, without a template error or a panic.
func TestEveryPageRendersWithEmptyData(t *testing.T) {
	zero := map[string]any{
		"entrar": loginData{}, "processos": casesList{}, "processo_novo": fileData{}, "processo": caseData{},
		"sentenca": sentenceData{}, "distribuicao": distributionData{}, "audiencias": []hearingDay(nil), "feriados": holidaysData{}, "intimacoes": noticesData{},
		"torcida": registerData{}, "associado": memberData{}, "importar": importData{}, "clube": clubData{},
		"admin_usuarios": usersData{}, "admin_papeis": []roleRules(nil), "admin_auditoria": auditData{}, "admin_juizados": nil,
		"admin_datajud": dataJudView{}, "painel": panelData{}, "estatisticas": statsView{},
	}
	court, club, group := "26.0100", "Clube", int64(1)
	users := []*accounts.User{nil}
	for _, r := range accounts.Roles {
		users = append(users, &accounts.User{ID: 1, Name: "u", Role: r, CourtCode: &court, Club: &club, GroupID: &group})
	}
	pages, err := server.ParsePages(templates.FS, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	for _, pg := range templates.Pages {
		if !pg.Layout {
			continue
		}
		name, tpl := pg.Name, pages[pg.Name]
		for _, u := range users {
			for _, p := range []server.Page{{Data: zero[name]}, {Data: zero[name], Form: url.Values{}, Errs: map[string]string{"x": "y"}, Error: "e", Notice: "n"}} {
				p.User = u
				var buf bytes.Buffer
				if err := tpl.Execute(&buf, p); err != nil {
					t.Errorf("page %s (user %v): %v", name, u, err)
				}
			}
		}
	}
}
