package pdf

// ReceiptData fills the receipt of a petition's protocol (receipt.tmpl;
// Lei 11.419/2006, art. 10: the electronic filing gives an electronic
// receipt): every value escaped, dates written out, kinds and answers in
// Portuguese.
type ReceiptData struct {
	Court      CourtData
	ID         int64
	CaseNumber string // formatted CNJ number
	Defendant  string
	Kind       string // in Portuguese
	Ground     string // a contest's ground in Portuguese; "" otherwise
	FiledBy    string
	FiledAt    string // "15 de junho de 2023, às 14h05"
	Queue      string // "juiz(a)" or "cartório"
	Status     string // "aguarda resposta", or the answer with its date
	Attachment string // "PDF juntado como prova n.º N"; "" when none
	Late       bool
	EffectNote string
	Text       string
	Answer     string // the answer's text; "" while pending
}
