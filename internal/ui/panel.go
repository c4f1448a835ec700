package ui

import (
	"fmt"
	"net/http"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/desk"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/app"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// queuePT is how /painel names each work queue (its title, what an empty
// queue says, what its items' day is) and where on the case page its act is done (anchor; a
// "%d" in it is the item's ban).
var queuePT = map[string]struct{ Title, Empty, Anchor, Due string }{
	desk.KindWindows:         {"Prazos de recurso que terminam hoje e nos próximos 5 dias úteis", "Nenhum prazo terminando.", "intimacao", "último dia"},
	desk.KindHearingsToday:   {"Audiências de hoje", "Nenhuma audiência hoje.", "audiencias", ""},
	desk.KindReviews:         {"Medidas cautelares a revisar (vencidas e nos próximos 10 dias)", "Nenhuma revisão pendente.", "impedimento-%d", "revisão em"},
	desk.KindConcluded:       {"Processos conclusos", "Nenhum processo concluso.", "autos", "concluso em"},
	desk.KindReadyFinal:      {"Trânsito em julgado a certificar", "Nenhuma sentença pronta para certificar.", "andamento", "transitou em"},
	desk.KindToNotify:        {"Sentenças com intimação pendente", "Nenhuma intimação pendente.", "intimacao", "sentença de"},
	desk.KindHearingsWeek:    {"Audiências dos próximos 6 dias", "Nenhuma audiência na semana.", "audiencias", ""},
	desk.KindBansEnding:      {"Impedimentos que terminam nos próximos 10 dias", "Nenhum impedimento terminando.", "documentos", "último dia"},
	desk.KindAwaitingID:      {"Impedimentos aguardando identificação (sem CPF)", "Nenhum impedimento sem CPF.", "identificacao", ""},
	desk.KindCounselRequests: {"Pedidos de habilitação de defensor(a)", "Nenhum pedido aguardando.", "partes", "pedido em"},
	desk.KindPetitions:       {"Petições da defesa aguardando resposta", "Nenhuma petição aguardando.", "", "protocolada em"},
}

// panelItem is one line of a queue on /painel: the link to the case page
// section where it is done and the item.
type panelItem struct {
	Href string
	desk.Item
}

// panelQueue is one queue on /painel, with its Portuguese title.
type panelQueue struct {
	Kind, Title, Empty, Due string
	Count                   int
	More                    int // items counted but not listed
	Items                   []panelItem
}

// panel: GET /painel, the first page after signing in: the links of the
// user's role and, for the clerk, the judge and the prosecutor, their
// work queues (app.Cases.Desk) most urgent first, each item linking to
// the section of the case page where it is done.
func (s *UI) panel(c echo.Context) error {
	p := server.Page{Title: "Painel"}
	who := server.Actor(c)
	data := panelData{}
	if who.Role == accounts.RoleDefence {
		d, err := s.defencePanel(c)
		if err != nil {
			return err
		}
		data.Defence = d
	}
	if _, ok := app.DeskQueues[who.Role]; ok {
		v, err := s.Cases.Desk(c.Request().Context(), who)
		if err != nil {
			return err
		}
		qs := make([]panelQueue, 0, len(v.Queues))
		for _, q := range v.Queues {
			t := queuePT[q.Kind]
			pq := panelQueue{Kind: q.Kind, Title: t.Title, Empty: t.Empty, Due: t.Due, Count: q.Count, More: q.Count - len(q.Items)}
			for _, it := range q.Items {
				anchor := t.Anchor
				if it.BanID != nil && who.Role == "judge" && q.Kind != desk.KindAwaitingID {
					anchor = fmt.Sprintf("impedimento-%d", *it.BanID)
				} else if anchor == "impedimento-%d" {
					anchor = "documentos"
				}
				href := fmt.Sprintf("/processos/%d#%s", it.CaseID, anchor)
				if q.Kind == desk.KindPetitions {
					href = "/peticoes" // answered on the petitions' page
				}
				pq.Items = append(pq.Items, panelItem{Href: href, Item: it})
			}
			qs = append(qs, pq)
		}
		data.Queues = qs
	}
	p.Data = data
	return s.Page(c, http.StatusOK, "painel", p)
}

// panelData is what /painel shows: the staff's work queues, or the
// defence's panel.
type panelData struct {
	Queues  []panelQueue
	Defence *defencePanel
}

// defencePanel is the defence's /painel (issue 29, item 6): its clients
// and their cases, its electronic notices still pending or with their
// window open (days left; Lei 11.419/2006, art. 5º), and its latest
// petitions with their answers.
type defencePanel struct {
	Clients   []cases.CounselView
	Notices   []calendar.NoticeView
	Petitions []cases.PetitionView
	// MorePetitions counts the petitions not listed (see /peticoes).
	MorePetitions int
}

// defencePanelPetitions is how many petitions the panel lists.
const defencePanelPetitions = 10

// defencePanel reads the signed-in defence user's panel.
func (s *UI) defencePanel(c echo.Context) (*defencePanel, error) {
	ctx := c.Request().Context()
	who := server.Actor(c)
	d := &defencePanel{}
	var err error
	if d.Clients, err = s.Cases.Case.Clients(ctx, who.UserID); err != nil {
		return nil, err
	}
	ns, err := s.Cases.Calendar.DefenceNotices(ctx, who)
	if err != nil {
		return nil, err
	}
	for _, n := range ns {
		if n.Pending || n.Open {
			d.Notices = append(d.Notices, n)
		}
	}
	ps, err := s.Cases.Case.Petitions(ctx, who, "")
	if err != nil {
		return nil, err
	}
	if len(ps) > defencePanelPetitions {
		d.MorePetitions = len(ps) - defencePanelPetitions
		ps = ps[:defencePanelPetitions]
	}
	d.Petitions = ps
	return d, nil
}
