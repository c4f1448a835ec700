package datajud

import (
	"encoding/json"
	"encoding/xml"
	"time"
)

// Document is a record as DataJud's public API serves it (Res. CNJ
// 331/2020; the JSON Schema in docs/datajud.schema.json): the key (id),
// the number (20 digits), tribunal, grau, nivelSigilo, dataAjuizamento
// and dataHoraUltimaAtualizacao (UTC, milliseconds), the class, sistema,
// formato, the judging unit, the subjects and the national movements.
// Local movements are not in it (the public API's movimentos carry TPU
// codes); the MTD's XML carries them (movimentoLocal).
type Document struct {
	ID                        string          `json:"id"`
	NumeroProcesso            string          `json:"numeroProcesso"`
	Tribunal                  string          `json:"tribunal"`
	Grau                      string          `json:"grau"`
	NivelSigilo               int             `json:"nivelSigilo"`
	DataAjuizamento           string          `json:"dataAjuizamento"`
	DataHoraUltimaAtualizacao string          `json:"dataHoraUltimaAtualizacao"`
	Classe                    CodeName        `json:"classe"`
	Sistema                   CodeName        `json:"sistema"`
	Formato                   CodeName        `json:"formato"`
	OrgaoJulgador             DocumentUnit    `json:"orgaoJulgador"`
	Assuntos                  []CodeName      `json:"assuntos"`
	Movimentos                []DocumentEntry `json:"movimentos"`
}

// DocumentUnit is a document's orgaoJulgador: codigo, nome and
// codigoMunicipioIBGE (7 digits).
type DocumentUnit struct {
	Code int    `json:"codigo"`
	Name string `json:"nome"`
	IBGE int    `json:"codigoMunicipioIBGE"`
}

// DocumentEntry is a national movement of a document: its TPU code and
// name, dataHora (UTC, milliseconds) and complementosTabelados.
type DocumentEntry struct {
	Code        int                  `json:"codigo"`
	Name        string               `json:"nome"`
	At          string               `json:"dataHora"`
	Complements []DocumentComplement `json:"complementosTabelados"`
}

// DocumentComplement is a movement's complement as the public API writes
// it: descricao, the complement's name in the TPU ("tipo de audiência");
// nome, its value ("audiência preliminar"). The TPU's numeric codes of
// complements are not kept by this court and are not written.
type DocumentComplement struct {
	Description string `json:"descricao"`
	Name        string `json:"nome"`
}

// apiTime writes an instant as the public API does (UTC, milliseconds).
func apiTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// Document returns the record as a public API document.
func (r *Record) Document() Document {
	d := Document{ID: r.Key(), NumeroProcesso: r.Number, Tribunal: r.Tribunal, Grau: Degree, NivelSigilo: r.Secrecy,
		DataAjuizamento: apiTime(r.FiledAt), DataHoraUltimaAtualizacao: apiTime(r.LastUpdate),
		Classe: r.Class, Sistema: System, Formato: Format,
		OrgaoJulgador: DocumentUnit{Code: r.Unit.UnitCode, Name: r.Unit.UnitName, IBGE: r.Unit.IBGEMunicipality},
		Assuntos:      r.Subjects, Movimentos: []DocumentEntry{}}
	for _, m := range r.Movements {
		if m.National == 0 {
			continue
		}
		e := DocumentEntry{Code: m.National, Name: m.Name, At: apiTime(m.At), Complements: []DocumentComplement{}}
		for _, c := range m.Complements {
			e.Complements = append(e.Complements, DocumentComplement{Description: c.Name, Name: c.Value})
		}
		d.Movimentos = append(d.Movimentos, e)
	}
	return d
}

// JSON writes the record's public API document.
func (r *Record) JSON() ([]byte, error) { return json.Marshal(r.Document()) }

// Process is a record as the MTD's XML writes it (Res. CNJ 331/2020, the
// Modelo de Transferência de Dados on the MNI's intercomunicacao types):
// processo with siglaTribunal and grau, its dadosBasicos and each
// movimento.
type Process struct {
	XMLName   xml.Name      `xml:"processo"`
	Tribunal  string        `xml:"siglaTribunal,attr"`
	Degree    string        `xml:"grau,attr"`
	Header    Header        `xml:"dadosBasicos"`
	Movements []XMLMovement `xml:"movimento"`
}

// Header is the MTD's dadosBasicos: numero, classeProcessual,
// codigoLocalidade (the IBGE municipality), nivelSigilo, dataAjuizamento
// (AAAAMMDDHHMMSS, the court's time); each polo, assunto and the
// orgaoJulgador.
type Header struct {
	Number   string       `xml:"numero,attr"`
	Class    int          `xml:"classeProcessual,attr"`
	Locality int          `xml:"codigoLocalidade,attr"`
	Secrecy  int          `xml:"nivelSigilo,attr"`
	FiledAt  string       `xml:"dataAjuizamento,attr"`
	Poles    []XMLPole    `xml:"polo"`
	Subjects []XMLSubject `xml:"assunto"`
	Unit     XMLUnit      `xml:"orgaoJulgador"`
}

