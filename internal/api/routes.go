package api

import (
	"net/http"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/pdf"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/registry"
)

// Every route of the JSON API with its permission (server.Perm): Anyone,
// or Policy, which leaves the decision to the Casbin policy
// (internal/authz/policy.csv) by the route's template and method. Routes
// that take more than 2 MB say so (server.MaxBody). ../shared/API.md is
// the contract; openapi.json describes the same routes.

// Routes registers the API's routes on the server core's Echo.
func (s *API) Routes() {
	anyone, policy := server.Anyone, server.Policy
	root := s.Router("")
	root.GET("/api/v1/openapi.json", anyone, s.openapi)
	r := s.Router("/api/v1")

	// Cases (cases.go), sentences (sentences.go), the case workflow (workflow.go), hearings (hearings.go), holidays (holidays.go) and evidence (evidence.go).
	r.POST("/cases", policy, s.fileCase)
	r.GET("/cases", policy, s.listCases)
	r.GET("/cases/:id", policy, s.getCase)
	r.GET("/cases/by-number/:number", policy, s.caseByNumber)
	r.POST("/cases/:id/sentence", policy, s.sentence)
	r.POST("/cases/:id/sentence/sign", policy, s.signDraft)
	r.POST("/cases/:id/appeal-result", policy, s.appealResult)
	r.POST("/cases/:id/embargos", policy, s.fileEmbargos)
	r.POST("/embargos/:id/ruling", policy, s.ruleEmbargos)
	r.POST("/cases/:id/transitions", policy, s.transition)
	r.POST("/cases/:id/movements", policy, s.addMovement)
	r.PUT("/cases/:id/classification", policy, s.reclassify)
	r.POST("/cases/:id/evidence", policy, s.addEvidence, server.MaxBody(cases.MaxEvidenceBytes+server.MultipartSlack))
	r.GET("/cases/:id/evidence", policy, s.listEvidence)
	r.GET("/evidence/:id", policy, s.Evidence)
	r.POST("/cases/:id/hearings", policy, s.scheduleHearing)
	r.GET("/hearings", policy, s.calendar)
	r.POST("/hearings/:id/redesignate", policy, s.redesignateHearing)
	r.POST("/hearings/:id/cancel", policy, s.cancelHearing)
	r.POST("/hearings/:id/result", policy, s.hearingResult)
	r.GET("/desk", policy, s.desk)
	r.POST("/cases/:id/plea", policy, s.offerPlea)
	r.POST("/cases/:id/plea/homologate", policy, s.homologate)
	r.POST("/cases/:id/suspension", policy, s.suspend)
	r.POST("/cases/:id/settlement", policy, s.settle)
	r.POST("/cases/:id/notifications", policy, s.notify)
	r.PUT("/cases/:id/defendants/:defendant_id/group", policy, s.linkGroup)
	r.PUT("/cases/:id/defendants/:defendant_id/cpf", policy, s.identify)
	// The defence (counsel.go): representation records and requests.
	r.PUT("/cases/:id/defendants/:defendant_id/counsel", policy, s.linkCounsel)
	r.Add(http.MethodDelete, "/cases/:id/defendants/:defendant_id/counsel", policy, s.unlinkCounsel)
	r.POST("/counsel-requests", policy, s.requestCounsel, server.MaxBody(cases.MaxEvidenceBytes+server.MultipartSlack))
	r.GET("/counsel-requests", policy, s.counselRequests)
	r.POST("/counsel-requests/:id/approve", policy, s.decideCounsel(true))
	r.POST("/counsel-requests/:id/refuse", policy, s.decideCounsel(false))
	r.GET("/defence/notices", policy, s.defenceNotices)
	r.POST("/defence/notices/:id/open", policy, s.openNotice)
	// The defence's petitions and their answers (petitions.go).
	r.POST("/cases/:id/petitions", policy, s.filePetition, server.MaxBody(cases.MaxEvidenceBytes+server.MultipartSlack))
	r.GET("/petitions", policy, s.listPetitions)
	r.POST("/petitions/:id/answer", policy, s.answerPetition)
	r.GET("/petitions/:id/receipt.pdf", policy, s.PetitionReceipt)
	r.POST("/holidays", policy, s.addHoliday)
	r.GET("/holidays", policy, s.holidays)
	r.Add(http.MethodDelete, "/holidays/:id", policy, s.removeHoliday)

	// The public list and the blocklist (public.go, blocklist.go).
	r.GET("/public/banned", anyone, s.publicBanned)
	r.POST("/public/contests", anyone, s.publicContest)
	r.GET("/blocklist", policy, s.blocklist)
	r.GET("/blocklist/changes", policy, s.blocklistChanges)
	r.GET("/blocklist/key", anyone, s.blocklistKey)
	r.GET("/blocklist/check/:cpf", policy, s.blocklistCheck)
	r.POST("/blocklist/checks", policy, s.blocklistChecksUpload)
	r.GET("/blocklist/awaiting-identification", policy, s.awaitingIdentification)
	r.GET("/register-corrections", policy, s.registerCorrections)
	r.POST("/register-corrections/:id/carry", policy, s.carryRegisterCorrection)

	// The court's statistics (statistics.go): aggregates only.
	r.GET("/statistics", anyone, s.statistics)

	// The CNJ's unified tables (tpu.go).
	r.GET("/tpu", policy, s.tpuTable)

	// The bans' BNMP mandates (bnmp.go; Res. CNJ 417/2021).
	r.GET("/bnmp/mandates", policy, s.mandates)
	r.GET("/bnmp/mandates/:id", policy, s.mandate)
	r.POST("/bnmp/mandates/:id/registered", policy, s.registerMandate)

	// The law's ranges, terms and deadlines (legal.go).
	r.GET("/legal/ban-range", anyone, s.banRange)
	r.GET("/legal/ban-term", anyone, s.banTerm)
	r.GET("/legal/deadline", anyone, s.legalDeadline)

	// Bans after the sentence (bans.go) and the match schedule (matches.go).
	r.GET("/bans/:id/reporting-windows", policy, s.reportingWindows)
	r.POST("/bans/:id/breaches", policy, s.recordBreach)
	r.POST("/bans/:id/lift", policy, s.liftBan)
	r.POST("/bans/:id/extend", policy, s.extendBan)
	r.POST("/bans/:id/renew", policy, s.renewBan)
	r.POST("/bans/:id/correct", policy, s.correctBan)
	r.POST("/bans/:id/credit", policy, s.creditBan)
	r.POST("/breaches/:id/decision", policy, s.decideBreach)
	r.POST("/matches/import", policy, s.importMatches)

	// The venue table (venues.go): public stadium names, which gate agents
	// compare their configured venues with.
	r.GET("/venues", anyone, s.venues)

	// Fan groups (groups.go) and their member registers (members.go).
	g := s.Groups
	r.POST("/groups", policy, g.createGroup)
	r.GET("/groups", policy, g.listGroups)
	r.GET("/groups/:id", policy, g.getGroup)
	r.GET("/groups/:id/members", policy, g.listMembers)
	r.POST("/groups/:id/members", policy, g.addMember)
	r.POST("/groups/:id/members/import", policy, g.importMembers, server.MaxBody(registry.MaxImportBytes))
	r.GET("/groups/:id/members/export", policy, g.exportMembers)
	r.GET("/members/:id", policy, g.getMember)
	r.PATCH("/members/:id", policy, g.patchMember)
	r.POST("/members/:id/leave", policy, g.leave)
	r.POST("/members/:id/rejoin", policy, g.rejoin)
	r.PUT("/members/:id/photo", policy, g.putPhoto, server.MaxBody(registry.MaxPhotoBytes))
	r.GET("/members/:id/photo", policy, s.MemberPhoto)

	// The audit trail (audit.go).
	r.GET("/audit", policy, s.auditList)

	// Court documents (documents.go): the staff's PDFs, the public poster
	// and the public verification of a document's code.
	d := s.Docs
	root.GET("/verificar/:code", anyone, d.verify)
	root.POST("/verificar/:code", anyone, d.compare)
	root.GET("/impedidos.pdf", anyone, d.poster)
	for _, k := range []pdf.Kind{pdf.KindSentence, pdf.KindNotice, pdf.KindLetter, pdf.KindSummary, pdf.KindFinal} {
		r.GET("/cases/:id/documents/"+string(k)+".pdf", policy, s.CaseDocument(k))
	}
	r.GET("/cases/:id/sentence/draft.pdf", policy, s.SentenceDraft)
	r.GET("/certificates/:cpf", policy, d.certificate)
}
