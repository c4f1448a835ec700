package server

import (
	"fmt"

	"github.com/labstack/echo/v4"
)

// PetitionReceipt: GET /api/v1/petitions/:id/receipt.pdf (and the page
// /peticoes/:id/recibo.pdf): the receipt of the petition's protocol with
// its verification code (documents.Service.PetitionReceipt; Lei
// 11.419/2006, art. 10), for the defence user who filed it or the staff of
// the case's court; 404 for anyone else.
func (s *Server) PetitionReceipt(c echo.Context) error {
	id, err := PathID(c, "id")
	if err != nil {
		return err
	}
	doc, err := s.App.Documents.PetitionReceipt(c.Request().Context(), Actor(c), id)
	if err != nil {
		return err
	}
	return SendDocument(c, doc, fmt.Sprintf("recibo-peticao-%d", id))
}
