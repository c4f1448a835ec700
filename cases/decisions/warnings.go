package decisions

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/sanctions"
)

// PriorPunishmentWarning warns when the person's CPF already has a ban
// decided by sentence under art. 201 of Lei 14.597/2023 (or art. 41-B of
// Lei 10.671/2003, the same conduct before 15/06/2023) in another record:
// art. 201, § 2º (41-B, § 2º), converts the reclusão into a ban only when the
// agent "não ter sido punido anteriormente pela prática de condutas
// previstas neste artigo". It is called only when the judge did not say
// whether the § 2º conditions hold (eligible not given), and changes
// nothing: the eligibility stays the judge's decision (the default remains
// true). Plea agreements (Lei 9.099/1995, art. 76, §§ 4º and 6º: no record,
// no recidivism), suspensions and precautionary bans are not punishments
// and are not listed. rg is the rule applied to this case; "" when it has
// no such condition. tail ends the warning (what the judge is to do).
func (s *Service) PriorPunishmentWarning(ctx context.Context, d cases.Defendant, rg sanctions.Range, tail string) (string, error) {
	if d.CPF == nil || !(strings.HasPrefix(rg.Article, "art. 201") || strings.HasPrefix(rg.Article, "art. 41-B")) {
		return "", nil
	}
	// A conviction under the article, with or without a ban (DOMAIN.md §2
	// "Outcomes"): signed sentences of ban or prison, and the sentence bans
	// recorded before sentences were (still standing: not reformed or
	// annulled).
	var prior []struct {
		Article, Law, Number, Court string
		At                          time.Time
		Final                       bool
	}
	err := db.Conn(ctx, s.DB).Raw(`SELECT article, law, number, court, at, final FROM (
		SELECT s.article, s.law, k.number, k.court_code AS court, s.signed_at AS at, k.status IN ('final', 'executing', 'archived') AS final
		  FROM sentences s JOIN defendants d ON d.id = s.defendant_id JOIN cases k ON k.id = s.case_id
		 WHERE d.cpf = ? AND s.defendant_id <> ? AND s.status = 'signed' AND s.outcome IN ('ban', 'prison')
		   AND (s.article LIKE 'art. 201%' OR s.article LIKE 'art. 41-B%')
		UNION ALL
		SELECT b.article, b.law, b.case_number, b.court_code, b.created_at, b.status <> 'awaiting_final'
		  FROM bans b WHERE b.cpf = ? AND b.defendant_id <> ? AND NOT b.precautionary AND b.source = ? AND b.group_ban_id IS NULL
		   AND b.status IN ('active', 'awaiting_final', 'converted') AND (b.article LIKE 'art. 201%' OR b.article LIKE 'art. 41-B%')
		   AND NOT EXISTS (SELECT 1 FROM sentences s WHERE s.ban_id = b.id)
	) x ORDER BY at, number LIMIT ?`, *d.CPF, d.ID, *d.CPF, d.ID, sanctions.FromSentence, cases.MaxWarnRows).Scan(&prior).Error
	if err != nil || len(prior) == 0 {
		return "", err
	}
	items := make([]string, len(prior))
	for i, p := range prior {
		items[i] = fmt.Sprintf("%s da %s, processo %s (%s), sentença de %s", p.Article, p.Law, cases.FormatNumber(p.Number), p.Court, civil.Today(p.At, s.Loc).BR())
		if !p.Final {
			// Súmula 444 STJ; CF, art. 5º, LVII: a conviction not yet final is
			// no antecedent.
			items[i] += " (ainda sem trânsito em julgado: não é antecedente, Súmula 444 do STJ)"
		}
	}
	return fmt.Sprintf("O CPF %s já foi condenado pelas condutas do art. 201 (ou do art. 41-B): %s. O %s da %s só converte a reclusão em impedimento se o agente for primário, tiver bons antecedentes e não tiver sido punido anteriormente pelas condutas previstas no artigo. %s",
		cases.CPFPT(*d.CPF), strings.Join(items, "; "), rg.Article, rg.Law, tail), nil
}

// PastBanWarning is the warning (Portuguese) for a ban whose last day is
// before today, "" otherwise (or for a nil last day): the ban would lie
// entirely in the past and never be in force (nor reach the blocklist). The
// term is the judge's (DOMAIN.md §3: the system takes the judge's first day
// as given), so it is a warning, not a refusal.
func PastBanWarning(last *civil.Date, today civil.Date) string {
	if last == nil || !last.Before(today) {
		return ""
	}
	return fmt.Sprintf("O impedimento terminaria em %s, antes de hoje (%s): ficaria inteiramente no passado, sem nenhum dia em vigor nem entrada na lista de bloqueio. Confira o primeiro dia e o prazo.", last.BR(), today.BR())
}