// XMLPole is a polo ("AT" or "PA") with its parts.
type XMLPole struct {
	Pole    string    `xml:"polo,attr"`
	Parties []XMLPart `xml:"parte"`
}

// XMLPart is a parte and its pessoa.
type XMLPart struct {
	Person XMLPerson `xml:"pessoa"`
}

// XMLPerson is a pessoa: nome, tipoPessoa and numeroDocumentoPrincipal
// (CPF or CNPJ digits; absent when unknown or under secrecy).
type XMLPerson struct {
	Name     string `xml:"nome,attr"`
	Kind     string `xml:"tipoPessoa,attr"`
	Document string `xml:"numeroDocumentoPrincipal,attr,omitempty"`
}

// XMLSubject is an assunto: principal (the first) and its codigoNacional.
type XMLSubject struct {
	Main bool `xml:"principal,attr"`
	Code int  `xml:"codigoNacional"`
}

// XMLUnit is the orgaoJulgador: codigoOrgao, nomeOrgao, instancia and
// codigoMunicipioIBGE.
type XMLUnit struct {
	Code     int    `xml:"codigoOrgao,attr"`
	Name     string `xml:"nomeOrgao,attr"`
	Instance string `xml:"instancia,attr"`
	IBGE     int    `xml:"codigoMunicipioIBGE,attr"`
}

// XMLMovement is a movimento: dataHora (AAAAMMDDHHMMSS, the court's time)
// and either movimentoNacional or movimentoLocal.
type XMLMovement struct {
	At       string       `xml:"dataHora,attr"`
	National *XMLNational `xml:"movimentoNacional"`
	Local    *XMLLocal    `xml:"movimentoLocal"`
}

// XMLNational is a movimentoNacional: codigoNacional and its complements.
type XMLNational struct {
	Code        int             `xml:"codigoNacional,attr"`
	Complements []XMLComplement `xml:"complemento"`
}

// XMLLocal is a movimentoLocal: codigoMovimento (LocalMovements),
// descricao (its label) and its complements.
type XMLLocal struct {
	Code        int             `xml:"codigoMovimento,attr"`
	Description string          `xml:"descricao,attr"`
	Complements []XMLComplement `xml:"complemento"`
}

// XMLComplement is a complemento: descricaoComplemento (the TPU's name of
// the complement) and its value as text.
type XMLComplement struct {
	Name  string `xml:"descricaoComplemento,attr"`
	Value string `xml:",chardata"`
}

// mtdTime writes an instant as the MNI does: AAAAMMDDHHMMSS in loc.
func mtdTime(t time.Time, loc *time.Location) string { return t.In(loc).Format("20060102150405") }

// Process returns the record as the MTD's processo, times in loc.
func (r *Record) Process(loc *time.Location) Process {
	h := Header{Number: r.Number, Class: r.Class.Code, Locality: r.Unit.IBGEMunicipality, Secrecy: r.Secrecy,
		FiledAt: mtdTime(r.FiledAt, loc),
		Unit:    XMLUnit{Code: r.Unit.UnitCode, Name: r.Unit.UnitName, Instance: Instance, IBGE: r.Unit.IBGEMunicipality}}
	for _, pole := range []string{"AT", "PA"} {
		p := XMLPole{Pole: pole}
		for _, pt := range r.Parties {
			if pt.Pole == pole {
				p.Parties = append(p.Parties, XMLPart{Person: XMLPerson{Name: pt.Name, Kind: pt.Kind, Document: pt.Document}})
			}
		}
		if len(p.Parties) > 0 {
			h.Poles = append(h.Poles, p)
		}
	}
	for i, s := range r.Subjects {
		h.Subjects = append(h.Subjects, XMLSubject{Main: i == 0, Code: s.Code})
	}
	out := Process{Tribunal: r.Tribunal, Degree: Degree, Header: h}
	for _, m := range r.Movements {
		var comps []XMLComplement
		for _, c := range m.Complements {
			comps = append(comps, XMLComplement{Name: c.Name, Value: c.Value})
		}
		x := XMLMovement{At: mtdTime(m.At, loc)}
		if m.National != 0 {
			x.National = &XMLNational{Code: m.National, Complements: comps}
		} else {
			x.Local = &XMLLocal{Code: m.Local, Description: m.Name, Complements: comps}
		}
		out.Movements = append(out.Movements, x)
	}
	return out
}
