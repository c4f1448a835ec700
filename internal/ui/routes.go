package ui

import (
	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/pdf"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/registry"
)

// Every page with its permission (server.Perm): Anyone, or Policy, which
// leaves the decision to the Casbin policy (internal/authz/policy.csv) by
// the route's template and method, as for the JSON API; a signed-in user
// the policy refuses gets a 403 page, nobody signed in goes to /entrar
// (server.authorize). Forms that take files declare their body limit
// (server.MaxBody; the session middleware applies it).

// Routes registers the pages on the server core's Echo.
func (s *UI) Routes() {
	anyone, policy := server.Anyone, server.Policy
	r := s.Router("")

	// Public pages: the address people open first, the list of people
	// banned, the form of a document's verification, signing in and out
	// (public_list.go, verify_form.go, sign_in.go).
	r.GET("/", anyone, s.home)
	r.GET("/impedidos", anyone, s.publicPage)
	r.GET("/entrar", anyone, s.loginForm)
	r.POST("/entrar", anyone, s.login)
	r.POST("/sair", anyone, s.logout)
	r.GET("/verificar", anyone, s.verifyForm)
	r.GET("/impugnacao", anyone, s.contestForm)
	r.POST("/impugnacao", anyone, s.contestPage)
	// The court's statistics (statistics.go): any court for anyone, the
	// staff's own court; each figure's table as a CSV.
	r.GET("/estatisticas", anyone, s.statisticsPage(true))
	r.GET("/estatisticas.csv", anyone, s.statisticsCSV(true))
	r.GET("/juizado/estatisticas", policy, s.statisticsPage(false))
	r.GET("/juizado/estatisticas.csv", policy, s.statisticsCSV(false))
	r.GET("/favicon.svg", anyone, s.favicon)
	r.GET("/favicon.ico", anyone, s.favicon)
	r.GET("/painel", policy, s.panel)
	// The defence's electronic notices (defence_notices.go; Lei 11.419/2006, art. 5º).
	r.GET("/intimacoes", policy, s.noticesPage)
	r.GET("/mandados", policy, s.mandatesPage)
	r.POST("/mandados/:id/registro", policy, s.registerMandatePage)
	r.GET("/mandados/:id", policy, s.pageDownload(s.mandateDocument))
	r.POST("/intimacoes/:id/abrir", policy, s.openNoticePage)

	// Cases: the list, filing, the case page and its forms
	// (list_cases.go, file_case.go, show_case.go, case_party_forms.go),
	// the sentence (sentence.go), the court's decisions (case_decisions.go,
	// ban_decisions.go), distribution, hearings and holidays
	// (distribute_cases.go, list_hearings.go, manage_holidays.go).
	r.GET("/processos", policy, s.casesPage)
	r.GET("/processos/novo", policy, s.fileForm)
	r.POST("/processos", policy, s.filePage, server.MaxBody(3*cases.MaxEvidenceBytes+server.MultipartSlack))
	r.GET("/processos/:id", policy, s.casePage)
	r.POST("/processos/:id/provas", policy, s.evidencePage, server.MaxBody(cases.MaxEvidenceBytes+server.MultipartSlack))
	r.GET("/provas/:id", policy, s.pageDownload(s.Evidence))
	r.POST("/processos/:id/acordo", policy, s.pleaPage)
	r.POST("/processos/:id/descumprimento", policy, s.breachPage)
	r.POST("/processos/:id/movimentos", policy, s.movementPage)
	r.POST("/processos/:id/audiencias", policy, s.hearingPage)
	r.POST("/processos/:id/audiencias/redesignacao", policy, s.redesignatePage)
	r.POST("/processos/:id/audiencias/cancelamento", policy, s.cancelHearingPage)
	r.POST("/processos/:id/audiencias/resultado", policy, s.hearingResultPage)
	r.POST("/processos/:id/andamento", policy, s.transitionPage)
	r.GET("/processos/:id/sentenca", policy, s.sentenceForm)
	r.POST("/processos/:id/sentenca", policy, s.sentencePage)
	for _, k := range []struct {
		kind pdf.Kind
		name string
	}{{pdf.KindSentence, "sentenca"}, {pdf.KindNotice, "intimacao"}, {pdf.KindLetter, "oficio"}, {pdf.KindSummary, "resumo"}, {pdf.KindFinal, "certidao-transito"}} {
		r.GET("/processos/:id/"+k.name+".pdf", policy, s.pageDownload(s.CaseDocument(k.kind)))
	}
	// The minuta's preview for the judge's session (the API's draft.pdf takes a token).
	r.GET("/processos/:id/minuta.pdf", policy, s.pageDownload(s.SentenceDraft))
	r.GET("/distribuicao", policy, s.distributionPage)
	r.POST("/distribuicao", policy, s.distributePending)
	r.GET("/audiencias", policy, s.hearingsPage)
	r.POST("/processos/:id/revogacao", policy, s.liftPage)
	r.POST("/processos/:id/renovacao", policy, s.renewPage)
	r.POST("/processos/:id/correcao", policy, s.correctPage)
	r.POST("/processos/:id/detracao", policy, s.creditPage)
	r.POST("/processos/:id/homologacao", policy, s.homologatePage)
	r.POST("/processos/:id/suspensao", policy, s.suspendPage)
	r.POST("/processos/:id/intimacoes", policy, s.notifyPage)
	r.POST("/processos/:id/cautelar", policy, s.precautionaryPage)
	r.POST("/processos/:id/recurso", policy, s.appealResultPage)
	r.POST("/processos/:id/embargos", policy, s.embargosPage)
	r.POST("/processos/:id/embargos/decisao", policy, s.embargosRulingPage)
	r.POST("/processos/:id/torcida", policy, s.linkGroupPage)
	r.POST("/processos/:id/identificacao", policy, s.identifyPage)
	r.POST("/processos/:id/cpf-cadastro", policy, s.carryRegisterCPFPage)
	// The defence's petitions and their answers (petitions.go).
	r.GET("/peticoes", policy, s.petitionsPage)
	r.POST("/peticoes", policy, s.filePetitionPage, server.MaxBody(cases.MaxEvidenceBytes+server.MultipartSlack))
	r.POST("/peticoes/:id/resposta", policy, s.answerPetitionPage)
	r.GET("/peticoes/:id/recibo.pdf", policy, s.pageDownload(s.PetitionReceipt))
	r.GET("/feriados", policy, s.holidaysPage)
	r.POST("/feriados", policy, s.addHolidayPage)
	r.POST("/feriados/:id/excluir", policy, s.removeHolidayPage)

	// The fan group's register (group_register.go, group_import.go).
	h := &groupPagesH{s: s, svc: s.App.Groups}
	r.GET("/torcida", policy, h.register)
	r.POST("/torcida/associados", policy, h.add)
	r.GET("/associados/:id", policy, h.member)
	r.POST("/associados/:id", policy, h.edit)
	r.POST("/associados/:id/saida", policy, h.leave)
	r.POST("/associados/:id/retorno", policy, h.rejoin)
	r.POST("/associados/:id/foto", policy, h.photo, server.MaxBody(registry.MaxPhotoBytes+server.MultipartSlack))
	r.GET("/associados/:id/foto", policy, s.pageDownload(s.MemberPhoto))
	r.GET("/torcida/importar", policy, h.importForm)
	r.GET("/torcida/modelo.csv", policy, h.importModel)
	r.POST("/torcida/importar", policy, h.preview, server.MaxBody(registry.MaxImportBytes+server.MultipartSlack))
	r.POST("/torcida/importar/aplicar", policy, h.apply, server.MaxBody(registry.MaxImportBytes*4/3+server.MultipartSlack))
	r.GET("/torcida/exportar.csv", policy, h.export)

	// The club's blocklist page and gate tokens (club_blocklist.go, club_tokens.go).
	r.GET("/clube", policy, s.clubPage)
	r.GET("/clube/lista.csv", policy, s.clubDownload("csv"))
	r.GET("/clube/lista.json", policy, s.clubDownload("json"))
	r.GET("/clube/foto/:id", policy, s.clubPhoto)
	r.POST("/clube/tokens", policy, s.clubNewToken)
	r.POST("/clube/tokens/:id/revogar", policy, s.clubRevokeToken)

	// Administration (admin_users.go, admin_roles.go, admin_courts.go, admin_audit.go).
	r.GET("/admin/usuarios", policy, s.usersPage)
	r.POST("/admin/usuarios", policy, s.createUserPage)
	r.POST("/admin/usuarios/:id/desativar", policy, s.setUserDisabled(true))
	r.POST("/admin/usuarios/:id/ativar", policy, s.setUserDisabled(false))
	r.POST("/admin/usuarios/:id/senha", policy, s.resetPasswordPage)
	r.GET("/admin/papeis", policy, s.rolesPage)
	r.GET("/admin/juizados", policy, s.courtsPage)
	r.POST("/admin/juizados/configuracao", policy, s.courtSettingsPage)
	r.GET("/admin/auditoria", policy, s.auditPage)
	// The DataJud export (admin_datajud.go; Res. CNJ 331/2020).
	r.GET("/admin/datajud", policy, s.dataJudPage)
	r.GET("/admin/datajud/exportacao", policy, s.dataJudDownload)
}
