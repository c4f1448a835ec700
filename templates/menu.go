package templates

// MenuItem is a page people open from the menu of every page and from the
// panel's cards. Who sees it is not written here: a signed-in person sees
// the item when the access policy lets them GET Path (server.Server.Menu
// asks the same decision the route makes), so the menu never shows a link
// that answers 403 nor hides one the policy grants.
type MenuItem struct {
	// Path is the page's route (a GET route without parameters).
	Path string
	// Text is the item's wording.
	Text MenuText
	// For holds a role's own wording where it differs (the judge's list is
	// "Meus processos"); its empty fields take Text's.
	For map[string]MenuText
}

// MenuText is the wording of a menu item.
type MenuText struct {
	// Label is the menu's link.
	Label string
	// Card is the title of the panel's card; Label when empty.
	Card string
	// Hint is the line under the card's title; an item without one has no
	// card on the panel (the panel itself).
	Hint string
}

// TextFor returns the item's wording for role: For[role] over Text, with
// Card defaulting to Label.
func (m MenuItem) TextFor(role string) MenuText {
	t := m.Text
	if o, ok := m.For[role]; ok {
		if o.Label != "" {
			t.Label = o.Label
		}
		if o.Card != "" {
			t.Card = o.Card
		}
		if o.Hint != "" {
			t.Hint = o.Hint
		}
	}
	if t.Card == "" {
		t.Card = t.Label
	}
	return t
}

// Menu is every menu item, in the order people see them.
var Menu = []MenuItem{
	{Path: "/painel", Text: MenuText{Label: "Painel"}},
	{Path: "/processos", Text: MenuText{Label: "Processos", Card: "Processos do juizado",
		Hint: "Veja os processos e a situação de cada um; proponha transação penal; registre descumprimento."},
		For: map[string]MenuText{
			"judge": {Label: "Meus processos", Card: "Meus processos",
				Hint: "Processos distribuídos a você: autos, partes, fatos, documentos, sentença, transação penal, suspensão, revogação e prorrogação de impedimentos."},
			"clerk": {Card: "Processos", Hint: "Movimentações, audiências, andamento e ciência da sentença."},
		}},
	{Path: "/processos/novo", Text: MenuText{Label: "Nova representação",
		Hint: "Autue uma representação com representados, evento, condutas, boletins e anexos."}},
	{Path: "/audiencias", Text: MenuText{Label: "Audiências", Hint: "A pauta de audiências por data."},
		For: map[string]MenuText{
			"judge": {Hint: "A pauta por data."},
			"clerk": {Hint: "A pauta por data; marque audiências na página do processo."},
		}},
	{Path: "/peticoes", Text: MenuText{Label: "Petições", Hint: "Petições da defesa que aguardam a sua resposta."},
		For: map[string]MenuText{"defence": {Hint: "Protocole recurso, embargos, justificativa, pedido de revogação, impugnação; veja as respostas."},
			"clerk": {Hint: "Petições da defesa na fila do cartório."}}},
	{Path: "/distribuicao", Text: MenuText{Label: "Distribuição", Hint: "Processos por juiz(a)."},
		For: map[string]MenuText{"clerk": {Hint: "Processos por juiz(a) e os que aguardam distribuição."}}},
	{Path: "/mandados", Text: MenuText{Label: "Mandados BNMP", Card: "Mandados do BNMP",
		Hint: "Mandados dos impedimentos a registrar no BNMP, seus números e os alertas de revisão."}},
	{Path: "/intimacoes", Text: MenuText{Label: "Intimações", Hint: "Intimações eletrônicas dos seus clientes, com os dias que restam do prazo."}},
	{Path: "/feriados", Text: MenuText{Label: "Feriados", Card: "Feriados do juizado", Hint: "O calendário que move os prazos de recurso."},
		For: map[string]MenuText{"clerk": {Hint: "Inclua os feriados: os prazos de recurso passam ao dia útil seguinte."}}},
	{Path: "/torcida", Text: MenuText{Label: "Cadastro de associados", Hint: "Pesquise, inclua, altere e registre saídas; envie fotos."}},
	{Path: "/torcida/importar", Text: MenuText{Label: "Importar planilha", Hint: "Confira cada linha antes de aplicar."}},
	{Path: "/torcida/exportar.csv", Text: MenuText{Label: "Exportar (CSV)", Card: "Exportar cadastro (CSV)", Hint: "Para abrir no Excel."}},
	{Path: "/clube", Text: MenuText{Label: "Lista de impedidos e consulta de CPF", Card: "Lista de impedidos",
		Hint: "Baixe a lista, consulte um CPF, gerencie os tokens do portão."}},
	{Path: "/admin/usuarios", Text: MenuText{Label: "Usuários", Hint: "Crie contas com senha, desative e reative."}},
	{Path: "/admin/papeis", Text: MenuText{Label: "Perfis", Hint: "O que cada perfil pode fazer."}},
	{Path: "/admin/juizados", Text: MenuText{Label: "Juizados e configurações", Hint: "Códigos dos juizados, leitura do § 7º e publicação."}},
	{Path: "/admin/auditoria", Text: MenuText{Label: "Auditoria", Hint: "Quem fez o quê e quando."}},
	{Path: "/admin/datajud", Text: MenuText{Label: "DataJud (CNJ)", Card: "Exportação para o DataJud",
		Hint: "Confira o mês e baixe os processos para o CNJ (JSON ou XML)."}},
	{Path: "/juizado/estatisticas", Text: MenuText{Label: "Estatísticas", Card: "Estatísticas do juizado",
		Hint: "Impedimentos em vigor, novos impedimentos, processos por fase e por clube, tempo até a sentença; com gráficos e planilhas."}},
	{Path: "/impedidos", Text: MenuText{Label: "Lista pública", Hint: "Torcedores impedidos, com filtros."}},
	{Path: "/estatisticas", Text: MenuText{Label: "Estatísticas públicas", Hint: "Os números de qualquer juizado, como o público os vê."}},
}
